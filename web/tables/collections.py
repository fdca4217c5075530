"""An event's stored game collections (migration ``0008``): the uploaded bytes, append-only (the
database refuses UPDATE and DELETE), each an audit entry derived from the bytes themselves. Kept and
listed by :mod:`web.checks.collections`."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, LargeBinary, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.db import Base
from web.tables.audit import ROW_LISTERS, deriver
from web.tables.events import Event
from web.tables.users import User

KIND = "game-collection"
"""The audit entry kind of a stored collection."""


class GameCollection(Base):
    __tablename__ = "game_collections"
    __table_args__ = (
        UniqueConstraint("event_id", "game", "sha256", name="uq_game_collections_bytes"),
        CheckConstraint("size = length(content)", name="ck_game_collections_size"),
        CheckConstraint("game IN ('chess', 'checkers')", name="ck_game_collections_game"),
        Index("ix_game_collections_event", "event_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    filename: Mapped[str] = mapped_column(String(200))
    """The name of the TD's file (its suffix says how it is compressed)."""
    game: Mapped[str] = mapped_column(String(16))
    size: Mapped[int] = mapped_column(Integer)
    """Bytes stored (as uploaded: compressed when the file was)."""
    sha256: Mapped[str] = mapped_column(String(64))
    content: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    """The file's bytes, as uploaded (loaded only when asked for: a list of collections never reads them)."""
    uploaded_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    uploaded_at: Mapped[str] = mapped_column(String(40))

    @property
    def subject(self) -> str:
        return f"{KIND}:{self.id}"

    def audit_payload(self, session: Session) -> dict[str, Any]:
        """What the audit entry records, derived from the stored bytes themselves (not from the row's digest)."""
        event = session.get(Event, self.event_id)
        user = None if self.uploaded_by_id is None else session.get(User, self.uploaded_by_id)
        return {"event": None if event is None else event.slug, "filename": self.filename, "game": self.game,
                "size": len(self.content), "sha256": hashlib.sha256(self.content).hexdigest(),
                "uploaded_by": None if user is None else user.name, "uploaded_at": self.uploaded_at}


@deriver(KIND)
def _payload(session: Session, subject: str) -> dict[str, Any] | None:
    try:
        row = session.get(GameCollection, int(subject.rsplit(":", 1)[1]))
    except (IndexError, ValueError):
        row = None
    return None if row is None else row.audit_payload(session)


ROW_LISTERS[KIND] = lambda session: [f"{KIND}:{i}" for i in session.scalars(select(GameCollection.id))]
