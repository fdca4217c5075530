"""Changes to an event, its staff and its tokens, with the rules of each: what is a valid value (the
error names the field), who may make it, and the audit entry it leaves. The command line
(``adjudicator events ...``) and the event's staff pages (:mod:`web.admin`) both go through here.

Who may (``by`` is the user making the change; None is the command line, run by whoever runs the
server and its database):

- create an event: an admin;
- change an event's settings (name, dates, ruleset, visibility, open or closed, broadcast): an admin,
  or an organiser of that event; a broadcast *folder* (a path on the server) only an admin, as the
  server's files are the install's, not one event's (an organiser gives an http(s) URL); a URL at a
  loopback, private or link-local address is refused from the web, for admins too, unless the operator
  allows its network (``[web.broadcast] allowed_networks``; issue 39): the command line may set one;
- assign or remove its TDs, committee pool and appeals committee: an admin or its organiser; its
  organisers: an admin only;
- issue an event token: its own user (for themselves) or an admin, so that an organiser never holds
  a credential of someone else; revoke one: its user, the event's organisers, an admin.

The database holds the same rules on the rows that say who did it (migration 0016); the checks here
come first only to answer with words and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.audit import append, now
from web.auth.revoke import issue_event_token, remove_staff, revoke_event_tokens
from web.broadcast.sources import source_problem, url_refusal
from web.events.access import AccessRefused, Actor, roles_in
from web.tables.events import ORGANISER, SLUG, STAFF_ROLES, VISIBILITIES, Event, EventStaff, event_by_slug
from web.tables.users import User

COMMAND_LINE = "command line"
"""The audit's actor for a change made with ``adjudicator events``."""


@dataclass(frozen=True)
class EventSettings:
    """What may be set of an event (all but its slug, which names it in the API and never changes)."""

    name: str
    starts_on: date | None = None
    ends_on: date | None = None
    ruleset: str | None = None
    visibility: str = "public"
    is_open: bool = False
    broadcast: str | None = None

    @classmethod
    def of(cls, event: Event) -> EventSettings:
        return cls(event.name, event.starts_on, event.ends_on, event.ruleset, event.visibility,
                   bool(event.is_open), event.broadcast)


def actor_name(by: User | None) -> str:
    return COMMAND_LINE if by is None else by.name


def is_admin(by: User | None) -> bool:
    return by is not None and by.is_active and by.role == "admin"


def may_organise(session: Session, by: User | None, event: Event) -> bool:
    """Whether ``by`` runs ``event``: an admin, an organiser of it, or the command line."""
    return by is None or bool(roles_in(session, Actor(by), event) & {"admin", ORGANISER})


def may_manage(session: Session, by: User, user: User) -> bool:
    """Whether ``by`` may reset ``user``'s password or deactivate them (issue 35): an admin; an organiser when
    every staff place ``user`` holds is in an event ``by`` organises (a substitute TD they added, never someone
    of another event), ``user`` being no admin and not ``by``."""
    if is_admin(by):
        return True
    if user.role == "admin" or user.id == by.id or not by.is_active:
        return False
    places = set(session.scalars(select(EventStaff.event_id).where(EventStaff.user_id == user.id)))
    organised = set(session.scalars(select(EventStaff.event_id).where(EventStaff.user_id == by.id,
                                                                     EventStaff.role == ORGANISER)))
    return bool(places) and places <= organised


def day(text: object, field: str) -> date | None:
    """A date typed as YYYY-MM-DD (empty: none)."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if isinstance(text, date):
        return text
    try:
        return date.fromisoformat(str(text).strip())
    except ValueError:
        raise ContractError("invalid_field", f"{field} must be a date YYYY-MM-DD, not {text!r}", field) from None


def check_slug(slug: str) -> str:
    if not SLUG.match(slug):
        raise ContractError("invalid_field", "slug must be 1 to 40 lower-case letters, digits and dashes", "slug")
    return slug


def settings(book: RulesetBook, *, name: object, starts: object = None, ends: object = None,
             ruleset: object = None, visibility: object = "public", is_open: bool = False,
             broadcast: object = None) -> EventSettings:
    """Settings from what was typed (the command line's arguments or the web form's fields).

    :raises ContractError: a value that cannot be, naming its field (``name``, ``starts``, ``ends``,
        ``visibility``, ``broadcast``); :class:`~adjudicator.rulesets.RulesetError` an unknown ruleset.
    """
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > 200 or "\n" in text or "\r" in text:
        raise ContractError("invalid_field", "name must be 1 to 200 characters on one line", "name")
    starts_on, ends_on = day(starts, "starts"), day(ends, "ends")
    if starts_on and ends_on and ends_on < starts_on:
        raise ContractError("invalid_field", "the event cannot end before it starts", "ends")
    rules = ruleset.strip() if isinstance(ruleset, str) and ruleset.strip() else None
    if rules is not None:
        book[rules]  # RulesetError for an unknown id (key: the ruleset)
    if visibility not in VISIBILITIES:
        raise ContractError("invalid_field", f"visibility must be {' or '.join(VISIBILITIES)}", "visibility")
    return EventSettings(text, starts_on, ends_on, rules, str(visibility), bool(is_open), broadcast_source(broadcast))


def broadcast_source(source: object) -> str | None:
    """The broadcast as stored: None for none (empty), else a folder's absolute path or an http(s) URL."""
    if source is None or (isinstance(source, str) and not source.strip()):
        return None
    text = str(source).strip()
    problem = source_problem(text)
    if problem is not None:
        raise ContractError("invalid_field", problem, "broadcast")
    return text


