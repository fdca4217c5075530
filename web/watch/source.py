"""Reading a live round's source copy after copy, as the arbiter's watch needs it (docs/watch.md).

- A **folder** (DGT LiveChess "export to local filesystem": one PGN per round, or ``game-N.pgn`` per board in a
  folder per round, rewritten in place): every ``.pgn`` (checkers: ``.pdn`` and ``.pgn``) file in it and in its
  subfolders one level down, or a **single game file** (:mod:`web.broadcast.files`); a file is read again only
  when its modification time or size changed.
- An **http(s) URL** (a lichess broadcast round's PGN): asked again with the ETag and Last-Modified it last gave
  (``If-None-Match`` / ``If-Modified-Since``); a ``304`` reuses the last copy.

A source that cannot be read raises :class:`SourceError`; the caller backs off (:func:`backoff`).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.watch import SourceFile
from web.broadcast.files import NoGameFiles, game_files
from web.broadcast.guard import AddressRefused

SUFFIXES = {"chess": (".pgn",), "checkers": (".pdn", ".pgn")}


class SourceError(OSError):
    """The source cannot be read now; the words say why, for the arbiter."""


def backoff(failures: int, interval: float) -> float:
    """Seconds to wait after ``failures`` failures in a row: the interval, doubled each time, from 10 s up to
    60 s after repeated failures (as lila polls its broadcasts)."""
    if failures <= 0:
        return interval
    return min(60.0, max(interval, 10.0 if failures > 1 else interval) * 2.0 ** (failures - 1))


@dataclass
class Source:
    """One source and what is needed to read it again cheaply."""

    location: str
    game: str = "chess"
    timeout: float = 5.0
    max_bytes: int = 20_000_000
    etag: str | None = None
    modified: str | None = None
    stamps: dict[str, tuple[int, int]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    requests: int = 0
    not_modified: int = 0
    opener: urllib.request.OpenerDirector | None = None
    """How URLs are opened: the web's watch passes the broadcast's guarded opener (public addresses and the
    operator's allowed networks only: :mod:`web.broadcast.guard`); the operator's command line reads any."""

    @property
    def is_url(self) -> bool:
        return self.location.startswith(("http://", "https://"))

    def read(self) -> list[SourceFile]:
        """The source's files now (:raises SourceError: it cannot be read)."""
        if self.is_url:
            self._fetch()
        else:
            self._scan()
        return [SourceFile(name, text) for name, text in sorted(self.files.items())]

    def _fetch(self) -> None:
        headers = {"User-Agent": "arbiters-assistant (watch)", "Accept": "application/x-chess-pgn, */*"}
        if self.files and self.etag:
            headers["If-None-Match"] = self.etag
        if self.files and self.modified:
            headers["If-Modified-Since"] = self.modified
        self.requests += 1
        request = urllib.request.Request(self.location, headers=headers)
        try:
            opened = self.opener.open if self.opener is not None else urllib.request.urlopen
            with opened(request, timeout=self.timeout) as response:
                data = response.read(self.max_bytes + 1)
                if len(data) > self.max_bytes:
                    raise SourceError(f"it is larger than {self.max_bytes / 1_000_000:g} MB")
                self.files = {self.location: _decode(data)}
                self.etag = response.headers.get("ETag")
                self.modified = response.headers.get("Last-Modified")
        except urllib.error.HTTPError as exc:
            if exc.code == 304 and self.files:
                self.not_modified += 1
                return
            raise SourceError(f"its server answered {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, AddressRefused):
                raise SourceError(str(exc.reason)) from None
            why = getattr(exc.reason, "strerror", None) or str(exc.reason)
            raise SourceError(f"it cannot be reached ({why})") from None
        except (TimeoutError, ConnectionError) as exc:
            raise SourceError(f"no answer within {self.timeout:g} s ({type(exc).__name__})") from None

    def _scan(self) -> None:
        try:
            folder, found = game_files(Path(self.location), SUFFIXES.get(self.game, (".pgn",)))
        except NoGameFiles as exc:
            raise SourceError(str(exc)) from None
        files: dict[str, str] = {}
        stamps: dict[str, tuple[int, int]] = {}
        for path in found:
            name = str(path.relative_to(folder))
            try:
                info = path.stat()
                stamp = (info.st_mtime_ns, info.st_size)
                if self.stamps.get(name) == stamp and name in self.files:
                    files[name] = self.files[name]
                else:
                    with open(path, "rb") as handle:
                        files[name] = _decode(handle.read(self.max_bytes + 1))
            except FileNotFoundError:
                continue  # replaced while listed: read next time
            stamps[name] = stamp
        self.files, self.stamps = files, stamps


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
