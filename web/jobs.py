"""Rulings run here: quick claims answer while the TD waits, engine work runs as a job.

Every claim is a job of the app's runner (:class:`web.runner.Runner`, the claim kind :mod:`web.claim_jobs`):
a quick claim on its ``quick`` pool, in this process's memory; engine work (every claim listed in
``[web] background_claims``) as a job of the claim kind with its row in the ``jobs`` table
(:mod:`web.queue.claims`), on the broker's workers or, without a broker, on the in-process worker
(:mod:`web.queue.local`, the ``engine`` pool), so that any web process shows its progress and cancels it.
The request waits for a quick claim up to ``[web] inline_seconds``; one that takes longer becomes a
background job the page polls for its progress and may cancel. The job stores the ruling itself when it
is done, so nothing is lost when the TD closes the page.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.contract import Case
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services, ServicesClosed
from web.claim_jobs import CLAIM, Job, rule_job
from web.queue import QueueUnavailable, claims
from web.queue.claims import RowJob
from web.queue.local import InProcess
from web.queue.recovery import Sweeper
from web.queue.remote import Remote
from web.queue.rows import CANCELLED_NOTE, SessionRows, claim_job_id
from web.runner import JobCancelled, Kinds, Runner
from web.settings import DEFAULT_BACKGROUND, Settings
from web.tables import rulings as store

log = logging.getLogger(__name__)

__all__ = ["Adjudicator", "Job", "JobCancelled", "DEFAULT_BACKGROUND"]


@dataclass
class _Pending:
    """A ruling waiting to be written (see :meth:`Adjudicator._store_ruling`)."""

    job: Job
    ruling: dict[str, Any]
    duration_ms: int
    played: dict[str, Any] | None = None
    """The game as the ruling read it, kept with it (:attr:`web.claim_jobs.Outcome.played`)."""
    case_id: int | None = None
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def fail(self) -> None:
        self.error = sys.exc_info()[1] or RuntimeError("the ruling could not be stored")
        self.done.set()


class Adjudicator:
    """The app's thread pools, services and running jobs."""

    def __init__(self, config: Mapping[str, Any], book: RulesetBook, sessions: sessionmaker[Session],
                 kinds: Kinds | None = None) -> None:
        settings = Settings.of(config)
        web = settings.web
        self.config = config
        self.book = book
        self.sessions = sessions
        self.inline_seconds = web.inline_seconds
        self.api_timeout_seconds = web.api_timeout_seconds
        self.background_claims = tuple(web.background_claims)
        self.expected_seconds = settings.engines.timeout_seconds
        self._services: Services | None = None
        self._lock = threading.Lock()
        is_sqlite = sessions.kw["bind"].dialect.name == "sqlite"
        self._writing: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if is_sqlite else contextlib.nullcontext()
        )
        """SQLite takes one writer at a time: queue writers here rather than in its sleeping busy handler."""
        self._pending: list[_Pending] = []
        self._pending_lock = threading.Lock()
        self._jobs: OrderedDict[int, Job] = OrderedDict()
        self.keep_jobs = 500
        self.remote = Remote.from_environment(config, SessionRows(sessions))
        """The task queue's workers (``ADJUDICATOR_BROKER_URL``): background jobs go there; None: this process."""
        self.runner = Runner(config, self.remote, sessions)
        """The one job runner: claims, committee analyses and collection checks run on it."""
        kinds = kinds or Kinds(())
        if CLAIM.name not in kinds:  # an engine claim is a job of the claim kind wherever it runs
            kinds = Kinds((CLAIM, *kinds.values()))
        self.in_process = None if self.remote is not None else InProcess(self.runner, config, sessions,
                                                                         kinds, self.services, book)
        """Without a broker: the worker that runs here the jobs of a kind started on the runner."""
        self._closers: list[Callable[[], None]] = []
        """What else :meth:`shutdown` ends (the move-entry board's candidate engine): :meth:`add_closer`."""
        self.is_shut_down = False
        """Whether :meth:`shutdown` ran (the test harness checks that every app it made was shut down)."""
        self.sweeper: Any = None
        """With the queue: the thread that sends again (or fails) the jobs whose message the broker lost."""
        if self.remote is not None:
            self.sweeper = Sweeper(self.remote, sessions).start()

    def services(self) -> Services:
        """The engines and probes, started on first use (a page that rules on nothing starts none).

        :raises ServicesClosed: the app was shut down (a job still running then would otherwise start engines
            that nothing closes: their threads kept the process from ending).
        """
        with self._lock:
            if self.is_shut_down:
                raise ServicesClosed("the app is shutting down: no engine is started for it any more")
            if self._services is None:
                from engines import build_services  # deferred on purpose: a page that rules on nothing loads no engine

                self._services = build_services(self.config)
            return self._services

    def add_closer(self, closer: Callable[[], None]) -> bool:
        """Have :meth:`shutdown` call ``closer``; False (and nothing kept) when the app is already shut down: the
        caller closes what it made itself."""
        with self._lock:
            if self.is_shut_down:
                return False
            self._closers.append(closer)
            return True

    def is_background(self, claim: str) -> bool:
        return claim in self.background_claims

    def submit(self, case: Case, data: Mapping[str, Any], meta: Mapping[str, Any], source: str, *,
               event_id: int = 1, submitted_by_id: int | None = None) -> Job:
        """Start ruling on a validated case in an event: a background claim is a job of the claim kind, its case
        and row stored first (:func:`web.queue.claims.submit`); a quick claim runs on the ``quick`` pool."""
        job = Job(case=case, data=data, meta=meta, source=source, is_background=self.is_background(case.claim),
                  event_id=event_id, submitted_by_id=submitted_by_id)
        if job.is_background:
            queued = claims.submit(self.runner, job, self._writing)
            self._register(queued)
            return queued
        job.future = self.runner.submit("quick", self._run, job)
        return job

    def persist(self, job: Job) -> int:
        """Store the job's case now if it is not stored yet (it is going to take a while); its id."""
        with job.lock:
            if job.case_id is None:
                with self._writing, self.sessions() as session:
                    job.case_id = store.add_case(session, job.data, job.meta, job.source, job.event_id,
                                                 job.submitted_by_id).id
                    session.commit()
                self._register(job)
            return job.case_id

    def _register(self, job: Job) -> None:
        assert job.case_id is not None
        if not isinstance(job, RowJob) and not job.is_finished:  # its cancel: the runner's, by its job id
            self.runner.hold(claim_job_id(job.case_id), lambda: self._stop(job))
        with self._lock:
            self._jobs[job.case_id] = job
            while len(self._jobs) > self.keep_jobs:
                oldest_id, oldest = next(iter(self._jobs.items()))
                if not oldest.is_finished and not isinstance(oldest, RowJob):  # a row's job is read again at need
                    break
                del self._jobs[oldest_id]

    def job(self, case_id: int) -> Job | None:
        """The case's job: a quick claim in this process's memory, or a background claim's row as its worker (a
        Celery worker, or the in-process worker of any web process) last wrote it."""
        with self._lock:
            found = self._jobs.get(case_id)
        if found is not None and not isinstance(found, RowJob):
            return found
        if isinstance(found, RowJob):
            return found.refresh()
        loaded = RowJob.load(self.sessions, case_id)
        if loaded is not None:
            self._register(loaded)
        return loaded

    def _stop(self, job: Job) -> str:
        """Stop a quick claim this process rules on in its memory (its cancel, :meth:`web.runner.Runner.cancel`): its
        analysis's next progress report raises; a job not yet started never starts. Its state after."""
        if not job.is_finished:
            job.cancel_requested.set()
            if job.future is not None and job.future.cancel():
                self._finish_cancelled(job)
        return job.state

    def _finish_cancelled(self, job: Job) -> None:
        case_id = self.persist(job)
        with self._writing, self.sessions() as session:
            store.add_note(session, case_id, "cancelled", CANCELLED_NOTE)
            session.commit()
        job.state, job.finished = "cancelled", time.monotonic()
        self.runner.release(claim_job_id(case_id))

    def _run(self, job: Job) -> None:
        try:
            self._rule(job)
        finally:
            if job.case_id is not None:
                self.runner.release(claim_job_id(job.case_id))

    def _rule(self, job: Job) -> None:
        job.state = "running"
        job.started = time.monotonic()
        outcome = rule_job(job.case, self.book, self.services, job.progress, job.cancel_requested.is_set,
                           job.case_id, job.data)
        if outcome.status == "cancelled":
            self._finish_cancelled(job)
            return
        if outcome.error is not None:
            self._fail(job, outcome.error, outcome.note or "failed")
            return
        assert outcome.ruling is not None
        ruling = outcome.ruling
        try:
            with job.lock:
                self._store_ruling(_Pending(job, ruling, outcome.duration_ms, outcome.played))
        except Exception as exc:
            log.exception("the ruling on case %s could not be stored", job.case_id)
            error = {"code": "ruling_failed", "message": f"the ruling could not be stored: {type(exc).__name__}",
                     "field": None}
            self._fail(job, error, "failed")
            return
        self._register(job)
        job.fraction = 1.0
        job.state, job.finished = "done", time.monotonic()

    def _store_ruling(self, item: _Pending) -> None:
        """Store a ruling (and a quick claim's case with it), committed before this returns.

        Group commit: rulings that finish while another is being written queue up, and
        the next writer stores every queued one in one transaction, so one disk sync
        (SQLite ``synchronous=FULL``) serves them all. Each caller holds its job's lock.
        """
        with self._pending_lock:
            self._pending.append(item)
        with self._writing:
            if not item.done.is_set():
                with self._pending_lock:
                    batch, self._pending = self._pending, []
                try:
                    self._write(batch)
                finally:  # never leave a waiting caller hanging
                    for other in batch:
                        if not other.done.is_set():
                            other.error = other.error or RuntimeError("the ruling could not be stored")
                            other.done.set()
        item.done.wait()
        if item.error is not None:
            raise item.error

    def _write(self, batch: list[_Pending]) -> None:
        """Write ``batch`` in one transaction; if that fails, each item in its own (one bad row fails alone)."""
        if not batch:
            return
        try:
            self._write_together(batch)
        except Exception:
            if len(batch) == 1:
                batch[0].fail()
                return
            log.exception("a group of %d rulings could not be stored together; storing them one by one", len(batch))
            for item in batch:
                self._write([item])
            return
        for item in batch:
            item.done.set()

    def _write_together(self, batch: list[_Pending]) -> None:
        with self.sessions() as session:
            new_cases = [(item, store.case_row(item.job.data, item.job.meta, item.job.source, item.job.event_id,
                                               item.job.submitted_by_id))
                         for item in batch if item.job.case_id is None]  # quick claims: case and ruling together
            session.add_all([row for _item, row in new_cases])
            session.flush()
            for item, row in new_cases:
                item.case_id = row.id
            rulings = [store.ruling_row(item.case_id or item.job.case_id or 0, item.ruling, item.duration_ms,
                                        item.played)
                       for item in batch]
            session.add_all(rulings)
            session.flush()
            session.commit()
        for item, ruling_row in zip(batch, rulings, strict=True):
            item.job.case_id = item.case_id or item.job.case_id
            item.job.ruling_id, item.job.ruling_row = ruling_row.id, ruling_row

    def _fail(self, job: Job, error: dict[str, Any], kind: str) -> None:
        """Record why there is no ruling; a case the contract rejects is not kept unless already stored."""
        job.error = error
        try:
            if kind == "failed" or job.case_id is not None:
                case_id = self.persist(job)
                with self._writing, self.sessions() as session:
                    store.add_note(session, case_id, kind, str(error.get("message")))
                    session.commit()
        except Exception:
            log.exception("could not note the failure of case %s", job.case_id)
        job.state, job.finished = "failed", time.monotonic()

    def take_up(self) -> list[str]:
        """Run the jobs a stopped server of this database left, once, when this one starts serving (without a
        broker: :meth:`web.queue.local.InProcess.take_up`; with one, its workers' sweeps and leases do); their
        ids."""
        if self.is_shut_down or self.in_process is None:  # read without a lock: this runs at every request
            return []
        try:
            return self.in_process.take_up()
        except QueueUnavailable:  # shut down meanwhile: the jobs stay queued for the next start
            return []
        except SQLAlchemyError as exc:  # the database away (or not built yet): the request goes on; tried at the next
            log.warning("the jobs a stopped server left could not be read: %s", exc)
            return []

    def shutdown(self) -> None:
        """Stop the threads, close the services, the broker's clients and the database's idle connections; once
        (later calls do nothing)."""
        with self._lock:  # one lock with services() and add_closer(): what is made after this is never closed
            if self.is_shut_down:
                return
            self.is_shut_down = True
            services = self._services
            closers, self._closers = self._closers, []
        if self.sweeper is not None:
            self.sweeper.stop()
        self.runner.shutdown()
        if self.in_process is not None:
            self.in_process.stop()
        if services is not None:
            services.close()
        for closer in closers:
            closer()
        if self.remote is not None:
            self.remote.close()  # the broker's clients (a waiter still at work makes its own again)
        self.sessions.kw["bind"].dispose()  # the pool's idle connections (and their files) closed now
