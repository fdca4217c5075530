"""The one job runner: claims, committee analyses and collection checks are jobs of it (issue 38, item 2).

A *job kind* (:class:`JobKind`) is a name, the pool it runs on in this process, and the work a queue worker
does for it. The :class:`Runner` holds this process's pools (one per pool name, sized by ``[web]``) and
the broker's workers when ``ADJUDICATOR_BROKER_URL`` names one; the queue's worker
(:mod:`web.queue.worker`) runs a row's kind through the same registry (:class:`Kinds`). How a job
reports its progress and hears its cancel is one thing, whichever process runs it: a :class:`Tracker`
that the work calls with its share done; once the cancel is asked, the next report raises
:class:`JobCancelled`. What the page shows of any job is one :class:`Progress`, drawn by one fragment
(``templates/jobs/_progress.html``). See ``docs/jobs.md``.

This module is infrastructure: it imports no area of the web app (the kinds are put together in
:mod:`web.kinds`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from web.queue import QueueUnavailable, rows
from web.settings import Settings
from web.tables.jobs import JobRow

POOLS = {"quick": "rule_workers", "engine": "engine_workers", "check": "check_workers"}
"""The pools of this process: name -> the ``[web]`` setting sizing it. ``quick``: claims the TD waits for;
``engine``: background claims without a broker (on the in-process worker); ``check``: collection checks (each on
its thread)."""


class JobCancelled(RuntimeError):
    """The TD cancelled the job (raised from the progress callback)."""


class UnknownJobKind(ValueError):
    """A job names a kind this process does not run (a newer web process?)."""


class Reported(Protocol):
    fraction: float | None
    message: str


def report(job: Reported, fraction: float, message: str, cancelled: threading.Event) -> None:
    """A job's work reports its share done and what it is doing; raises :class:`JobCancelled` once the TD
    cancelled (every job hears its cancel here, whichever process runs it)."""
    if cancelled.is_set():
        raise JobCancelled("cancelled by the TD")
    with contextlib.suppress(TypeError, ValueError):
        job.fraction = min(1.0, max(0.0, float(fraction)))
    job.message = str(message)[:200]


class Tracker:
    """One running job's progress as its work reports it, and whether its cancel was asked."""

    def __init__(self) -> None:
        self.fraction: float | None = None
        self.message = ""
        self.cancelled = threading.Event()

    def progress(self, fraction: float, message: str) -> None:
        """The work reports progress; raises :class:`JobCancelled` once the TD cancels."""
        report(self, fraction, message, self.cancelled)

    def is_cancelled(self) -> bool:
        return self.cancelled.is_set()


@dataclass(frozen=True)
class Progress:
    """What the one progress fragment (``templates/jobs/_progress.html``) shows of a job, whatever its kind."""

    state: str
    """queued, running, done, failed or cancelled."""
    heading: str
    """What the job is doing, in words ("Analysing…", "Checking the games…")."""
    percent: int | None = None
    """The share done (None: the work has measured none yet: an indeterminate bar)."""
    detail: str = ""
    """Beside the words: how far, or how long ("3 of 10 games", "12 s")."""
    stage: str = ""
    """The work's own last message."""
    line: str = ""
    """An analysis's best line so far."""

    @property
    def is_finished(self) -> bool:
        return self.state in ("done", "failed", "cancelled")


class Host(Protocol):
    """What a queue worker gives a job's work: its configuration, rulesets, database and engines, and the end."""

    config: Mapping[str, Any]
    book: Any
    sessions: Any
    name: str

    def services(self) -> Any: ...

    def end(self, work: Work, status: str, *, note: tuple[str, str] | None = None, **values: Any) -> None: ...

    def put_back(self, work: Work, message: str) -> None: ...


@dataclass(frozen=True)
class Work:
    """One job handed to its kind's work on a queue worker: its row's facts, its tracker, the worker."""

    job_id: str
    kind: str
    payload: Any
    case_id: int | None
    tracker: Tracker
    host: Host

    def end(self, status: str, *, note: tuple[str, str] | None = None, **values: Any) -> None:
        """End the job (``done``, ``failed`` or ``cancelled``), with a note on its case, its result or error."""
        self.host.end(self, status, note=note, **values)

    def put_back(self, message: str) -> None:
        """The job could not end because its process is stopping: back on the queue for the next server (see
        :func:`web.queue.rows.put_back`), with ``message`` on its page."""
        self.host.put_back(self, message)


