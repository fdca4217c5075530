"""No stuck job (issue 23): a queued job whose message the broker lost is sent again, or failed with the
reason, within a bounded time.

A redis-server without persistence that restarts (or is killed) forgets every message it held, and
a job whose row says ``queued`` would wait for good: the workers' lease (``rows.reap``) only sees
running jobs. :func:`recover` looks at each job queued for ``[queue] requeue_seconds`` since its
message was last sent and asks the broker whether it still holds that message (waiting in the
queue, or delivered to a worker and not yet acknowledged):

- it does: the job is only waiting for a free worker; nothing to do (a message delivered to a worker
  longer than ``[queue] lease_seconds`` ago and not acknowledged, its job still queued, does not count:
  that worker died before it held the row, :func:`held_ids`);
- it does not: the message is sent again, and the row says so (the job's page shows "the task
  queue lost this job; it was sent to the workers again");
- the broker cannot be reached: once the job has waited ``[queue] give_up_seconds`` it fails, with
  the reason on its page (and on its case): the TD enters it again when the queue is back.

A job sent ``max_attempts + 2`` times and never taken fails too (a broker that keeps losing it).
Every step is a conditional update, so the web processes and the workers, which all sweep, never
send one job twice for one loss (a second message would do no harm: a worker must win the row).
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from web.queue import QUEUE_NAME, QueueSettings
from web.queue.remote import QueueUnavailable
from web.tables import rulings as store
from web.tables.jobs import JobRow

log = logging.getLogger(__name__)

LOST = "the task queue lost this job; it was sent to the workers again"
_TASK_ID = re.compile(rb'"id": "([^"]+)#[0-9a-f]{8}"')
"""A message's task id (``<job id>#<8 hex digits>``, :meth:`web.queue.remote.Remote.publish`) in Celery's JSON."""


def held_ids(url: str, delivered_within: float | None = None) -> set[str] | None:
    """The ids of the jobs the broker at ``url`` holds a message for: waiting in the queue, or delivered
    and not yet acknowledged (kombu's ``unacked`` hash). None: it cannot be told (not Redis, or away).

    ``delivered_within``: a message delivered longer ago than this (kombu's ``unacked_index``, the delivery
    times) does not count, where the caller asks about queued jobs only: a job still queued that long after
    a worker got its message is one whose worker died before it held the row (a collection's part is held
    only at its worker's first heartbeat, :mod:`web.queue.part_job`), and the broker would give it back only
    after its visibility timeout (an hour)."""
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis  # deferred on purpose: only a Redis broker is asked

    try:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            messages: list[Any] = []
            for key in client.scan_iter(match=f"{QUEUE_NAME}*", count=100):
                if client.type(key) == b"list":
                    messages.extend(client.lrange(key, 0, -1))
            if delivered_within is None:
                messages.extend(client.hvals("unacked"))
            else:
                delivered: Any = client.zrangebyscore("unacked_index", time.time() - delivered_within, "+inf")
                recent = set(delivered)
                messages.extend(message for tag, message in client.hgetall("unacked").items() if tag in recent)
        finally:
            client.close()
    except redis.RedisError:
        return None
    return {found.decode("utf-8", "replace") for message in messages if isinstance(message, bytes)
            for found in _TASK_ID.findall(message)}


def _fail(session: Session, row: JobRow, message: str) -> bool:
    error = {"code": "queue_unavailable", "message": message, "field": None}
    failed = session.execute(update(JobRow).where(JobRow.id == row.id, JobRow.status == "queued").values(
        status="failed", finished_at=time.time(), error_json=json.dumps(error), message=message)
        .execution_options(synchronize_session=False))
    if getattr(failed, "rowcount", 0) and row.case_id is not None:
        store.add_note(session, row.case_id, "failed", message)
    return bool(getattr(failed, "rowcount", 0))


def recover(sessions: sessionmaker[Session], settings: QueueSettings, held: Callable[[], set[str] | None],
            publish: Callable[[str], None]) -> dict[str, str]:
    """Send again, or fail, every queued job whose message is lost; what was done to each (job id -> ``sent``
    or ``failed``)."""

    now = time.time()
    sent_before = func.coalesce(JobRow.published_at, JobRow.created_at)
    with sessions() as session:
        waiting = list(session.scalars(select(JobRow).where(JobRow.status == "queued",
                                                            sent_before < now - settings.requeue_seconds)))
    if not waiting:
        return {}
    holding = held()
    done: dict[str, str] = {}
    for row in waiting:
        if holding is not None and row.id in holding:
            continue  # in the broker: waiting for a free worker
        with sessions() as session:
            if row.publications >= settings.max_attempts + 2:
                if _fail(session, row, f"the task queue lost this job {row.publications} times; it was given up, "
                                       "enter it again"):
                    done[row.id] = "failed"
                session.commit()
                continue
            last = row.published_at if row.published_at is not None else row.created_at
            won = session.execute(update(JobRow).where(JobRow.id == row.id, JobRow.status == "queued",
                                                       sent_before == last)
                                  .values(published_at=now).execution_options(synchronize_session=False))
            session.commit()
        if not getattr(won, "rowcount", 0):
            continue  # another sweeper took it, or a worker did
        try:
            publish(row.id)
        except QueueUnavailable as exc:
            waited = now - row.created_at
            with sessions() as session:
                if waited < settings.give_up_seconds:
                    _say(session, row.id, f"the task queue lost this job and cannot be reached now; it is sent "
                                          f"again when it can be (given up after {settings.give_up_seconds:.0f} s)")
                elif _fail(session, row, f"the task queue lost this job and cannot be reached ({exc}); it was "
                                         f"given up after {waited:.0f} s, enter it again"):
                    done[row.id] = "failed"
                session.commit()
            continue
        with sessions() as session:
            _say(session, row.id, LOST)
            session.commit()
        done[row.id] = "sent"
        log.warning("job %s: its message was lost; sent again", row.id)
    return done


def _say(session: Session, job_id: str, message: str) -> None:
    """The queued job's message, as its page shows it."""
    session.execute(update(JobRow).where(JobRow.id == job_id, JobRow.status == "queued").values(message=message)
                    .execution_options(synchronize_session=False))


class Sweeper:
    """A daemon thread that runs :func:`recover` every third of ``requeue_seconds`` (the web process's)."""

    def __init__(self, remote: Any, sessions: sessionmaker[Session]) -> None:
        self.remote = remote
        self.sessions = sessions
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="queue-sweeper", daemon=True)

    def start(self) -> Sweeper:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        settings: QueueSettings = self.remote.settings
        while not self._stop.wait(max(0.5, settings.requeue_seconds / 3)):
            try:
                recover(self.sessions, settings, lambda: held_ids(self.remote.url, settings.lease_seconds),
                        self.remote.publish)
            except Exception:  # the database is away a moment: try again at the next round
                log.exception("the queue sweep failed")
