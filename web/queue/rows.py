"""The job rows' transitions, each one conditional update, so that two processes never both win one.

queued -> running (a worker wins the row), running -> done/failed/cancelled (only the worker
holding it), running -> queued (its worker fell silent: :func:`reap`; its process ended: :func:`take_back`),
queued -> cancelled (the TD cancelled before any worker took it).

A job's cancel (:func:`request_cancel`, called by :meth:`web.runner.Runner.cancel` only) is written into
its row: the ``jobs`` table's, or for a collection check (``check:<id>``) its ``game_checks`` row, where a
check keeps its state (see ``docs/jobs.md``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from sqlalchemy import Row, delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from web.queue.job_rows import Ended, queued_values
from web.tables import rulings as store
from web.tables.checks import STALLED_SECONDS, GameCheck
from web.tables.jobs import FINISHED, JobRow

CANCELLED_NOTE = "cancelled by the TD before a ruling"
"""The note a claim's case gets when its job is cancelled before a ruling."""


def claim_job_id(case_id: int) -> str:
    """The idempotent name of the job that rules on case ``case_id``."""
    return f"case:{case_id}"


def check_job_id(check_id: int) -> str:
    """The name of collection check ``check_id`` as a job (its state is its ``game_checks`` row)."""
    return f"check:{check_id}"


def check_of(job_id: str) -> int | None:
    """The collection check a job id names (None: the job's row is in the ``jobs`` table)."""
    prefix, _, rest = job_id.partition(":")
    return int(rest) if prefix == "check" and rest.isdecimal() else None


def new_row(job_id: str, kind: str, *, case_id: int | None = None, payload: Any = None) -> JobRow:
    return JobRow(**queued_values(job_id, kind, case_id=case_id, payload=payload))


def published(session: Session, job_id: str) -> None:
    """The job's message was just sent to the broker (in the caller's transaction)."""
    session.execute(update(JobRow).where(JobRow.id == job_id)
                    .values(published_at=time.time(), publications=JobRow.publications + 1)
                    .execution_options(synchronize_session=False))


def _changed(session: Session, statement: Any) -> bool:
    result: Any = session.execute(statement.execution_options(synchronize_session=False))
    return bool(result.rowcount)


def take(sessions: sessionmaker[Session], job_id: str, worker: str) -> JobRow | None:
    """Win a queued job for ``worker`` (None: finished, taken by another, or no such job)."""
    now = time.time()
    with sessions() as session:
        won = _changed(session, update(JobRow).where(JobRow.id == job_id, JobRow.status == "queued").values(
            status="running", worker=worker, started_at=now, heartbeat_at=now))
        session.commit()
        return session.get(JobRow, job_id) if won else None


def queued(sessions: sessionmaker[Session], job_id: str) -> JobRow | None:
    """Job ``job_id``'s row if it waits for a worker (a read: nothing is written)."""
    with sessions() as session:
        return session.scalar(select(JobRow).where(JobRow.id == job_id, JobRow.status == "queued"))


def finish(session: Session, job_id: str, worker: str, status: str, *, result: Any = None,
           error: Mapping[str, Any] | None = None, ruling_id: int | None = None, result_text: str | None = None,
           unwon: bool = False) -> bool:
    """End ``worker``'s job (in the caller's transaction); False when the worker no longer holds it.

    ``result_text``: the result already written as JSON (kept as it is). ``unwon``: a job run without winning its
    row first (:func:`take`; a kind whose work has no effect but its result, a collection's part): it ends from
    ``queued`` too, in this one write, and a worker that finds it ended already (another delivery of the same
    message, a cancel) changes nothing."""
    now = time.time()
    values: dict[str, Any] = {"status": status, "finished_at": now, "heartbeat_at": now}
    if status == "done":
        values["fraction"] = 1.0
    if result is not None:
        values["result_json"] = json.dumps(result, ensure_ascii=False, default=str)
    if error is not None:
        values["error_json"] = json.dumps(dict(error), ensure_ascii=False)
    if result_text is not None:
        values["result_json"] = result_text
    if ruling_id is not None:
        values["ruling_id"] = ruling_id
    held = (JobRow.worker == worker) & (JobRow.status == "running")
    if unwon:
        values.update(worker=worker, started_at=func.coalesce(JobRow.started_at, now))
        held = held | (JobRow.status == "queued")
    return _changed(session, update(JobRow).where(JobRow.id == job_id, held).values(**values))


