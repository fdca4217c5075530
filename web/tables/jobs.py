"""The ``jobs`` table (migration ``0005``): a queued job's state, shared by the web and every worker."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Boolean, CheckConstraint, Float, ForeignKey, Index, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from web.db import Base

STATES = ("queued", "running", "done", "failed", "cancelled")
FINISHED = ("done", "failed", "cancelled")


class JobRow(Base):
    """One job: what to do (``kind`` and ``payload``), how far it is, and who is doing it.

    ``id`` is the job's idempotent name (``case:<case id>`` for an engine claim), and the
    task id on the broker: a task delivered twice finds the row and does its work once.
    Times are seconds since the epoch, as ``time.time()`` gives them on every machine.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed', 'cancelled')", name="ck_jobs_status"),
        Index("ix_jobs_status_heartbeat", "status", "heartbeat_at"),
    )

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    case_id: Mapped[int | None] = mapped_column(ForeignKey("cases.id"), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16))
    fraction: Mapped[float | None] = mapped_column(Float, nullable=True)
    message: Mapped[str] = mapped_column(Text, server_default="", default="")
    cancel_requested: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    payload_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    result_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    error_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    ruling_id: Mapped[int | None] = mapped_column(ForeignKey("rulings.id"), nullable=True)
    worker: Mapped[str | None] = mapped_column(String(120), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, server_default="0", default=0)
    created_at: Mapped[float] = mapped_column(Float)
    published_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its message was last sent to the broker (migration ``0013``; None: not yet)."""
    publications: Mapped[int] = mapped_column(Integer, CheckConstraint("publications >= 0",
                                                                       name="ck_jobs_publications"),
                                              server_default="0", default=0)
    """How many times its message was sent (a job whose message the broker lost is sent again)."""
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    heartbeat_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED

    @property
    def payload(self) -> Any:
        return None if self.payload_json is None else json.loads(self.payload_json)

    @property
    def result(self) -> Any:
        return None if self.result_json is None else json.loads(self.result_json)

    @property
    def error(self) -> dict[str, Any] | None:
        found: dict[str, Any] | None = None if self.error_json is None else json.loads(self.error_json)
        return found
