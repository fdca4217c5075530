"""Engine claims as jobs of the runner (issue 38, item 2): the web process stores the case with its job row
(the claim kind, ``case:<id>``) and the runner sends it to the broker's workers, or without a broker runs it on
the in-process worker (:meth:`web.runner.Runner.publish`); the progress page and the API read the row back
(:class:`RowJob`), from any web process; its cancel is the runner's (:meth:`web.runner.Runner.cancel`), written
into the row."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.contract import parse_case
from web.claim_jobs import Job
from web.queue import QueueUnavailable, rows
from web.runner import Runner
from web.tables import rulings as store
from web.tables.jobs import JobRow

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1
"""How often a request waiting for a claim's job reads its row."""


@dataclass
class RowJob(Job):
    """A claim's job run by a worker (a Celery worker, or this process's in-process worker): what the page
    shows is its row in the database."""

    sessions: sessionmaker[Session] | None = None
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    worker: str | None = None

    @property
    def job_id(self) -> str:
        assert self.case_id is not None
        return rows.claim_job_id(self.case_id)

    @property
    def elapsed(self) -> float:
        start = self.started_at or self.created_at or time.time()
        return max(0.0, (self.finished_at or time.time()) - start)

    def refresh(self) -> RowJob:
        """Read the job's row again (state, progress, message, error, ruling)."""
        assert self.sessions is not None
        with self.sessions() as session:
            row = session.get(JobRow, self.job_id)
            if row is not None:
                self._take(row)
        return self

    def _take(self, row: JobRow) -> None:
        self.state, self.fraction, self.message = row.status, row.fraction, row.message or ""
        self.error, self.ruling_id, self.worker = row.error, row.ruling_id, row.worker
        self.created_at, self.started_at, self.finished_at = row.created_at, row.started_at, row.finished_at
        if row.status in ("done", "failed", "cancelled"):
            self.finished = time.monotonic() if self.finished is None else self.finished

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for a worker to finish the job; whether it has."""
        deadline = time.monotonic() + seconds
        while not self.refresh().is_finished and time.monotonic() < deadline:
            time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))
        return self.is_finished

    @classmethod
    def load(cls, sessions: sessionmaker[Session], case_id: int) -> RowJob | None:
        """The job of a stored case (submitted by any web process), or None when it has no job row."""
        with sessions() as session:
            row = session.get(JobRow, rows.claim_job_id(case_id))
            case = None if row is None else session.get(store.CaseRow, case_id)
            if row is None or case is None:
                return None
            job = cls(case=parse_case(case.data), data=case.data, meta={}, source=case.source, is_background=True,
                      case_id=case_id, event_id=case.event_id, submitted_by_id=case.submitted_by_id,
                      sessions=sessions)
            job._take(row)
        return job


def submit(runner: Runner, job: Job, writing: Any) -> RowJob:
    """Store the case and its job row in one transaction, then send the job to the workers (or, without a
    broker, run it on the in-process worker: :meth:`web.runner.Runner.publish`).

    A broker that cannot be reached fails the job at once, with the reason on the case.
    """
    sessions = runner.sessions
    assert sessions is not None
    with writing, sessions() as session:
        case = store.add_case(session, job.data, job.meta, job.source, job.event_id, job.submitted_by_id)
        session.add(rows.new_row(rows.claim_job_id(case.id), "claim", case_id=case.id))
        session.commit()
        case_id = case.id
    queued = RowJob(case=job.case, data=job.data, meta=job.meta, source=job.source, is_background=True,
                    case_id=case_id, event_id=job.event_id, submitted_by_id=job.submitted_by_id, sessions=sessions,
                    created_at=time.time())
    try:
        runner.publish(queued.job_id)
    except QueueUnavailable as exc:
        log.warning("could not publish the job of case %s: %s", case_id, exc)
        message = f"{exc}; the claim was not ruled on, enter it again"
        with writing, sessions() as session:
            if rows.fail_unsent(session, queued.job_id, {"code": "queue_unavailable", "message": message,
                                                         "field": None}):
                store.add_note(session, case_id, "failed", message)
            session.commit()
    return queued.refresh()
