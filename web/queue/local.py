"""The queue without a broker: a job of a kind started in the web process (:meth:`web.runner.Runner.start`) is
run by an in-process worker (:class:`web.queue.worker.Runtime`) on the runner's pool for its kind, with the
same rows, heartbeat, progress and cancel as on the broker's workers (the embedded default: SQLite, no
broker). A job whose process stopped mid-way is taken up again by the next one's heartbeat."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from web.queue import QueueSettings
from web.queue.worker import Runtime
from web.runner import Kinds, Runner
from web.tables.jobs import JobRow


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
        runner.local = self.publish

    def publish(self, job_id: str) -> None:
        """Run the job on the runner's pool for its kind (the heartbeat starts with the first job)."""
        with self._lock:
            if not self._started:
                self._started = True
                self.runtime.start()
        with self.sessions() as session:
            row = session.get(JobRow, job_id)
            name = "" if row is None else row.kind
        pool = self.runtime.kinds[name].pool if name in self.runtime.kinds else "engine"
        self.runner.submit(pool, self.runtime.run, job_id)

    def stop(self) -> None:
        self.runtime.stop()
