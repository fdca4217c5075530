"""Running a game check: the event's stored collection read as ``adjudicator check-games`` reads a
file, its games checked in this process or on the broker's workers, each line stored as it comes.

The stored bytes are read with the command's own reader (``web/commands/check_games.py``:
compressed by the file name's suffix, UTF-8 else Windows-1252, a file that is no collection
refused, within the command's ``[collections]`` limits), so the web's lines are the command's lines for the
same file. A record holding several games is cut into its games here, so that each stored line keeps
its own game's record.

A check counts the file's games first (the progress bar's total; a file past ``max_games`` fails
here, before any game is checked), then checks them, sent as ``adjudicator check-games`` sends a
collection: in parts (:func:`engines.collection.check_parts` in this process, or
:func:`web.queue.collection.check_parts_on_queue` on the broker's workers), each part the texts of
its games (the stored file is in the database, not on a disk the workers read; and each line keeps
its own game's text). Both stages write the row at least every :data:`CANCEL_SECONDS` and read the
TD's cancel there, so a cancel is honoured within about a second whatever the file holds (games are
checked in-process :data:`PART_GAMES` at a time, or on the broker's workers :data:`QUEUE_PART_GAMES`
at a time, whose wait for a part is cut short by the cancel). Up to ``[web] check_workers`` checks run
at once, each on its own thread: one large upload never holds the others back.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.checkers.pdn import split_games as split_pdn
from adjudicator.collection import TooManyGames, chess_games, head_records, records
from adjudicator.contract import ContractError
from engines.collection import Part, check_parts, text_parts
from web.commands.check_games import Limits, lines, open_stored, scan
from web.queue.collection import check_parts_on_queue
from web.queue.remote import QueueUnavailable, Stopped
from web.runner import JobCancelled, Progress, Runner
from web.tables.checks import CheckedGame, GameCheck
from web.tables.collections import GameCollection

log = logging.getLogger(__name__)
WRITE_EVERY = 16
"""Games stored (and progress written, cancel read) per write, at the most."""
CANCEL_SECONDS = 1.0
"""The longest a running check goes without writing its row and reading a cancel."""
PART_GAMES = 4
"""Games checked in-process before the check looks at the clock again."""
QUEUE_PART_GAMES = 64
"""Games per part on the broker's workers (a row and a message each)."""
DEFAULT_WORKERS = 4
"""``[web] check_workers``: checks run at once (each on its own thread of the runner's ``check`` pool)."""
CSV_COLUMNS = ("index", "white", "black", "round", "recorded_result", "lawful_result", "code", "ply", "article",
               "message")


CheckCancelled = JobCancelled
"""The TD cancelled the check (every job's cancel, :class:`web.runner.JobCancelled`)."""


class MissingCollection(LookupError):
    """The check names no stored collection (a check queued before collections were kept)."""


def games_of(record: str, game: str) -> list[str]:
    """The text of each game of one record, in order (the record split as the check splits it)."""
    if game == "checkers":
        return [part for part in split_pdn(record) if part.strip()]
    starts = [found.offset for found in chess_games(record)]
    if not starts:
        return []
    starts[0] = 0
    return [record[a:b] for a, b in zip(starts, [*starts[1:], len(record)], strict=True)]


def read_games(data: bytes, name: str, game: str, limits: Limits | None = None) -> Iterator[str]:
    """The games of a stored collection (``name``: the TD's file name, for its suffix and for errors), one by
    one, within ``limits``.

    :raises adjudicator.collection.NotACollection: the file is no game collection; :raises
        web.commands.check_games.CollectionError: it breaks, or is past
        a limit (``LimitExceeded``); :raises TooManyGames: it holds more games than the limit.
    """
    limits = limits or Limits()
    stream = open_stored(data, name)
    count = 0
    try:
        found = records(lines(stream, name, limits))
        head = head_records(found, game, name)
        for record in itertools.chain(head, found):
            for part in games_of(record, game):
                count += 1
                if count > limits.games:
                    raise TooManyGames(limits.games)
                yield part
    finally:
        stream.close()


def check_file(data: bytes, name: str, game: str, limits: Limits | None = None) -> None:
    """Refuse now, before it is stored, a file that is no collection (the command's first test) or is past the
    limits on its inflated bytes and line lengths (at the decompressor's speed; its games are counted by the
    check itself).

    :raises web.commands.check_games.CollectionError: it is none, or past a limit (``LimitExceeded``,
        whose ``status`` is 413 or 422); the message names the file.
    """
    limits = limits or Limits()
    stream = open_stored(data, name)
    try:
        head_records(records(lines(stream, name, limits)), game, name)
    finally:
        stream.close()
    scan(data, name, limits)


