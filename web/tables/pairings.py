"""An event's pairings, imported from its TRF file (:mod:`web.events.pairings`): one row per game."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from web.db import Base


class Pairing(Base):
    __tablename__ = "event_pairings"
    __table_args__ = (UniqueConstraint("event_id", "round", "board", name="uq_event_pairings_board"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    white: Mapped[str] = mapped_column(String(200))
    black: Mapped[str] = mapped_column(String(200))
    white_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    black_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    imported_at: Mapped[str] = mapped_column(String(40))
