"""The rulings of the event, searchable by round, board and player."""

from __future__ import annotations

from flask import Blueprint, request

from web.claims.forms import CLAIM_LABELS
from web.db import get_session
from web.events.access import visible_events
from web.events.actors import current_actor
from web.htmx import page_or_fragment
from web.outcomes import outcomes_of
from web.tables.rulings import Search, search_rulings

bp = Blueprint("history", __name__)


@bp.get("/history")
def index() -> str:
    """Every ruling the asker may see (public events', and their private events'), newest first; the
    search narrows it as the TD types (htmx) or on submit."""
    actor = current_actor()
    visible = None if actor.is_admin and actor.scope is None else frozenset(
        e.id for e in visible_events(get_session(), actor))
    search = Search(
        text=request.args.get("q", "")[:100],
        round=request.args.get("round", "")[:20],
        board=request.args.get("board", "")[:20],
        player=request.args.get("player", "")[:100],
        event_ids=visible,
    )
    rows = search_rulings(get_session(), search)
    return page_or_fragment(
        "history/index.html",
        "history/_rows.html",
        rows=rows,
        search=search,
        claim_labels=CLAIM_LABELS,
        outcomes=outcomes_of(get_session(), rows),
    )
