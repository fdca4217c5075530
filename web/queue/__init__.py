"""Jobs on a distributed task queue (issue 12): Celery with Redis, state in the database.

Without ``ADJUDICATOR_BROKER_URL`` no broker is used: a job's row is written all the same and
the serving process runs it on its in-process worker (``web.queue.local``). With it, the web
process writes a job row (``web.tables.jobs``) and publishes the job's id; ``adjudicator worker``
(``web.queue.worker``) takes it, reports progress into the row and watches the row for a cancel.
The broker carries job ids only, the database holds everything else, so any number of workers on
any machines that share the broker and the database can take any job.

No job is stuck: a queued job whose message the broker lost (a broker restarted without persistence)
is sent again, or fails with the reason when the broker stays away (:mod:`web.queue.recovery`).

No acknowledged job is lost: tasks are acknowledged late (after the job is done,
``task_acks_late``; a worker that dies mid-job leaves its message to the broker,
``task_reject_on_worker_lost``), and every worker watches the others' heartbeats in the
database: a running job whose worker has been silent for ``[queue] lease_seconds`` is put
back on the queue for another worker. A job delivered twice does its work once: its id
is its name (``case:<id>`` for a claim), a worker must win the row (``queued`` to
``running``) before it starts, and a claim already ruled on is not ruled on again. A collection's
part, whose only effect is its result, is won as its result is written (one commit per part:
:mod:`web.queue.part_job`); a second run of it changes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BROKER_ENV = "ADJUDICATOR_BROKER_URL"
TASK_NAME = "adjudicator.run_job"
QUEUE_NAME = "adjudicator"


class QueueUnavailable(ConnectionError):
    """The broker cannot be reached: the job was not sent (its row, if written, is failed with the reason)."""


class QueueSettingsError(ValueError):
    """A ``[queue]`` setting in config.toml is not usable (names the key)."""


def broker_url() -> str | None:
    """The broker named by ``ADJUDICATOR_BROKER_URL`` (None: jobs run in-process)."""
    url = os.environ.get(BROKER_ENV, "").strip()
    return url or None


@dataclass(frozen=True)
class QueueSettings:
    """``[queue]`` in config.toml: how often workers report, and when a silent one is given up."""

    heartbeat_seconds: float = 1.0
    """How often a worker writes its running jobs' progress and heartbeat, and reads cancel requests."""
    lease_seconds: float = 30.0
    """A running job whose worker wrote no heartbeat for this long is given to another worker."""
    max_attempts: int = 3
    """A job whose worker died this many times fails (a job that kills its worker is not retried forever)."""
    visibility_timeout_seconds: float = 3600.0
    """Redis: an unacknowledged message goes back to the queue after this long (the broker's own safety net)."""
    wait_seconds: float = 300.0
    """How long the web waits for a committee recommendation or an appeal's re-run from the workers."""
    concurrency: int = 1
    """Jobs one ``adjudicator worker`` runs at once (threads sharing its engine pool)."""
    requeue_seconds: float = 30.0
    """A job queued this long whose message the broker no longer holds (a broker restarted without
    persistence) is sent again (:mod:`web.queue.recovery`)."""
    give_up_seconds: float = 300.0
    """A queued job whose message is lost and that cannot be sent again (the broker is down) fails, with
    the reason, once it has waited this long."""

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> QueueSettings:
        section = config.get("queue", {})
        values: dict[str, Any] = {}
        for key, kind in (("heartbeat_seconds", float), ("lease_seconds", float), ("max_attempts", int),
                          ("visibility_timeout_seconds", float), ("wait_seconds", float), ("concurrency", int),
                          ("requeue_seconds", float), ("give_up_seconds", float)):
            if key in section:
                try:
                    values[key] = kind(section[key])
                except (TypeError, ValueError):
                    raise QueueSettingsError(f"[queue] {key} must be a number, not {section[key]!r}") from None
                if values[key] <= 0:
                    raise QueueSettingsError(f"[queue] {key} must be positive")
        settings = cls(**values)
        if settings.lease_seconds < 2 * settings.heartbeat_seconds:
            raise QueueSettingsError("[queue] lease_seconds must be at least twice heartbeat_seconds")
        return settings


def make_celery(url: str, settings: QueueSettings) -> Any:
    """The Celery app for ``url``: JSON job ids only, late acknowledgement, one message at a time per thread."""
    from celery import Celery  # deferred on purpose: Celery only with a broker

    app = Celery("adjudicator", broker=url, set_as_current=False)
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,  # the result is in the jobs table
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_default_queue=QUEUE_NAME,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": settings.visibility_timeout_seconds},
    )
    return app
