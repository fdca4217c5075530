"""The web (or a command's) side of the queue: write a job's row, publish its id, read its state back."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from web.queue import QUEUE_NAME, TASK_NAME, QueueSettings, QueueUnavailable, broker_url, make_celery
from web.queue.job_rows import Ended, JobRows

STOP_SECONDS = 1.0
"""How often a wait asks its ``stop`` whether to give up."""
DONE_KEY = "adjudicator:done:"
"""A Redis list a worker pushes to when it ends a job whose waiter blocks on it (``DONE_KEY + job_id``)."""
DONE_TTL_SECONDS = 600
"""A signal no waiter took (its part's row was read before it came) expires after this long."""


class QueueTimeout(TimeoutError):
    """The workers did not finish a job the caller waits for in time (none running, or all busy)."""


class Stopped(Exception):
    """The caller's ``stop`` said to stop waiting (a TD cancelled the check that waits)."""


class JobFailed(RuntimeError):
    """A job the caller waits for failed on its worker; ``error`` is the contract's error object."""

    def __init__(self, error: Mapping[str, Any]) -> None:
        super().__init__(str(error.get("message")))
        self.error = dict(error)


class Remote:
    """Publishes jobs to the broker's workers; the job rows are the only state (written and read through ``jobs``:
    :class:`web.queue.rows.SessionRows` in the app and the workers, :mod:`web.queue.direct` in ``check-games``)."""

    POLL_SECONDS = 0.1

    def __init__(self, url: str, config: Mapping[str, Any], jobs: JobRows) -> None:
        self.url = url
        self.settings = QueueSettings.from_config(config)
        self.jobs = jobs
        self._celery: Any = None
        self._signals: Any = None
        self._pusher: Any = None

    @property
    def celery(self) -> Any:
        """The Celery app (:func:`web.queue.make_celery`): a worker's, and the sender's where the broker is not
        Redis; made on first use (a Redis broker's jobs are sent without it: :meth:`_send_task`)."""
        if self._celery is None:
            self._celery = make_celery(self.url, self.settings)
        return self._celery

    @classmethod
    def from_environment(cls, config: Mapping[str, Any], jobs: JobRows) -> Remote | None:
        """The queue named by ``ADJUDICATOR_BROKER_URL``, or None (jobs run in this process)."""
        url = broker_url()
        return None if url is None else cls(url, config, jobs)

    def close(self) -> None:
        """Close the broker's clients this made (the pusher, the signals' client) and the job rows' own connection
        (a session's engine is its owner's: a command disposes of its own; the web app's outlives this)."""
        for client in (self._pusher, self._signals):
            if client is not None:
                client.close()
        self._pusher = self._signals = None
        self.jobs.close()

    def publish(self, job_id: str) -> None:
        """Send the job's id to the workers (its row is committed already).

        :raises QueueUnavailable: the broker cannot be reached (after Celery's own few retries, about a second).
        """
        self._send_task(job_id)
        self.jobs.published(job_id)

    def _send_task(self, job_id: str) -> None:
        task_id = f"{job_id}#{uuid.uuid4().hex[:8]}"
        if self.url.startswith(("redis://", "rediss://")):
            self._push(job_id, task_id)
            return
        try:
            self.celery.send_task(TASK_NAME, args=[job_id], task_id=task_id)
        except Exception as exc:  # kombu's OperationalError, a socket error, a refused connection
            raise QueueUnavailable(f"the task queue cannot be reached: {type(exc).__name__}: {exc}") from exc

    def _push(self, job_id: str, task_id: str) -> None:
        """Send the task to a Redis broker as Celery would (:func:`task_message`, pushed on the queue's list as
        kombu's Redis transport pushes it), without loading Celery and Kombu (a sender's start-up, issue 40)."""
        import redis  # deferred on purpose: only a Redis broker is pushed to

        if self._pusher is None:
            self._pusher = redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=5)
        try:
            self._pusher.lpush(QUEUE_NAME, task_message(job_id, task_id))
        except redis.RedisError as exc:
            raise QueueUnavailable(f"the task queue cannot be reached: {type(exc).__name__}: {exc}") from exc

    def submit(self, job_id: str, kind: str, payload: Any) -> None:
        """Write a new job's row and send it, in one write: the row says it was sent (``published_at``) a moment
        before it is (a collection's part: the reading process writes a row per part). As :meth:`send` where
        the broker cannot be reached (the row failed with the reason; :raises QueueUnavailable:)."""
        self.jobs.add_queued(job_id, kind, payload, published=True)
        try:
            self._send_task(job_id)
        except QueueUnavailable as exc:
            self._fail_unsent(job_id, exc)
            raise

    def run(self, kind: str, payload: Any, timeout: float | None = None) -> Any:
        """Run one job on the workers and wait for its result.

        :raises QueueTimeout: not finished within ``timeout`` (default ``[queue] wait_seconds``).
        :raises JobFailed: the job failed on its worker.
        """
        job_id = f"{kind}:{uuid.uuid4().hex}"
        self.jobs.add_queued(job_id, kind, payload)
        self.send(job_id)
        return self.result(job_id, timeout)

    def send(self, job_id: str) -> None:
        """Publish a job whose row is written; when the broker cannot be reached, the row is failed with the
        reason (no job is left queued that no worker will ever hear of) and :class:`QueueUnavailable` raised."""
        try:
            self.publish(job_id)
        except QueueUnavailable as exc:
            self._fail_unsent(job_id, exc)
            raise

    def _fail_unsent(self, job_id: str, exc: QueueUnavailable) -> None:
        """The row of a job the broker never heard of, failed with the reason."""
        self.jobs.fail_unsent(job_id, {"code": "queue_unavailable", "message": str(exc), "field": None})

    def signals(self) -> Any:
        """A Redis client of the broker (where it is Redis) on which a worker signals the end of a job
        (:func:`signal_done`), else None."""
        if self._signals is None and self.url.startswith(("redis://", "rediss://")):
            import redis  # deferred on purpose: only a Redis broker carries the signals

            # a wait blocks at most STOP_SECONDS: a broker silent far longer is taken as away (the row is read)
            self._signals = redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=STOP_SECONDS + 9)
        return self._signals

    def wait_done(self, job_id: str, seconds: float) -> bool:
        """Block until the worker of ``job_id`` signals its end (:func:`signal_done`) or ``seconds`` pass: whether
        a broker's signal could be waited on (False: none, the caller sleeps instead)."""
        client = self.signals()
        if client is None:
            return False
        import redis  # deferred on purpose: see signals

        try:
            client.blpop([DONE_KEY + job_id], timeout=max(seconds, 0.01))
        except redis.RedisError:
            return False
        return True

    def result(self, job_id: str, timeout: float | None = None, stop: Callable[[], bool] | None = None,
               longest_poll: float | None = None, signalled: bool = False, raw: bool = False) -> Any:
        """Wait for job ``job_id`` and give its result; ``stop`` is asked about once a second whether to give up
        waiting (:raises Stopped:). The row is read every :data:`POLL_SECONDS`, or, with ``longest_poll``, ever
        less often up to that (a long job's waiter need not read its row ten times a second); with
        ``signalled`` (a job whose worker signals its end, :func:`signal_done`), as soon as the worker signals
        (first read then, not before), and at least every :data:`STOP_SECONDS`. ``raw``: the result as the row
        holds it (its text, undecoded: a collection's part, :func:`web.queue.collection.read_result`)."""
        deadline = time.monotonic() + (self.settings.wait_seconds if timeout is None else timeout)
        asked = time.monotonic()
        poll = self.POLL_SECONDS
        if signalled:  # the signal first: a row read while its job is still at work is a read for nothing
            self.wait_done(job_id, min(STOP_SECONDS, max(deadline - time.monotonic(), 0.0)))
        while True:
            if stop is not None and time.monotonic() - asked >= STOP_SECONDS:
                asked = time.monotonic()
                if stop():
                    raise Stopped(job_id)
            found: Ended | None = self.jobs.ended(job_id)
            if found is not None:
                if found.status != "done":
                    error = json.loads(found.error_json) if found.error_json else None
                    raise JobFailed(error or {"code": "ruling_failed", "message": f"the job was {found.status}",
                                              "field": None})
                if raw or found.result_json is None:
                    return found.result_json
                return json.loads(found.result_json)
            if time.monotonic() > deadline:
                raise QueueTimeout(f"no worker finished job {job_id} in time (is `adjudicator worker` running?)")
            if signalled and self.wait_done(job_id, min(STOP_SECONDS, deadline - time.monotonic())):
                continue
            time.sleep(poll)
            if longest_poll is not None:
                poll = min(longest_poll, poll * 1.5)


