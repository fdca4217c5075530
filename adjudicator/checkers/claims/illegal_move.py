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

The first irregularity decides (:mod:`adjudicator.irregularities`): the earliest improper move
still correctable is ruled on, whatever ply was alleged, and the ruling says so. A report by the
player who made the move (``illegal_move.claim_by_offender``): ``not-a-claim`` (default: the
correction is the opponent's; the referee acts on what he saw himself, case field
``arbiter_observed``) or ``arbiter-acts``.
"""

from __future__ import annotations

from typing import Any

from adjudicator.checkers.claims import ART_IMPROPER_MOVE, claimant_of, game_for_case, ply_label, side_name
from adjudicator.checkers.replay import Ply
from adjudicator.contract import Case, ContractError
from adjudicator.irregularities import choose
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
    claimant = claimant_of(case, game.position)
    evidence: dict[str, Any] = {"illegal": [p.number for p in replay.illegal], "notes": list(game.notes)}
    red_first = replay.start.red_to_move

    def label_of(ply: Ply) -> str:
        return f"{ply_label(ply.number, red_first)} ({ply.token}, ply {ply.number})"

    def correctable(ply: Ply) -> bool:
        return window == "game" or not any(p.side != ply.side for p in plies[ply.number:])

    choice = choose(plies, lambda p: not p.is_legal, correctable, alleged, case.claimant)
    target = choice.ply
    if target is None:
        reasons = ("Every move of the record is legal.",)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, (), ("Play continues.",), evidence)
    label = label_of(target)
    evidence |= {"ply": target.number, "move": target.token, "fen_before": target.before.fen()}
    if target.is_legal:
        reasons = (f"{label} was legal.",)
        return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, (), ("Play continues.",), evidence)
    offender = target.side
    if case.claimant is None:  # the claim is the offender's opponent's, whoever is to move now
        claimant = case.opponent(offender)
    legal = [str(m) for m in target.before.legal_moves()]
    evidence["legal_moves"] = legal
    reasons_list = [f"{label} was illegal: {target.reason}."]
    standing = choice.stood
    if standing:
        evidence["standing_illegal_plies"] = [p.number for p in standing]
        reasons_list.append("The earlier improper move(s) " + ", ".join(label_of(p) for p in standing)
                            + " can no longer be corrected and stand.")
    if alleged is not None and alleged != target.number:
        named = label_of(plies[alleged - 1])
        evidence["alleged_ply"] = alleged
        if alleged > target.number:
            reasons_list.append(f"The claim names {named}, but {label} came before it and was already improper: "
                                f"the first irregularity decides, so the position before {label} is reinstated "
                                f"and the later moves are cancelled.")
        else:
            reasons_list.append(f"The claim names {named}; the improper move found is {label}.")
    if claimant == offender and choice.anchor is not None and choice.anchor.side != claimant:
        reasons_list.insert(0, f"{side_name(claimant)} claimed that {side_name(case.opponent(claimant))}'s move was "
                               f"improper, but {side_name(claimant)}'s own improper move came first and is found in "
                               "checking the claim: the first irregularity decides.")
        claimant = case.opponent(offender)
    elif claimant == offender:
        evidence["reported_by"] = "offender"
        evidence["claim_by_offender"] = ruleset.illegal_move.claim_by_offender
        own = (f"{side_name(offender)} reported {side_name(offender)}'s own improper move: this is not "
               f"{side_name(case.opponent(offender))}'s claim")
        if ruleset.illegal_move.claim_by_offender == "not-a-claim" and not case.facts.arbiter_observed:
            reasons_list.insert(0, f"{own}. The correction is the opponent's to ask for; the referee acts only on "
                                   "an improper move he saw himself.")
            instructions = [f"Play continues; {side_name(case.opponent(offender))} may ask for the correction"
                            + (" before making the next move" if window == "before-reply" else "")
                            + ", otherwise the move stands."]
            return Ruling(CLAIM, Verdict.REJECTED, None, refs, tuple(reasons_list), (), tuple(instructions),
                          evidence)
        reasons_list.insert(0, f"{own}, but the referee " + (
            "saw it himself" if case.facts.arbiter_observed else "acts on an improper move found during the game"
        ) + " and corrects it.")
        claimant = case.opponent(offender)  # the correction is made as on the opponent's claim
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
