"""The claim form's broadcast panel: the round's boards of the event's source, and choosing one.

``GET /claims/broadcast`` (``event_slug``, ``round``, ``game``) is the panel as a fragment (htmx
asks again every 20 s, and when the event or round changes); the full form draws the same panel
inline (:func:`broadcast_panel`), from the last copy, without waiting for the source.
``POST /claims/broadcast/choose`` (the whole form, plus ``broadcast_game``) fills the record with
that game's text, ``[%clk]`` comments included, round, board and players from its tags (the board from
``[Board]``, else the ``b`` of ``[Round "r.b"]``: :mod:`adjudicator.live.boards`), and the clock fields
with each side's last ``[%clk]``. ``broadcast_q`` (the panel's search: a board number or a player's name)
narrows the list; without JavaScript the search is posted with the form to ``POST /claims/form``.

Only the event's staff see its broadcast (:func:`web.events.access.roles_in`: its TDs, committee
and appeals members, admins; in an open event every user in their own role). To anyone else the
panel is empty, as for an event without a broadcast, and choosing is refused.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError
from web.broadcast.boards import Board, games_of, round_boards
from web.broadcast.sources import Broadcasts, Snapshot, broadcasts
from web.claims.form_page import EVENT_FIELD, render_form
from web.claims.forms import read_form
from web.db import get_session
from web.events.access import event_named, roles_in
from web.events.actors import current_actor
from web.htmx import is_htmx
from web.tables.events import Event

bp = Blueprint("broadcast", __name__)


def staff_event(slug: str | None) -> Event | None:
    """The event named by ``slug`` when it has a broadcast and the asker is on its staff; else None."""
    try:
        event = event_named(get_session(), slug or None, "event_slug")
    except ContractError:
        return None
    if not event.broadcast or not roles_in(get_session(), current_actor(), event):
        return None
    return event


def _clock(stamp: float | None) -> str:
    return "" if stamp is None else datetime.fromtimestamp(stamp, UTC).strftime("%H:%M:%S UTC")


def _ago(stamp: float | None) -> str:
    if stamp is None:
        return ""
    seconds = max(0, int(time.time() - stamp))
    return f"{seconds} s ago" if seconds < 120 else f"{seconds // 60} min ago"


@bp.app_template_global()
def broadcast_panel(slug: str | None, round_wanted: str | None, game: str,
                    fresh: bool = False, query: str = "") -> dict[str, Any] | None:
    """What the form shows of the event's broadcast now (None: no broadcast, or not for this user);
    ``fresh``: the TD asked to read it again; ``query``: the TD's search (a board or a player)."""
    event = staff_event(slug)
    if event is None or event.broadcast is None:
        return None
    snapshot: Snapshot = broadcasts().look(event.broadcast, game, fresh=fresh)
    boards: list[Board] = []
    chosen = None
    if snapshot.copy is not None:
        boards, chosen = round_boards(games_of(snapshot.copy, game), round_wanted)
    query = query.strip()[:60]
    shown = [b for b in boards if b.matches(query)]
    return {"snapshot": snapshot, "boards": shown, "all": len(boards), "query": query, "round": chosen,
            "read_at": _clock(
        snapshot.copy.read_at if snapshot.copy else None), "read_ago": _ago(snapshot.copy.read_at if snapshot.copy
                                                                            else None),
            "problem_at": _clock(snapshot.problem_at), "waiting": snapshot.copy is None and snapshot.problem is None}


@bp.get("/claims/broadcast")
def panel() -> Response | str:
    """The broadcast panel (a fragment for htmx; the claim form otherwise)."""
    if not is_htmx():
        return redirect(url_for("claims.new"))
    return render_template("claims/_broadcast.html", event_slug=request.args.get("event_slug", ""),
                           round_wanted=request.args.get("round", ""),
                           game="checkers" if request.args.get("game") == "checkers" else "chess",
                           fresh=request.args.get("fresh") == "1", query=request.args.get("broadcast_q", ""))


@bp.post("/claims/broadcast/choose")
def choose() -> tuple[str, int]:
    """The form again, its record the chosen game's (round, board and players from its tags)."""

    claim_form = read_form(request.form)
    slug = request.form.get(EVENT_FIELD, "")
    claim_form.values[EVENT_FIELD] = slug
    event = staff_event(slug)
    if event is None or event.broadcast is None:
        claim_form.general_errors.append("this event's broadcast is open to its staff only")
        return render_form(claim_form, 403)
    snapshot = broadcasts().look(event.broadcast, claim_form.game)
    key = request.form.get("broadcast_game", "")
    found = None if snapshot.copy is None else next(
        (b for b in games_of(snapshot.copy, claim_form.game) if b.key == key), None)
    if found is None:
        claim_form.general_errors.append("that game is no longer in the broadcast: choose it again")
        return render_form(claim_form, 409)
    claim_form.values["record"] = found.record
    for name, value in (("round", found.round), ("board", found.board), ("first_player", found.first_player),
                        ("second_player", found.second_player)):
        if value:
            claim_form.values[name] = value.split(".")[0] if name == "round" else value
        elif name == "board":
            claim_form.values[name] = ""  # no board in the tags: never the board of the game picked before
    for side, reading in zip(claim_form.sides, (found.first_clock, found.second_clock), strict=True):
        if reading is not None:
            claim_form.values[f"clock_{side}"] = reading
    return render_form(claim_form)


def init_app(app: Flask) -> None:
    """The app's :class:`~web.broadcast.sources.Broadcasts` (settings ``[web.broadcast]``, then ``BROADCAST``),
    and the broadcast panel's routes."""
    table = dict(app.config["ADJUDICATOR"].get("web", {}).get("broadcast", {}))
    table.update(app.config.get("BROADCAST") or {})
    app.extensions["broadcasts"] = Broadcasts(table)
    app.register_blueprint(bp)
