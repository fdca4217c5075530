"""``/events``: the events the logged-in user serves, with their work: the pairings to import
(a TD's), the games to check (the staff's), the event's settings, staff and tokens (its organisers').
The way in to those pages; who may open each is
decided there, by :mod:`web.events.access`, and the links shown here follow the same roles."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from web.db import get_session
from web.events.access import roles_in
from web.events.actors import current_actor
from web.tables.events import ORGANISER, Event

bp = Blueprint("events", __name__)


@dataclass(frozen=True)
class Served:
    event: Event
    roles: frozenset[str]

    @property
    def is_td(self) -> bool:
        return bool(self.roles & {"td", "admin"})

    @property
    def runs_it(self) -> bool:
        """An admin, or one of its organisers: its settings, staff and tokens (``/admin/events/<slug>``)."""
        return bool(self.roles & {ORGANISER, "admin"})


@bp.get("/events")
def index() -> str | Response:
    """Every event in which the user has a role (an admin: every event), in the order they were made."""
    actor = current_actor()
    if actor.user is None:
        return redirect(url_for("auth.login", next=request.path))
    session = get_session()
    served = [Served(e, roles) for e in session.query(Event).order_by(Event.id)
              if (roles := roles_in(session, actor, e))]
    return render_template("events/index.html", served=served)