class Checks:
    """The app's game-check jobs, run by the app's runner (:class:`web.runner.Runner`): up to ``[web]
    check_workers`` at once, each on its own thread of the runner's ``check`` pool (each may spread its games
    over the broker's workers as ``check-chunk`` jobs). Its cancel is the app's one cancel (:meth:`Runner.cancel` of
``check:<id>``), written into its row and read here at its next write."""

    def __init__(self, config: Mapping[str, Any], sessions: sessionmaker[Session], runner: Runner) -> None:
        self.config = config
        self.sessions = sessions
        self.runner = runner
        self.remote = runner.remote
        self.limits = Limits.from_config(config)

    def start(self, check_id: int) -> None:
        """Run the check (its row is committed, naming its stored collection) on a thread of its own (or after
        one of the ``check_workers`` running ones ends)."""
        self.runner.submit("check", self._run, check_id)

    def shutdown(self) -> None:
        self.runner.shutdown()

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
            if self._update(check_id, status="running", message="counting the games"):
                raise CheckCancelled
            total = self._count(check_id, data, name, game)
            if self._update(check_id, total=total, message="checking the games"):
                raise CheckCancelled
            self._check(check_id, data, name, game, ruleset, started)
        except CheckCancelled:
            self._update(check_id, status="cancelled", finished_at=time.time(), message="cancelled by the TD")
        except Exception as exc:
            if not isinstance(exc, TooManyGames | ContractError | QueueUnavailable | MissingCollection):
                log.exception("game check %s failed", check_id)
            body = self._error(exc)
            self._update(check_id, status="failed", finished_at=time.time(), error_json=json.dumps(body),
                         message=str(body.get("message")))

    @staticmethod
    def _error(exc: Exception) -> dict[str, Any]:
        """The contract's error for a check that could not go on (its page shows the message)."""
        if isinstance(exc, ContractError):  # a limit passed, a stream broken, not a collection
            error: dict[str, Any] = exc.to_json()["error"]
            return error
        if isinstance(exc, QueueUnavailable):
            return {"code": "queue_unavailable", "field": None, "message": f"{exc}; check the games again later"}
        if isinstance(exc, MissingCollection):
            return {"code": "check_failed", "field": None, "message": str(exc)}
        return {"code": "check_failed", "field": None, "message": f"the check failed: {type(exc).__name__}"}

    def _count(self, check_id: int, data: bytes, name: str, game: str) -> int:
        """The file's games, counted within the limits; the row says how far, and a cancel stops it, every
        :data:`CANCEL_SECONDS`."""
        total = 0
        written = time.monotonic()
        for _game in read_games(data, name, game, self.limits):
            total += 1
            if time.monotonic() - written >= CANCEL_SECONDS:
                if self._update(check_id, message=f"counting the games: {total:,} so far"):
                    raise CheckCancelled
                written = time.monotonic()
        return total

    def _check(self, check_id: int, data: bytes, name: str, game: str, ruleset: str, started: float) -> None:
        sent: deque[Part] = deque()

        def remembered(parts: Iterable[Part]) -> Iterator[Part]:
            for part in parts:
                sent.append(part)
                yield part

        games_read = read_games(data, name, game, self.limits)
        if self.remote is not None:
            # each second of a wait for the workers writes the row (the check is alive) and reads a cancel
            results: Iterator[Any] = check_parts_on_queue(
                remembered(text_parts(games_read, QUEUE_PART_GAMES)), game=game, ruleset=ruleset,
                remote=self.remote, stop=lambda: self._update(check_id))
        else:
            results = check_parts(remembered(text_parts(games_read, PART_GAMES)), game=game, ruleset=ruleset,
                                  config=self.config)
        batch: list[CheckedGame] = []
        games = with_findings = 0
        written = time.monotonic()
        try:
            for line, record in with_records(results, sent):
                games += 1
                with_findings += bool(line["findings"])
                batch.append(CheckedGame(check_id=check_id, index=line["index"], has_findings=bool(line["findings"]),
                                         line_json=json.dumps(line, ensure_ascii=False), record=record))
                if len(batch) >= WRITE_EVERY or time.monotonic() - written >= CANCEL_SECONDS:
                    self._store(check_id, batch, games, with_findings)
                    batch, written = [], time.monotonic()
        except Stopped:
            raise CheckCancelled from None
        self._store(check_id, batch, games, with_findings)
        self._update(check_id, status="done", finished_at=time.time(), message="",
                     seconds=time.monotonic() - started)

    def _store(self, check_id: int, batch: list[CheckedGame], games: int, with_findings: int) -> None:
        with self.sessions() as session:
            session.add_all(batch)
            session.commit()
        if self._update(check_id, games=games, with_findings=with_findings, message=f"{games} games checked"):
            raise CheckCancelled


def progress_of(check: GameCheck) -> Progress:
    """What the progress fragment shows of a check under way: the games checked of the games counted."""
    if check.status == "queued":
        heading = "Waiting to start…"
    else:
        heading = "Counting the games…" if check.total is None else "Checking the games…"
    detail = f"{check.games}{f' of {check.total}' if check.total else ''} games"
    return Progress(check.status, heading, check.percent, detail, check.message)


def with_records(results: Iterable[Mapping[str, Any]], sent: deque[Part]) -> Iterator[tuple[dict[str, Any], str]]:
    """Each line of the parts' results (:func:`engines.collection.check_part`, its lines as dicts or as
    written texts), numbered from 1 in file order, with the text of the game it is about: the parts were sent
    in order (``sent``: those not yet answered, oldest first), and a result says how many lines each text
    gave."""
    index = 0
    for result in results:
        part = sent.popleft()
        lines = iter(result["texts"] if "texts" in result else result["lines"])
        for text, count in zip(part.texts, result["games"], strict=True):
            for line in itertools.islice(lines, count):
                found: dict[str, Any] = json.loads(line) if isinstance(line, str) else line
                index += 1
                found["index"] = index
                yield found, text


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
