"""``adjudicator worker [--concurrency N]``: take jobs from the task queue (``ADJUDICATOR_BROKER_URL``).

The worker rules on engine claims, computes committee recommendations and appeal
re-runs, and checks parts of game collections, with its own engine pool
(``engines.build_services``), writing every job's state into the shared database. It
prints one JSON line naming itself when it is ready, then Celery's log on stderr; it
runs until stopped (SIGTERM/Ctrl-C: running jobs finish first; SIGKILL: they go to
another worker once this one's heartbeat is older than ``[queue] lease_seconds``).
"""

from __future__ import annotations

import argparse
import logging
from typing import Any

from adjudicator.contract import ContractError
from web.cli import emit


def register(sub: Any) -> None:
    parser = sub.add_parser("worker", help="take jobs from the task queue (needs ADJUDICATOR_BROKER_URL)")
    parser.add_argument("--concurrency", type=int, default=None,
                        help="jobs run at once (default [queue] concurrency, 1)")
    parser.add_argument("--loglevel", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from web.config import database_url, load_config  # deferred on purpose: every command's module loads on each run
    from web.db import make_engine, make_sessionmaker, migrate  # deferred on purpose
    from web.kinds import job_kinds  # deferred on purpose: every command's module loads on each run
    from web.queue import BROKER_ENV, QUEUE_NAME, TASK_NAME, QueueSettingsError, broker_url  # deferred on purpose
    from web.queue.remote import Remote  # deferred on purpose: every command's module loads on each run
    from web.queue.rows import SessionRows  # deferred on purpose: every command's module loads on each run
    from web.queue.worker import Runtime  # deferred on purpose: every command's module loads on each run

    url = broker_url()
    if url is None:
        raise ContractError("missing_broker", f"set {BROKER_ENV} to the broker's URL (e.g. redis://localhost:6379/0)",
                            BROKER_ENV)
    config = load_config()
    engine = make_engine(database_url(config))
    migrate(engine)  # the same revisions as the web app's (a no-op when it migrated first)
    sessions = make_sessionmaker(engine)
    try:
        remote = Remote(url, config, SessionRows(sessions))
    except QueueSettingsError as exc:
        raise ContractError("invalid_config", str(exc), "queue") from None
    concurrency = args.concurrency or remote.settings.concurrency
    if concurrency < 1:
        raise ContractError("invalid_field", "--concurrency must be at least 1", "concurrency")
    from web.queue.recovery import held_ids  # deferred on purpose: every command's module loads on each run
    from web.queue.remote import signal_done  # deferred on purpose: every command's module loads on each run

    def held() -> set[str] | None:
        return held_ids(url, remote.settings.lease_seconds)

    runtime = Runtime(config, sessions, remote.settings, remote.publish, held, signal_done(url),
                      kinds=job_kinds())

    @remote.celery.task(name=TASK_NAME)  # type: ignore[untyped-decorator]
    def run_job(job_id: str) -> None:
        runtime.run(job_id)

    logging.basicConfig(level=args.loglevel, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from engines.collection import prepare  # deferred on purpose: every command's module loads on each run

    prepare(config)  # a collection's parts: the rulesets and services built before the first (as check_part does)
    runtime.start()
    emit({"worker": runtime.name, "concurrency": concurrency, "queue": QUEUE_NAME})
    try:
        remote.celery.worker_main(["worker", "--pool=threads", f"--concurrency={concurrency}",
                                   f"--loglevel={args.loglevel}", "-Q", QUEUE_NAME, "--without-gossip",
                                   "--without-mingle", "-n", f"adjudicator-{runtime.name.replace(':', '-')}@%h"])
    finally:
        runtime.stop()
    return 0

