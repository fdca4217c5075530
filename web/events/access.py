"""Who may do what in an event: rule, see its rulings, cancel a job, read a committee case,
decide an appeal. One place, so the pages and the APIs answer alike.

An :class:`Actor` is the user behind a request (``None``: anonymous), the event its
token is limited to (an event-scoped token acts in that event only), and the cases this
browser entered (so an anonymous TD can cancel their own job).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.contract import ContractError
from web.events.cache import EventCache
from web.tables.events import (
    DEFAULT_EVENT_ID,
    Event,
    EventFacts,
    EventSnapshot,
    EventStaff,
    EventToken,
    event_by_slug,
)
from web.tables.users import User, token_digest, user_by_token

STAFF = frozenset({"td", "committee", "appeals"})


class AccessRefused(ContractError):
    """The asker may not do this here; ``status`` is the HTTP status (401 anonymous, 403, 404 hidden)."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(code, message, field)
        self.status = status


@dataclass(frozen=True)
class Actor:
    user: User | None
    scope: int | None = None
    """The only event this actor may act in (an event-scoped token), or None."""
    browser_cases: frozenset[int] = field(default_factory=frozenset)
    """Board cases entered from this browser session (their submitter may cancel them)."""

    @property
    def is_admin(self) -> bool:
        return self.user is not None and self.user.role == "admin"

    def reaches(self, event_id: int) -> bool:
        """Whether the actor's token reaches ``event_id`` at all."""
        return self.scope is None or self.scope == event_id


ANONYMOUS = Actor(None)


def event_named(session: Session, slug: object, field: str = "event") -> Event:
    """The event named by ``slug`` (absent: the default event); :class:`ContractError` names the field."""
    found = _load_named(session, _event_key(slug, field))
    if found is None:
        raise ContractError("unknown_event", f"there is no event {slug!r}", field)
    return found


def _event_key(slug: object, field: str) -> int | str:
    """The default event's id for an absent name, else the slug; :class:`ContractError` for a value no event has."""
    if slug is None or slug == "":
        return DEFAULT_EVENT_ID
    if isinstance(slug, str) and len(slug) <= 40:
        return slug
    raise ContractError("invalid_field", "event must be an event's short name (its slug)", field)


def _load_named(session: Session, key: int | str) -> Event | None:
    return session.get(Event, key) if isinstance(key, int) else event_by_slug(session, key)


def event_snapshot(cache: EventCache, sessions: Callable[[], Session], slug: object,
                   field: str = "event") -> EventSnapshot:
    """As :func:`event_named`, through ``cache`` (``sessions()`` is called only to read a stale entry)."""
    key = _event_key(slug, field)
    found = cache.get(key, lambda session: _load_named(session, key), sessions)
    if found is None:
        raise ContractError("unknown_event", f"there is no event {slug!r}", field)
    return found


def roles_in(session: Session, actor: Actor, event: EventFacts) -> frozenset[str]:
    """What the actor is in ``event``: ``admin`` and every staff role for an admin; their staff
    assignments; in an open event, also their own role."""
    user = actor.user
    if user is None or not user.is_active or not actor.reaches(event.id):
        return frozenset()
    if user.role == "admin":
        return STAFF | {"admin"}
    roles = set(session.scalars(select(EventStaff.role).where(EventStaff.event_id == event.id,
                                                              EventStaff.user_id == user.id)))
    if event.is_open and user.role in STAFF:
        roles.add(user.role)
    return frozenset(roles)


def is_stranger(session: Session, actor: Actor, event: EventFacts) -> bool:
    """Whether the actor has no part in ``event`` at all: its cases, appeals, pairings and checks are then
    answered 404, as if they did not exist (403 would tell a TD of another event that they do)."""
    return not roles_in(session, actor, event)


def refused_status(session: Session, actor: Actor, event: EventFacts) -> int:
    """The status for an actor refused something of ``event``: 404 for a stranger to it, else 403."""
    return 404 if is_stranger(session, actor, event) else 403


def may_rule(session: Session, actor: Actor, event: EventFacts) -> bool:
    """A TD rules in their events (an admin anywhere); anyone in an open event."""
    if not actor.reaches(event.id):
        return False
    return bool(event.is_open) or "td" in roles_in(session, actor, event)


def check_not_hidden(session: Session, actor: Actor, event: EventFacts, field: str = "event") -> None:
    """A private event is, to someone with no part in it, an event that does not exist (issue 39, item 1): a
    write naming it gets the same ``unknown_event`` error as a slug no event has, never 401 or 403, which
    would tell a stranger that it exists.

    :raises ContractError: ``unknown_event``, naming ``field``.
    """
    if event.is_private and is_stranger(session, actor, event):
        raise ContractError("unknown_event", f"there is no event {event.slug!r}", field)


