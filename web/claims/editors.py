"""The position editors' context, for every form that carries them (the claim form and the committee's
new-case form: one editor, drawn from ``claims/_checkers_editor.html`` and ``claims/_chess_editor.html``).

The checkers editor is drawn by the server too (a page without JavaScript posts each tap and gets the board
back); the chess editor is the browser's (board-editor.js) over the form's FEN field.
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.requirements import position_errors
from web.boards import checkers_grid


def checkers_editor(fen: str, *, record: str = "", flipped: bool = False, piece: str = "r", url: str,
                    target: str, select: str | None = None) -> dict[str, Any]:
    """What ``claims/_checkers_editor.html`` draws: the squares (Red at the top; White when ``flipped``), who
    moves, the position's check (none while a record is given: the record rules) and where a tap posts
    (``url``; htmx swaps ``target`` with the answer's ``select``, the whole answer when None)."""
    rows = checkers_grid(fen)
    return {
        "grid": [row[::-1] for row in rows[::-1]] if flipped else rows,
        "status": None if record.strip() else checkers_status(fen),
        "red_to_move": not fen.strip().upper().startswith("W"),
        "piece": piece if piece in ("r", "R", "w", "W", "x") else "r",
        "flipped": flipped,
        "url": url,
        "target": target,
        "select": select,
    }


def checkers_status(fen: str) -> dict[str, str] | None:
    """What the checkers editor says of its position (None: no position)."""
    if not fen.strip():
        return None
    problem = position_status("checkers", fen.strip())
    return {"text": "Legal position", "cls": "is-legal"} if problem is None else {
        "text": f"Invalid position: {short_problem(problem)}", "cls": "is-illegal"}


def position_status(game: str, fen: str) -> str | None:
    """Why the position entered alone would be refused on submitting (None: it would not)."""
    errors = position_errors({"game": game, "fen": fen})
    return errors[0].message if errors else None


def short_problem(message: str) -> str:
    """A position's problem without the field and the FEN (the editor shows them already)."""
    return re.sub(r"^fen is not (?:a legal position|a checkers position|a position): (?:'[^']*': )?", "", message)
