"""The record from the event's broadcast (issue 21, item 4): its live games, read on the side.

An event may name a source (``events.broadcast``, migration 0010; ``adjudicator events set SLUG
--broadcast SOURCE``):

- a **folder** on the server, such as DGT LiveChess's "Export to local filesystem" with one PGN
  per round, rewritten as moves arrive: every ``.pgn`` (checkers: ``.pdn``) file in it and in its
  subfolders one level down, or a single game file (:mod:`web.broadcast.files`), re-read only when its
  modification time or size changed;
- an **http(s) URL** polled for a PGN, as lichess broadcasts poll theirs: asked again with the
  ETag and Last-Modified it last gave (``If-None-Match`` / ``If-Modified-Since``), so an
  unchanged file costs a ``304``. Only at public addresses, each redirect checked again, unless the
  operator allows a network (:mod:`web.broadcast.guard`, issue 39).

Reading is bounded and never makes a request wait: :meth:`Broadcasts.look` answers at once with
the last copy, and when that copy is older than ``ttl_seconds`` it starts one reading in the
background (never two of the same source at once). A reading gives up after ``timeout_seconds``
or ``max_bytes``; a source that is slow, down or too big keeps its last copy, and the
:class:`Snapshot` says what went wrong and when. A claim never touches a source.

Settings: ``[web.broadcast]`` in config.toml, overridden by the Flask setting ``BROADCAST``.
"""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import current_app, has_app_context

from web.broadcast.files import NoGameFiles, game_files
from web.broadcast.guard import AddressRefused, guarded_opener, host_refusal, networks_of

SUFFIXES = {"chess": (".pgn",), "checkers": (".pdn", ".pgn")}
DEFAULTS: dict[str, Any] = {"timeout_seconds": 5.0, "max_bytes": 5_000_000, "ttl_seconds": 10.0, "max_files": 64,
                            "allowed_networks": []}


class BroadcastError(OSError):
    """A source that cannot be read now (its words say why, for the TD)."""


def source_problem(source: str) -> str | None:
    """Why ``source`` cannot be an event's broadcast (None: it can): an absolute folder path or an http(s) URL."""
    if not source or len(source) > 1000 or any(ord(c) < 32 for c in source):
        return "broadcast must be a folder's absolute path or an http(s) URL of at most 1000 characters"
    if source.startswith(("http://", "https://")):
        return None if source.split("://", 1)[1].split("/", 1)[0] else "the URL names no host"
    if source.startswith("/"):
        return None
    return "broadcast must be a folder's absolute path (/...) or an http(s) URL"


@dataclass(frozen=True)
class Copy:
    """The files of a source as last read in full: (name, text) in name order, and when."""

    files: tuple[tuple[str, str], ...]
    read_at: float


@dataclass(frozen=True)
class Snapshot:
    """What is known of a source now: the last copy (None before the first good reading), the
    last reading's problem and when it failed, and whether a reading is under way."""

    source: str
    copy: Copy | None
    problem: str | None
    problem_at: float | None
    is_reading: bool
    checked_at: float | None


@dataclass
class _State:
    copy: Copy | None = None
    problem: str | None = None
    problem_at: float | None = None
    checked_at: float | None = None
    is_reading: bool = False
    again: bool = False
    """Read once more when the reading under way ends (the TD asked meanwhile)."""
    etag: str | None = None
    modified: str | None = None
    stamps: dict[str, tuple[int, int]] = field(default_factory=dict)


