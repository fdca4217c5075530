"""Stored committee cases, their assigned members and their votes."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from web.db import Base
from web.tables.audit import ROW_LISTERS, deriver
from web.tables.events import Event
from web.tables.rulings import RulingRow
from web.tables.users import User


class CommitteeCase(Base):
    __tablename__ = "committee_cases"
    __table_args__ = (Index("uq_committee_cases_referred_ruling", "referred_ruling_id", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    opened_at: Mapped[str] = mapped_column(String(40))
    opened_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(10))
    ruleset: Mapped[str] = mapped_column(String(80))
    round: Mapped[str | None] = mapped_column(String(40), nullable=True)
    board: Mapped[str | None] = mapped_column(String(40), nullable=True)
    case_json: Mapped[str] = mapped_column(Text)
    """The case exactly as entered (contract JSON)."""
    players_json: Mapped[str] = mapped_column(Text)
    position_json: Mapped[str] = mapped_column(Text)
    """The position the members verify: FEN or square list, and any reading notes."""
    recommendation_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    recommendation_note: Mapped[str] = mapped_column(Text, default="")
    services_json: Mapped[str] = mapped_column(Text)
    """Engine identity and settings used for the recommendation."""
    vote_rule: Mapped[str] = mapped_column(String(40))
    members_required: Mapped[int] = mapped_column(Integer)
    rule_ref: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20), default="voting")
    result: Mapped[str | None] = mapped_column(String(10), nullable=True)
    decision_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    decided_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    referred_ruling_id: Mapped[int | None] = mapped_column(ForeignKey("rulings.id"), nullable=True)
    """The unfinished-game ruling this case was referred from ("Refer to the committee"; migration 0015),
    None for a case opened on its own. One case per ruling: the unique index."""

    opened_by: Mapped[User] = relationship()
    event: Mapped[Event] = relationship()
    referred_ruling: Mapped[RulingRow | None] = relationship()
    members: Mapped[list[CommitteeMember]] = relationship(order_by="CommitteeMember.seat",
                                                          back_populates="case")
    votes: Mapped[list[CommitteeVote]] = relationship(order_by="CommitteeVote.id", back_populates="case")

    @property
    def subject(self) -> str:
        return f"committee-case:{self.id}"

    @property
    def case(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.case_json)
        return data

    @property
    def players(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.players_json)
        return data

    @property
    def position(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.position_json)
        return data

    @property
    def recommendation(self) -> dict[str, Any] | None:
        return None if self.recommendation_json is None else json.loads(self.recommendation_json)

    @property
    def services(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.services_json)
        return data

    @property
    def decision(self) -> dict[str, Any] | None:
        return None if self.decision_json is None else json.loads(self.decision_json)

    @property
    def is_decided(self) -> bool:
        return self.status == "decided"

    def member_names(self) -> list[str]:
        return [m.user.name for m in self.members]

    def is_member(self, user: User) -> bool:
        return any(m.user_id == user.id for m in self.members)

    def has_voted(self, user: User) -> bool:
        return any(v.user_id == user.id for v in self.votes)

    def audit_payload(self) -> dict[str, Any]:
        """What never changes after the case is opened."""
        return {"opened_at": self.opened_at, "opened_by": self.opened_by.name, "game": self.game,
                "ruleset": self.ruleset, "round": self.round, "board": self.board, "case": self.case,
                "players": self.players, "members": self.member_names(), "vote_rule": self.vote_rule,
                "members_required": self.members_required, "rule_ref": self.rule_ref, "event_id": self.event_id,
                "referred_ruling_id": self.referred_ruling_id}

    def recommendation_payload(self) -> dict[str, Any]:
        return {"recommendation": self.recommendation, "note": self.recommendation_note,
                "services": self.services, "position": self.position}

    def decision_payload(self) -> dict[str, Any]:
        return {"status": self.status, "result": self.result, "decision": self.decision,
                "decided_at": self.decided_at}


class CommitteeMember(Base):
    __tablename__ = "committee_members"
    __table_args__ = (UniqueConstraint("case_id", "user_id", name="uq_committee_member"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("committee_cases.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seat: Mapped[int] = mapped_column(Integer)

    case: Mapped[CommitteeCase] = relationship(back_populates="members")
    user: Mapped[User] = relationship()


class CommitteeVote(Base):
    __tablename__ = "committee_votes"
    __table_args__ = (UniqueConstraint("case_id", "user_id", name="uq_committee_vote"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("committee_cases.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    result: Mapped[str] = mapped_column(String(10))
    comment: Mapped[str] = mapped_column(Text, default="")
    cast_at: Mapped[str] = mapped_column(String(40))

    case: Mapped[CommitteeCase] = relationship(back_populates="votes")
    user: Mapped[User] = relationship()

    @property
    def subject(self) -> str:
        return f"vote:{self.id}"

    def audit_payload(self) -> dict[str, Any]:
        return {"case": self.case_id, "member": self.user.name, "result": self.result,
                "comment": self.comment, "cast_at": self.cast_at}

    def to_json(self) -> dict[str, Any]:
        return {"member": self.user.name, "result": self.result, "comment": self.comment, "cast_at": self.cast_at}


class CommitteeVerification(Base):
    """A member's "I have verified the position on a board" for a case (issue 35): until it is stored, no
    page, fragment, export or API answer shows them the engine's line or score for that case
    (:mod:`web.committee.gate`). One per member and case (``uq_committee_verification``; migration 0017)."""

    __tablename__ = "committee_verifications"
    __table_args__ = (UniqueConstraint("case_id", "user_id", name="uq_committee_verification"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("committee_cases.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    verified_at: Mapped[str] = mapped_column(String(40))


def _id(subject: str) -> int | None:
    try:
        return int(subject.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return None


@deriver("case")
def _case_payload(session: Session, subject: str) -> dict[str, Any] | None:
    ident = _id(subject)
    row = None if ident is None else session.get(CommitteeCase, ident)
    return None if row is None else row.audit_payload()


@deriver("recommendation")
def _recommendation_payload(session: Session, subject: str) -> dict[str, Any] | None:
    ident = _id(subject)
    row = None if ident is None else session.get(CommitteeCase, ident)
    return None if row is None else row.recommendation_payload()


@deriver("decision")
def _decision_payload(session: Session, subject: str) -> dict[str, Any] | None:
    ident = _id(subject)
    row = None if ident is None else session.get(CommitteeCase, ident)
    return None if row is None else row.decision_payload()


@deriver("vote")
def _vote_payload(session: Session, subject: str) -> dict[str, Any] | None:
    ident = _id(subject)
    row = None if ident is None else session.get(CommitteeVote, ident)
    return None if row is None else row.audit_payload()


ROW_LISTERS["vote"] = lambda session: [f"vote:{i}" for i in session.scalars(select(CommitteeVote.id))]
ROW_LISTERS["case"] = lambda session: [f"committee-case:{i}" for i in session.scalars(select(CommitteeCase.id))]
ROW_LISTERS["decision"] = lambda session: [
    f"committee-case:{i}" for i in session.scalars(select(CommitteeCase.id).where(CommitteeCase.status != "voting"))
]
