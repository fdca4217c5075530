"""Who is asking (issue 11): the API token's user, the logged-in user or anonymous, and the event a request acts in.

The tables are in :mod:`web.tables.events`, the rules of access in
:mod:`web.events.access`, the command line in ``web/commands/events.py``.
"""

from __future__ import annotations

from flask import current_app, g, request, session
from flask_login import current_user

from web.db import get_session
from web.events.access import Actor, event_snapshot, resolve_token
from web.events.cache import EventCache
from web.tables.events import EventSnapshot

MY_CASES = "my_cases"
"""Session key: the board cases this browser entered (kept to the last :data:`KEEP_CASES`)."""
KEEP_CASES = 50
SHARED = "shared_rulings"
"""Session key: the rulings this browser opened through a share link."""


class TokenRefused(PermissionError):
    """An Authorization header with a token that is not valid."""


def current_actor() -> Actor:
    """Who is asking: the API token's user (and its event), else the logged-in user, else anonymous."""
    user = g.get("api_user")
    if user is not None:
        return Actor(user, g.get("api_scope"), _browser_cases())
    if current_user and current_user.is_authenticated:
        return Actor(current_user._get_current_object(), None, _browser_cases())
    return Actor(None, None, _browser_cases())


def bearer_actor() -> Actor:
    """For API routes open to anonymous callers: the token's user when one is sent.

    :raises TokenRefused: a token was sent and is not valid.
    """
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if not scheme:
        return Actor(None)
    found = resolve_token(get_session(), token.strip()) if scheme.lower() == "bearer" else None
    if found is None:
        raise TokenRefused("the token is not valid")
    g.api_user, g.api_scope = found
    return Actor(found[0], found[1])


def _browser_cases() -> frozenset[int]:
    try:
        return frozenset(int(i) for i in session.get(MY_CASES, []))
    except (TypeError, ValueError):
        return frozenset()


def remember_case(case_id: int) -> None:
    """This browser entered ``case_id`` (its submitter may cancel it)."""
    kept = [i for i in session.get(MY_CASES, []) if isinstance(i, int)][-(KEEP_CASES - 1):]
    session[MY_CASES] = [*kept, case_id]


def resolve_event(slug: object, field: str = "event") -> EventSnapshot:
    """The event a claim is entered in, named by ``slug`` (absent: the default event), as a
    snapshot of its access facts read at most ``EVENT_CACHE_SECONDS`` ago (:mod:`web.events.cache`);
    :class:`ContractError` names the field."""
    cache: EventCache = current_app.extensions["event_cache"]
    return event_snapshot(cache, get_session, slug, field)


__all__ = ["Actor", "TokenRefused", "bearer_actor", "current_actor", "remember_case", "resolve_event"]