def _written(session: Session, what: str) -> None:
    """Flush; a rule of the database refusing it (migration 0016's) is answered as a refusal, not a crash."""
    try:
        session.flush()
    except IntegrityError as exc:
        session.rollback()
        raise AccessRefused(403, "forbidden", f"the database refuses {what}: {_words(exc)}", None) from None


def _words(exc: IntegrityError) -> str:
    text = str(getattr(exc, "orig", exc)).strip().splitlines()
    return text[0] if text else "a constraint"


def create_event(session: Session, slug: str, chosen: EventSettings, by: User | None) -> Event:
    """A new event (closed to all but its staff unless ``is_open``), audited; the caller commits.

    :raises AccessRefused: ``by`` is not an admin. :raises ContractError: the slug is taken or malformed.
    """
    if by is not None and not is_admin(by):
        raise AccessRefused(403, "forbidden", f"{by.name} is not an admin: only an admin creates an event", None)
    check_slug(slug)
    if event_by_slug(session, slug) is not None:
        raise ContractError("invalid_field", f"an event {slug!r} already exists", "slug")
    event = Event(slug=slug, name=chosen.name, starts_on=chosen.starts_on, ends_on=chosen.ends_on,
                  ruleset=chosen.ruleset, visibility=chosen.visibility, is_open=chosen.is_open, created_at=now(),
                  broadcast=chosen.broadcast, changed_by_id=None if by is None else by.id)
    session.add(event)
    _written(session, "the new event")
    session.refresh(event)
    append(session, "event", event.subject, event.audit_payload(), actor=actor_name(by))
    return event


def change_event(session: Session, event: Event, chosen: EventSettings, by: User | None) -> Event:
    """Set the event's settings to ``chosen`` (one audit entry: the event as it is now); the caller commits.

    :raises AccessRefused: ``by`` neither admin nor an organiser of the event, or an organiser naming a folder.
    """
    if not may_organise(session, by, event):
        assert by is not None
        raise AccessRefused(403, "forbidden", f"{by.name} is not an organiser of the event {event.slug!r}", None)
    if (chosen.broadcast != event.broadcast and chosen.broadcast is not None and chosen.broadcast.startswith("/")
            and by is not None and not is_admin(by)):
        raise AccessRefused(403, "forbidden", "a folder on the server is given by an admin; give the broadcast's "
                            "http(s) URL", "broadcast")
    refused = url_refusal(chosen.broadcast) if chosen.broadcast != event.broadcast and chosen.broadcast else None
    if refused is not None and by is not None:
        raise ContractError("invalid_field", refused, "broadcast")
    event.name, event.starts_on, event.ends_on = chosen.name, chosen.starts_on, chosen.ends_on
    event.ruleset, event.visibility, event.is_open = chosen.ruleset, chosen.visibility, chosen.is_open
    event.broadcast = chosen.broadcast
    event.changed_by_id = None if by is None else by.id
    _written(session, "the change")
    session.refresh(event)
    append(session, "event", event.subject, event.audit_payload(), actor=actor_name(by))
    return event


def set_broadcast(session: Session, event: Event, source: object, by: User | None) -> Event:
    """Only the event's broadcast changes (``adjudicator events set --broadcast``)."""
    chosen = EventSettings.of(event)
    return change_event(session, event, EventSettings(chosen.name, chosen.starts_on, chosen.ends_on, chosen.ruleset,
                                                      chosen.visibility, chosen.is_open, broadcast_source(source)), by)


def may_assign(session: Session, by: User | None, event: Event, role: str) -> bool:
    """An admin (or the command line) assigns every role; an organiser of the event all but organisers."""
    if by is None or is_admin(by):
        return True
    return role != ORGANISER and may_organise(session, by, event)


