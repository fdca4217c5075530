"""Checking a collection of games in parts: the task a worker runs, and local worker processes.

:func:`check_part` is the unit of work: a JSON-ready task (the game, the ruleset id, the
configuration and a *part*, :class:`Part`: consecutive records of a collection, as their
texts or as a file and the byte range they lie in) in, one JSON-ready line per game out, in
order, with how many games each record held. It holds no state between tasks that could
change an answer (the per-process services it keeps are built from the task's
configuration, and the helpmate search runs on its node budget alone, never on a clock),
so the same task gives the same answer in any process, on any machine, any number of
times: a broker's worker can run it as it is (late acknowledgement, retried on another
worker) and the results stay identical.

:func:`check_parts` streams the parts through it: in this process (``workers=1``) or over
``workers`` local processes, with at most ``2 * workers`` parts in flight and the results
handed back in file order, so memory stays flat however long the file (the broker's
workers: :func:`web.queue.collection.check_parts_on_queue`; the one way a collection is
sent to workers, by ``adjudicator check-games`` and by the web's checks alike).

For a plain file the workers can read, a part names the file and its byte range
(:func:`parts`, :func:`adjudicator.collection.record_spans`), and each worker reads and
cuts it into the same records itself: the process that reads the file only finds where
records start, the workers read, split and check the games. Elsewhere (standard input, a
compressed file, the web's stored upload cut into its games) a part holds its records'
texts (:func:`text_parts`). Each part's result says how many games each of its records
held, so the lines are numbered (:func:`numbered`, :func:`numbered_texts`), and a
collection past its ``max_games`` stopped, in file order, whatever the number of workers:
the output is the same with one worker or many.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from operator import methodcaller
from typing import TYPE_CHECKING, Any, BinaryIO

import adjudicator.chess.bulk as bulk
from adjudicator.collection import Span, TooManyGames, block_spans, check_record, decoded, records
from adjudicator.contract import ContractError
from adjudicator.findings import Finding, GameCheck
from adjudicator.rulesets import RulesetBook
from adjudicator.services import MateOracle, Services

if TYPE_CHECKING:  # the pool's modules load only where local workers run (a check in this process starts faster)
    from concurrent.futures import Executor, Future

IN_FLIGHT_PER_WORKER = 2
PART_RECORDS = 256
"""Records per part at the most where the parts go out as text (:func:`parts`)."""
PART_BYTES = 1 << 20
"""Bytes per part at the most (a part may pass it by one record) where they go out as text; a file's byte
ranges are sized by :func:`range_bytes`, within :data:`RANGE_BYTES`: few tasks (each costs the reading
process a row, a message and a wait), enough of them to keep every worker busy to the end; a worker reads its
range :data:`READ_BYTES` at a time and holds its lines (about a tenth of its bytes)."""
RANGE_BYTES = (1 << 18, 1 << 23)

_CONTEXTS: dict[tuple[int, str], tuple[RulesetBook, Services, MateOracle]] = {}
"""Per process: the rulesets and the services built from a configuration (at most a few)."""


class WorkerError(RuntimeError):
    """A worker process died while checking games (the check cannot go on)."""


class PartUnreadable(ContractError):
    """A worker cannot read a part's byte range from the file (not there, or changed since it was read)."""

    def __init__(self, message: str) -> None:
        super().__init__("part_unreadable", message, "file")


@dataclass(frozen=True)
class Stamp:
    """A plain file whose parts the workers read themselves: its path, and its size and change time when the
    records were found in it (a worker refuses the file if they differ)."""

    path: str
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: str) -> Stamp:
        found = os.stat(path)
        return cls(os.path.abspath(path), found.st_size, found.st_mtime_ns)


@dataclass(frozen=True)
class Part:
    """Consecutive records of a collection: their texts where the reading process holds them (none for a
    byte range: the file has them), and the payload a worker gets, the texts themselves or the file and byte
    range they lie in."""

    texts: tuple[str, ...]
    payload: dict[str, Any]

    def as_texts(self) -> dict[str, Any]:
        """The payload with the texts (for a worker that cannot read the file): those held, else the byte
        range's records read here (:func:`part_records`; :raises PartUnreadable: this process cannot either)."""
        return {"records": list(self.texts) if self.texts or "file" not in self.payload else
                part_records(self.payload)}


