"""The event's staff pages (issue 22, item 10), on the admin blueprint: an event made, set, staffed and
given its tokens from the web, by an admin or by the event's own organisers.

- ``GET /admin/events/`` (admins): the events, and the form that makes one; ``POST`` makes it (then
  its page, to staff it).
- ``GET /admin/events/<slug>`` (an admin, or an organiser of the event): its settings (name, dates,
  ruleset, visibility, open or closed, broadcast), its staff by role, its live tokens; ``POST`` saves
  the settings.
- ``POST /admin/events/<slug>/staff`` (admin or organiser; organisers: admins only) assigns a role;
  ``POST .../staff/<id>/remove`` takes it off.
- ``POST /admin/events/<slug>/tokens`` issues a token: an admin for anyone on the staff, anyone else for
  themselves (the token is shown once, never stored); ``POST .../tokens/<user_id>/revoke`` stops one.

Someone with no part in the event gets 404 (as everywhere: the page does not say the event exists),
its other staff 403. Every change goes through :mod:`web.events.changes` (the rules the command line
follows; each change an audit entry naming who made it) and the database holds the same rights
(migration 0016). Forms carry the CSRF token and work without JavaScript (303 back to the page);
a form sent by htmx (``HX-Request``, not boosted) gets its section of the page back.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, make_response, redirect, render_template, request, url_for
from flask import session as flask_session
from sqlalchemy import select
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.admin.views import bp
from web.auth import login_required, page_user
from web.db import get_session as db
from web.events import changes
from web.events.access import AccessRefused, Actor, refused_status
from web.htmx import is_htmx
from web.tables.events import STAFF_ROLES, Event, EventStaff, EventToken, event_by_slug
from web.tables.users import User, user_by_name

LAST_ROLE = "staff_role"
"""Session key: the role last chosen on a staff form; the next add keeps it (three committee members in a row)."""
SECTIONS = {"settings": "admin/_event_settings.html", "staff": "admin/_event_staff.html",
            "tokens": "admin/_event_tokens.html"}


def _book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]
    return found


def _organised(slug: str) -> Event:
    """The event, for an admin or one of its organisers (else 403; 404 for a stranger to it)."""
    event = event_by_slug(db(), slug[:40])
    if event is None:
        abort(404)
    if not changes.may_organise(db(), page_user(), event):
        abort(refused_status(db(), Actor(page_user()), event))
    return event


def settings_values(event: Event | None) -> dict[str, str]:
    """The settings form's fields as an event has them (a new event: public, closed)."""
    if event is None:
        return {"visibility": "public", "access": "closed"}
    return {"name": event.name, "starts": event.starts_on.isoformat() if event.starts_on else "",
            "ends": event.ends_on.isoformat() if event.ends_on else "", "ruleset": event.ruleset or "",
            "visibility": event.visibility, "access": "open" if event.is_open else "closed",
            "broadcast": event.broadcast or ""}


def _context(event: Event, **extra: Any) -> dict[str, Any]:
    session, me = db(), page_user()
    staff = list(session.scalars(select(EventStaff).where(EventStaff.event_id == event.id)
                                 .order_by(EventStaff.role, EventStaff.id)))
    tokens = list(session.scalars(select(EventToken).where(EventToken.event_id == event.id,
                                                           EventToken.revoked_at.is_(None)).order_by(EventToken.id)))
    is_admin = changes.is_admin(me)
    on_staff = sorted({s.user.name: s.user for s in staff}.values(), key=lambda u: u.name)
    people: dict[int, tuple[User, list[EventStaff]]] = {}
    for place in staff:
        people.setdefault(place.user_id, (place.user, []))[1].append(place)
    context: dict[str, Any] = {
        "event": event, "staff": staff, "tokens": tokens, "me": me, "is_admin": is_admin,
        "people": sorted(people.values(), key=lambda p: p[0].name),
        "managed": {u.id for u, _places in people.values() if changes.may_manage(session, me, u)},
        "last_role": flask_session.get(LAST_ROLE), "credentials": None, "new_values": {},
        "users": list(session.scalars(select(User).where(User.active.is_(True)).order_by(User.name))),
        "roles": [r for r in STAFF_ROLES if changes.may_assign(session, me, event, r)],
        "removable": {s.id for s in staff if changes.may_assign(session, me, event, s.role)},
        "token_users": on_staff if is_admin else [me],
        "rulesets": list(_book()), "values": settings_values(event), "errors": {}, "section_error": {},
        "token": None,
    }
    context.update(extra)
    return context


def _answer(event: Event, section: str, status: int = 200, **extra: Any) -> Response:
    """The page (or, for htmx, the section) drawn again: after a refusal, or to show a new token."""
    context = _context(event, **extra)
    body = render_template(SECTIONS[section] if is_htmx() else "admin/event.html", **context)
    if is_htmx() and section == "staff":  # who may hold a token changed with the staff: that section too
        body += render_template(SECTIONS["tokens"], **context, oob=True)
    response = make_response(body, status)
    if context.get("token") or context.get("credentials"):
        response.headers["Cache-Control"] = "no-store"  # a token is shown once; no cache keeps it
    return response


