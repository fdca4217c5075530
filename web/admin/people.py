"""People from the web (issue 35): add a user, reset a password, deactivate a user, on the admin blueprint.

Who may (least privilege: each route names it, and :func:`web.events.changes.may_manage` is the one rule):

- ``POST /admin/users`` (admins): a new user of any role; the admin page answers with their password and
  API token, shown once (never stored in the clear; ``Cache-Control: no-store``).
- ``POST /admin/events/<slug>/people`` (an admin, or an organiser of the event): a new person put straight on
  the event's staff in the role chosen (organisers: any role but organiser; the user's own role is that staff
  role, ``td`` for an organiser); the event's page answers with the password and token, shown once.
- ``POST /admin/users/<id>/password`` (an admin, or an organiser who manages the user): a new generated
  password, shown once; the user's log-in sessions end.
- ``POST /admin/users/<id>/deactivate`` (:mod:`web.admin`; organisers too, under the same rule).

An organiser manages a user only when every staff place the user holds is in an event the organiser
organises, and the user is no admin and not the organiser: a substitute TD they added, never someone of
another event. Every change is an audit entry naming who made it.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, make_response, redirect, request, url_for
from flask import session as flask_session
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError
from web.admin.staff import LAST_ROLE, _answer, _organised
from web.admin.views import bp, index_page, user_or_404
from web.auth import login_required, page_user
from web.auth.revoke import AccessChangeRefused, deactivate, reset_password
from web.db import get_session as db
from web.events import changes
from web.events.access import AccessRefused
from web.tables.events import STAFF_ROLES, Event, event_by_slug
from web.tables.users import ROLES, User, UserError, create_user

PASSWORD_HASH = "PASSWORD_HASH_METHOD"
"""App setting: werkzeug's password hash for the users made here (tests set a cheap one; default scrypt)."""


def _hash_method() -> str:
    return str(current_app.config.get(PASSWORD_HASH, "scrypt"))


def managed_ids(session: Session, by: User, users: list[User]) -> set[int]:
    return {u.id for u in users if changes.may_manage(session, by, u)}


def _shown(response_body: str, status: int = 200) -> Response:
    response = make_response(response_body, status)
    response.headers["Cache-Control"] = "no-store"  # a password or token is shown once; no cache keeps it
    return response


def _new_user(role: str, actor: User) -> tuple[User, str, str]:
    form = request.form
    try:
        return create_user(db(), form.get("name", ""), role, None, form.get("club") or None,
                           form.get("team") or None, hash_method=_hash_method(), actor=actor.name)
    except UserError as exc:
        db().rollback()
        raise ContractError("invalid_user", str(exc), exc.field) from None


@bp.post("/users")
@login_required("admin")
def add_user() -> Response:
    """Admins: a new user of any role, their password and API token shown once on the admin page."""
    role = request.form.get("role", "")
    try:
        user, token, password = _new_user(role, page_user())
    except ContractError as exc:
        body, status = index_page(None, 422, new_errors={exc.field or "name": exc.message},
                              new_values=dict(request.form.items()))
        return make_response(body, status)
    db().commit()
    body, _status = index_page(None, 200, credentials={"user": user.name, "role": user.role, "password": password,
                                                   "token": token})
    return _shown(body)


@bp.post("/events/<slug>/people")
@login_required()
def add_person(slug: str) -> Response:
    """An admin or an organiser of the event: a new person on the event's staff in the role chosen."""
    event = _organised(slug)
    staff_role = request.form.get("role", "")
    if staff_role in STAFF_ROLES:
        flask_session[LAST_ROLE] = staff_role
    me = page_user()
    try:
        if staff_role not in STAFF_ROLES:
            raise ContractError("invalid_field", f"role must be one of {', '.join(STAFF_ROLES)}", "role")
        if not changes.may_assign(db(), me, event, staff_role):
            raise AccessRefused(403, "forbidden", f"{me.name} may not add {staff_role}s here: only an admin does",
                                "role")
        own_role = staff_role if staff_role in ROLES else "td"
        user, token, password = _new_user(own_role, me)
        changes.assign_staff(db(), event, user, staff_role, me)
    except ContractError as exc:
        db().rollback()
        status = exc.status if isinstance(exc, AccessRefused) else 422
        return _answer(_organised(slug), "staff", status, section_error={"staff": {exc.field or "form": exc.message}},
                       new_values=dict(request.form.items()))
    db().commit()
    return _shown(_answer(event, "staff", credentials={"user": user.name, "role": staff_role,
                                                       "password": password, "token": token}).get_data(as_text=True))


def managed_user(user_id: int) -> User:
    """The user, when the asker may manage them (else 403; 404 when there is none)."""
    user = db().get(User, user_id)
    if user is None:
        abort(404)
    if not changes.may_manage(db(), page_user(), user):
        abort(403)
    return user


def destination(event_slug: str | None) -> Event | None:
    """The event page a change made from it (``event`` field) answers on; None: the admin page (admins only)."""
    event = event_by_slug(db(), event_slug[:40]) if event_slug else None
    if event is not None and changes.may_organise(db(), page_user(), event):
        return event
    if not changes.is_admin(page_user()):
        abort(403)
    return None


def back_to(event: Event | None, **extra: Any) -> Response:
    """The event's page (its staff section) or the admin page, after a change; with ``extra`` shown once."""
    if event is not None:
        if extra:
            return _shown(_answer(event, "staff", **extra).get_data(as_text=True))
        return redirect(url_for("admin.event", slug=event.slug, _anchor="staff"), 303)
    if extra:
        return _shown(index_page(None, 200, **extra)[0])
    return redirect(url_for("admin.index"), 303)


@bp.post("/users/<int:user_id>/password")
@login_required()
def password(user_id: int) -> Response:
    """A new password for the user, shown once; their sessions end (an admin, or an organiser managing them)."""
    user = managed_user(user_id)
    event = destination(request.form.get("event"))
    new = reset_password(db(), user, actor=page_user().name, hash_method=_hash_method())
    db().commit()
    return back_to(event, credentials={"user": user.name, "role": user.role, "password": new, "token": None})


@bp.post("/users/<int:user_id>/deactivate")
@login_required()
def deactivate_user(user_id: int) -> Response | tuple[str, int]:
    """Deactivate: the user's sessions end and tokens stop at once (not oneself, not the last admin).

    Admins, and an organiser for a user they manage (:func:`web.events.changes.may_manage`), from the
    event's page (``event``: it answers there)."""
    user = user_or_404(user_id)
    if user.id == page_user().id:
        if not changes.is_admin(page_user()):
            abort(403)
        return index_page("You cannot deactivate yourself here (the command line can).", 409)
    if not changes.may_manage(db(), page_user(), user):
        abort(403)
    event = destination(request.form.get("event"))
    try:
        deactivate(db(), user, actor=page_user().name)
    except AccessChangeRefused as exc:
        db().rollback()
        return index_page(str(exc), 409)
    db().commit()
    return back_to(event)
