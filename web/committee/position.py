"""The position as entered, for the members to verify on a board before any vote."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from adjudicator.checkers.claims import game_for_case
from adjudicator.chess.replay import board_for_case
from adjudicator.contract import Case
from adjudicator.evidence import Evidence
from web.boards import checkers_svg, chess_svg
from web.evidence import Presentation, checkers_line, present


def position_of(case: Case) -> dict[str, Any]:
    """``{"fen": ..., "source": "record" | "fen", "note": ...}``: the record's end when there is a record (the
    game replayed as the ruling replays it, chess and checkers alike), else the position given; never raises
    (the members see the note)."""
    if case.game == "chess":
        try:
            board = board_for_case(case)
        except ValueError as exc:
            return {"fen": case.fen, "source": "fen" if case.fen else None,
                    "note": f"The position could not be worked out from what was entered: {exc}"}
        return {"fen": board.fen(), "source": "record" if case.record else "fen", "note": None}
    if case.record and case.record.strip():  # the record's end, as the ruling reads it (the record rules)

        try:
            return {"fen": game_for_case(case).position.fen(), "source": "record", "note": None}
        except ValueError as exc:
            fen = case.fen or case.start_fen
            return {"fen": fen, "source": "fen" if fen else None,
                    "note": f"The position could not be worked out from the record: {exc}"}
    fen = case.fen or case.start_fen
    return {"fen": fen, "source": "fen" if fen else None,
            "note": None if fen else "No position was entered; set it up on a board."}


def diagram(game: str, fen: str | None) -> Markup | None:
    """The app's SVG diagram for ``fen`` (checkers squares numbered 1-32); None when it cannot be drawn."""
    if not fen:
        return None

    try:
        return Markup(chess_svg(fen, size=320) if game == "chess" else checkers_svg(fen, size=320))
    except Exception:  # a diagram is a help, never a failure
        return None


def recommended_line(game: str, fen: str | None, recommendation: Mapping[str, Any] | None) -> Any:
    """The recommendation's line as a steppable :class:`web.evidence.Line` (chess: the deciding engine search's
    principal variation; checkers: the search's ``line``) with its :class:`~web.evidence.Presentation`, or None."""
    evidence = Evidence.read((recommendation or {}).get("evidence"))
    start = evidence.fen or fen
    if not start:
        return None
    if game == "chess":
        shown = present({"game": "chess", "fen": start}, recommendation)
        found = [line for key, line in shown.lines.items() if key != "game"]
        return (found[-1], shown) if found else None  # the last search is the one the recommendation rests on
    found_line = checkers_line(evidence, start)
    if found_line is None:
        return None
    presentation = Presentation(game="checkers", position_fen=found_line.start_fen)
    return replace(found_line, title="Recommended line"), presentation
