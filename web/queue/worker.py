"""What ``adjudicator worker`` runs: the jobs taken from the queue, with this worker's own engines.

One :class:`Runtime` per worker process: the configuration, the rulesets, the database
and the engine pool (``engines.build_services``, started on first use), and one
heartbeat thread that writes the running jobs' progress into their rows, reads cancel
requests from them, and gives the jobs of silent workers to the queue again. A row's job
runs through the one registry of job kinds (:class:`web.runner.Kinds`, :func:`web.kinds.job_kinds`);
without a broker the same runtime runs in the web process (:mod:`web.queue.local`).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services, ServicesClosed
from web.failures import error_of
from web.queue import QueueSettings, rows
from web.queue.recovery import recover
from web.queue.remote import QueueUnavailable
from web.runner import JobCancelled, Kinds, Tracker, Work
from web.tables import every as _every_table  # noqa: F401  a worker's jobs may write any table
from web.tables import rulings as store

log = logging.getLogger(__name__)


_LIVE: set[str] = set()
"""The names of this process's workers not yet stopped (an app's in-process worker is one; tests make several)."""


def worker_name() -> str:
    """A new worker's name in the job rows: this machine, this process, and a tag of its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def is_gone(worker: str) -> bool:
    """Whether the process of ``worker`` (a :func:`worker_name`) is known to have ended, or stopped its worker:
    it ran on this machine and no process has its id now, or it is this process's id and this process has no
    such worker running (a stopped one, or one of an earlier process with the same id: a container's first
    process after a restart). A worker on another machine, or under a process id in use again, is not known:
    the lease tells (:func:`web.queue.rows.reap`). Machines are told apart by their host name: containers that
    share one and not their process ids must use a broker."""
    host, _, rest = worker.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdecimal():
        return False
    if int(pid) == os.getpid():
        return worker not in _LIVE
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # PermissionError: another user's process holds the id
        return False
    return False


class Runtime:
    """A worker process's engines, database and heartbeat."""

    def __init__(self, config: Mapping[str, Any], sessions: sessionmaker[Session], settings: QueueSettings,
                 publish: Callable[[str], None], held: Callable[[], set[str] | None] | None = None,
                 signal: Callable[[str], None] | None = None, *, kinds: Kinds,
                 services: Callable[[], Services] | None = None, sweeps: bool = True,
                 book: RulesetBook | None = None) -> None:
        self.config = config
        self.kinds = kinds
        """The job kinds this worker runs (:func:`web.kinds.job_kinds`)."""
        self._shared_services = services
        """The engines of the process it runs in (the web app's, for its in-process jobs); None: its own."""
        self.sweeps = sweeps
        """Sends again the queued jobs whose message the broker lost (no broker, nothing is lost: False)."""
        self.signal = signal
        """Called with a collection part's job id once it ended (:func:`web.queue.remote.signal_done`: its waiter
        blocks on the broker instead of reading the row again and again)."""
        self.held = held or (lambda: None)
        """The job ids the broker holds a message for (:func:`web.queue.recovery.held_ids`)."""
        self._swept = 0.0
        self.book = book or RulesetBook.from_config(config)
        self.sessions = sessions
        self.settings = settings
        self.publish = publish
        self.name = worker_name()
        _LIVE.add(self.name)
        self._services: Services | None = None
        self._lock = threading.Lock()
        self._running: dict[str, Tracker] = {}
        self._unwon: set[str] = set()
        """Running jobs whose row was not won first (:attr:`web.runner.JobKind.wins_row_first`)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the heartbeat
    def start(self) -> None:
        self._thread = threading.Thread(target=self._beat_forever, name="heartbeat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the heartbeat and close this worker's own services (a job asking for them after this is told so)."""
        with self._lock:
            self._stop.set()
            services = self._services
        _LIVE.discard(self.name)
        if services is not None:
            services.close()

    def _beat_forever(self) -> None:
        while not self._stop.wait(self.settings.heartbeat_seconds):
            try:
                self.beat()
            except Exception:  # the database is away a moment: try again at the next beat
                log.exception("heartbeat failed")

    def beat(self) -> None:
        with self._lock:
            running = dict(self._running)
            unwon = set(self._unwon)
        progress = {job_id: (t.fraction, t.message) for job_id, t in running.items()}
        for job_id in rows.beat(self.sessions, self.name, progress, unwon):
            running[job_id].cancelled.set()
        for job_id in rows.reap(self.sessions, self.settings.lease_seconds, self.settings.max_attempts):
            log.warning("job %s: its worker fell silent; queued again", job_id)
            try:
                self.publish(job_id)
            except QueueUnavailable:  # the row is queued and its message lost: recovered below, or failed
                log.warning("job %s: the task queue cannot be reached to send it again", job_id)
        if self.sweeps and time.monotonic() - self._swept >= self.settings.requeue_seconds / 3:
            self._swept = time.monotonic()
            recover(self.sessions, self.settings, self.held, self.publish)

    def services(self) -> Services:
        """The engines the jobs use (the app's, or this worker's own, started on first use).

        :raises ServicesClosed: this worker was stopped (services made now would never be closed).
        """
        if self._shared_services is not None:
            return self._shared_services()
        with self._lock:
            if self._stop.is_set():
                raise ServicesClosed("the worker is stopping: no engine is started for it any more")
            if self._services is None:
                from engines import build_services  # deferred on purpose: a worker starts its engines on first use

                self._services = build_services(self.config)
            return self._services

    # ------------------------------------------------------------------ running a job
    def run(self, job_id: str) -> None:
        """Run the job named ``job_id`` if this worker wins it; a job finished or held elsewhere is left alone."""
        row = rows.queued(self.sessions, job_id)  # a read: which kind, and whether it must be won first
        unwon = row is not None and row.kind in self.kinds and not self.kinds[row.kind].wins_row_first
        if row is not None and not unwon:
            row = rows.take(self.sessions, job_id, self.name)
        if row is None:
            log.info("job %s: finished or held by another worker; nothing to do", job_id)
            return
        tracker = Tracker()
        if row.cancel_requested:
            tracker.cancelled.set()
        with self._lock:
            self._running[job_id] = tracker
            if unwon:
                self._unwon.add(job_id)
        work = Work(job_id, row.kind, row.payload, row.case_id, tracker, self)
        signals = False
        try:
            kind = self.kinds[row.kind]
            signals = kind.signals_end
            kind.work(work)
        except JobCancelled:  # the work heard the cancel at a progress report
            self.end(work, "cancelled", note=("cancelled", "cancelled by the TD"))
        except Exception as exc:
            log.exception("job %s failed", job_id)
            self.end(work, "failed", error=error_of(exc, "the job failed"))
        finally:
            with self._lock:
                self._running.pop(job_id, None)
                self._unwon.discard(job_id)
            if signals and self.signal is not None:
                self.signal(job_id)

    def put_back(self, work: Work, message: str) -> None:
        """``work``'s job back on the queue, if this worker still holds it (:func:`web.queue.rows.put_back`)."""
        if rows.put_back(self.sessions, work.job_id, self.name, self.settings.max_attempts, message):
            log.warning("job %s: put back on the queue: %s", work.job_id, message)

    def end(self, work: Work, status: str, *, note: tuple[str, str] | None = None, **values: Any) -> None:
        """End ``work``'s job, if this worker still holds it (with ``note`` on its case)."""
        with self._lock:
            unwon = work.job_id in self._unwon
        with self.sessions() as session:
            if rows.finish(session, work.job_id, self.name, status, unwon=unwon, **values):
                if note is not None and work.case_id is not None:
                    store.add_note(session, work.case_id, *note)
                session.commit()