def check_may_rule(session: Session, actor: Actor, event: EventFacts, ruleset: str) -> None:
    """:raises AccessRefused: the actor may not rule in ``event``; :class:`ContractError`: not its ruleset, or
    ``unknown_event`` for a private event the actor has no part in (:func:`check_not_hidden`)."""
    if not may_rule(session, actor, event):
        check_not_hidden(session, actor, event)
        if actor.user is None:
            raise AccessRefused(401, "unauthorized", f"ruling in the event {event.slug!r} needs a TD's token or "
                                "login", "Authorization")
        raise AccessRefused(403, "forbidden", f"{actor.user.name} is not a TD of the event {event.slug!r}", "event")
    if event.ruleset and ruleset != event.ruleset:
        raise ContractError("invalid_field", f"the event {event.slug!r} is played under {event.ruleset!r}, "
                            f"not {ruleset!r}", "ruleset")


def may_see_rulings(session: Session, actor: Actor, event: EventFacts) -> bool:
    """A public event's rulings are public; a private event's only for its staff (and admins)."""
    return not event.is_private or bool(roles_in(session, actor, event))


def visible_events(session: Session, actor: Actor) -> list[Event]:
    return [e for e in session.scalars(select(Event).order_by(Event.id)) if may_see_rulings(session, actor, e)]


def rulable_events(session: Session, actor: Actor) -> list[Event]:
    return [e for e in session.scalars(select(Event).order_by(Event.id)) if may_rule(session, actor, e)]


def may_cancel(session: Session, actor: Actor, case_id: int, event: Event, submitted_by_id: int | None) -> bool:
    """An engine job is cancelled by whoever entered it, the event's TDs, or an admin."""
    if case_id in actor.browser_cases:
        return True
    if actor.user is not None and submitted_by_id == actor.user.id and actor.reaches(event.id):
        return True
    return "td" in roles_in(session, actor, event)


def may_read_committee_case(session: Session, actor: Actor, event: Event, member_ids: Iterable[int]) -> bool:
    """A committee case: its seated members, the event's TDs and appeals committee, admins."""
    if actor.user is not None and actor.reaches(event.id) and actor.user.id in set(member_ids):
        return True
    return bool(roles_in(session, actor, event) & {"td", "appeals"})


def event_staff(session: Session, event: Event, role: str) -> list[User]:
    """The users who serve ``event`` in ``role`` (every active user of that role in an open event)."""
    query = select(User).where(User.active.is_(True))
    if event.is_open:
        assigned = select(EventStaff.user_id).where(EventStaff.event_id == event.id, EventStaff.role == role)
        query = query.where((User.role == role) | User.id.in_(assigned))
    else:
        query = query.join(EventStaff, EventStaff.user_id == User.id).where(EventStaff.event_id == event.id,
                                                                           EventStaff.role == role)
    return list(session.scalars(query.order_by(User.name)))


def resolve_token(session: Session, token: str) -> tuple[User, int | None] | None:
    """The user of an API token and the event it is limited to (None: a user's own token, every event)."""
    user = user_by_token(session, token)
    if user is not None:
        return user, None
    if not token:
        return None
    scoped = session.scalar(select(EventToken).where(EventToken.token_hash == token_digest(token),
                                                     EventToken.revoked_at.is_(None)))
    if scoped is None or not scoped.user.is_active:
        return None
    return scoped.user, scoped.event_id


def share_code(secret: str, ruling_id: int) -> str:
    """The unguessable part of a ruling's share link (HMAC-SHA256 of its id under the app's secret key)."""
    mac = hmac.new(secret.encode("utf-8"), f"ruling-share:{ruling_id}".encode(), hashlib.sha256).hexdigest()
    return f"{ruling_id}-{mac[:32]}"


def shared_ruling_id(secret: str, code: str) -> int | None:
    """The ruling a share code opens, or None when the code is not one this app made."""
    if not code.isascii():  # '¹' is a digit to str.isdigit, and compare_digest takes ASCII only
        return None
    ident, _, _mac = code.partition("-")
    if not ident.isdigit() or len(ident) > 18:
        return None
    ruling_id = int(ident)
    return ruling_id if hmac.compare_digest(share_code(secret, ruling_id), code) else None


def may_read_appeal(session: Session, actor: Actor, event: Event, filed_by_id: int,
                    member_ids: Iterable[int]) -> bool:
    """An appeal: whoever filed it, the event's TDs and appeals committee, admins, and the members of the
    committee whose decision it appeals."""
    if actor.user is not None and actor.reaches(event.id) and actor.user.id == filed_by_id:
        return True
    return may_read_committee_case(session, actor, event, member_ids)
