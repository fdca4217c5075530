"""``/events/<slug>/pairings``: a TD of the event imports its FIDE TRF file; everyone who may
rule in the event sees the pairings (what the claim form fills in from round and board)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError
from adjudicator.trf import TrfError
from web.db import get_session
from web.events.access import event_named, roles_in
from web.events.actors import current_actor
from web.events.pairings import import_trf, rounds_of

bp = Blueprint("pairings", __name__)
MAX_TRF_BYTES = 2_000_000


@bp.route("/events/<slug>/pairings", methods=["GET", "POST"])
def pairings(slug: str) -> tuple[str, int] | Response:
    session = get_session()
    try:
        event = event_named(session, slug)
    except ContractError:
        abort(404)
    roles = roles_in(session, current_actor(), event)
    if not roles & {"td", "admin"}:
        abort(403 if roles else 404)  # a stranger to the event is not told it has pairings
    error, imported = None, None
    if request.method == "POST":
        upload = request.files.get("trf")
        data = upload.read(MAX_TRF_BYTES + 1) if upload is not None and upload.filename else b""
        if not data:
            error = "choose the event's TRF file (Swiss-Manager, SwissSys and vega export it)"
        elif len(data) > MAX_TRF_BYTES:
            error = f"the file is larger than {MAX_TRF_BYTES // 1_000_000} MB"
        else:
            try:
                actor = current_actor().user
                imported = import_trf(session, event, data.decode("utf-8-sig", errors="replace"),
                                      actor.name if actor is not None else "anonymous")
            except TrfError as exc:
                session.rollback()
                error = str(exc)
    status = 422 if error else 200
    return render_template("events/pairings.html", event=event, games=rounds_of(session, event), error=error,
                           imported=imported), status
