"""Stored appeals: what was appealed, the full record as it stood, the re-run, and the decision."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from web.db import Base
from web.tables.audit import ROW_LISTERS, deriver
from web.tables.events import Event
from web.tables.users import User

OUTCOMES = ("upheld", "overturned")
"""What the appeals committee does to the ruling: it stands (upheld) or is replaced (overturned)."""


class Appeal(Base):
    __tablename__ = "appeals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subject: Mapped[str] = mapped_column(String(80), index=True)
    """What is appealed: ``committee-case:<id>`` or ``ruling:<id>``."""
    filed_at: Mapped[str] = mapped_column(String(40))
    filed_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    grounds: Mapped[str] = mapped_column(Text)
    record_json: Mapped[str] = mapped_column(Text)
    """Everything known when the ruling was made: inputs, evidence, engine settings, votes and times."""
    rerun_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    difference_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    rerun_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    status: Mapped[str] = mapped_column(String(20), default="open")
    outcome: Mapped[str | None] = mapped_column(String(20), nullable=True)
    new_result: Mapped[str | None] = mapped_column(String(10), nullable=True)
    reasons: Mapped[str | None] = mapped_column(Text, nullable=True)
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    decided_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    """The event of the appealed ruling or case: its appeals committee decides."""

    filed_by: Mapped[User] = relationship(foreign_keys=[filed_by_id])
    event: Mapped[Event] = relationship()
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id])

    @property
    def record(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.record_json)
        return data

    @property
    def rerun(self) -> dict[str, Any] | None:
        return None if self.rerun_json is None else json.loads(self.rerun_json)

    @property
    def difference(self) -> list[dict[str, Any]] | None:
        return None if self.difference_json is None else json.loads(self.difference_json)

    @property
    def audit_subject(self) -> str:
        return f"appeal:{self.id}"

    def filing_payload(self) -> dict[str, Any]:
        return {"subject": self.subject, "filed_at": self.filed_at, "filed_by": self.filed_by.name,
                "grounds": self.grounds, "record": self.record, "event_id": self.event_id}

    def rerun_payload(self) -> dict[str, Any]:
        return {"rerun": self.rerun, "difference": self.difference, "rerun_at": self.rerun_at}

    def decision_payload(self) -> dict[str, Any]:
        return {"status": self.status, "outcome": self.outcome, "new_result": self.new_result,
                "reasons": self.reasons, "decided_by": self.decided_by.name if self.decided_by else None,
                "decided_at": self.decided_at}


def _appeal(session: Session, subject: str) -> Appeal | None:
    try:
        return session.get(Appeal, int(subject.rsplit(":", 1)[1]))
    except (IndexError, ValueError):
        return None


@deriver("appeal")
def _filing(session: Session, subject: str) -> dict[str, Any] | None:
    row = _appeal(session, subject)
    return None if row is None else row.filing_payload()


@deriver("appeal-rerun")
def _rerun(session: Session, subject: str) -> dict[str, Any] | None:
    row = _appeal(session, subject)
    return None if row is None else row.rerun_payload()


@deriver("appeal-decision")
def _decision(session: Session, subject: str) -> dict[str, Any] | None:
    row = _appeal(session, subject)
    return None if row is None else row.decision_payload()


ROW_LISTERS["appeal"] = lambda session: [f"appeal:{i}" for i in session.scalars(select(Appeal.id))]
ROW_LISTERS["appeal-decision"] = lambda session: [
    f"appeal:{i}" for i in session.scalars(select(Appeal.id).where(Appeal.status != "open"))
]
