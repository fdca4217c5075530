"""Stored game checks (migration ``0007``): an event's collection checked against the laws.

The collection itself is a :class:`web.checks.collections.GameCollection` (``0008``), kept
with the event; a check names it, so one collection may be checked any number of times.

A :class:`GameCheck` row is the job and its report's summary (state, share done, the
games checked so far, how many have findings); each game checked is a
:class:`CheckedGame` row holding the contract's check-games line as the command prints
it and the game's own record (so its page replays it to the finding's ply). The rows are
written as the games are checked, so the progress bar and the report read the database,
never one process's memory.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.db import Base
from web.tables.collections import GameCollection

STATES = ("queued", "running", "done", "failed", "cancelled")
FINISHED = ("done", "failed", "cancelled")
STALLED_SECONDS = 120.0
"""A running check that wrote nothing for this long lost its process (the app was restarted)."""


class GameCheck(Base):
    __tablename__ = "game_checks"
    __table_args__ = (
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed', 'cancelled')",
                        name="ck_game_checks_status"),
        Index("ix_game_checks_event", "event_id", "id"),
        Index("ix_game_checks_collection", "collection_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    submitted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    filename: Mapped[str] = mapped_column(String(200))
    collection_id: Mapped[int | None] = mapped_column(ForeignKey(GameCollection.id), nullable=True)
    """The stored collection checked (migration ``0008``; None: a check made before collections were kept)."""
    game: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(16))
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Games in the file (None until counted)."""
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    with_findings: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    message: Mapped[str] = mapped_column(Text, default="", server_default="")
    error_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED

    @property
    def is_stalled(self) -> bool:
        """Running or queued, and nothing written for :data:`STALLED_SECONDS`: no process works on it."""
        return not self.is_finished and time.time() - self.updated_at > STALLED_SECONDS

    @property
    def percent(self) -> int:
        if self.status == "done":
            return 100
        if not self.total:
            return 0
        return min(99, int(100 * self.games / self.total))

    @property
    def error(self) -> dict[str, Any] | None:
        found: dict[str, Any] | None = None if self.error_json is None else json.loads(self.error_json)
        return found

    def summary(self) -> dict[str, Any]:
        """The contract's closing ``summary`` line."""
        return {"summary": {"games": self.games, "with_findings": self.with_findings,
                            "seconds": round(self.seconds or 0.0, 3)}}


class CheckedGame(Base):
    __tablename__ = "game_check_games"
    __table_args__ = (
        UniqueConstraint("check_id", "index", name="uq_game_check_games_index"),
        Index("ix_game_check_games_findings", "check_id", "has_findings", "index"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    check_id: Mapped[int] = mapped_column(ForeignKey("game_checks.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    """The game's place in the file (1 = the first), as the line's ``index``."""
    has_findings: Mapped[bool] = mapped_column(Boolean)
    line_json: Mapped[str] = mapped_column(Text)
    """The contract's check-games line for the game, as ``adjudicator check-games`` prints it."""
    record: Mapped[str] = mapped_column(Text)

    @property
    def line(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.line_json)
        return found

    @property
    def findings(self) -> list[dict[str, Any]]:
        return list(self.line.get("findings") or [])

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.line.get("headers") or {})


def counts(session: Session, ids: list[int]) -> dict[int, int]:
    """Games in each collection, as its checks counted them (a collection not yet counted is left out)."""
    if not ids:
        return {}
    query = (select(GameCheck.collection_id, func.max(GameCheck.total))
             .where(GameCheck.collection_id.in_(ids), GameCheck.total.is_not(None))
             .group_by(GameCheck.collection_id))
    return {int(ident): int(total) for ident, total in session.execute(query) if ident is not None}
