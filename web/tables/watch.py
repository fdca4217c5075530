"""What the arbiter's watch stores (migration ``0017``): each event's live games, the alerts raised on them,
who acknowledged which alert and when, and the lease that lets one process watch an event's broadcast.

- :class:`WatchAlert`: one row per alert (event, game, kind, ply, action), unique, so a restarted watch that
  reads the round again raises no alert twice, and an acknowledgement stays on its alert. A withdrawn alert
  keeps its row with ``withdrawn_at``.
- :class:`WatchAck`: at most one per alert (the database's rule), with its user and time: part of the game's
  case file, listed with the game on the Round view and on the claim form filled from the alert.
- :class:`WatchGame`: the board as last read (last move, clocks, result, the record).
- :class:`WatchLease`: the process that holds it until ``expires_at`` is the one that reads the source.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import CheckConstraint, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from web.db import Base
from web.tables.users import User

ACTIONS_SQL = "'act', 'may-act', 'claimable', 'do-not-call', 'check-board', 'event-rule'"


class WatchAlert(Base):
    __tablename__ = "watch_alerts"
    __table_args__ = (
        UniqueConstraint("event_id", "game", "kind", "ply", "action", name="uq_watch_alerts_alert"),
        CheckConstraint(f"action IN ({ACTIONS_SQL})", name="ck_watch_alerts_action"),
        Index("ix_watch_alerts_event", "event_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(300))
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(20))
    ply: Mapped[int] = mapped_column(Integer)
    move: Mapped[str | None] = mapped_column(String(80), nullable=True)
    rule_refs_json: Mapped[str] = mapped_column(Text)
    players_json: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)
    raised_at: Mapped[float] = mapped_column(Float)
    withdrawn_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    ack: Mapped[WatchAck | None] = relationship(back_populates="alert", uselist=False)

    @property
    def rule_refs(self) -> list[str]:
        found: list[str] = json.loads(self.rule_refs_json)
        return found

    @property
    def players(self) -> list[str | None]:
        found: list[str | None] = json.loads(self.players_json)
        return found

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "board": self.board, "round": self.round, "game": self.game, "kind": self.kind,
                "action": self.action, "ply": self.ply, "move": self.move, "rule_refs": self.rule_refs,
                "players": self.players, "reason": self.reason, "withdrawn": self.withdrawn_at is not None}


class WatchAck(Base):
    __tablename__ = "watch_acks"
    __table_args__ = (UniqueConstraint("alert_id", name="uq_watch_acks_alert"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alert_id: Mapped[int] = mapped_column(ForeignKey("watch_alerts.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    acknowledged_at: Mapped[float] = mapped_column(Float)

    alert: Mapped[WatchAlert] = relationship(back_populates="ack")
    user: Mapped[User] = relationship()


class WatchGame(Base):
    __tablename__ = "watch_games"
    __table_args__ = (UniqueConstraint("event_id", "game", name="uq_watch_games_game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(300))
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    players_json: Mapped[str] = mapped_column(Text)
    last_move: Mapped[str | None] = mapped_column(String(80), nullable=True)
    clock_first: Mapped[float | None] = mapped_column(Float, nullable=True)
    clock_second: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[str | None] = mapped_column(String(10), nullable=True)
    plies: Mapped[int] = mapped_column(Integer)
    record: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[float] = mapped_column(Float)

    @property
    def players(self) -> list[str | None]:
        found: list[str | None] = json.loads(self.players_json)
        return found


class WatchLease(Base):
    __tablename__ = "watch_leases"

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(120))
    expires_at: Mapped[float] = mapped_column(Float)
