"""Claims in American checkers (ACF). Each module exposes ``rule(case, ruleset, services) -> Ruling``.

Shared here: the game as the case gives it (record, start position, position now),
the side names, and the handling of an incorrect claim.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.checkers.board import Move, Position
from adjudicator.checkers.replay import CheckersRecordError, CheckersReplay, parse_position, replay_checkers
from adjudicator.contract import Case, ContractError, quoted
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Adjustment

RED = "red"
WHITE = "white"

ART_REPETITION = "WCDF 2008 draw rule (a), third repetition"
ART_FORTY_HARMONISED = "WCDF 2008 draw rule (b), forty moves"
ART_FORTY_TRADITIONAL = "Standard Laws, forty-move count"
ART_IMPROPER_MOVE = "Standard Laws, improper moves"


def side_to_move(position: Position) -> str:
    return RED if position.red_to_move else WHITE


def side_name(side: str) -> str:
    """``Red`` / ``White`` as an arbiter writes them."""
    return side.capitalize()


@dataclass(frozen=True)
class CheckersGame:
    """The game a case describes: its replay (if a record was given) and the position now."""

    replay: CheckersReplay | None
    position: Position
    notes: tuple[str, ...] = ()


def game_for_case(case: Case) -> CheckersGame:
    """The record replayed (with ``start_fen`` and an optional ``ballot`` number), else ``fen``.

    When both a record and ``fen`` are given, the record's end is cross-checked against
    ``fen``; a mismatch is reported as a note (the record rules), not an error.

    :raises ContractError: neither a record nor a position, or an unreadable one (a token that
        cannot be read as any move: the error names its ply and the likely moves, as in chess).
    """
    ballot = case.facts.ballot
    if case.record and case.record.strip():
        replay = replay_checkers(case.record, case.start_fen, ballot)
        if replay.unreadable:  # the replay stopped there: ruling on the moves before it would mislead
            bad = replay.unreadable[0]
            hint = f"; it may be {' or '.join(bad.candidates)}" if bad.candidates else ""
            raise CheckersRecordError(
                f"ply {bad.ply} ({quoted(bad.token)!r}) cannot be read as a move ({bad.reason}){hint}"
            )
        notes: list[str] = list(replay.notes)
        if case.fen:
            given = parse_position(case.fen)
            if given.key != replay.final.key:
                notes.append(
                    f"the position given ({given.fen()}) differs from the record's end ({replay.final.fen()}); "
                    "the record is used"
                )
        return CheckersGame(replay, replay.final, tuple(notes))
    if case.fen:
        return CheckersGame(None, parse_position(case.fen))
    if case.start_fen:
        return CheckersGame(None, parse_position(case.start_fen, "start_fen"))
    raise ContractError("missing_field", "give the record or the position (fen)", "record")


def intended_move(case: Case, position: Position) -> Move | None:
    """The move the claimant says he will play (``intended_move``), checked for legality.

    :raises ContractError: the move is not a legal move in the position (field ``intended_move``).
    """
    if not case.intended_move:
        return None
    text = case.intended_move.strip()
    try:
        squares = [int(x) for x in text.replace("x", "-").replace(":", "-").split("-")]
    except ValueError:
        raise ContractError(
            "invalid_field", f"intended_move {text!r} is not a move in square numbers (11-15, 15x24)",
            "intended_move",
        ) from None
    for move in position.legal_moves():
        if move.path[0] == squares[0] and move.path[-1] == squares[-1]:
            path = iter(move.path)
            if all(any(sq == s for sq in path) for s in squares):
                return move
    legal = ", ".join(str(m) for m in position.legal_moves()) or "none"
    raise ContractError(
        "not_legal",
        f"{text} is not a legal move for {side_to_move(position)} here (legal: {legal})",
        "intended_move",
    )


def incorrect_claim_consequences(
    ruleset: CheckersRuleset, claimant: str, opponent: str
) -> tuple[tuple[Adjustment, ...], tuple[str, ...]]:
    """Clock adjustments and instructions after an incorrect claim (``incorrect_claim`` table).

    The ACF texts give no time penalty for a wrong draw claim; an event may set
    ``opponent_bonus_seconds`` and whether it is ``automatic`` or ``discretionary``.
    """
    bonus = ruleset.incorrect_claim.opponent_bonus_seconds
    mode = ruleset.incorrect_claim.penalty
    instructions = ["Play continues."]
    if bonus <= 0:
        return (), tuple(instructions)
    if mode == "automatic":
        reason = f"incorrect claim by {claimant}"
        return (Adjustment(opponent, bonus, reason),), tuple(instructions)
    instructions.append(f"The referee may add {bonus} s to {side_name(opponent)}'s clock for the incorrect claim.")
    return (), tuple(instructions)


def claimant_of(case: Case, position: Position) -> str:
    """The claimant, defaulting to the side to move."""
    return case.claimant or side_to_move(position)


def ply_label(number: int, red_first_at_start: bool) -> str:
    """``Red's move 12`` style label for ply ``number`` of a record whose first mover is given."""
    is_first_mover = number % 2 == 1
    is_red = is_first_mover == red_first_at_start
    own = (number + 1) // 2 if is_first_mover else number // 2
    return f"{'Red' if is_red else 'White'}'s move {own}"