@dataclass(frozen=True)
class JobKind:
    """A kind of job: its name (the job row's ``kind``), the pool it runs on in this process, and what a
    queue worker does for it (``work``: ends the job through :meth:`Work.end`)."""

    name: str
    work: Callable[[Work], None]
    pool: str = "engine"
    signals_end: bool = False
    """The worker signals the job's end on the broker (:func:`web.queue.remote.signal_done`): its waiter blocks."""
    wins_row_first: bool = True
    """A queue worker wins the job's row (``queued`` to ``running``, a write) before it starts the work. False: a
    work whose only effect is its result, the same however often it runs (a collection's part): the row is won
    as the result is written, in one write (:func:`web.queue.rows.finish`), or by the heartbeat if the work
    outlasts one; a second delivery of the message may run it again and changes nothing."""
    taken_up: bool = True
    """A job of this kind that a stopped server left is run by the next one to start, without a broker
    (:meth:`web.queue.local.InProcess.take_up`). False: its result is for a waiter that ended with its server
    (a collection's part: the check waiting for it; a committee analysis: the request waiting for it)."""


class Kinds(Mapping[str, JobKind]):
    """The job kinds a process runs, by name."""

    def __init__(self, kinds: Iterable[JobKind]) -> None:
        self._kinds = {kind.name: kind for kind in kinds}

    def __getitem__(self, name: str) -> JobKind:
        try:
            return self._kinds[name]
        except KeyError:
            raise UnknownJobKind(f"unknown job kind {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._kinds

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)


def progress_of_row(row: JobRow) -> Progress:
    """What the progress fragment shows of a job whose state is its row (any kind started by :meth:`Runner.start`)."""
    percent = max(1, int(row.fraction * 100)) if row.fraction else None
    heading = "Waiting to start…" if row.status == "queued" else "Working…"
    return Progress(row.status, heading, 100 if row.status == "done" else percent, "", row.message or "")


class RunnerShutDown(QueueUnavailable):
    """The runner was shut down (its process is stopping): no job starts in this process any more. A caller
    that stored a job's row fails it with the reason, as when the broker cannot be reached."""


