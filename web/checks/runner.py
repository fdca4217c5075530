"""Running a game check: the event's stored collection read as ``adjudicator check-games`` reads a
file, its games checked in this process or on the broker's workers, each line stored as it comes.

The stored bytes are read with the command's own reader (``web/commands/check_games.py``:
compressed by the file name's suffix, UTF-8 else Windows-1252, a file that is no collection
refused), so the web's lines are the command's lines for the same file. A record holding several games is cut
into its games here, so that each stored line keeps its own game's record. The job writes
its progress into its row every few games and stops at the next write after a cancel.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.chess.movetext import split_games
from adjudicator.collection import records
from web.checks.collections import GameCollection
from web.checks.models import CheckedGame, GameCheck
from web.commands.check_games import _head, lines, open_stored

log = logging.getLogger(__name__)
WRITE_EVERY = 16
"""Games stored (and progress written, cancel read) per write."""
CSV_COLUMNS = ("index", "white", "black", "round", "recorded_result", "lawful_result", "code", "ply", "article",
               "message")


class CheckCancelled(RuntimeError):
    """The TD cancelled the check."""


class MissingCollection(LookupError):
    """The check names no stored collection (a check queued before collections were kept)."""


def games_of(record: str, game: str) -> list[str]:
    """The text of each game of one record, in order (the record split as the check splits it)."""
    if game == "checkers":
        from adjudicator.checkers.pdn import split_games as split_pdn

        return [part for part in split_pdn(record) if part.strip()]
    starts = [found.offset for found in split_games(record)]
    if not starts:
        return []
    starts[0] = 0
    return [record[a:b] for a, b in zip(starts, [*starts[1:], len(record)], strict=True)]


def read_games(data: bytes, name: str, game: str) -> Iterator[str]:
    """The games of a stored collection (``name``: the TD's file name, for its suffix and for errors), one by one.

    :raises web.commands.check_games.CollectionError: the file is no game collection, or breaks.
    """
    stream = open_stored(data, name)
    try:
        found = records(lines(stream, name))
        head = _head(found, game, name)
        for record in [*head]:
            yield from games_of(record, game)
        for record in found:
            yield from games_of(record, game)
    finally:
        stream.close()


def check_file(data: bytes, name: str, game: str) -> None:
    """Refuse a file that is no collection now, before it is stored (the command's first test).

    :raises web.commands.check_games.CollectionError: it is none (the message names the file).
    """
    stream = open_stored(data, name)
    try:
        _head(records(lines(stream, name)), game, name)
    finally:
        stream.close()


class Checks:
    """The app's game-check jobs: one thread runs them in turn (each may spread over the broker's workers)."""

    def __init__(self, config: Mapping[str, Any], sessions: sessionmaker[Session], remote: Any = None) -> None:
        self.config = config
        self.sessions = sessions
        self.remote = remote
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def start(self, check_id: int) -> None:
        """Run the check (its row is committed, naming its stored collection) after those started before it."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="check-games")
            self._pool.submit(self._run, check_id)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _update(self, check_id: int, **values: Any) -> bool:
        """Write ``values`` into the row; whether a cancel was asked for."""
        with self.sessions() as session:
            session.execute(update(GameCheck).where(GameCheck.id == check_id)
                            .values(updated_at=time.time(), **values))
            session.commit()
            row = session.get(GameCheck, check_id)
            return bool(row is not None and row.cancel_requested)

    def _run(self, check_id: int) -> None:
        started = time.monotonic()
        try:
            with self.sessions() as session:
                row = session.get(GameCheck, check_id)
                if row is None or row.is_finished:
                    return
                game, ruleset, name = row.game, row.ruleset, row.filename
                stored = None if row.collection_id is None else session.get(GameCollection, row.collection_id)
                if stored is None:
                    raise MissingCollection(f"the file of check {check_id} was not kept; upload it again")
                data = stored.content
            total = sum(1 for _ in read_games(data, name, game))
            if self._update(check_id, status="running", total=total, message="checking the games"):
                raise CheckCancelled
            self._check(check_id, data, name, game, ruleset, started)
        except CheckCancelled:
            self._update(check_id, status="cancelled", finished_at=time.time(), message="cancelled by the TD")
        except Exception as exc:
            log.exception("game check %s failed", check_id)
            error = getattr(exc, "to_json", None)
            body = error()["error"] if callable(error) else {"code": "check_failed", "field": None,
                                                            "message": f"the check failed: {type(exc).__name__}"}
            if isinstance(exc, MissingCollection):
                body["message"] = str(exc)
            self._update(check_id, status="failed", finished_at=time.time(), error_json=json.dumps(body),
                         message=str(body.get("message")))

    def _check(self, check_id: int, data: bytes, name: str, game: str, ruleset: str, started: float) -> None:
        kept: deque[str] = deque()

        def remembered(parts: Iterable[str]) -> Iterator[str]:
            for part in parts:
                kept.append(part)
                yield part

        parts = remembered(read_games(data, name, game))
        if self.remote is not None:
            from web.queue.collection import check_on_queue

            checked: Iterator[dict[str, Any]] = check_on_queue(parts, game=game, ruleset=ruleset, remote=self.remote)
        else:
            from engines.collection import check_collection

            checked = check_collection(parts, game=game, ruleset=ruleset, config=self.config)
        batch: list[CheckedGame] = []
        games = with_findings = 0
        for line in checked:
            record = kept.popleft() if kept else ""
            games += 1
            with_findings += bool(line["findings"])
            batch.append(CheckedGame(check_id=check_id, index=line["index"], has_findings=bool(line["findings"]),
                                     line_json=json.dumps(line, ensure_ascii=False), record=record))
            if len(batch) >= WRITE_EVERY:
                self._store(check_id, batch, games, with_findings)
                batch = []
        self._store(check_id, batch, games, with_findings)
        self._update(check_id, status="done", finished_at=time.time(), message="",
                     seconds=time.monotonic() - started)

    def _store(self, check_id: int, batch: list[CheckedGame], games: int, with_findings: int) -> None:
        with self.sessions() as session:
            session.add_all(batch)
            session.commit()
        if self._update(check_id, games=games, with_findings=with_findings, message=f"{games} games checked"):
            raise CheckCancelled


def csv_text(lines_: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """The report as CSV: one row per finding (a clean game: one row with no finding), in file order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def flush() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(CSV_COLUMNS)
    yield flush()
    for line in lines_:
        headers = line.get("headers") or {}
        base = [line["index"], headers.get("White", ""), headers.get("Black", ""), headers.get("Round", ""),
                line.get("recorded_result") or "", line.get("lawful_result") or ""]
        for finding in line.get("findings") or [None]:
            if finding is None:
                writer.writerow([*base, "", "", "", ""])
            else:
                writer.writerow([*base, finding["code"], finding["ply"], finding["article"], finding["message"]])
        yield flush()