def beat(sessions: sessionmaker[Session], worker: str, progress: Mapping[str, tuple[float | None, str]],
         unwon: Collection[str] = ()) -> set[str]:
    """Write ``worker``'s heartbeat and the progress of its running jobs; the ids whose cancel was asked.

    ``unwon``: jobs among them run without winning their row first (a collection's part, :func:`finish`), still
    at work at this beat: won now (``queued`` to ``running``, in this one write), so that, like any running job,
    another worker takes them again once this one falls silent (:func:`reap`)."""
    if not progress:
        return set()
    now = time.time()
    with sessions() as session:
        if unwon:
            session.execute(update(JobRow).where(JobRow.id.in_(sorted(unwon)), JobRow.status == "queued")
                            .values(status="running", worker=worker, started_at=now, heartbeat_at=now)
                            .execution_options(synchronize_session=False))
        for job_id, (fraction, message) in progress.items():
            session.execute(update(JobRow).where(JobRow.id == job_id, JobRow.worker == worker,
                                                 JobRow.status == "running")
                            .values(heartbeat_at=now, fraction=fraction, message=message[:200])
                            .execution_options(synchronize_session=False))
        cancelled = session.scalars(select(JobRow.id).where(JobRow.id.in_(sorted(progress)),
                                                            JobRow.cancel_requested.is_(True))).all()
        session.commit()
    return set(cancelled)


def reap(sessions: sessionmaker[Session], lease_seconds: float, max_attempts: int) -> list[str]:
    """Put back on the queue every running job whose worker has been silent for ``lease_seconds``.

    Returns the ids put back (to publish again). A job whose worker died ``max_attempts``
    times fails instead, with the reason (noted on its case).
    """

    stale = time.time() - lease_seconds
    with sessions() as session:
        silent = session.execute(select(JobRow.id, JobRow.attempts, JobRow.worker, JobRow.case_id).where(
            JobRow.status == "running", JobRow.heartbeat_at < stale)).all()
        requeued = _put_back(session, silent, max_attempts, "worker lost; waiting for another",
                             JobRow.heartbeat_at < stale)
        session.commit()
    return requeued


def take_back(sessions: sessionmaker[Session], is_gone: Callable[[str], bool], kinds: Collection[str],
              max_attempts: int) -> list[str]:
    """Put back on the queue every running job of ``kinds`` whose worker's process is known to have ended
    (``is_gone(worker)``: a server on this machine that stopped, or was killed, while it ran the job), at once
    rather than after the lease; as :func:`reap` (the ids put back; failed after ``max_attempts``)."""
    with sessions() as session:
        running = session.execute(select(JobRow.id, JobRow.attempts, JobRow.worker, JobRow.case_id).where(
            JobRow.status == "running", JobRow.kind.in_(sorted(kinds)))).all()
        gone = [row for row in running if row[2] is not None and is_gone(row[2])]
        requeued = _put_back(session, gone, max_attempts,
                             "the server running this job stopped; it is taken up again")
        session.commit()
    return requeued


def put_back(sessions: sessionmaker[Session], job_id: str, worker: str, max_attempts: int, message: str) -> bool:
    """Job ``job_id``, which ``worker`` holds and cannot finish because its process is stopping (its engines were
    closed under it), back on the queue with ``message``: the next server takes it up (or, with a broker, the
    sweep sends it again); failed with the reason once its workers stopped ``max_attempts`` times. Whether it is
    queued again."""
    with sessions() as session:
        held = session.execute(select(JobRow.id, JobRow.attempts, JobRow.worker, JobRow.case_id).where(
            JobRow.id == job_id, JobRow.status == "running", JobRow.worker == worker)).all()
        requeued = _put_back(session, held, max_attempts, message)
        session.commit()
    return bool(requeued)


def _put_back(session: Session, found: Sequence[Row[tuple[str, int, str | None, int | None]]], max_attempts: int,
              message: str, *condition: Any) -> list[str]:
    """Each running job of ``found`` (id, attempts, worker, case) back to ``queued`` if its worker still holds it
    (and ``condition`` still holds), or failed with the reason once its worker died ``max_attempts`` times."""
    requeued: list[str] = []
    for job_id, attempts, worker, case_id in found:
        where = (JobRow.id == job_id, JobRow.status == "running", JobRow.worker == worker, *condition)
        if attempts + 1 >= max_attempts:
            reason = f"the job's worker stopped {attempts + 1} times; the job is given up"
            error = {"code": "ruling_failed", "field": None, "message": reason}
            if _changed(session, update(JobRow).where(*where).values(
                    status="failed", error_json=json.dumps(error), finished_at=time.time(),
                    attempts=attempts + 1)) and case_id is not None:
                store.add_note(session, case_id, "failed", reason)
        elif _changed(session, update(JobRow).where(*where).values(
                status="queued", worker=None, attempts=attempts + 1, message=message)):
            requeued.append(job_id)
    return requeued


def is_any_running(sessions: sessionmaker[Session], kinds: Collection[str]) -> bool:
    """Whether a job of ``kinds`` is running (a read)."""
    with sessions() as session:
        return session.scalar(select(JobRow.id).where(JobRow.status == "running", JobRow.kind.in_(sorted(kinds)))
                              .limit(1)) is not None


