"""What the draw claims on a record share: who may claim, the written move, the rejected claim.

- FIDE 9.2 / 9.3: only the player having the move may claim; 9.4: not after
  touching a piece with the intention of moving it (case field ``touched_piece``).
  US Chess 14C4: a player who made the move but did not press the clock keeps the
  right to claim (case field ``clock_not_pressed``).
- FIDE 9.2.1 / 9.3.1: the intended move is written, not played; 9.5.3: after an
  incorrect claim it must be played (if illegal, another move with the same piece).
- FIDE 9.1.2.3: every claim under 9.2 or 9.3 is also a draw offer (US Chess: the
  same, Rule 14 TD tip). 9.1.1: an event may forbid draw offers before a move number;
  a claim decided by the arbiter is not such an offer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from adjudicator.chess.claims.penalties import incorrect_claim
from adjudicator.chess.replay import Replay
from adjudicator.chess.san import describe as long_form
from adjudicator.chess.san import read_move
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Ruling, Verdict, unique


def side_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


@dataclass(frozen=True)
class Intended:
    """The move written on the scoresheet but not played (9.2.1 / 9.3.1)."""

    move: chess.Move
    is_legal: bool
    san: str
    label: str
    reason: str | None
    piece: str


def read_intended(case: Case, replay: Replay, board: chess.Board) -> Intended | None:
    """The written move read in the position now; a token that is no move at all is a contract error."""
    if not case.intended_move or not case.intended_move.strip():
        return None
    reading = read_move(board, case.intended_move.strip(), replay.language)
    if reading.move is None or not reading.move:
        hint = f"; it may be {' or '.join(reading.candidates)}" if reading.candidates else ""
        raise ContractError(
            "invalid_field",
            f"intended_move {case.intended_move!r} is not a move in this position{hint}",
            "intended_move",
        )
    san = board.san(reading.move) if reading.is_legal else long_form(board, reading.move)
    dots = "." if board.turn == chess.WHITE else "..."
    piece_type = board.piece_type_at(reading.move.from_square) or chess.PAWN
    return Intended(
        reading.move, reading.is_legal, san, f"{board.fullmove_number}{dots}{san}", reading.reason,
        chess.piece_name(piece_type),
    )


def move_label(board: chess.Board, move: chess.Move) -> str:
    """A move of ``board`` as the rulings write a written move: ``12.Nf3``, ``12...Nf6``."""
    dots = "." if board.turn == chess.WHITE else "..."
    return f"{board.fullmove_number}{dots}{board.san(move)}"


def had_written(claimant: str, labels: Sequence[str], outcome: str, article: str) -> str:
    """The reason a rejected claim gives when writing a move would have made it correct (FIDE 9.2.1 / 9.3.1:
    the claimant writes the move, declares it and does not play it): it names the move(s)."""
    shown = list(labels[:3])
    moves = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    if len(labels) > 3:
        moves = f"a move such as {moves}"
    return (f"Had {claimant.capitalize()} written {moves} on the scoresheet and declared it to the arbiter "
            f"without playing it, the claim would have been correct: {outcome} ({article}). "
            f"A claim made without the written move is decided on the board as it stands.")


def list_plies(replay: Replay, plies: Sequence[int], n: int) -> str:
    """``the start (ply 0), after 2...Ng8 (ply 4) and after 4...Ng8 (ply 8)``."""
    parts = []
    for ply in plies:
        if ply > n:
            parts.append(f"after the written move (ply {ply})")
        elif ply == 0:
            parts.append("at the start (ply 0)")
        else:
            parts.append(f"after {replay.label(ply)} (ply {ply})")
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def has_no_offer_rule(ruleset: ChessRuleset, board: chess.Board) -> bool:
    limit = ruleset.draw_offer.no_offer_before_move
    return limit > 0 and board.fullmove_number < limit


def no_offer_note(ruleset: ChessRuleset, board: chess.Board, upheld: bool) -> list[str]:
    """FIDE 9.1.1: an event rule against early draw offers does not bar a claim."""
    if not has_no_offer_rule(ruleset, board):
        return []
    limit = ruleset.draw_offer.no_offer_before_move
    if upheld:
        return [
            f"The event forbids draw offers before move {limit}, but a claim decided by the arbiter "
            f"is not a draw agreement, so the rule does not apply (9.1.1)."
        ]
    return [
        f"The event forbids draw offers before move {limit}: the opponent may accept the claim as a draw "
        f"only with the arbiter's consent (9.1.1)."
    ]


def admissible(claim: str, case: Case, ruleset: ChessRuleset, board: chess.Board, claimant: str) -> Ruling | None:
    """None when the claimant may claim now; else the ruling that the claim is not admissible."""
    us = ruleset.is_a("uschess")
    to_move = side_name(board.turn)
    if claimant != to_move and us and case.facts.clock_not_pressed:
        return None  # US 14C4: made the move but did not press the clock; the right to claim stays
    if claimant != to_move:
        ref = ruleset.ref("14C" if claim == "threefold-repetition" else "14F") if us else ruleset.ref(
            "9.2" if claim == "threefold-repetition" else "9.3"
        )
        return Ruling(
            claim=claim, verdict=Verdict.REJECTED, result=None, rule_refs=(ref,),
            reasons=(
                f"Only the player having the move may claim; {to_move.capitalize()} is to move, "
                f"not {claimant.capitalize()}.",
            ),
            instructions=("play continues",),
            evidence={"side_to_move": to_move},
        )
    if case.facts.touched_piece:
        refs = (ruleset.ref("9.4"), ruleset.ref("4.3")) if not us else (ruleset.ref("10"), ruleset.ref("14C"))
        return Ruling(
            claim=claim, verdict=Verdict.REJECTED, result=None, rule_refs=refs,
            reasons=(
                f"{claimant.capitalize()} touched a piece with the intention of moving it and so lost the right "
                f"to claim on this move.",
            ),
            instructions=(
                f"{claimant.capitalize()} must move the touched piece (touch-move)",
                f"{claimant.capitalize()} may claim again on the next move "
                "if a repetition or the count is then present",
            ),
            evidence={"touched_piece": True},
        )
    return None


def illegal_intended(
    claim: str, case: Case, ruleset: ChessRuleset, replay: Replay, intended: Intended, claimant: str, opponent: str
) -> Ruling:
    """9.5.3: a claim on an illegal written move is incorrect; another move with the same piece must be made."""
    reasons = [f"The written move {intended.label} is illegal ({intended.reason}), so it cannot complete the claim."]
    return rejected(
        claim, case, ruleset, replay, claimant, opponent, reasons,
        [ruleset.ref("9.5.3") if not ruleset.is_a("uschess") else ruleset.ref("14C2")],
        {"intended_move": intended.san, "intended_move_legal": False}, intended,
    )


def rejected(
    claim: str,
    case: Case,
    ruleset: ChessRuleset,
    replay: Replay,
    claimant: str,
    opponent: str,
    reasons: Sequence[str],
    refs: Sequence[str],
    evidence: Mapping[str, Any],
    intended: Intended | None,
) -> Ruling:
    """An incorrect claim: penalty, the written move to be played, the claim as a draw offer."""
    us = ruleset.is_a("uschess")
    board = replay.final_board
    award = incorrect_claim(ruleset, claimant, opponent, case.clock)
    instructions = ["play continues"]
    if intended is not None:
        if intended.is_legal:
            instructions.append(f"{claimant.capitalize()} must play the written move {intended.label}")
        else:
            instructions.append(
                f"the written move {intended.label} is illegal: {claimant.capitalize()} must make another move "
                f"with the {intended.piece} if it has a legal move"
            )
    instructions.extend(award.instructions)
    offer = f"the claim counts as a draw offer, which {opponent.capitalize()} may accept"
    instructions.append(offer if us else f"{offer} (9.1.2.3)")
    all_reasons = [*reasons, *award.reasons, *no_offer_note(ruleset, board, upheld=False)]
    all_refs = [*refs, *award.rule_refs]
    if not us:
        all_refs.append(ruleset.ref("9.1.2.3"))
        if has_no_offer_rule(ruleset, board):
            all_refs.append(ruleset.ref("9.1.1"))
    return Ruling(
        claim=claim, verdict=Verdict.REJECTED, result=None, rule_refs=unique(all_refs),
        reasons=tuple(all_reasons), adjustments=award.adjustments, instructions=tuple(instructions),
        evidence=dict(evidence),
    )