class Broadcasts:
    """Every source's last copy, read in background threads (one per source at a time)."""

    def __init__(self, settings: Mapping[str, Any] | None = None) -> None:
        table = {**DEFAULTS, **(settings or {})}
        self.timeout = float(table["timeout_seconds"])
        self.max_bytes = int(table["max_bytes"])
        self.ttl = float(table["ttl_seconds"])
        self.max_files = int(table["max_files"])
        self.allowed = networks_of(table["allowed_networks"])
        self._opener = guarded_opener(self.allowed)
        self._lock = threading.Lock()
        self._states: dict[tuple[str, str], _State] = {}

    def look(self, source: str, game: str = "chess", *, fresh: bool = False) -> Snapshot:
        """The source as last read, at once; a reading starts in the background when the copy is stale,
        or when ``fresh`` (the TD asks: then also once more after a reading under way, which may have
        started before the change the TD expects)."""
        key = (source, game)
        now = time.time()
        with self._lock:
            state = self._states.setdefault(key, _State())
            stale = state.checked_at is None or now - state.checked_at >= self.ttl
            due = not state.is_reading and (stale or fresh)
            if fresh and state.is_reading:
                state.again = True
            if due:
                state.is_reading = True
            snapshot = self._snapshot(source, state)
        if due:
            self._start(key)
        return snapshot

    def _start(self, key: tuple[str, str]) -> None:
        threading.Thread(target=self._read, args=(key,), name="broadcast-read", daemon=True).start()

    def refresh(self, source: str, game: str = "chess") -> Snapshot:
        """Read the source now, in this thread (the command line, tests); the snapshot after it."""
        key = (source, game)
        with self._lock:
            state = self._states.setdefault(key, _State())
            if state.is_reading:
                return self._snapshot(source, state)
            state.is_reading = True
        self._read(key)
        with self._lock:
            return self._snapshot(source, self._states[key])

    @staticmethod
    def _snapshot(source: str, state: _State) -> Snapshot:
        return Snapshot(source, state.copy, state.problem, state.problem_at, state.is_reading, state.checked_at)

    def _read(self, key: tuple[str, str]) -> None:
        source, game = key
        with self._lock:
            state = self._states[key]
            etag, modified, stamps, copy = state.etag, state.modified, dict(state.stamps), state.copy
        try:
            if source.startswith(("http://", "https://")):
                files, etag, modified = self._fetch(source, etag, modified, copy)
            else:
                files, stamps = self._scan(Path(source), SUFFIXES.get(game, (".pgn",)), stamps, copy)
            problem = None
        except BroadcastError as exc:
            files, problem = None, str(exc)
        except Exception as exc:
            files, problem = None, f"it could not be read ({type(exc).__name__})"
        now = time.time()
        with self._lock:
            state = self._states[key]
            state.checked_at = now
            if files is None:
                state.problem, state.problem_at = problem, now
            else:
                state.problem = state.problem_at = None
                state.copy, state.etag, state.modified, state.stamps = Copy(files, now), etag, modified, stamps
            again, state.again = state.again, False
            state.is_reading = again
        if again:
            self._start(key)

    def _fetch(self, url: str, etag: str | None, modified: str | None,
               copy: Copy | None) -> tuple[tuple[tuple[str, str], ...], str | None, str | None]:
        headers = {"User-Agent": "arbiters-assistant (claim form broadcast)", "Accept": "application/x-chess-pgn, */*"}
        if copy is not None and etag:
            headers["If-None-Match"] = etag
        if copy is not None and modified:
            headers["If-Modified-Since"] = modified
        deadline = time.monotonic() + self.timeout
        request = urllib.request.Request(url, headers=headers)
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                chunks: list[bytes] = []
                size = 0
                while True:
                    if time.monotonic() > deadline:
                        raise BroadcastError(f"it did not arrive in full within {self.timeout:g} s")
                    chunk = response.read1(65536)
                    if not chunk:
                        break
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise BroadcastError(f"it is larger than {self.max_bytes / 1_000_000:g} MB")
                    chunks.append(chunk)
                return ((url, _decode(b"".join(chunks))),), response.headers.get("ETag"), \
                    response.headers.get("Last-Modified")
        except urllib.error.HTTPError as exc:
            if exc.code == 304 and copy is not None:
                return copy.files, etag, modified
            raise BroadcastError(f"its server answered {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, AddressRefused):
                raise BroadcastError(str(reason)) from None
            if isinstance(reason, TimeoutError) or "timed out" in str(reason):
                raise BroadcastError(f"no answer within {self.timeout:g} s") from None
            why = getattr(reason, "strerror", None) or str(reason)
            raise BroadcastError(f"it cannot be reached ({why})") from None
        except TimeoutError:
            raise BroadcastError(f"no answer within {self.timeout:g} s") from None

    def _scan(self, folder: Path, suffixes: tuple[str, ...], stamps: dict[str, tuple[int, int]],
              copy: Copy | None) -> tuple[tuple[tuple[str, str], ...], dict[str, tuple[int, int]]]:
        try:
            folder, found = game_files(folder, suffixes)
        except NoGameFiles as exc:
            raise BroadcastError(str(exc)) from None
        if len(found) > self.max_files:
            raise BroadcastError(f"the folder holds more than {self.max_files} game files")
        old = dict(copy.files) if copy is not None else {}
        files: list[tuple[str, str]] = []
        new_stamps: dict[str, tuple[int, int]] = {}
        for path in found:
            name = str(path.relative_to(folder))
            info = path.stat()
            stamp = (info.st_mtime_ns, info.st_size)
            if stamps.get(name) == stamp and name in old:
                text = old[name]
            else:
                if info.st_size > self.max_bytes:
                    raise BroadcastError(f"{name} is larger than {self.max_bytes / 1_000_000:g} MB")
                with open(path, "rb") as handle:
                    text = _decode(handle.read(self.max_bytes + 1))
            files.append((name, text))
            new_stamps[name] = stamp
        return tuple(files), new_stamps


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def broadcasts() -> Broadcasts:
    found: Broadcasts = current_app.extensions["broadcasts"]
    return found


def url_refusal(source: str) -> str | None:
    """Why an organiser may not set ``source`` as it is written (a URL at a loopback, private or link-local
    address, or ``localhost``), with the app's allowed networks; None for a folder or a public URL. Names are
    checked again at each connection (:mod:`web.broadcast.guard`)."""
    if not source.startswith(("http://", "https://")):
        return None
    allowed = broadcasts().allowed if has_app_context() and "broadcasts" in current_app.extensions else ()
    return host_refusal(source, allowed)


__all__ = ["BroadcastError", "Broadcasts", "Copy", "Snapshot", "broadcasts", "source_problem",
           "url_refusal"]
