"""Checking a collection of games in chunks: the task a worker runs, and local worker processes.

:func:`check_chunk` is the unit of work: a JSON-ready task (the game, the ruleset id, the
configuration and a list of game records) in, one JSON-ready result per game out, in
order. It holds no state between tasks that could change an answer (the per-process
services it keeps are built from the task's configuration, and the helpmate search runs
on its node budget alone, never on a clock), so the same task gives the same answer in
any process, on any machine, any number of times: a broker's worker can run it as it is
(late acknowledgement, retried on another worker) and the results stay identical.

:func:`check_collection` streams a collection through it: in this process (``workers=1``)
or over ``workers`` local processes, with at most ``2 * workers`` chunks in flight and the
results handed back in file order, so memory stays flat however long the file.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from adjudicator.collection import check_record
from adjudicator.findings import Finding, GameCheck
from adjudicator.rulesets import RulesetBook
from adjudicator.services import MateOracle, Services

CHUNK_GAMES = 64
"""Records per task: large enough that sending them costs little, small enough to keep the workers even."""
IN_FLIGHT_PER_WORKER = 2

_CONTEXTS: dict[tuple[int, str], tuple[RulesetBook, Services, MateOracle]] = {}
"""Per process: the rulesets and the services built from a configuration (at most a few)."""


class WorkerError(RuntimeError):
    """A worker process died while checking games (the check cannot go on)."""


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


def make_task(records: list[str], game: str, ruleset: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """A task for :func:`check_chunk` (JSON-ready: a broker can carry it as it is)."""
    return {"game": game, "ruleset": ruleset, "config": dict(config), "records": records}


def check_chunk(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Check every game of the task's records; one contract line per game, in order (``index`` 0: the caller numbers).

    A game whose check fails inside (a fault of this program, not of the record) gets a
    ``check-failed`` finding naming the fault, and the others go on.
    """
    book, services, screen = _context(task["config"])
    ruleset = book[str(task["ruleset"])]
    game = str(task["game"])
    out: list[dict[str, Any]] = []
    for text in task["records"]:
        try:
            checks = check_record(str(text), game, ruleset, services, screen)
        except Exception as exc:  # one faulty game must not stop the collection; the line says what failed
            failed = Finding("check-failed", 0, "", f"the check failed: {type(exc).__name__}: {exc}")
            checks = [GameCheck((), None, None, (failed,))]
        out.extend(check.to_json(0) for check in checks)
    return out


def chunks(records: Iterable[str], size: int) -> Iterator[list[str]]:
    """``records`` in lists of ``size`` (the last may be shorter), in order: the unit a worker checks."""
    chunk: list[str] = []
    for record in records:
        chunk.append(record)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def check_collection(
    records: Iterable[str],
    *,
    game: str,
    ruleset: str,
    config: Mapping[str, Any],
    workers: int = 1,
    chunk_games: int = CHUNK_GAMES,
    executor: Executor | None = None,
) -> Iterator[dict[str, Any]]:
    """The contract lines of every game of ``records``, in file order, numbered from 1.

    ``workers`` > 1 starts that many local processes; chunks of ``chunk_games`` records go
    to them with at most :data:`IN_FLIGHT_PER_WORKER` chunks per worker in flight.
    ``executor``: any :class:`concurrent.futures.Executor` to send the chunks to instead
    (the seam for a task queue: an executor whose ``submit(check_chunk, task)`` sends the
    JSON task to the queue's workers and whose future resolves to the JSON lines);
    ``workers`` then bounds the chunks in flight.
    """
    tasks = (make_task(chunk, game, ruleset, config) for chunk in chunks(records, chunk_games))
    if executor is not None:
        results = _in_executor(tasks, executor, max(1, workers) * IN_FLIGHT_PER_WORKER)
    elif workers <= 1:
        results = _in_process(tasks)
    else:
        results = _in_pool(tasks, workers)
    for index, line in enumerate(results, start=1):
        line["index"] = index
        yield line


def _in_process(tasks: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for task in tasks:
        yield from check_chunk(task)


def _in_pool(tasks: Iterator[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))
    try:
        yield from _in_executor(tasks, pool, workers * IN_FLIGHT_PER_WORKER)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _in_executor(tasks: Iterator[dict[str, Any]], executor: Executor, in_flight: int) -> Iterator[dict[str, Any]]:
    """The tasks' lines in task order, with at most ``in_flight`` tasks submitted and not yet handed back."""
    pending: deque[Future[list[dict[str, Any]]]] = deque()
    try:
        for task in tasks:
            pending.append(executor.submit(check_chunk, task))
            if len(pending) >= in_flight:
                yield from _result(pending.popleft())
        while pending:
            yield from _result(pending.popleft())
    finally:
        for future in pending:
            future.cancel()


def _result(future: Future[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    try:
        return future.result()
    except BrokenProcessPool as exc:
        raise WorkerError(f"a worker process died while checking games: {exc}") from None
