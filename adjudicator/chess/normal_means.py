"""Can the claimant lose by normal means? The judgement behind quickplay-finish claims.

FIDE Guidelines III.5 ("cannot win by normal means"), US Chess 14H ("insufficient
losing chances") and Sabah's clear-draw appeal all leave the finding to the arbiter
(rules README §1.6: the app supports the judgement rather than makes it). This module
recommends one, from the claimant's side: whether the opponent can mate at all (5.2.2
/ 6.9), the tablebases, the engine's score, and the material and structure a TD weighs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.chess.assessment import COLOR_NAMES, assess
from adjudicator.rulesets import ChessRuleset
from adjudicator.services import Services

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


@dataclass(frozen=True)
class Finding:
    """Whether the claimant cannot lose by normal means: the TD's finding or the app's recommendation."""

    value: str
    """clear | unclear | incorrect."""
    by_td: bool
    confidence: float
    reasons: tuple[str, ...]
    evidence: dict[str, Any] = field(default_factory=dict)
    proven: bool = False
    """The finding follows from a proof (checkmate, stalemate, the move rule, a dead position, the
    opponent unable to mate, the tablebases), not from a judgement: the claim is ruled on it."""


def material_signs(board: chess.Board, claimant: chess.Color) -> list[str]:
    """Facts of the material and structure a TD weighs (no verdict of their own)."""
    opponent = not claimant
    signs: list[str] = []

    def material(color: chess.Color) -> int:
        return sum(VALUES[p.piece_type] for p in board.piece_map().values() if p.color == color)

    edge = material(opponent) - material(claimant)
    opp_pawns = len(board.pieces(chess.PAWN, opponent))
    opp_name = COLOR_NAMES[opponent]
    if edge <= 0:
        signs.append(f"{opp_name} has no material advantage ({-edge} points behind or level).")
    else:
        signs.append(f"{opp_name} is {edge} point{'s' if edge != 1 else ''} of material ahead.")
    if opp_pawns == 0:
        signs.append(f"{opp_name} has no pawns left to promote.")
    wb, bb = board.pieces(chess.BISHOP, chess.WHITE), board.pieces(chess.BISHOP, chess.BLACK)
    minors_and_majors = [p for p in board.piece_map().values() if p.piece_type not in (chess.KING, chess.PAWN)]
    if (len(wb) == len(bb) == 1 and len(minors_and_majors) == 2
            and bool(wb & chess.BB_LIGHT_SQUARES) != bool(bb & chess.BB_LIGHT_SQUARES)):
        signs.append("Only opposite-coloured bishops remain.")
    if board.halfmove_clock >= 20:
        signs.append(f"No capture or pawn move for {board.halfmove_clock // 2} moves.")
    return signs


def judge(board: chess.Board, claimant: chess.Color, ruleset: ChessRuleset, services: Services) -> Finding:
    """Recommend a finding from the claimant's side: rules, tables, engine, material."""
    a = assess(board, ruleset, services)
    opponent = not claimant
    me, them = COLOR_NAMES[claimant], COLOR_NAMES[opponent]
    signs = material_signs(board, claimant)
    evidence: dict[str, Any] = {"fen": board.fen(), "signs": signs, **a.evidence()}
    reasons = [*a.reasons, "Material and structure: " + " ".join(signs)]
    own = 1 if claimant == chess.WHITE else -1
    if a.can_mate.get(opponent) is False:
        return Finding("clear", False, 1.0, (*reasons, f"{them} cannot win at all: the claim is clearly correct."),
                       evidence, proven=True)
    if a.method in ("checkmate", "stalemate", "move-rule", "dead-position", "tablebase"):
        outcome = (a.outcome or 0) * own
        if outcome >= 0:
            return Finding("clear", False, 1.0,
                           (*reasons, f"{me} cannot lose with correct play: the claim is clearly correct."), evidence,
                           proven=True)
        return Finding("incorrect", False, 1.0,
                       (*reasons, f"{them} has a forced win: the claim is clearly incorrect."), evidence, proven=True)
    score = a.score_for(claimant)
    t = a.thresholds
    clear_cp = ruleset.adjudication.ilc_clear_score_cp
    max_pieces = ruleset.adjudication.ilc_clear_max_pieces
    pieces = chess.popcount(board.occupied)
    if score is None:
        return Finding("unclear", False, 0.0,
                       (*reasons, "Without an engine or tablebase the app cannot judge; the arbiter must."), evidence)
    if score <= -t.win_score_cp:
        return Finding("incorrect", False, a.confidence,
                       (*reasons, f"From {me}'s side the score is {score / 100:+.2f}: {them} is winning, so the "
                        "claim looks clearly incorrect."), evidence)
    if score >= t.win_score_cp:
        return Finding("clear", False, a.confidence,
                       (*reasons, f"{me} is the one winning ({score / 100:+.2f}); {me} has no real losing chances."),
                       evidence)
    if score >= -clear_cp and pieces <= max_pieces:
        confidence = min(t.engine_confidence_cap, 0.75 + 0.2 * (1 - max(0, -score) / max(1, clear_cp)))
        return Finding("clear", False, round(confidence, 3),
                       (*reasons, f"From {me}'s side the score is {score / 100:+.2f} with only {pieces} pieces left: "
                        f"{them} has no winning chances by normal means."), evidence)
    why = (f"{pieces} pieces remain, so there is still play in the position" if score >= -clear_cp
           else f"{them} is somewhat better ({score / 100:+.2f} from {me}'s side) but not clearly winning")
    return Finding("unclear", False, 0.5, (*reasons, f"{why}: the claim is unclear."), evidence)
