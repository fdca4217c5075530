"""Threefold repetition in checkers (WCDF 2008 harmonised rules, adopted by the ACF national rules).

README 3.2 (a): a player may show the referee that **his next move would create the
same position for the third time**: the same pieces (men and kings) on the same
squares with the same side to move. The claim is made before the move, with the
move announced (``intended_move``), like FIDE 9.2.1. Occurrences need not be
consecutive. The number of occurrences is ``repetition.claim_occurrences`` (3;
some older house texts say 4).

When no move is announced, the position on the board is checked instead: if it has
already stood the required number of times, the claim is upheld (the referee need
not insist on the formality); this is noted in the reasons.
"""

from __future__ import annotations

from adjudicator.checkers.board import Position
from adjudicator.checkers.claims import (
    ART_REPETITION,
    claimant_of,
    game_for_case,
    incorrect_claim_consequences,
    intended_move,
    side_name,
    side_to_move,
)
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Ruling, Verdict
from adjudicator.services import Services
from adjudicator.words import ordinal

CLAIM = "threefold-repetition"


def rule(case: Case, ruleset: CheckersRuleset, services: Services) -> Ruling:
    """Rule on a repetition claim under the ruleset's ``repetition.claim_occurrences``."""
    needed = ruleset.repetition.claim_occurrences
    refs = (ruleset.ref(ART_REPETITION),)
    game = game_for_case(case)
    position = game.position
    claimant = claimant_of(case, position)
    opponent = case.opponent(claimant)
    to_move = side_to_move(position)
    if case.intended_move and claimant != to_move:
        reasons: tuple[str, ...] = (
            f"{side_name(claimant)} announces {case.intended_move.strip()}, but {side_name(to_move)} is to move: "
            "only the player about to move can show that his next move repeats the position.",
        )
        adjustments, instructions = incorrect_claim_consequences(ruleset, claimant, opponent)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, adjustments, instructions,
                      {"fen": position.fen(), "notes": list(game.notes)})
    try:
        move = intended_move(case, position)
    except ContractError as exc:
        if exc.field != "intended_move" or exc.code != "not_legal":
            raise
        reasons = (f"The announced move cannot be played: {exc.message}.",)
        adjustments, instructions = incorrect_claim_consequences(ruleset, claimant, opponent)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, adjustments, instructions,
                      {"fen": position.fen(), "notes": list(game.notes)})
    replay = game.replay
    history: list[tuple[int, tuple[int, int, int, bool]]] = replay.keys() if replay else [(0, position.key)]
    last_ply = history[-1][0]
    if move is not None:
        target: Position = position.push(move)
        history = [*history, (last_ply + 1, target.key)]
        described = f"the position after {side_name(claimant)}'s announced {move}"
    else:
        target = position
        described = "the position on the board"
    plies = [ply for ply, key in history if key == target.key]
    count = len(plies)
    evidence = {
        "fen": target.fen(),
        "occurrences": plies,
        "count": count,
        "needed": needed,
        "intended_move": str(move) if move else None,
        "notes": list(game.notes),
    }
    where = ", ".join(str(p) for p in plies)
    if move is not None and (move.is_capture or position.is_man_move(move)):
        reasons = (
            f"{move} is a {'capture' if move.is_capture else 'man move'}: it cannot repeat an earlier position.",
        )
        adjustments, instructions = incorrect_claim_consequences(ruleset, claimant, opponent)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, adjustments, instructions, evidence)
    if count >= needed:
        reasons = (
            f"{described[0].upper()}{described[1:]} ({target.fen()}) stands for the {ordinal(count)} time "
            f"(plies {where}; ply 0 is the record's start).",
        )
        if move is None:
            reasons += ("No move was announced; the position already on the board was counted.",)
        return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", refs, reasons, evidence=evidence)
    reasons = (
        f"{described[0].upper()}{described[1:]} ({target.fen()}) would stand only for the {ordinal(count)} time "
        f"(plies {where}); the rule needs the {ordinal(needed)}.",
    )
    adjustments, instructions = incorrect_claim_consequences(ruleset, claimant, opponent)
    if move is not None:
        announced = f"{side_name(claimant)} is to move; the announced move was {move}."
        instructions = (*instructions, announced)
    return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, adjustments, instructions, evidence)
