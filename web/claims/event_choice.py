"""Which event the claim form opens on (issue 35): the TD's event in progress, never "Default event" by chance.

In order: the event this browser last entered a claim in *today* (a claim yesterday says nothing about
today's round); else, of the events the TD is staffed on as TD (an admin: on any role), the only one, or
the only one in progress today (its dates include today, or it has none); else the first of those in
progress; else the first event they may rule in (the default event on a fresh install). One missed choice
would otherwise file the claim under the wrong rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from web.events.access import Actor
from web.tables.events import DEFAULT_EVENT_ID, Event, EventStaff

USED_ON = "event_slug_on"
"""Session key: the day (ISO date) the remembered event was last used for a claim."""


def is_in_progress(event: Event, today: date) -> bool:
    """Whether ``today`` falls within the event's dates (an event without dates may be on any day)."""
    return (event.starts_on is None or event.starts_on <= today) and (event.ends_on is None or today <= event.ends_on)


def staffed_events(session: Session, actor: Actor, events: Sequence[Event]) -> list[Event]:
    """Of ``events``, those the actor is on the staff of as TD (an admin: in any role), the default event aside."""
    if actor.user is None:
        return []
    query = select(EventStaff.event_id).where(EventStaff.user_id == actor.user.id)
    if not actor.is_admin:
        query = query.where(EventStaff.role == "td")
    ids = set(session.scalars(query))
    return [e for e in events if e.id in ids and e.id != DEFAULT_EVENT_ID]


def opening_event(session: Session, actor: Actor, events: Sequence[Event], remembered: str | None,
                  remembered_on: str | None, today: date) -> str:
    """The slug the form opens on, of ``events`` (those the actor may rule in); "" when there are none."""
    slugs = [e.slug for e in events]
    if remembered and remembered in slugs and remembered_on == today.isoformat():
        return remembered
    staffed = staffed_events(session, actor, events)
    running = [e for e in staffed if is_in_progress(e, today)]
    if len(staffed) == 1:
        return staffed[0].slug
    if running:
        return running[0].slug
    return slugs[0] if slugs else ""
