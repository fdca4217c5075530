"""Checkers move entry on the claim form (issue 21, item 1): the record read for the board.

The board in the page (``static/checkers-entry.js``) plays the taps itself, with its own port
of the rules (``static/checkers-rules.js``, held to :mod:`adjudicator.checkers.board` by
tests/web/test_checkers_entry_rules.py): a tap is answered in the page, with no round trip,
which a phone on a venue's network needs. What the TD types, pastes or gets from a broadcast is
read here, by the very reader the ruling uses (:func:`adjudicator.checkers.replay.replay_checkers`),
so the board shows the record as the ruling will read it: the start (a ``FEN`` tag, a ballot),
each move as written with its squares, illegal moves with the reason, where the replay stops.

``POST /claims/checkers/replay`` (``record``) answers that reading as JSON; the form embeds
the same reading (:func:`checkers_entry`) so a page drawn with a record shows its game at once.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.wrappers import Response

from adjudicator.checkers.replay import CheckersRecordError, replay_checkers
from adjudicator.contract import MAX_RECORD_CHARS
from web.boards import CHECKERS_START, checkers_grid

bp = Blueprint("checkers_entry", __name__)


def reading(record: str) -> dict[str, Any]:
    """The record as the ruling reads it: ``start_fen``, per ply ``token``, ``path``, ``legal``,
    ``reason``, ``made`` (False: the move cannot be made on the board, the replay stops) and ``fen``
    (the position after it, as played); ``unreadable`` (the token the replay stopped at); ``error``."""
    if not record.strip():
        return {"start_fen": CHECKERS_START, "plies": [], "unreadable": None, "error": None, "stopped": None}
    try:
        replay = replay_checkers(record[:MAX_RECORD_CHARS])
    except CheckersRecordError as exc:
        return {"start_fen": CHECKERS_START, "plies": [], "unreadable": None, "error": exc.message, "stopped": None}
    plies = [{"token": p.token, "path": list(p.move.path), "legal": p.is_legal, "reason": p.reason,
              "made": p.is_made, "fen": p.after.fen()} for p in replay.plies]
    unmade = next((p for p in replay.plies if not p.is_made), None)
    stopped = None if unmade is None else f"the replay stops at ply {unmade.number}: {unmade.token}: {unmade.reason}"
    return {"start_fen": replay.start.fen(), "plies": plies,
            "unreadable": replay.unreadable[0].to_json() if replay.unreadable else None, "error": None,
            "stopped": stopped}


@bp.post("/claims/checkers/replay")
def replay() -> Response:
    """The record (form field ``record``) read as the ruling reads it, for the board (JSON; see :func:`reading`)."""
    return jsonify(reading(request.form.get("record", "")))


@bp.app_template_global()
def checkers_entry(record: str) -> dict[str, Any]:
    """What the form's entry board is drawn with: the reading, and the grid of the position after
    the record's last move made (the board a page without JavaScript shows)."""
    found = reading(record)
    made = [p for p in found["plies"] if p["made"]]
    fen = made[-1]["fen"] if made else found["start_fen"]
    return {"reading": found, "grid": checkers_grid(fen), "fen": fen}
