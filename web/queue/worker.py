"""What ``adjudicator worker`` runs: the jobs taken from the queue, with this worker's own engines.

One :class:`Runtime` per worker process: the configuration, the rulesets, the database
and the engine pool (``engines.build_services``, started on first use), and one
heartbeat thread that writes the running jobs' progress into their rows, reads cancel
requests from them, and gives the jobs of silent workers to the queue again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.contract import ContractError, parse_case
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from web.failures import error_of
from web.queue import QueueSettings, rows
from web.queue.recovery import recover
from web.queue.remote import QueueUnavailable
from web.runner import JobCancelled, rule_job
from web.tables import rulings as store
from web.tables.jobs import JobRow

log = logging.getLogger(__name__)


class UnknownJobKind(ValueError):
    """A job row names a kind this worker does not run (a newer web process?)."""


class _Tracker:
    """One running job's progress as the analysis reports it, and whether its cancel was asked."""

    def __init__(self) -> None:
        self.fraction: float | None = None
        self.message = ""
        self.cancelled = threading.Event()

    def progress(self, fraction: float, message: str) -> None:
        if self.cancelled.is_set():
            raise JobCancelled("cancelled by the TD")
        with contextlib.suppress(TypeError, ValueError):
            self.fraction = min(1.0, max(0.0, float(fraction)))
        self.message = str(message)[:200]


class Runtime:
    """A worker process's engines, database and heartbeat."""

    def __init__(self, config: Mapping[str, Any], sessions: sessionmaker[Session], settings: QueueSettings,
                 publish: Callable[[str], None], held: Callable[[], set[str] | None] | None = None,
                 signal: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.signal = signal
        """Called with a collection part's job id once it ended (:func:`web.queue.remote.signal_done`: its waiter
        blocks on the broker instead of reading the row again and again)."""
        self.held = held or (lambda: None)
        """The job ids the broker holds a message for (:func:`web.queue.recovery.held_ids`)."""
        self._swept = 0.0
        self.book = RulesetBook.from_config(config)
        self.sessions = sessions
        self.settings = settings
        self.publish = publish
        self.name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._services: Services | None = None
        self._lock = threading.Lock()
        self._running: dict[str, _Tracker] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the heartbeat
    def start(self) -> None:
        self._thread = threading.Thread(target=self._beat_forever, name="heartbeat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        close = getattr(self._services, "close", None)
        if callable(close):
            close()

    def _beat_forever(self) -> None:
        while not self._stop.wait(self.settings.heartbeat_seconds):
            try:
                self.beat()
            except Exception:  # the database is away a moment: try again at the next beat
                log.exception("heartbeat failed")

    def beat(self) -> None:
        with self._lock:
            running = dict(self._running)
        progress = {job_id: (t.fraction, t.message) for job_id, t in running.items()}
        for job_id in rows.beat(self.sessions, self.name, progress):
            running[job_id].cancelled.set()
        for job_id in rows.reap(self.sessions, self.settings.lease_seconds, self.settings.max_attempts):
            log.warning("job %s: its worker fell silent; queued again", job_id)
            try:
                self.publish(job_id)
            except QueueUnavailable:  # the row is queued and its message lost: recovered below, or failed
                log.warning("job %s: the task queue cannot be reached to send it again", job_id)
        if time.monotonic() - self._swept >= self.settings.requeue_seconds / 3:
            self._swept = time.monotonic()
            recover(self.sessions, self.settings, self.held, self.publish)

    def services(self) -> Services:
        with self._lock:
            if self._services is None:
                from engines import build_services  # deferred on purpose: a worker starts its engines on first use

                self._services = build_services(self.config)
            return self._services

    # ------------------------------------------------------------------ running a job
    def run(self, job_id: str) -> None:
        """Run the job named ``job_id`` if this worker wins it; a job finished or held elsewhere is left alone."""
        row = rows.take(self.sessions, job_id, self.name)
        if row is None:
            log.info("job %s: finished or held by another worker; nothing to do", job_id)
            return
        tracker = _Tracker()
        if row.cancel_requested:
            tracker.cancelled.set()
        with self._lock:
            self._running[job_id] = tracker
        try:
            if row.kind == "claim":
                self._claim(row, tracker)
            elif row.kind == "recommend":
                self._recommend(row)
            elif row.kind == "check-chunk":
                self._check_chunk(row)
            else:
                raise UnknownJobKind(f"job {job_id} has an unknown kind {row.kind!r}")
        except Exception as exc:
            log.exception("job %s failed", job_id)
            self._end(row, "failed", error=error_of(exc, "the job failed"))
        finally:
            with self._lock:
                self._running.pop(job_id, None)
            if row.kind == "check-chunk" and self.signal is not None:
                self.signal(job_id)

    def _end(self, row: JobRow, status: str, *, note: tuple[str, str] | None = None, **values: Any) -> None:
        with self.sessions() as session:
            if rows.finish(session, row.id, self.name, status, **values):
                if note is not None and row.case_id is not None:
                    store.add_note(session, row.case_id, *note)
                session.commit()

    def _claim(self, row: JobRow, tracker: _Tracker) -> None:
        """Rule on a stored case and store the ruling (once: a case already ruled on is left as it is)."""
        assert row.case_id is not None
        with self.sessions() as session:
            case_row = session.get(store.CaseRow, row.case_id)
            done = store.ruling_for_case(session, row.case_id)
            data = None if case_row is None else case_row.data
        if done is not None:
            self._end(row, "done", ruling_id=done.id)
            return
        if data is None:
            self._end(row, "failed", error={"code": "ruling_failed", "field": None, "message": "the case is missing"})
            return
        outcome = rule_job(data, self.book, self.services(), tracker.progress, tracker.cancelled.is_set, row.case_id)
        if outcome.status == "cancelled":
            self._end(row, "cancelled", note=("cancelled", "cancelled by the TD before a ruling"))
            return
        if outcome.error is not None:
            note = (outcome.note or "failed", str(outcome.error["message"]))
            self._end(row, "failed", error=outcome.error, note=note)
            return
        assert outcome.ruling is not None
        with self.sessions() as session:
            stored = store.add_ruling(session, row.case_id, outcome.ruling, outcome.duration_ms)
            if rows.finish(session, row.id, self.name, "done", ruling_id=stored.id):
                session.commit()  # the ruling and the job's end together, or neither
            else:
                session.rollback()  # another worker holds the job now: its ruling counts
                log.warning("job %s: taken over meanwhile; this ruling is dropped", row.id)

    def _recommend(self, row: JobRow) -> None:
        """A committee recommendation or an appeal's re-run (deterministic settings); the result in the row."""
        from web.committee.service import recommend_here  # deferred on purpose: Flask's committee area, on demand

        payload = row.payload or {}
        data = payload.get("case")
        try:
            case = parse_case(data)
        except ContractError as exc:
            self._end(row, "failed", error=exc.to_json()["error"])
            return
        ruling, note, settings = recommend_here(case, self.book, self.config)
        self._end(row, "done", result={"ruling": ruling, "note": note, "settings": json.loads(
            json.dumps(settings, default=str))})

    def _check_chunk(self, row: JobRow) -> None:
        """A part of a collection (``adjudicator check-games``, :func:`engines.collection.check_part`): its records'
        texts, or the file and byte range they lie in (read here); the lines, one per game in order, written as
        the command prints them (:func:`engines.collection.check_part_texts`), and each record's games."""
        from engines.collection import check_part_texts  # deferred on purpose: only a check's part needs it

        payload = dict(row.payload or {})
        self._end(row, "done", result=check_part_texts({**payload, "config": self.config}))