def parts(spans: Iterable[Span], stamp: Stamp | None = None, *, records_per_part: int = PART_RECORDS,
          bytes_per_part: int = PART_BYTES) -> Iterator[Part]:
    """``spans`` (:func:`adjudicator.collection.record_spans`) grouped into parts of at most ``records_per_part``
    records and about ``bytes_per_part`` bytes, in order; with ``stamp``, each payload names the file's byte
    range (the workers read it), else it holds the texts (see :data:`PART_BYTES` for the defaults).

    A file's byte ranges shrink towards its end (:func:`range_bytes`): the last parts are small, so the
    workers finish together (the check waits for the last)."""
    ranged = stamp is not None and bytes_per_part == PART_BYTES and records_per_part == PART_RECORDS
    if ranged:
        records_per_part = 1 << 30
    group: list[Span] = []
    size = 0
    for span in spans:
        if not group and ranged:
            assert stamp is not None
            bytes_per_part = range_bytes(stamp.size, span.start)
        group.append(span)
        size += span.end - span.start
        if len(group) >= records_per_part or size >= bytes_per_part:
            yield _part(group, stamp)
            group, size = [], 0
    if group:
        yield _part(group, stamp)


def range_bytes(size: int, start: int) -> int:
    """The bytes of a file's part that starts at ``start``: a sixteenth of the file, and an eighth of what is
    left from ``start``, within :data:`RANGE_BYTES` (large parts cost the reading process less; parts that
    shrink towards the end keep every worker busy to it)."""
    return min(max(min(size // 16, (size - start) // 8), RANGE_BYTES[0]), RANGE_BYTES[1])


def _part(group: list[Span], stamp: Stamp | None) -> Part:
    texts = tuple(span.text for span in group)
    if stamp is None:
        return Part(texts, {"records": list(texts)})
    return Part(texts if all(texts) else (), {  # a range's texts only where the spans carry them
        "file": stamp.path, "size": stamp.size, "mtime_ns": stamp.mtime_ns, "start": group[0].start,
        "end": group[-1].end})


def part_records(payload: Mapping[str, Any]) -> list[str]:
    """The records of a part's payload: its texts, or those its byte range of the file holds (read and cut
    here as :func:`adjudicator.collection.records` cut the whole file, which started a record there).

    :raises PartUnreadable: the file is not there or not the one the part was made from.
    """
    return list(_part_records(payload))


def _part_records(payload: Mapping[str, Any]) -> Iterator[str]:
    """:func:`part_records` one at a time (the file is opened and its stamp compared at once: a file gone or
    changed raises :class:`PartUnreadable` before the first record; the range is then read
    :data:`READ_BYTES` at a time, so a worker holds little whatever the part's size)."""
    if "records" in payload:
        return (str(text) for text in payload["records"])
    path, start, end = str(payload["file"]), int(payload["start"]), int(payload["end"])
    try:
        handle = open(path, "rb")  # noqa: SIM115  # closed by _range_blocks, which reads it
    except OSError as exc:
        raise PartUnreadable(f"this worker cannot read {path}: {exc.strerror}") from None
    found = os.fstat(handle.fileno())
    if (found.st_size, found.st_mtime_ns) != (int(payload["size"]), int(payload["mtime_ns"])):
        handle.close()
        raise PartUnreadable(f"{path} changed while its games were checked; check it again")
    blocks = _range_blocks(handle, path, start, end)
    if bulk.COMPILED:  # the compiled reader cuts a block at a time (the same records: adjudicator.collection)
        return (span.text for span in block_spans(blocks))
    return records(decoded(line) for block in blocks for line in io.BytesIO(block))


READ_BYTES = 1 << 20
"""Bytes a worker reads of its part's range at a time."""


def _range_blocks(handle: BinaryIO, path: str, start: int, end: int) -> Iterator[bytes]:
    """The bytes ``start`` to ``end`` of the open file, in blocks of whole lines (the last block: what is left);
    the file is closed at the end. :raises PartUnreadable: the file ends before ``end``."""
    with handle:
        try:
            handle.seek(start)
            left, carry = end - start, b""
            while left > 0:
                chunk = handle.read(min(READ_BYTES, left))
                if not chunk:
                    raise PartUnreadable(f"{path} is shorter than when its games were found; check it again")
                left -= len(chunk)
                data = carry + chunk
                cut = len(data) if left == 0 else data.rfind(b"\n") + 1
                carry = data[cut:]
                if cut:
                    yield data[:cut]
        except OSError as exc:
            raise PartUnreadable(f"this worker cannot read {path}: {exc.strerror}") from None


def prepare(config: Mapping[str, Any]) -> None:
    """Build this process's rulesets and services for ``config`` now (a broker's worker, as it starts: its first
    part is then checked as fast as the others)."""
    _context(config)


def _context(config: Mapping[str, Any]) -> tuple[RulesetBook, Services, MateOracle]:
    from engines import build_services
    from engines.chess.unwinnable.screen import DeadScreen

    key = (os.getpid(), json.dumps(config, sort_keys=True, default=str))
    if key not in _CONTEXTS:
        if len(_CONTEXTS) >= 4:
            _CONTEXTS.pop(next(iter(_CONTEXTS)))[1].close()
        # deterministic: the helpmate search answers on its node budget alone, so every worker agrees
        services = build_services(config, deterministic=True, engine=False)
        # the dead-position test of each game: the analysis's quick, sound steps (engines/chess/unwinnable/screen.py)
        _CONTEXTS[key] = (RulesetBook.from_config(config), services, DeadScreen())
    return _CONTEXTS[key]


_LINE = json.JSONEncoder(ensure_ascii=False)
"""Writes a line as ``json.dumps(..., ensure_ascii=False)`` does (one encoder, not one per line)."""


def check_part(task: Mapping[str, Any], *, written: bool = False) -> dict[str, Any]:
    """Check every game of the task's part (:func:`part_records`): ``{"lines": [...], "games": [...]}``, one
    contract line per game in order (``index`` 0: the caller numbers them) and how many games each record held
    (``max_games`` is counted by the caller, in file order); ``written``: ``{"texts": [...], "games": [...]}``,
    each line written as ``web.cli.emit`` writes it (index 0) as soon as it is made (a part's lines are held as
    text, not as objects; the reading process only puts each index in: :func:`numbered_texts`).

    A game whose check fails inside (a fault of this program, not of the record) gets a
    ``check-failed`` finding naming the fault, and the others go on.

    :raises PartUnreadable: see :func:`part_records`.
    """
    book, services, screen = _context(task["config"])
    ruleset = book[str(task["ruleset"])]
    game = str(task["game"])
    out: list[Any] = []
    games: list[int] = []
    for text in _part_records(task):
        try:
            checks = check_record(text, game, ruleset, services, screen)
        except Exception as exc:  # one faulty game must not stop the collection; the line says what failed
            failed = Finding("check-failed", 0, "", f"the check failed: {type(exc).__name__}: {exc}")
            checks = [GameCheck((), None, None, (failed,))]
        if written:
            out.extend(_LINE.encode(check.to_json(0)) for check in checks)
        else:
            out.extend(check.to_json(0) for check in checks)
        games.append(len(checks))
    return {"texts" if written else "lines": out, "games": games}


def fallbacks(texts: Iterable[str], ruleset: str, config: Mapping[str, Any]) -> dict[str, int]:
    """How many chess games of the records ``texts`` the compiled reader leaves to the lenient reader, by reason
    (``not-lexed``, else :data:`adjudicator.chess.bulk.check.FALLBACK_REASONS`'s keys), and ``games``: all of
    them (``bench/check_games.py`` prints these)."""
    from adjudicator.chess.bulk.check import checked_or_why
    from adjudicator.chess.bulk.games import CleanGame, split_mixed
    from adjudicator.rulesets import ChessRuleset

    book, services, screen = _context(config)
    chosen = book[ruleset]
    assert isinstance(chosen, ChessRuleset), f"{ruleset} is no chess ruleset"
    tally: dict[str, int] = {"games": 0}
    for text in texts:
        for game in split_mixed(text, chosen.record.language or None):
            tally["games"] += 1
            found = "not-lexed" if not isinstance(game, CleanGame) else checked_or_why(game, chosen, services, screen)
            if isinstance(found, str):
                tally[found] = tally.get(found, 0) + 1
    return tally


LINE_START = '{"index": 0, '
"""How a line written by :func:`check_part` starts (``web.cli.emit``'s JSON, the index first)."""


def _counted(results: Iterable[Any], limit: int | None) -> Iterator[tuple[int, Any]]:
    """(index, line) of the parts' results in order, a line as the result holds it (a dict, or a text of
    :func:`check_part_texts`), while the records hold at most ``limit`` games in all."""
    index = 0
    for result in results:
        lines, games = result["texts"] if "texts" in result else result["lines"], result["games"]
        taken = iter(lines)
        for count in games:
            if limit is not None and index + count > limit:
                raise TooManyGames(limit)
            for line in itertools.islice(taken, count):
                index += 1
                yield index, line


def numbered(results: Iterable[Any], limit: int | None = None) -> Iterator[dict[str, Any]]:
    """The lines of the parts' results (:func:`check_part`, written or not), in order, numbered from 1; with
    ``limit``, the lines of the records while they hold at most ``limit`` games in all.

    :raises TooManyGames: the next record would take the count past ``limit`` (its lines are not given).
    """
    for index, line in _counted(results, limit):
        found: dict[str, Any] = json.loads(line) if isinstance(line, str) else line
        found["index"] = index
        yield found


def numbered_texts(results: Iterable[Any], limit: int | None = None) -> Iterator[list[str]]:
    """:func:`numbered`, each line as ``web.cli.emit`` writes it (without its newline), a list per part (the
    command writes and flushes them together); past ``limit``, the lines before the record that passes it,
    then :class:`TooManyGames`."""
    index = 0
    for result in results:
        lines, games = result["texts"] if "texts" in result else result["lines"], result["games"]
        if limit is not None and index + len(lines) > limit:  # the records up to the one past the limit
            batch: list[str] = []
            taken = iter(lines)
            for count in games:
                if index + count > limit:
                    yield batch
                    raise TooManyGames(limit)
                batch.extend(_numbered_text(line, index := index + 1) for line in itertools.islice(taken, count))
            yield batch
            continue
        if "texts" in result and all(map(methodcaller("startswith", LINE_START), lines)):
            cut = len(LINE_START)  # each line written by check_part: its index put in
            yield [f'{{"index": {number}, {line[cut:]}' for number, line in enumerate(lines, start=index + 1)]
        else:
            yield [_numbered_text(line, number) for number, line in enumerate(lines, start=index + 1)]
        index += len(lines)


def _numbered_text(line: Any, index: int) -> str:
    """A line (written by :func:`check_part`, or a dict) written with its index."""
    if isinstance(line, str) and line.startswith(LINE_START):
        return f'{{"index": {index}, {line[len(LINE_START):]}'
    found = json.loads(line) if isinstance(line, str) else dict(line)
    found["index"] = index
    return json.dumps(found, ensure_ascii=False)


def text_parts(texts: Iterable[str], records_per_part: int) -> Iterator[Part]:
    """``texts`` (records, or a record's games) in parts of ``records_per_part`` (the last may hold fewer) that
    carry their texts, in order."""
    group: list[str] = []
    for text in texts:
        group.append(text)
        if len(group) >= records_per_part:
            yield Part(tuple(group), {"records": group})
            group = []
    if group:
        yield Part(tuple(group), {"records": group})


def check_parts(
    found: Iterable[Part], *, game: str, ruleset: str, config: Mapping[str, Any], workers: int = 1,
    written: bool = False,
) -> Iterator[dict[str, Any]]:
    """Each part's result (:func:`check_part`), in file order (:func:`numbered` or :func:`numbered_texts` number
    the lines): checked here (``workers`` 1, a part when its result is asked for; ``written``: its lines as
    text, :func:`check_part`) or by ``workers`` local processes (their lines as text), each reading its part
    itself where the payload names the file."""

    def task(part: Part) -> dict[str, Any]:
        return {"game": game, "ruleset": ruleset, "config": dict(config), **part.payload}

    if workers <= 1:
        results: Iterator[Any] = (check_part(task(part), written=written) for part in found)
    else:
        results = _in_pool((task(part) for part in found), workers, check_part_texts)
    return results


def check_part_texts(task: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`check_part` with its lines written: what a worker sends back."""
    return check_part(task, written=True)


def _in_pool(tasks: Iterator[dict[str, Any]], workers: int, run: Callable[[Any], Any]) -> Iterator[Any]:
    """``run(task)`` of each task by ``workers`` local processes, in task order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))
    try:
        yield from _results(tasks, pool, workers * IN_FLIGHT_PER_WORKER, run)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _results(tasks: Iterator[dict[str, Any]], executor: Executor, in_flight: int,
             run: Callable[[Any], Any]) -> Iterator[Any]:
    """``run(task)`` of each task, in task order, with at most ``in_flight`` tasks submitted and not handed back."""
    pending: deque[Future[Any]] = deque()
    try:
        for task in tasks:
            pending.append(executor.submit(run, task))
            if len(pending) >= in_flight:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())
    finally:
        for future in pending:
            future.cancel()


def _result(future: Future[Any]) -> Any:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool as exc:
        raise WorkerError(f"a worker process died while checking games: {exc}") from None
