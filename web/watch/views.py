"""``/events/<slug>/round``: the live Round view of an event's broadcast on the arbiter's phone (issue 36).

- ``GET /events/<slug>/round`` (the event's TDs, organisers and admins; a stranger to the event 404, other
  staff 403): every board with its last move, clocks and status, the alerts first: ``act`` alerts stand out
  (colour, the words "Act now", and a vibration and a tone where the phone allows: web/static/round.js); alerts
  that must not be called are shown apart, marked "Do not call". With ``HX-Request`` only the live part.
  It updates by **htmx polling** every 2 s (``hx-trigger="every 2s"``), not server-sent events: a poll is one
  short request a proxy and a threaded WSGI server handle like any other, where an SSE stream would hold a
  worker thread per open phone for the whole round; the watch itself reads the source every 2 s, so polling
  more often would show nothing sooner.
- ``POST /events/<slug>/round/alerts/<id>/ack``: the TD acknowledges the alert; who and when are stored (one
  acknowledgement per alert: the database's rule) and shown with the game. Without JavaScript: 303 back.

Opening the view starts this process's watch of the event (:class:`web.watch.service.RoundWatch`); one
process at a time reads the source (the lease). The watch informs: it never changes a record or a result.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, abort, current_app, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError
from web.auth import login_required, page_user
from web.broadcast.guard import guarded_opener, networks_of
from web.db import get_session
from web.events.access import event_named, roles_in
from web.events.actors import current_actor
from web.htmx import is_htmx
from web.settings import Settings
from web.tables.events import Event
from web.tables.watch import WatchAlert, WatchGame
from web.watch.claim import CLAIM_OF, hms
from web.watch.service import RoundWatch
from web.watch.store import AlreadyAcknowledged, acknowledge

bp = Blueprint("round", __name__)
WATCHERS = frozenset({"td", "organiser", "admin"})
ORDER = {"act": 0, "may-act": 1, "check-board": 2, "event-rule": 3, "claimable": 4, "do-not-call": 5}
KIND_WORDS = {
    "fivefold": "Fivefold repetition", "seventy-five-moves": "75 moves", "dead-position": "Dead position",
    "checkmate": "Checkmate, play went on", "stalemate": "Stalemate, play went on",
    "threefold-available": "Threefold claimable", "fifty-available": "Fifty moves claimable",
    "forty-available": "Forty moves claimable", "flag-down": "Flag down", "illegal-move": "Illegal move",
    "early-draw": "Early draw", "king-moves-at-result": "King moves at the result (board)",
    "move-not-legal": "Move not legal (board)", "take-back": "Take-back (board)",
    "missing-clock": "Clock missing (board)", "board-moved": "Game moved board", "half-written": "File half-written",
    "unreadable-record": "Record unreadable",
}
ENDINGS = frozenset({"fivefold", "seventy-five-moves", "dead-position", "checkmate", "stalemate", "flag-down"})
"""Alerts that say the game is over by the Laws when the arbiter must act (FIDE 5.1.1, 5.2.1, 5.2.2, 6.8, 9.6),
or that the TD may end it (US Chess 14K): the Boards table says so instead of "in play"."""
ACTION_WORDS = {"act": "Act now", "may-act": "You may act", "claimable": "Claimable", "do-not-call": "Do not call",
                "check-board": "Check the board", "event-rule": "Event rule"}


def round_watch() -> RoundWatch:
    found: RoundWatch = current_app.extensions["round_watch"]
    return found


def _event(slug: str) -> Event:
    session = get_session()
    try:
        event = event_named(session, slug)
    except ContractError:
        abort(404)
    roles = roles_in(session, current_actor(), event)
    if not roles & WATCHERS:
        abort(403 if roles else 404)
    return event


def _context(event: Event) -> dict[str, Any]:
    session = get_session()
    alerts = list(session.scalars(select(WatchAlert).where(WatchAlert.event_id == event.id,
                                                           WatchAlert.withdrawn_at.is_(None))))
    alerts.sort(key=lambda a: (a.ack is not None, ORDER.get(a.action, 9), a.board or 10**6, a.ply))
    games = list(session.scalars(select(WatchGame).where(WatchGame.event_id == event.id)))
    games.sort(key=lambda g: (g.board is None, g.board or 0, g.game))
    acks: dict[str, list[WatchAlert]] = {}
    ended: dict[str, WatchAlert] = {}
    for alert in alerts:
        if alert.ack is not None:
            acks.setdefault(alert.game, []).append(alert)
        if alert.kind in ENDINGS and alert.action in ("act", "may-act"):
            ended.setdefault(alert.game, alert)
    return {
        "event": event, "called": [a for a in alerts if a.action != "do-not-call"], "ended": ended,
        "not_called": [a for a in alerts if a.action == "do-not-call"], "games": games, "acks": acks,
        "kind_words": KIND_WORDS, "action_words": ACTION_WORDS, "claim_of": CLAIM_OF, "hms": hms,
        "problem": round_watch().problem(event.id), "stamp": lambda t: datetime.fromtimestamp(t, UTC),
    }


@bp.get("/events/<slug>/round")
@login_required()
def view(slug: str) -> str:
    event = _event(slug)
    if event.broadcast:
        round_watch().ensure(event.id)
    context = _context(event)
    return render_template("events/_round.html" if is_htmx() else "events/round.html", **context)


@bp.post("/events/<slug>/round/alerts/<int:alert_id>/ack")
@login_required()
def ack(slug: str, alert_id: int) -> str | Response | tuple[str, int]:
    event = _event(slug)
    session = get_session()
    alert = session.get(WatchAlert, alert_id)
    if alert is None or alert.event_id != event.id:
        abort(404)
    status = 200
    try:
        acknowledge(session, alert, page_user())
    except AlreadyAcknowledged:
        status = 409
    if is_htmx():
        return render_template("events/_round.html", **_context(event)), status
    return redirect(url_for("round.view", slug=event.slug), 303)


def init_app(app: Flask) -> None:
    """The app's :class:`RoundWatch` (``WATCH_INTERVAL``, ``WATCH_LEASE_SECONDS``) and the Round view."""
    settings = Settings.of(app.config["ADJUDICATOR"])
    allowed = (app.config.get("BROADCAST") or {}).get("allowed_networks", settings.web.broadcast.allowed_networks)
    app.extensions["round_watch"] = RoundWatch(
        app.extensions["db_sessions"], app.extensions["rulesets"], settings.web.default_ruleset,
        float(app.config.get("WATCH_INTERVAL", 2.0)), float(app.config.get("WATCH_LEASE_SECONDS", 10.0)),
        opener=guarded_opener(networks_of(allowed)))  # an organiser's URL: public addresses only (issue 39)
    app.register_blueprint(bp)
