"""Every case and ruling, kept append-only (rows are inserted, never changed).

The tables come from migration ``0001``; the database refuses UPDATE and DELETE on
them (triggers), so a ruling once given stays as it was given, for the appeals
committee. Functions here take an explicit session, so background jobs use them too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Text, or_, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.db import Base
from web.tables.events import DEFAULT_EVENT_ID

META_FIELDS = ("event", "round", "board", "first_player", "second_player")
"""What the TD may note about the game besides the contract's case (all optional)."""


def now() -> datetime:
    return datetime.now(UTC)


class CaseRow(Base):
    """A case as it came in (the contract's JSON, plus where the game stood in the event)."""

    __tablename__ = "cases"
    __table_args__ = (Index("ix_cases_round_board", "round", "board"),)  # migration 0001: History's search

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    source: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(80))
    claim: Mapped[str] = mapped_column(String(40))
    claimant: Mapped[str | None] = mapped_column(String(16))
    event: Mapped[str | None] = mapped_column(String(200))
    round: Mapped[str | None] = mapped_column(String(20))
    board: Mapped[str | None] = mapped_column(String(20))
    first_player: Mapped[str | None] = mapped_column(String(200))
    second_player: Mapped[str | None] = mapped_column(String(200))
    case_json: Mapped[str] = mapped_column(Text)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    """The event the case belongs to (its rulings with it): who may see and rule on it."""
    submitted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """Who entered the claim (None: anonymously, in an open event)."""

    @property
    def data(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.case_json)
        return loaded


class RulingRow(Base):
    """A ruling on a case, exactly as the contract's JSON gave it."""

    __tablename__ = "rulings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    verdict: Mapped[str] = mapped_column(String(16))
    result: Mapped[str | None] = mapped_column(String(8))
    duration_ms: Mapped[int] = mapped_column(Integer)
    ruling_json: Mapped[str] = mapped_column(Text)
    played_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The game as the ruling read it (:meth:`adjudicator.played.PlayedGame.to_json`, migration ``0020``);
    NULL for a ruling kept before it (its page replays the record) or one with no record to read. Read typed
    by :func:`web.evidence.kept_game`."""

    @property
    def data(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.ruling_json)
        return loaded


class CaseNote(Base):
    """Something that happened to a case other than a ruling: cancelled, failed, not ruled."""

    __tablename__ = "case_notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    kind: Mapped[str] = mapped_column(String(16))
    message: Mapped[str] = mapped_column(Text)


def _clip(value: object, limit: int) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text[:limit] or None


def case_row(data: Mapping[str, Any], meta: Mapping[str, Any], source: str, event_id: int = DEFAULT_EVENT_ID,
             submitted_by_id: int | None = None) -> CaseRow:
    """A (validated) case as a row, not yet added to a session."""
    return CaseRow(
        event_id=event_id,
        submitted_by_id=submitted_by_id,
        source=source,
        game=str(data.get("game") or "chess"),
        ruleset=str(data.get("ruleset")),
        claim=str(data.get("claim")),
        claimant=_clip(data.get("claimant"), 16),
        event=_clip(meta.get("event"), 200),
        round=_clip(meta.get("round"), 20),
        board=_clip(meta.get("board"), 20),
        first_player=_clip(meta.get("first_player"), 200),
        second_player=_clip(meta.get("second_player"), 200),
        case_json=json.dumps(data, ensure_ascii=False),
        created_at=now(),
    )


def ruling_row(case_id: int, ruling: Mapping[str, Any], duration_ms: int,
               played: Mapping[str, Any] | None = None) -> RulingRow:
    """A ruling as a row, not yet added to a session; ``played``: the game as the ruling read it
    (:meth:`adjudicator.played.PlayedGame.to_json`)."""
    return RulingRow(
        case_id=case_id,
        verdict=str(ruling.get("verdict")),
        result=ruling.get("result"),
        duration_ms=duration_ms,
        ruling_json=json.dumps(ruling, ensure_ascii=False, default=str),
        played_json=None if played is None else json.dumps(played, ensure_ascii=False),
        created_at=now(),
    )


def add_case(session: Session, data: Mapping[str, Any], meta: Mapping[str, Any], source: str,
             event_id: int = DEFAULT_EVENT_ID, submitted_by_id: int | None = None) -> CaseRow:
    """Store a (validated) case; the caller commits."""
    row = case_row(data, meta, source, event_id, submitted_by_id)
    session.add(row)
    session.flush()
    return row


def add_ruling(session: Session, case_id: int, ruling: Mapping[str, Any], duration_ms: int,
               played: Mapping[str, Any] | None = None) -> RulingRow:
    row = ruling_row(case_id, ruling, duration_ms, played)
    session.add(row)
    session.flush()
    return row


def add_note(session: Session, case_id: int, kind: str, message: str) -> CaseNote:
    row = CaseNote(case_id=case_id, kind=kind, message=message[:2000], created_at=now())
    session.add(row)
    session.flush()
    return row


def ruling_for_case(session: Session, case_id: int) -> RulingRow | None:
    """The latest ruling on a case (appeals may add later ones)."""
    return session.scalars(
        select(RulingRow).where(RulingRow.case_id == case_id).order_by(RulingRow.id.desc()).limit(1)
    ).first()


def notes_for_case(session: Session, case_id: int) -> Sequence[CaseNote]:
    return session.scalars(select(CaseNote).where(CaseNote.case_id == case_id).order_by(CaseNote.id)).all()


@dataclass(frozen=True)
class Search:
    """What the history page filters on (empty: everything)."""

    text: str = ""
    round: str = ""
    board: str = ""
    player: str = ""
    event_ids: frozenset[int] | None = None
    """The events whose rulings the searcher may see (None: every event)."""

    @property
    def is_empty(self) -> bool:
        return not (self.text or self.round or self.board or self.player)


def search_rulings(session: Session, search: Search, limit: int = 200) -> Sequence[tuple[RulingRow, CaseRow]]:
    """Rulings with their cases, newest first, filtered by round, board and player name."""
    query = select(RulingRow, CaseRow).join(CaseRow, RulingRow.case_id == CaseRow.id)
    if search.event_ids is not None:
        query = query.where(CaseRow.event_id.in_(sorted(search.event_ids)))
    if search.round:
        query = query.where(CaseRow.round == search.round.strip())
    if search.board:
        query = query.where(CaseRow.board == search.board.strip())
    if search.player:
        like = f"%{_escape_like(search.player.strip())}%"
        query = query.where(
            or_(CaseRow.first_player.ilike(like, escape="\\"), CaseRow.second_player.ilike(like, escape="\\"))
        )
    if search.text:
        like = f"%{_escape_like(search.text.strip())}%"
        query = query.where(
            or_(
                CaseRow.event.ilike(like, escape="\\"),
                CaseRow.claim.ilike(like, escape="\\"),
                CaseRow.first_player.ilike(like, escape="\\"),
                CaseRow.second_player.ilike(like, escape="\\"),
            )
        )
    query = query.order_by(RulingRow.id.desc()).limit(limit)
    return [(r, c) for r, c in session.execute(query).tuples()]


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