def _done(event: Event, section: str) -> Response:
    """After a change: the section for htmx, else 303 back to the page (a reload sends nothing again)."""
    if is_htmx():
        return _answer(event, section)
    return redirect(url_for("admin.event", slug=event.slug, _anchor=section), 303)


def _refused(exc: ContractError) -> tuple[int, dict[str, str]]:
    db().rollback()
    status = exc.status if isinstance(exc, AccessRefused) else 422
    return status, {exc.field or "form": exc.message}


@bp.get("/events/")
@login_required("admin")
def events() -> str:
    """Admins: every event, and the form that makes one."""
    return render_template("admin/events.html", events=list(db().scalars(select(Event).order_by(Event.id))),
                           values=settings_values(None), errors={}, rulesets=list(_book()))


@bp.post("/events/")
@login_required("admin")
def create() -> Response | tuple[str, int]:
    """Make an event (admins); then its page, to give it its staff."""
    form = request.form
    slug = (form.get("slug") or "").strip()
    try:
        event = changes.create_event(db(), slug, changes.form_settings(_book(), form), page_user())
    except ContractError as exc:
        status, errors = _refused(exc)
        values = {k: form.get(k, "") for k in ("slug", "name", "starts", "ends", "ruleset", "visibility", "access",
                                              "broadcast")}
        return render_template("admin/events.html", events=list(db().scalars(select(Event).order_by(Event.id))),
                               values=values, errors=errors, rulesets=list(_book())), status
    db().commit()
    return redirect(url_for("admin.event", slug=event.slug), 303)


@bp.get("/events/<slug>")
@login_required()
def event(slug: str) -> str:
    """The event's settings, staff and live tokens (an admin, or an organiser of the event)."""
    return render_template("admin/event.html", **_context(_organised(slug)))


@bp.post("/events/<slug>")
@login_required()
def change(slug: str) -> Response:
    """Save the event's settings (an admin, or an organiser of the event)."""
    found = _organised(slug)
    form = request.form
    try:
        changes.change_event(db(), found, changes.form_settings(_book(), form), page_user())
    except ContractError as exc:
        status, errors = _refused(exc)
        values = {k: form.get(k, "") for k in ("name", "starts", "ends", "ruleset", "visibility", "access",
                                              "broadcast")}
        return _answer(_organised(slug), "settings", status, values=values, errors=errors)
    db().commit()
    return _done(found, "settings")


def _user_named(name: str) -> User:
    user = user_by_name(db(), name.strip()[:80]) if name.strip() else None
    if user is None:
        raise ContractError("unknown_user", f"no user named {name!r}" if name.strip() else "choose a user", "user")
    return user


@bp.post("/events/<slug>/staff")
@login_required()
def add_staff(slug: str) -> Response:
    """Assign a user a role in the event (organisers: an admin only)."""
    found = _organised(slug)
    if request.form.get("role") in STAFF_ROLES:
        flask_session[LAST_ROLE] = request.form["role"]
    try:
        changes.assign_staff(db(), found, _user_named(request.form.get("user", "")), request.form.get("role"),
                             page_user())
    except ContractError as exc:
        status, errors = _refused(exc)
        return _answer(_organised(slug), "staff", status, section_error={"staff": errors})
    db().commit()
    return _done(found, "staff")


@bp.post("/events/<slug>/staff/<int:staff_id>/remove")
@login_required()
def remove(slug: str, staff_id: int) -> Response:
    """Take one staff place away (the user's token for the event stops once no place there is left)."""
    found = _organised(slug)
    row = db().get(EventStaff, staff_id)
    if row is None or row.event_id != found.id:
        abort(404)
    try:
        changes.unassign_staff(db(), found, row.user, row.role, page_user())
    except ContractError as exc:
        status, errors = _refused(exc)
        return _answer(_organised(slug), "staff", status, section_error={"staff": errors})
    db().commit()
    return _done(found, "staff")


@bp.post("/events/<slug>/tokens")
@login_required()
def issue_token(slug: str) -> Response:
    """A token acting for a user of the staff in this event only: an admin's for anyone on it, anyone else's
    for themselves. Shown once on the page that answers (no redirect: it would have to carry it)."""
    found = _organised(slug)
    try:
        user = _user_named(request.form.get("user", "") or page_user().name)
        token = changes.issue_token(db(), found, user, page_user())
    except ContractError as exc:
        status, errors = _refused(exc)
        return _answer(_organised(slug), "tokens", status, section_error={"tokens": errors})
    db().commit()
    return _answer(found, "tokens", token={"user": user.name, "value": token})


@bp.post("/events/<slug>/tokens/<int:user_id>/revoke")
@login_required()
def revoke_event_token(slug: str, user_id: int) -> Response:
    """Stop a user's token for this event (an admin, or an organiser of the event)."""
    found = _organised(slug)
    user = db().get(User, user_id)
    if user is None:
        abort(404)
    try:
        changes.revoke_tokens(db(), found, user, page_user())
    except ContractError as exc:
        status, errors = _refused(exc)
        return _answer(_organised(slug), "tokens", status, section_error={"tokens": errors})
    db().commit()
    return _done(found, "tokens")
