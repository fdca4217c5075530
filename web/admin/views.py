"""The admin pages (issue 23): take access back, and see and lift throttled log-ins.

- ``/admin/``: the users (role, active, open sessions, live event tokens) with Deactivate /
  Activate and Revoke tokens; the log-ins being throttled (whose name, from which address,
  how many failures, until when) with Lift; the events, each with its staff page.
- ``/admin/events/``, ``/admin/events/<slug>``: make an event, set it, staff it, its tokens
  (:mod:`web.admin.staff`: admins, and an event's own organisers for their event).

Admins only (403 for anyone else); every form carries the CSRF token and answers 303 back to
the page (a refusal: the page again with the message, 409). The changes are those of the command
line (:mod:`web.auth.revoke`), audited with the admin's name as the actor.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from web.auth import login_required, page_user
from web.auth.revoke import activate, revoke_token
from web.auth.throttle import LoginThrottle
from web.db import get_session as db
from web.tables.events import Event, EventStaff, EventToken
from web.tables.logins import LoginSession
from web.tables.users import ROLES, User

bp = Blueprint("admin", __name__, url_prefix="/admin")

ROLE_WORDS = {"admin": "admin", "td": "TD", "committee": "committee pool", "appeals": "appeals committee",
              "organiser": "organiser"}
"""A role in plain words (a user's own role, a staff place)."""


def _throttle() -> LoginThrottle:
    found: LoginThrottle = current_app.extensions["login_throttle"]
    return found


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def index_page(error: str | None = None, status: int = 200, **extra: Any) -> tuple[str, int]:
    """The admin page (``extra``: a new user's credentials shown once, the add-user form's values and errors)."""
    session = db()
    users = list(session.scalars(select(User).order_by(User.name)))
    sessions: dict[int, int] = {user_id: count for user_id, count in session.execute(
        select(LoginSession.user_id, func.count()).group_by(LoginSession.user_id)).tuples()}
    tokens: dict[int, int] = {user_id: count for user_id, count in session.execute(
        select(EventToken.user_id, func.count()).where(EventToken.revoked_at.is_(None))
        .group_by(EventToken.user_id)).tuples()}
    throttle = _throttle()
    now = throttle.clock()
    names = {u.id: u.name for u in users}
    throttled = [{"key": t.key, "who": (names.get(t.user_id or 0, "a name no user has") if t.name_digest else
                                        "every name"),
                  "address": t.address, "failures": t.failures, "last": _when(t.last_at),
                  "waits": max(0, int(t.until - now)), "until": _when(t.until)} for t in throttle.throttled()]
    events = list(session.scalars(select(Event).order_by(Event.id)))
    places: dict[int, list[str]] = {}
    for place in session.scalars(select(EventStaff).order_by(EventStaff.event_id, EventStaff.role)):
        places.setdefault(place.user_id, []).append(f"{ROLE_WORDS.get(place.role, place.role)} in {place.event.name}")
    context: dict[str, Any] = {"credentials": None, "new_errors": {}, "new_values": {}, "roles": ROLES,
                               "role_words": ROLE_WORDS}
    context.update(extra)
    return render_template("admin/index.html", users=users, sessions=sessions, tokens=tokens, throttled=throttled,
                           events=events, me=page_user(), error=error, places=places, **context), status


@bp.get("/")
@login_required("admin")
def index() -> tuple[str, int]:
    return index_page()


def user_or_404(user_id: int) -> User:
    user = db().get(User, user_id)
    if user is None:
        abort(404)
    return user


@bp.post("/users/<int:user_id>/activate")
@login_required("admin")
def activate_user(user_id: int) -> Response:
    activate(db(), user_or_404(user_id), actor=page_user().name)
    db().commit()
    return redirect(url_for("admin.index"), 303)


@bp.post("/users/<int:user_id>/revoke-token")
@login_required("admin")
def revoke_user_token(user_id: int) -> Response:
    """The user's API token and every event token stop working (a new one: ``adjudicator users token``)."""
    revoke_token(db(), user_or_404(user_id), actor=page_user().name)
    db().commit()
    return redirect(url_for("admin.index"), 303)


@bp.post("/logins/lift")
@login_required("admin")
def lift() -> Response:
    """Forget the failures of a throttled name and address (or of an address)."""
    key = request.form.get("key", "")
    if " " not in key or len(key) > 200:
        abort(400, "key must name a throttled name and address (from the admin page)")
    _throttle().lift(key)
    return redirect(url_for("admin.index"), 303)
