"""The position as entered, for the members to verify on a board before any vote."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from adjudicator.contract import Case


def position_of(case: Case) -> dict[str, Any]:
    """``{"fen": ..., "source": "record" | "fen", "note": ...}``; never raises (the members see the note)."""
    if case.game == "chess":
        from adjudicator.replay import board_for_case

        try:
            board = board_for_case(case)
        except ValueError as exc:
            return {"fen": case.fen, "source": "fen" if case.fen else None,
                    "note": f"The position could not be worked out from what was entered: {exc}"}
        return {"fen": board.fen(), "source": "record" if case.record else "fen", "note": None}
    fen = case.fen or case.start_fen
    note = None if fen else "Only the record was entered; set it up on a board from the record."
    return {"fen": fen, "source": "fen" if fen else "record", "note": note}


def diagram(game: str, fen: str | None) -> Markup | None:
    """The app's SVG diagram for ``fen`` (checkers squares numbered 1-32); None when it cannot be drawn."""
    if not fen:
        return None
    from web.boards import checkers_svg, chess_svg

    try:
        return Markup(chess_svg(fen, size=320) if game == "chess" else checkers_svg(fen, size=320))
    except Exception:  # a diagram is a help, never a failure
        return None
