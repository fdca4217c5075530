"""The admin pages (issue 23): take access back, and see and lift throttled log-ins.

- ``/admin/``: the users (role, active, open sessions, live event tokens) with Deactivate /
  Activate and Revoke tokens; the log-ins being throttled (whose name, from which address,
  how many failures, until when) with Lift; the events, each with its staff page.
- ``/admin/events/``, ``/admin/events/<slug>``: make an event, set it, staff it, its tokens
  (:mod:`web.events.staff_views`: admins, and an event's own organisers for their event).

Admins only (403 for anyone else); every form carries the CSRF token and answers 303 back to
the page (a refusal: the page again with the message, 409). The changes are those of the command
line (:mod:`web.auth.revoke`), audited with the admin's name as the actor.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from web.auth import login_required, page_user
from web.auth.models import User
from web.auth.revoke import AccessChangeRefused, activate, deactivate, revoke_token
from web.auth.sessions import LoginSession
from web.auth.throttle import LoginThrottle
from web.db import get_session as db
from web.events.models import Event, EventToken

bp = Blueprint("admin", __name__, url_prefix="/admin")


def _throttle() -> LoginThrottle:
    found: LoginThrottle = current_app.extensions["login_throttle"]
    return found


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _index(error: str | None = None, status: int = 200) -> tuple[str, int]:
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
    return render_template("admin/index.html", users=users, sessions=sessions, tokens=tokens, throttled=throttled,
                           events=events, me=page_user(), error=error), status


@bp.get("/")
@login_required("admin")
def index() -> tuple[str, int]:
    return _index()


def _user_or_404(user_id: int) -> User:
    user = db().get(User, user_id)
    if user is None:
        abort(404)
    return user


@bp.post("/users/<int:user_id>/deactivate")
@login_required("admin")
def deactivate_user(user_id: int) -> Response | tuple[str, int]:
    """Deactivate: the user's sessions end and tokens stop at once (not oneself, not the last admin)."""
    user = _user_or_404(user_id)
    if user.id == page_user().id:
        return _index("You cannot deactivate yourself here (the command line can).", 409)
    try:
        deactivate(db(), user, actor=page_user().name)
    except AccessChangeRefused as exc:
        db().rollback()
        return _index(str(exc), 409)
    db().commit()
    return redirect(url_for("admin.index"), 303)


@bp.post("/users/<int:user_id>/activate")
@login_required("admin")
def activate_user(user_id: int) -> Response:
    activate(db(), _user_or_404(user_id), actor=page_user().name)
    db().commit()
    return redirect(url_for("admin.index"), 303)


@bp.post("/users/<int:user_id>/revoke-token")
@login_required("admin")
def revoke_user_token(user_id: int) -> Response:
    """The user's API token and every event token stop working (a new one: ``adjudicator users token``)."""
    revoke_token(db(), _user_or_404(user_id), actor=page_user().name)
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
