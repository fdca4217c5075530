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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from web.audit import append, now
from web.tables.collections import KIND, GameCollection
from web.tables.events import Event
from web.tables.users import User

DEFAULT_MAX_BYTES = 20_000_000
"""``[web] max_collection_bytes``: the largest upload (a compressed file holds many more games)."""


def max_bytes(config: Mapping[str, Any]) -> int:
    return int(config.get("web", {}).get("max_collection_bytes", DEFAULT_MAX_BYTES))


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