class Runner:
    """This process's pools and, with a broker, its workers: every job of the app runs here.

    A job of a kind (:meth:`start`) keeps its state in its row of the ``jobs`` table whichever process runs it:
    on the broker's workers, or without a broker on this process's pool for its kind (``local``: the
    in-process worker, :class:`web.queue.local.InProcess`). Its progress is its row (:meth:`progress`);
    its cancel is written there (:meth:`cancel`) and read by the work at its next heartbeat. :meth:`cancel` is
    the one cancel of every job: a quick claim ruled in this process's memory (:meth:`hold`) and a collection
    check (its ``game_checks`` row) are stopped by it too. An engine claim is a job of a kind like any other
    (:mod:`web.queue.claims`): its row is written with its case, then :meth:`publish`.
    """

    def __init__(self, config: Mapping[str, Any], remote: Any = None,
                 sessions: sessionmaker[Session] | None = None) -> None:
        self.config = config
        self.remote = remote
        """The task queue's workers (``ADJUDICATOR_BROKER_URL``); None: every job runs in this process."""
        self.sessions = sessions
        self.local: Callable[[str], None] | None = None
        """Runs a job whose row is written in this process (set where there is no broker)."""
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._lock = threading.Lock()
        self._held: dict[str, Callable[[], str]] = {}
        """The jobs this process runs in its memory (a quick claim on the ``quick`` pool): how to stop each (see
        :meth:`hold`)."""
        self.is_shut_down = False

    def size(self, pool: str) -> int:
        return max(1, int(getattr(Settings.of(self.config).web, POOLS[pool])))

    def pool(self, name: str) -> ThreadPoolExecutor:
        """The pool ``name`` (started on first use).

        :raises RunnerShutDown: the runner was shut down (a pool started now would never be stopped).
        """
        with self._lock:
            if self.is_shut_down:
                raise RunnerShutDown("the server is shutting down: no job starts here any more; try again shortly")
            found = self._pools.get(name)
            if found is None:
                found = self._pools[name] = ThreadPoolExecutor(self.size(name), thread_name_prefix=name)
            return found

    def submit(self, pool: str, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``fn(*args)`` on pool ``pool`` of this process."""
        return self.pool(pool).submit(fn, *args)

    def run(self, kind: str, payload: Any, here: Callable[[], Any]) -> Any:
        """Run one job and wait for its result: on the broker's workers when there is one (the worker runs
        kind ``kind`` on ``payload``; see :meth:`web.queue.remote.Remote.run` for what it raises), else
        ``here()`` in this thread."""
        if self.remote is None:
            return here()
        return self.remote.run(kind, payload)

    def start(self, kind: str, job_id: str, payload: Any = None, *, case_id: int | None = None) -> None:
        """Start a job of ``kind`` named ``job_id`` (its idempotent name: a job started twice runs once), with
        ``payload`` (JSON): its row is written, then it is sent to the broker's workers, or run here.

        :raises web.queue.QueueUnavailable: the broker cannot be reached (the row is failed with the reason).
        """
        assert self.sessions is not None, "a runner without a database starts no job of a kind"
        with self.sessions() as session:
            try:
                session.add(rows.new_row(job_id, kind, case_id=case_id, payload=payload))
                session.commit()
            except IntegrityError:  # started already: that start runs it
                session.rollback()
                return
        if self.remote is not None:
            self.remote.send(job_id)
        elif self.local is not None:
            self.local(job_id)

    def publish(self, job_id: str) -> None:
        """Send job ``job_id``, whose row its caller wrote (with what goes with it, in one transaction: a claim's
        case), to the broker's workers, or run it here on the in-process worker: the rest of :meth:`start`.

        :raises web.queue.QueueUnavailable: the broker cannot be reached (the row is left to the caller).
        """
        if self.remote is not None:
            self.remote.publish(job_id)
        elif self.local is not None:
            self.local(job_id)

    def hold(self, job_id: str, stop: Callable[[], str]) -> None:
        """Job ``job_id`` runs in this process's memory (a quick claim on the ``quick`` pool, with no job row):
        :meth:`cancel` calls ``stop`` (it asks the job's tracker to stop, or ends now a job not yet started; the
        job's state after)."""
        with self._lock:
            self._held[job_id] = stop

    def release(self, job_id: str) -> None:
        """Job ``job_id`` ended in this process (its row, if any, says the rest)."""
        with self._lock:
            self._held.pop(job_id, None)

    def cancel(self, job_id: str) -> str | None:
        """Ask job ``job_id`` to stop, whatever its kind and whichever process runs it: the one cancel of the app.

        A job this process runs in its memory is stopped here (its work's next progress report raises
        :class:`JobCancelled`); the cancel is written into the job's row (:func:`web.queue.rows.request_cancel`:
        the ``jobs`` table's, or a collection check's), so a queued job ends now and a running one when its work
        next reads its row (a worker's heartbeat, in this process or on the broker's workers; a check's next
        write), on any process. Its state after (None: no such job)."""
        with self._lock:
            stop = self._held.get(job_id)
        status = None if stop is None else stop()
        assert self.sessions is not None
        with self.sessions() as session:
            found, _ended = rows.request_cancel(session, job_id)
            session.commit()
        return found or status

    def progress(self, job_id: str) -> Progress | None:
        """What the progress fragment shows of job ``job_id`` now (None: no such job)."""
        assert self.sessions is not None
        with self.sessions() as session:
            row = session.get(JobRow, job_id)
            return None if row is None else progress_of_row(row)

    def shutdown(self) -> None:
        """Stop the pools (running jobs are not waited for; queued ones never start); once."""
        with self._lock:  # one lock with pool(): a pool started after this would never be stopped
            if self.is_shut_down:
                return
            self.is_shut_down = True
            pools = list(self._pools.values())
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)
