"""Can the side whose flag is up still win on time? The rulesets' "no-win" tests.

- ``helpmate`` (FIDE 6.9, A.5.3): the flag loses "unless the opponent cannot checkmate
  the player's king by any possible series of legal moves". Decided by the
  unwinnability analysis (``services.mate``); a helpmate line is the proof. Without
  it, a sound material test (python-chess's asymmetric ``has_insufficient_material``)
  proves the draws it can, and anything else is presumed winnable and marked so.
- ``uschess-14e`` (US Chess 14E): a draw if the opponent has only a king (14E1); only
  K+B or K+N and no forced win (14E2); only K+N+N against a side without pawns and
  no forced win (14E3). "Forced win" comes from ``services.forced_win`` (tablebases
  and a bounded forced-mate search); when it cannot be settled the ruling says so.
- ``material``: the plain insufficient-material test (a local rule's words).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.clocks.dead_position import Deadness
from adjudicator.rulesets import Ruleset
from adjudicator.services import Services


@dataclass(frozen=True)
class WinChance:
    """Whether ``side`` can still win on time, with the test's reasons and evidence."""

    side: str
    can_win: bool | None
    """None: the test could not be settled (the arbiter decides)."""
    test: str
    articles: tuple[str, ...]
    reasons: tuple[str, ...]
    evidence: dict[str, Any] = field(default_factory=dict)
    confidence: float = 1.0


def win_chance(
    board: chess.Board,
    side: str,
    color: chess.Color,
    test: str,
    ruleset: Ruleset,
    services: Services,
    deadness: Deadness,
) -> WinChance:
    """Apply the ruleset's no-win test for ``side`` (playing ``color``) to ``board``."""
    if test == "uschess-14e":
        return _uschess_14e(board, side, color, ruleset, services)
    if test == "material":
        return _material(board, side, color, ruleset, "material", 1.0)
    return _helpmate(board, side, color, ruleset, deadness)


def _material(
    board: chess.Board, side: str, color: chess.Color, ruleset: Ruleset, method: str, confidence: float
) -> WinChance:
    name = side.capitalize()
    if board.has_insufficient_material(color):
        return WinChance(
            side,
            False,
            "material",
            (ruleset.ref("6.9"),),
            (f"{name}'s material cannot checkmate by any series of legal moves.",),
            {"method": method, "material": _material_text(board, color)},
        )
    reason = f"{name} has mating material ({_material_text(board, color)})."
    if confidence < 1.0:
        reason += " The helpmate analysis is not available here, so this rests on material alone."
    return WinChance(
        side,
        True,
        "material",
        (ruleset.ref("6.9"),),
        (reason,),
        {"method": method, "material": _material_text(board, color)},
        confidence,
    )


def _helpmate(board: chess.Board, side: str, color: chess.Color, ruleset: Ruleset, deadness: Deadness) -> WinChance:
    if deadness.mate is None:
        return _material(board, side, color, ruleset, "material (helpmate analysis unavailable)", 0.9)
    name = side.capitalize()
    found = deadness.search(board, color)
    evidence: dict[str, Any] = {"method": f"helpmate search: {found.method}", "nodes": found.nodes}
    if found.unwinnable is True:
        return WinChance(
            side,
            False,
            "helpmate",
            (ruleset.ref("6.9"),),
            (f"{name} cannot checkmate by any series of legal moves.",),
            evidence,
        )
    if found.unwinnable is False:
        line = found.helpmate or ()
        evidence["helpmate"] = list(line)
        evidence["helpmate_san"] = _san(board, line)
        shown = " ".join(evidence["helpmate_san"][:12]) + (" ..." if len(line) > 12 else "")
        return WinChance(
            side,
            True,
            "helpmate",
            (ruleset.ref("6.9"),),
            (f"{name} can checkmate by a series of legal moves, for example {shown}.",),
            evidence,
        )
    return WinChance(
        side,
        None,
        "helpmate",
        (ruleset.ref("6.9"),),
        (f"The analysis could not settle within its budget whether {name} can checkmate at all.",),
        evidence,
    )


