"""The queue without a broker: a job of a kind started in the web process (:meth:`web.runner.Runner.start`) is
run by an in-process worker (:class:`web.queue.worker.Runtime`) on the runner's pool for its kind, with the
same rows, heartbeat, progress and cancel as on the broker's workers (the embedded default: SQLite, no
broker).

Nothing is lost when the server stops (:meth:`InProcess.take_up`, once, when the next server starts serving): a
claim it had stored and not started (queued behind others in its pool) is run; one it was
running when it was killed is put back and run again at once when its process is known to have ended (it ran on
this machine), else once its lease runs out (the heartbeat's :func:`web.queue.rows.reap`); one a server
stopping on purpose was running was put back on the queue by it (:meth:`web.runner.Work.put_back`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from web.queue import QueueSettings, rows
from web.queue.worker import Runtime, is_gone
from web.runner import Kinds, Runner


class InProcess:
    """The in-process worker of a runner without a broker."""

    def __init__(self, runner: Runner, config: Mapping[str, Any], sessions: sessionmaker[Session], kinds: Kinds,
                 services: Callable[[], Services], book: RulesetBook) -> None:
        self.runner = runner
        self.sessions = sessions
        self.runtime = Runtime(config, sessions, QueueSettings.from_config(config), self.publish, kinds=kinds,
                               services=services, sweeps=False, book=book)
        self._started = False
        self._lock = threading.Lock()
        self.taken_up_kinds = frozenset(name for name in kinds if kinds[name].taken_up)
        """The kinds :meth:`take_up` runs (:attr:`web.runner.JobKind.taken_up`)."""
        self.is_taken_up = False
        """Whether :meth:`take_up` has run to its end (it runs again at the next request until it has)."""
        self._taking_up = threading.Lock()
        runner.local = self.publish

    def publish(self, job_id: str) -> None:
        """Run the job on the runner's pool for its kind (the heartbeat starts with the first job)."""
        self._beat()
        with self.sessions() as session:
            name = rows.hold_queued(session, job_id, self.runtime.name, self.taken_up_kinds) or ""
            session.commit()
        pool = self.runtime.kinds[name].pool if name in self.runtime.kinds else "engine"
        self.runner.submit(pool, self.runtime.run, job_id)

    def take_up(self) -> list[str]:
        """Run the jobs a stopped server left (see the module docstring), once; their ids. Only kinds whose
        result stands by itself are taken up (:attr:`web.runner.JobKind.taken_up`: a claim's ruling is stored
        with its case). A database error leaves it to be tried again (every step is a conditional update)."""
        if self.is_taken_up:
            return []
        with self._taking_up:
            if self.is_taken_up:
                return []
            kinds = self.taken_up_kinds
            settings = self.runtime.settings
            found = rows.take_back(self.sessions, is_gone, kinds, settings.max_attempts)
            found += rows.left_queued(self.sessions, is_gone, kinds)
            for job_id in dict.fromkeys(found):
                self.publish(job_id)  # the heartbeat starts with the first
            if rows.is_any_running(self.sessions, kinds):  # under a worker not known to be gone: its lease tells
                self._beat()
            self.is_taken_up = True
        return found

    def _beat(self) -> None:
        """Start the heartbeat (its reaping too), once."""
        with self._lock:
            if not self._started:
                self._started = True
                self.runtime.start()

    def stop(self) -> None:
        self.runtime.stop()
