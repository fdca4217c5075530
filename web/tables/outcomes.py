"""The outcome a committee or an appeal decided for a ruling (one row per ruling; :mod:`web.outcomes`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.db import Base
from web.tables.audit import ROW_LISTERS, deriver

KIND = "outcome"
"""The audit entries of outcomes."""


class RulingOutcome(Base):
    """The outcome a committee or an appeal decided for a ruling (one row per ruling)."""

    __tablename__ = "ruling_outcomes"
    __table_args__ = (
        Index("uq_ruling_outcomes_ruling", "ruling_id", unique=True),
        CheckConstraint("decided_by IN ('committee', 'appeal')", name="ck_ruling_outcomes_decider"),
        CheckConstraint("(decided_by = 'committee') = (committee_case_id IS NOT NULL)",
                        name="ck_ruling_outcomes_case"),
        CheckConstraint("(decided_by = 'appeal') = (appeal_id IS NOT NULL)", name="ck_ruling_outcomes_appeal"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ruling_id: Mapped[int] = mapped_column(ForeignKey("rulings.id"))
    result: Mapped[str | None] = mapped_column(String(10), nullable=True)
    decided_by: Mapped[str] = mapped_column(String(20))
    committee_case_id: Mapped[int | None] = mapped_column(ForeignKey("committee_cases.id"), nullable=True)
    appeal_id: Mapped[int | None] = mapped_column(ForeignKey("appeals.id"), nullable=True)
    at: Mapped[str] = mapped_column(String(40))

    @property
    def subject(self) -> str:
        return f"ruling-outcome:{self.ruling_id}"

    def audit_payload(self) -> dict[str, Any]:
        return {"ruling": self.ruling_id, "result": self.result, "decided_by": self.decided_by,
                "case": self.committee_case_id, "appeal": self.appeal_id, "at": self.at}


@deriver(KIND)
def _outcome_payload(session: Session, subject: str) -> dict[str, Any] | None:
    try:
        ident = int(subject.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return None
    row = session.scalars(select(RulingOutcome).where(RulingOutcome.ruling_id == ident)).first()
    return None if row is None else row.audit_payload()


ROW_LISTERS[KIND] = lambda session: [f"ruling-outcome:{i}" for i in session.scalars(select(RulingOutcome.ruling_id))]