def _uschess_14e(board: chess.Board, side: str, color: chess.Color, ruleset: Ruleset, services: Services) -> WinChance:
    name = side.capitalize()
    mine = {pt: len(board.pieces(pt, color)) for pt in chess.PIECE_TYPES if pt != chess.KING}
    flagged_pawns = len(board.pieces(chess.PAWN, not color))
    material = _material_text(board, color)
    heavy = mine[chess.PAWN] + mine[chess.ROOK] + mine[chess.QUEEN]
    minors = mine[chess.KNIGHT] + mine[chess.BISHOP]
    if heavy + minors == 0:
        return WinChance(
            side,
            False,
            "uschess-14e",
            (ruleset.ref("14E1"),),
            (f"{name} has only a lone king.",),
            {"material": material},
        )
    if heavy == 0 and minors == 1:
        article = ruleset.ref("14E2")
    elif heavy == 0 and mine[chess.KNIGHT] == 2 and mine[chess.BISHOP] == 0 and flagged_pawns == 0:
        article = ruleset.ref("14E3")
    else:
        why = f"{name} has {material}"
        if heavy == 0 and mine[chess.KNIGHT] == 2 and mine[chess.BISHOP] == 0:
            why += " and the player whose time ran out has pawns, so 14E3 does not apply"
        return WinChance(
            side,
            True,
            "uschess-14e",
            (ruleset.ref("14E"),),
            (f"{why}: mate is possible and the time forfeit stands.",),
            {"material": material},
        )
    if services.forced_win is None:
        return WinChance(
            side,
            None,
            "uschess-14e",
            (article,),
            (f"{name} has only {material}; whether that is a forced win cannot be checked here.",),
            {"material": material, "forced_win": None},
        )
    found = services.forced_win.forced_win(board, color)
    evidence: dict[str, Any] = {
        "material": material,
        "forced_win": found.has_forced_win,
        "method": found.method,
        "plies": found.plies,
        "nodes": found.nodes,
        "note": found.note,
    }
    if found.has_forced_win is True:
        line = found.line or ()
        evidence["line"] = list(line)
        evidence["line_san"] = _san(board, line)
        how = f": {' '.join(evidence['line_san'])}" if line else f" ({found.note})"
        return WinChance(
            side, True, "uschess-14e", (article,), (f"{name} has only {material} but a forced win{how}.",), evidence
        )
    if found.has_forced_win is False:
        return WinChance(
            side,
            False,
            "uschess-14e",
            (article,),
            (f"{name} has only {material} and no forced win ({found.note or found.method}).",),
            evidence,
        )
    return WinChance(
        side,
        None,
        "uschess-14e",
        (article,),
        (
            f"{name} has only {material}; no forced win was found ({found.note}), but one is not "
            "ruled out: the TD decides whether there is a forced win.",
        ),
        evidence,
    )


def _material_text(board: chess.Board, color: chess.Color) -> str:
    names = {
        chess.QUEEN: "queen",
        chess.ROOK: "rook",
        chess.BISHOP: "bishop",
        chess.KNIGHT: "knight",
        chess.PAWN: "pawn",
    }
    parts = ["king"]
    for piece_type in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
        count = len(board.pieces(piece_type, color))
        if count:
            parts.append(f"{count} {names[piece_type]}{'s' if count > 1 else ''}" if count > 1 else names[piece_type])
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _san(board: chess.Board, line: tuple[str, ...] | list[str]) -> list[str]:
    """The line in SAN (as far as it is legal; the UCI moves are kept alongside)."""
    replay = board.copy(stack=False)
    sans: list[str] = []
    for uci in line:
        try:
            move = chess.Move.from_uci(uci)
            if move not in replay.legal_moves:
                break
            sans.append(replay.san(move))
            replay.push(move)
        except ValueError:
            break
    return sans