def hold_queued(session: Session, job_id: str, worker: str, kinds: Collection[str]) -> str | None:
    """``worker`` (an in-process worker, without a broker) holds queued job ``job_id`` in its pool: if the job is
    of ``kinds`` (those a take-up would run), its row says so, so that another server's take-up
    (:func:`left_queued`) leaves it alone while it lives; the job's kind (None: no such job). In the caller's
    transaction."""
    kind: str | None = session.scalar(select(JobRow.kind).where(JobRow.id == job_id))
    if kind in kinds:
        _changed(session, update(JobRow).where(JobRow.id == job_id, JobRow.status == "queued").values(worker=worker))
    return kind


def left_queued(sessions: sessionmaker[Session], is_gone: Callable[[str], bool], kinds: Collection[str]) -> list[str]:
    """The jobs of ``kinds`` queued and held by no worker, or by one known to be gone (``is_gone``: a server that
    stopped with them waiting in its pool), oldest first; each is noted as taken up again."""
    with sessions() as session:
        queued = session.execute(select(JobRow.id, JobRow.worker).where(
            JobRow.status == "queued", JobRow.kind.in_(sorted(kinds))).order_by(JobRow.created_at)).all()
        left = [(job_id, worker) for job_id, worker in queued if worker is None or is_gone(worker)]
        for job_id, worker in left:
            _changed(session, update(JobRow).where(
                JobRow.id == job_id, JobRow.status == "queued",
                JobRow.worker.is_(None) if worker is None else JobRow.worker == worker)
                .values(worker=None, message="the server stopped before this job ran; it is taken up again"))
        session.commit()
    return [job_id for job_id, _worker in left]


def request_cancel(session: Session, job_id: str) -> tuple[str | None, bool]:
    """Ask for a cancel (in the caller's transaction): a queued job ends at once (a claim's case noted
    :data:`CANCELLED_NOTE`), a running one when its work next reads its row (a worker at its heartbeat, a
    collection check at its next write), a check nothing writes any more (its process stopped) at once. The
    job's state after (None: no such job), and whether this call ended it."""
    check_id = check_of(job_id)
    if check_id is not None:
        return _cancel_check(session, check_id)
    _changed(session, update(JobRow).where(JobRow.id == job_id, JobRow.status.in_(("queued", "running")))
             .values(cancel_requested=True))
    ended = _changed(session, update(JobRow).where(JobRow.id == job_id, JobRow.status == "queued")
                     .values(status="cancelled", finished_at=time.time()))
    status, case_id = session.execute(select(JobRow.status, JobRow.case_id).where(JobRow.id == job_id)).first() \
        or (None, None)
    if ended and case_id is not None:
        store.add_note(session, case_id, "cancelled", CANCELLED_NOTE)
    return status, ended


def _cancel_check(session: Session, check_id: int) -> tuple[str | None, bool]:
    now = time.time()
    where = (GameCheck.id == check_id, GameCheck.status.in_(("queued", "running")))
    _changed(session, update(GameCheck).where(*where).values(cancel_requested=True))
    ended = _changed(session, update(GameCheck).where(
        *where, (GameCheck.status == "queued") | (GameCheck.updated_at < now - STALLED_SECONDS))
        .values(status="cancelled", finished_at=now, updated_at=now, message="cancelled by the TD"))
    return session.scalar(select(GameCheck.status).where(GameCheck.id == check_id)), ended


def fail_unsent(session: Session, job_id: str, error: Mapping[str, Any]) -> bool:
    """Fail a queued job that could not be published (in the caller's transaction)."""
    return _changed(session, update(JobRow).where(JobRow.id == job_id, JobRow.status == "queued").values(
        status="failed", finished_at=time.time(), error_json=json.dumps(dict(error), ensure_ascii=False)))


class SessionRows:
    """The queue client's job rows (:class:`web.queue.job_rows.JobRows`) through SQLAlchemy's sessions: the app's
    and the workers' (``check-games`` goes through the database's driver, :mod:`web.queue.direct`)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def add_queued(self, job_id: str, kind: str, payload: Any, *, published: bool = False) -> None:
        with self.sessions() as session:
            session.add(JobRow(**queued_values(job_id, kind, payload=payload, published=published)))
            session.commit()

    def published(self, job_id: str) -> None:
        with self.sessions() as session:
            published(session, job_id)
            session.commit()

    def fail_unsent(self, job_id: str, error: Mapping[str, Any]) -> bool:
        with self.sessions() as session:
            failed = fail_unsent(session, job_id, error)
            session.commit()
        return failed

    def ended(self, job_id: str) -> Ended | None:
        with self.sessions() as session:
            found = session.execute(select(JobRow.status, JobRow.result_json, JobRow.error_json)
                                    .where(JobRow.id == job_id)).first()
        return None if found is None or found[0] not in FINISHED else Ended(*found)

    def forget(self, job_ids: Sequence[str]) -> None:
        with self.sessions() as session:
            session.execute(delete(JobRow).where(JobRow.id.in_(job_ids)))
            session.commit()

    def forget_named(self, prefix: str) -> None:
        with self.sessions() as session:
            session.execute(delete(JobRow).where(JobRow.id.startswith(prefix, autoescape=True)))
            session.commit()

    def close(self) -> None:
        """Nothing: the sessions' engine is its owner's."""