def task_message(job_id: str, task_id: str) -> str:
    """The message of the task that runs job ``job_id`` (``adjudicator.run_job``), as Celery's protocol 2 over
    kombu's Redis transport writes it for ``send_task`` to the default queue (JSON; the body, base64: the
    arguments, no keyword arguments, no callbacks), so a Celery worker takes it as its own; the task id carries
    the job's id (:mod:`web.queue.recovery` reads it back). ``tests/web/test_queue.py`` holds it to Celery's own
    message."""
    body = json.dumps([[job_id], {}, {"callbacks": None, "errbacks": None, "chain": None, "chord": None}])
    headers: dict[str, Any] = {
        "lang": "py", "task": TASK_NAME, "id": task_id, "shadow": None, "eta": None, "expires": None, "group": None,
        "group_index": None, "retries": 0, "timelimit": [None, None], "root_id": task_id, "parent_id": None,
        "argsrepr": repr([job_id]), "kwargsrepr": "{}", "origin": f"gen{os.getpid()}@{socket.gethostname()}",
        "ignore_result": None, "replaced_task_nesting": 0, "stamped_headers": None, "stamps": {}}
    properties = {"correlation_id": task_id, "reply_to": str(uuid.uuid4()), "delivery_mode": 2,
                  "delivery_info": {"exchange": "", "routing_key": QUEUE_NAME}, "priority": 0,
                  "body_encoding": "base64", "delivery_tag": str(uuid.uuid4())}
    return json.dumps({"body": base64.b64encode(body.encode()).decode(), "content-encoding": "utf-8",
                       "content-type": "application/json", "headers": headers, "properties": properties})


def signal_done(url: str) -> Callable[[str], None] | None:
    """What a worker calls when it ends a job whose waiter blocks on the broker (:meth:`Remote.wait_done`): a
    push to the job's Redis list (kept :data:`DONE_TTL_SECONDS`); None where the broker is not Redis. A push
    that fails is let go: the waiter reads the row at least every :data:`STOP_SECONDS`."""
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis  # deferred on purpose: only a Redis broker carries the signals

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)

    def signal(job_id: str) -> None:
        with contextlib.suppress(redis.RedisError):
            pipe = client.pipeline(transaction=False)
            pipe.rpush(DONE_KEY + job_id, b"1")
            pipe.expire(DONE_KEY + job_id, DONE_TTL_SECONDS)
            pipe.execute()

    return signal


# QueueUnavailable is web.queue's (where the command line's error mapping takes it without SQLAlchemy), also here
__all__ = ["JobFailed", "QueueTimeout", "QueueUnavailable", "Remote", "STOP_SECONDS", "Stopped", "signal_done"]
