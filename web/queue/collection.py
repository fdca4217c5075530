"""``adjudicator check-games`` on the broker's workers: the collection goes out as chunk jobs.

Each chunk of records is a ``check-chunk`` job (its row holds the records, the game and
the ruleset; the configuration is the worker's own, the same ``config.toml`` every
process reads, so no database URL travels in a row). At most ``in_flight`` chunks are out
at once and their results are read back oldest first, so the lines come in file order
and memory stays flat; a chunk's row is deleted once its result is read.

``adjudicator check-games`` sends *parts* (:func:`check_parts_on_queue`,
:class:`engines.collection.Part`): a plain file's parts name the file and the byte range
their records lie in, and each worker reads its range itself, so the command only finds
where records start while the workers read, split and check the games. A worker that
cannot read the file (one on another machine, without the same disk) fails that chunk with
``part_unreadable``; the command then sends that part, and every later one, as text.
"""

from __future__ import annotations

import contextlib
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import delete

from engines.collection import Part, chunks, numbered
from web.queue.models import JobRow
from web.queue.remote import DONE_KEY, JobFailed, Remote

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
    found = (Part(tuple(chunk), {"records": chunk}) for chunk in chunks(records, chunk_games))
    return numbered(check_parts_on_queue(found, game=game, ruleset=ruleset, remote=remote, in_flight=in_flight,
                                         stop=stop))


def check_parts_on_queue(found: Iterable[Part], *, game: str, ruleset: str, remote: Remote,
                         in_flight: int = IN_FLIGHT, stop: Callable[[], bool] | None = None) -> Iterator[Any]:
    """Each part's result (:func:`engines.collection.check_part`: the lines and each record's games), in order,
    from the workers (see :func:`check_on_queue` for what it raises).

    A part whose worker cannot read the file (``part_unreadable``) is sent again as its text, and so is every
    later part."""
    run = uuid.uuid4().hex
    pending: deque[tuple[str, Part]] = deque()
    taken: list[str] = []
    as_text = False
    number = 0

    def send(part: Part, texts: bool) -> None:
        nonlocal number
        job_id = f"check:{run}:{number}"
        number += 1
        payload = {"game": game, "ruleset": ruleset, **(part.as_texts() if texts else part.payload)}
        remote.submit(job_id, "check-chunk", payload)
        pending.append((job_id, part))

    def take() -> Any:
        nonlocal as_text
        job_id, part = pending.popleft()
        if len(taken) >= in_flight:  # the rows read are deleted a few at a time (a write costs a commit)
            _forget(remote, taken)
            taken.clear()
        taken.append(job_id)
        try:
            return remote.result(job_id, stop=stop, longest_poll=LONGEST_POLL, signalled=True)
        except JobFailed as exc:
            if exc.error.get("code") != "part_unreadable" or "records" in part.payload:
                raise
        as_text = True  # this worker does not see the file (another machine): the text goes out from now on
        send(part, True)
        pending.rotate(1)  # its result is the next one wanted
        return take()

    try:
        for part in found:
            send(part, as_text)
            while len(pending) >= in_flight:
                yield take()
        while pending:
            yield take()
    finally:
        with remote.sessions() as session:  # a check stopped half-way leaves no rows behind
            session.execute(delete(JobRow).where(JobRow.id.like(f"check:{run}:%")))
            session.commit()
        _forget(remote, [*taken, *(job_id for job_id, _part in pending)], rows_too=False)


LONGEST_POLL = 0.5
"""The longest wait between two reads of a part's row where the broker cannot signal a part's end (not Redis:
the reads cost the reading process; the parts queued behind keep the workers busy meanwhile)."""


def _forget(remote: Remote, job_ids: list[str], rows_too: bool = True) -> None:
    """Delete the rows of parts whose results were read, and their end signals
    (:func:`web.queue.remote.signal_done`)."""
    if rows_too:
        with remote.sessions() as session:
            session.execute(delete(JobRow).where(JobRow.id.in_(job_ids)))
            session.commit()
    client = remote.signals()
    if client is not None and job_ids:
        import redis  # deferred on purpose: only a Redis broker carries the signals

        with contextlib.suppress(redis.RedisError):
            client.delete(*(DONE_KEY + job_id for job_id in job_ids))