def assign_staff(session: Session, event: Event, user: User, role: object, by: User | None) -> EventStaff | None:
    """Give ``user`` the ``role`` in ``event`` (audited); None when they hold it already. The caller commits.

    :raises ContractError: not a role; :raises AccessRefused: ``by`` may not assign it.
    """
    if role not in STAFF_ROLES:
        raise ContractError("invalid_field", f"role must be one of {', '.join(STAFF_ROLES)}", "role")
    if not may_assign(session, by, event, str(role)):
        assert by is not None
        who = "an admin" if role == ORGANISER else "an admin or an organiser of the event"
        raise AccessRefused(403, "forbidden", f"{by.name} may not assign {role}s here: only {who} does", "role")
    if not user.is_active:
        raise ContractError("invalid_field", f"{user.name} is deactivated", "user")
    exists = session.scalar(select(EventStaff.id).where(EventStaff.event_id == event.id,
                                                        EventStaff.user_id == user.id, EventStaff.role == role))
    if exists is not None:
        return None
    row = EventStaff(event_id=event.id, user_id=user.id, role=str(role), assigned_at=now(),
                     assigned_by_id=None if by is None else by.id)
    session.add(row)
    _written(session, "the assignment")
    session.refresh(row)
    append(session, "event-staff", row.subject, row.audit_payload(), actor=actor_name(by))
    return row


def unassign_staff(session: Session, event: Event, user: User, role: str | None, by: User | None) -> list[str]:
    """Take ``user`` off the event's staff (only ``role``, when given); the roles removed. An organiser
    takes off all but organisers (their own place too, but not another organiser's)."""
    if role is not None and not may_assign(session, by, event, role):
        assert by is not None
        raise AccessRefused(403, "forbidden", f"{by.name} may not take {role}s off this event", "role")
    if role is None and not all(may_assign(session, by, event, r) for r in held_roles(session, event, user)):
        assert by is not None
        raise AccessRefused(403, "forbidden", f"{by.name} may not take an organiser off this event", "role")
    return remove_staff(session, event, user, role, actor=actor_name(by))


def held_roles(session: Session, event: Event, user: User) -> list[str]:
    return sorted(session.scalars(select(EventStaff.role).where(EventStaff.event_id == event.id,
                                                                EventStaff.user_id == user.id)))


def issue_token(session: Session, event: Event, user: User, by: User | None) -> str:
    """A token acting for ``user`` in ``event`` only (any earlier one of theirs there stops); the token.

    :raises ContractError: the user has no part in the event; :raises AccessRefused: ``by`` is neither the
        token's user nor an admin.
    """
    if by is not None and by.id != user.id and not is_admin(by):
        raise AccessRefused(403, "forbidden", f"a token for {user.name} is issued by {user.name} or an admin: "
                            "nobody else holds it", "user")
    if not roles_in(session, Actor(user), event):
        raise ContractError("not_staff", f"{user.name} is not on the staff of the event {event.slug!r}; "
                            "assign them first (events staff)", "user")
    try:
        return issue_event_token(session, event, user, actor=actor_name(by), issued_by=by)
    except IntegrityError as exc:
        session.rollback()
        raise AccessRefused(403, "forbidden", f"the database refuses the token: {_words(exc)}", None) from None


def may_revoke(session: Session, by: User | None, event: Event, user: User) -> bool:
    """A token is revoked by its user, the event's organisers or an admin."""
    return by is None or by.id == user.id or may_organise(session, by, event)


def revoke_tokens(session: Session, event: Event, user: User, by: User | None) -> int:
    """Stop ``user``'s token for ``event``; how many were live."""
    if not may_revoke(session, by, event, user):
        assert by is not None
        raise AccessRefused(403, "forbidden", f"{by.name} may not revoke {user.name}'s token here", "user")
    return revoke_event_tokens(session, user, actor_name(by), event)


def form_settings(book: RulesetBook, form: Mapping[str, str]) -> EventSettings:
    """Settings from the event form's fields (``name``, ``starts``, ``ends``, ``ruleset``, ``visibility``,
    ``access`` open or closed, ``broadcast``)."""
    access = form.get("access", "closed")
    if access not in ("open", "closed"):
        raise ContractError("invalid_field", "access must be open or closed", "access")
    return settings(book, name=form.get("name"), starts=form.get("starts"), ends=form.get("ends"),
                    ruleset=form.get("ruleset"), visibility=form.get("visibility", "public"),
                    is_open=access == "open", broadcast=form.get("broadcast"))
