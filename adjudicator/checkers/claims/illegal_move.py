"""Illegal ("improper") moves in checkers: a jump not taken, a man moved backwards, an incomplete jump.

ACF Standard Laws (README 5.5): the opponent may have an improper move corrected:
the position before it is reinstated and the offender must make a legal move (the
jump, if one was missed). The old "huff" is abolished. When a correction is still
possible is ``illegal_move.correction_window`` (**[verify ACF current practice]**):

* ``before-reply`` (default): only until the opponent has made his next move; after
  that the move stands, as in most modern codes;
* ``game``: at any time during the game.

``illegal_move.opponent_bonus_seconds`` (default 0: the ACF texts give none) adds time
to the opponent when the claim is upheld.
"""

from __future__ import annotations

from typing import Any

from adjudicator.checkers.claims import ART_IMPROPER_MOVE, claimant_of, game_for_case, ply_label, side_name
from adjudicator.checkers.replay import Ply
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Adjustment, Result, Ruling, Verdict
from adjudicator.services import Services

CLAIM = "illegal-move"


def rule(case: Case, ruleset: CheckersRuleset, services: Services) -> Ruling:
    """Rule on a claim that a move of the record was illegal."""
    window = ruleset.illegal_move.correction_window
    bonus = ruleset.illegal_move.opponent_bonus_seconds
    refs = (ruleset.ref(ART_IMPROPER_MOVE),)
    game = game_for_case(case)
    replay = game.replay
    if replay is None:
        raise ContractError("missing_field", "an illegal-move claim needs the move record", "record")
    plies = replay.plies
    alleged = case.alleged_illegal_ply
    if alleged is not None and alleged > len(plies):
        raise ContractError(
            "invalid_field", f"alleged_illegal_ply {alleged}: the record has only {len(plies)} moves",
            "alleged_illegal_ply",
        )
    first_illegal = next((p for p in plies if not p.is_legal), None)
    target: Ply | None = plies[alleged - 1] if alleged is not None else first_illegal
    claimant = claimant_of(case, game.position)
    evidence: dict[str, Any] = {"illegal": [p.number for p in replay.illegal], "notes": list(game.notes)}
    red_first = replay.start.red_to_move
    if target is None:
        reasons = ("Every move of the record is legal.",)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, (), ("Play continues.",), evidence)
    label = f"{ply_label(target.number, red_first)} ({target.token}, ply {target.number})"
    evidence |= {"ply": target.number, "move": target.token, "fen_before": target.before.fen()}
    if target.is_legal:
        reasons = (f"{label} was legal.",)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, (), ("Play continues.",), evidence)
    offender = target.side
    if case.claimant is None:  # the claim is the offender's opponent's, whoever is to move now
        claimant = case.opponent(offender)
    if claimant == offender:
        raise ContractError(
            "invalid_field", f"the claimant {claimant} made the move at ply {target.number} himself", "claimant"
        )
    legal = [str(m) for m in target.before.legal_moves()]
    evidence["legal_moves"] = legal
    reasons_list = [f"{label} was illegal: {target.reason}."]
    replies = [p for p in plies[target.number:] if p.side != offender]
    if window == "before-reply" and replies:
        reasons_list.append(
            f"{side_name(claimant)} has since replied ({replies[0].token} at ply {replies[0].number}): the move stands."
        )
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, tuple(reasons_list), (), ("Play continues.",), evidence)
    instructions = [
        f"Reinstate the position before ply {target.number} ({target.before.fen()}).",
        f"{side_name(offender)} must make a legal move instead: {', '.join(legal) or 'none (he has lost)'}.",
    ]
    adjustments: tuple[Adjustment, ...] = ()
    if bonus > 0:
        adjustments = (Adjustment(claimant, bonus, f"illegal move by {offender}"),)
    if not legal:
        reasons_list.append(f"{side_name(offender)} had no legal move: he has lost.")
        result: Result = "1-0" if offender == "white" else "0-1"
        return Ruling(CLAIM, Verdict.UPHELD, result, refs, tuple(reasons_list), adjustments, (), evidence)
    return Ruling(CLAIM, Verdict.UPHELD, None, refs, tuple(reasons_list), adjustments, tuple(instructions), evidence)
