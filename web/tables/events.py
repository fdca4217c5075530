"""Events: the unit of access. An event has its ruleset, its staff (TDs, committee pool,
appeals committee) and a visibility; rulings, committee cases and appeals belong to one.

Migration ``0003`` creates the tables and the install's one default event (id 1,
``default``): public and *open*, that is anyone may enter claims in it and every user
serves it in their own role, so a fresh install works with no set-up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    select,
    text,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from web.db import Base
from web.tables.audit import ROW_LISTERS, deriver
from web.tables.users import User

DEFAULT_EVENT_ID = 1
DEFAULT_SLUG = "default"
VISIBILITIES = ("public", "private")
STAFF_ROLES = ("td", "committee", "appeals", "organiser")
"""What a user does in one event: rules (td), sits on its committee, decides its appeals, runs it
(organiser: its settings, staff and tokens from the web; migration 0016, :mod:`web.events.changes`)."""
ORGANISER = "organiser"
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


class EventError(ValueError):
    """An event, staff assignment or token that cannot be made; ``field`` names the input at fault."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (
        CheckConstraint("visibility IN ('public', 'private')", name="ck_events_visibility"),
        CheckConstraint("starts_on IS NULL OR ends_on IS NULL OR ends_on >= starts_on", name="ck_events_dates"),
        CheckConstraint("broadcast IS NULL OR broadcast LIKE 'http://%' OR broadcast LIKE 'https://%' "
                        "OR broadcast LIKE '/%'", name="ck_events_broadcast"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    starts_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ends_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ruleset: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The event's ruleset: every case in the event is ruled under it (None: any, the default event)."""
    visibility: Mapped[str] = mapped_column(String(10))
    is_open: Mapped[bool] = mapped_column(Boolean)
    """Anyone may enter claims, and every user serves in their own role (the default event)."""
    created_at: Mapped[str] = mapped_column(String(40))
    broadcast: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    """Where the event's live games are published: a folder on the server or an http(s) URL
    (:mod:`web.broadcast`); None for none. Migration 0010."""
    changed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """Who last wrote the event (None: the command line); the database holds it to an admin, or an
    organiser of this event for a change (migration 0016)."""

    changed_by: Mapped[User | None] = relationship(foreign_keys=[changed_by_id])

    @property
    def is_private(self) -> bool:
        return self.visibility == "private"

    @property
    def subject(self) -> str:
        return f"event:{self.id}"

    def audit_payload(self) -> dict[str, Any]:
        return {"slug": self.slug, "name": self.name, "starts_on": _iso(self.starts_on),
                "ends_on": _iso(self.ends_on), "ruleset": self.ruleset, "visibility": self.visibility,
                "is_open": bool(self.is_open), "broadcast": self.broadcast,
                "changed_by": None if self.changed_by is None else self.changed_by.name}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, **{k: v for k, v in self.audit_payload().items() if k != "changed_by"}}


class EventFacts(Protocol):
    """What the access rules read of an event: an :class:`Event` row, or an :class:`EventSnapshot` of one."""

    @property
    def id(self) -> int: ...
    @property
    def slug(self) -> str: ...
    @property
    def ruleset(self) -> str | None: ...
    @property
    def visibility(self) -> str: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def is_private(self) -> bool: ...


@dataclass(frozen=True)
class EventSnapshot:
    """An event's access facts as read at one moment, held by no database session (safe to share
    between threads); see :mod:`web.events.cache`."""

    id: int
    slug: str
    name: str
    ruleset: str | None
    visibility: str
    is_open: bool

    @classmethod
    def of(cls, event: Event) -> EventSnapshot:
        return cls(event.id, event.slug, event.name, event.ruleset, event.visibility, bool(event.is_open))

    @property
    def is_private(self) -> bool:
        return self.visibility == "private"


