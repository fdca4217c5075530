"""What the queue's client writes and reads in the ``jobs`` table, whatever speaks to the database for it.

:class:`web.queue.remote.Remote` sends jobs and waits for their ends through a :class:`JobRows`: the session's
(:class:`web.queue.rows.SessionRows`, SQLAlchemy: the app and the workers, which load every table anyway) or the
database driver's own (:class:`web.queue.direct.DirectRows`: ``check-games`` with a broker, which writes and reads
job rows and nothing else, and so starts without SQLAlchemy, issue 40). Both write the same row for a new job
(:func:`queued_values`) and read the same three columns at its end; ``tests/web/test_job_rows.py`` holds them
to each other on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

FINISHED = ("done", "failed", "cancelled")
"""A job's states once it has ended (``web.tables.jobs.FINISHED``: the same, held to it by a test)."""


@dataclass(frozen=True)
class Ended:
    """A finished job's row, as its waiter reads it: its state and its result's or error's JSON text."""

    status: str
    result_json: str | None
    error_json: str | None


def queued_values(job_id: str, kind: str, *, case_id: int | None = None, payload: Any = None,
                  published: bool = False) -> dict[str, Any]:
    """A new queued job's row, column by column; ``published``: its message is sent right after it is written
    (the row says so in the same write)."""
    values: dict[str, Any] = {
        "id": job_id, "kind": kind, "case_id": case_id, "status": "queued", "message": "", "cancel_requested": False,
        "payload_json": None if payload is None else json.dumps(payload, ensure_ascii=False), "attempts": 0,
        "created_at": time.time(), "publications": 0}
    if published:
        values.update(published_at=values["created_at"], publications=1)
    return values


class JobRows(Protocol):
    """The ``jobs`` table as the queue's client uses it; each call is its own transaction, committed."""

    def add_queued(self, job_id: str, kind: str, payload: Any, *, published: bool = False) -> None:
        """Write a new queued job's row (:func:`queued_values`)."""

    def published(self, job_id: str) -> None:
        """The job's message was just sent: ``published_at`` now, one more ``publications``."""

    def fail_unsent(self, job_id: str, error: Mapping[str, Any]) -> bool:
        """Fail a job still queued whose message could not be sent; whether it was still queued."""

    def ended(self, job_id: str) -> Ended | None:
        """The job's row if the job has ended (None: it has not, or there is no such job)."""

    def forget(self, job_ids: Sequence[str]) -> None:
        """Delete these jobs' rows (a collection's parts, their results read)."""

    def forget_named(self, prefix: str) -> None:
        """Delete the rows of every job whose id starts with ``prefix`` (a collection's check, stopped or done)."""

    def close(self) -> None:
        """Close what this opened (the sessions' engine is its owner's)."""
