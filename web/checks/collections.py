"""An event's stored game collections (migration ``0008``): every PGN/PDN a TD uploads to check is
kept with the event, byte for byte, so it can be checked again (under another ruleset, say) without
uploading it again, and so a report always names the exact file it was made from.

The rows are append-only: the database refuses UPDATE and DELETE on ``game_collections``
(triggers, as for the rulings of ``0001``), so a collection once stored stays as it was
uploaded; a corrected file is uploaded as a new collection. Each stored collection is an
audit entry (``game-collection``) whose payload is derived from the stored bytes (their size
and SHA-256), so :func:`web.audit.verify` catches bytes changed behind the triggers' back, a
row removed, or a row added without its entry. The same bytes uploaded again for the same
game in the same event are the collection already stored (one row; the unique key says so).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.audit import ROW_LISTERS, append, deriver, now
from web.auth.models import User
from web.db import Base
from web.events.models import Event

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


@dataclass(frozen=True)
class Kept:
    """The collection an upload is stored as; ``is_new`` False: the same bytes were stored already."""

    collection: GameCollection
    is_new: bool


def keep(session: Session, event: Event, filename: str, data: bytes, game: str, user: User | None) -> Kept:
    """Store ``data`` as a collection of ``event`` (audited, committed), or find the same bytes stored already."""
    digest = hashlib.sha256(data).hexdigest()
    found = _stored(session, event.id, game, digest)
    if found is not None:
        return Kept(found, False)
    row = GameCollection(event_id=event.id, filename=filename[:200], game=game, size=len(data), sha256=digest,
                         content=data, uploaded_by_id=None if user is None else user.id, uploaded_at=now())
    session.add(row)
    try:
        session.flush()
    except IntegrityError:  # the same file, uploaded at the same moment by another TD: that one stands
        session.rollback()
        found = _stored(session, event.id, game, digest)
        if found is None:
            raise
        return Kept(found, False)
    append(session, KIND, row.subject, row.audit_payload(session), actor=user.name if user is not None else "web")
    session.commit()
    return Kept(row, True)


def _stored(session: Session, event_id: int, game: str, digest: str) -> GameCollection | None:
    return session.scalar(select(GameCollection).where(GameCollection.event_id == event_id,
                                                       GameCollection.game == game, GameCollection.sha256 == digest))


def of_event(session: Session, event: Event, limit: int = 50) -> list[GameCollection]:
    """The event's collections, newest first (their bytes not read)."""
    return list(session.scalars(select(GameCollection).where(GameCollection.event_id == event.id)
                                .order_by(GameCollection.id.desc()).limit(limit)))


def readable_size(size: int) -> str:
    """``812 bytes``, ``14.2 kB``, ``3.1 MB`` (decimal units, as file managers show them)."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


@deriver(KIND)
def _payload(session: Session, subject: str) -> dict[str, Any] | None:
    try:
        row = session.get(GameCollection, int(subject.rsplit(":", 1)[1]))
    except (IndexError, ValueError):
        row = None
    return None if row is None else row.audit_payload(session)


ROW_LISTERS[KIND] = lambda session: [f"{KIND}:{i}" for i in session.scalars(select(GameCollection.id))]