class EventStaff(Base):
    __tablename__ = "event_staff"
    __table_args__ = (
        UniqueConstraint("event_id", "user_id", "role", name="uq_event_staff"),
        CheckConstraint("role IN ('td', 'committee', 'appeals', 'organiser')", name="ck_event_staff_role"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    assigned_at: Mapped[str] = mapped_column(String(40))
    assigned_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """Who assigned the place (None: the command line); the database holds it to an admin, or an
    organiser of the event for its other roles (migration 0016)."""

    event: Mapped[Event] = relationship()
    user: Mapped[User] = relationship(foreign_keys=[user_id])
    assigned_by: Mapped[User | None] = relationship(foreign_keys=[assigned_by_id])

    @property
    def subject(self) -> str:
        return f"event-staff:{self.id}"

    def audit_payload(self) -> dict[str, Any]:
        return {"event": self.event.slug, "user": self.user.name, "role": self.role,
                "assigned_by": None if self.assigned_by is None else self.assigned_by.name}


class EventToken(Base):
    """An API token that acts for its user in one event only (stored as its SHA-256), until revoked.

    A user holds at most one live token per event (``uq_event_tokens_live``, migration ``0011``): a new
    one replaces the old, which is revoked, never deleted (its audit entry says when).
    """

    __tablename__ = "event_tokens"
    __table_args__ = (
        Index("uq_event_tokens_live", "event_id", "user_id", unique=True,
              sqlite_where=text("revoked_at IS NULL"), postgresql_where=text("revoked_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[str] = mapped_column(String(40))
    revoked_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """When the token stopped working (None: it works)."""
    issued_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    """Who issued it (None: the command line); the database holds it to the token's own user or an
    admin (migration 0016): nobody else ever holds it."""

    event: Mapped[Event] = relationship()
    user: Mapped[User] = relationship(foreign_keys=[user_id])
    issued_by: Mapped[User | None] = relationship(foreign_keys=[issued_by_id])

    @property
    def subject(self) -> str:
        return f"event-token:{self.id}"

    def audit_payload(self) -> dict[str, Any]:
        return {"event": self.event.slug, "user": self.user.name, "token_hash": self.token_hash,
                "revoked_at": self.revoked_at, "issued_by": None if self.issued_by is None else self.issued_by.name}


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def event_by_slug(session: Session, slug: str) -> Event | None:
    return session.scalar(select(Event).where(Event.slug == slug))


def default_event(session: Session) -> Event:
    found = session.get(Event, DEFAULT_EVENT_ID)
    if found is None:
        raise EventError("the default event is missing; run the migrations", "event")
    return found


def _id(subject: str) -> int | None:
    try:
        return int(subject.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return None


@deriver("event")
def _event_payload(session: Session, subject: str) -> dict[str, Any] | None:
    ident = _id(subject)
    row = None if ident is None else session.get(Event, ident)
    return None if row is None else row.audit_payload()


@deriver("event-staff")
def _staff_payload(session: Session, subject: str) -> dict[str, Any] | None:
    """The assignment as stored (None: removed; :data:`web.audit.REMOVED` entries say it was on purpose)."""
    ident = _id(subject)
    row = None if ident is None else session.get(EventStaff, ident)
    return None if row is None else row.audit_payload()


@deriver("event-token")
def _token_payload(session: Session, subject: str) -> dict[str, Any] | None:
    ident = _id(subject)
    row = None if ident is None else session.get(EventToken, ident)
    return None if row is None else row.audit_payload()


ROW_LISTERS["event"] = lambda session: [  # the default event comes from the migration, not from a command
    f"event:{i}" for i in session.scalars(select(Event.id).where(Event.id != DEFAULT_EVENT_ID))
]
ROW_LISTERS["event-staff"] = lambda session: [f"event-staff:{i}" for i in session.scalars(select(EventStaff.id))]
ROW_LISTERS["event-token"] = lambda session: [f"event-token:{i}" for i in session.scalars(select(EventToken.id))]
