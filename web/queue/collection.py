"""``adjudicator check-games`` on the broker's workers: the collection goes out as chunk jobs.

Each chunk of records is a ``check-chunk`` job (its row holds the records, the game and
the ruleset; the configuration is the worker's own, the same ``config.toml`` every
process reads, so no database URL travels in a row). At most ``in_flight`` chunks are out
at once and their results are read back oldest first, so the lines come in file order
and memory stays flat; a chunk's row is deleted once its result is read.
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import delete

from engines.collection import chunks
from web.queue import rows
from web.queue.models import JobRow
from web.queue.remote import Remote

CHUNK_GAMES = 64
IN_FLIGHT = 8


def check_on_queue(records: Iterable[str], *, game: str, ruleset: str, remote: Remote,
                   chunk_games: int = CHUNK_GAMES, in_flight: int = IN_FLIGHT,
                   stop: Callable[[], bool] | None = None) -> Iterator[dict[str, Any]]:
    """The contract lines of every game of ``records``, in file order, numbered from 1, checked by the workers.

    ``stop`` is asked about once a second while a chunk is awaited whether to give up (a cancel).

    :raises web.queue.remote.JobFailed: a chunk failed on its worker.
    :raises web.queue.remote.QueueTimeout: no worker finished a chunk within ``[queue] wait_seconds``.
    :raises web.queue.remote.QueueUnavailable: the broker cannot be reached.
    :raises web.queue.remote.Stopped: ``stop`` said so (the chunks' rows are gone all the same).
    """
    run = uuid.uuid4().hex
    pending: deque[str] = deque()
    index = 0
    try:
        for number, chunk in enumerate(chunks(records, chunk_games)):
            job_id = f"check:{run}:{number}"
            with remote.sessions() as session:
                session.add(rows.new_row(job_id, "check-chunk",
                                         payload={"game": game, "ruleset": ruleset, "records": chunk}))
                session.commit()
            remote.send(job_id)
            pending.append(job_id)
            while len(pending) >= in_flight:
                for line in _take(remote, pending.popleft(), stop):
                    index += 1
                    yield {**line, "index": index}
        while pending:
            for line in _take(remote, pending.popleft(), stop):
                index += 1
                yield {**line, "index": index}
    finally:
        with remote.sessions() as session:  # a check stopped half-way leaves no rows behind
            session.execute(delete(JobRow).where(JobRow.id.like(f"check:{run}:%")))
            session.commit()


def _take(remote: Remote, job_id: str, stop: Callable[[], bool] | None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = remote.result(job_id, stop=stop)
    with remote.sessions() as session:
        session.execute(delete(JobRow).where(JobRow.id == job_id))
        session.commit()
    return found
