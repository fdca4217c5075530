"""The forty-move rule in checkers, in the two forms of README 3.2 (``move_rule.count``).

``harmonised`` (WCDF 2008 rule (b), ACF national rules; ruleset ``acf``): a player may
show that in **each player's own previous 40 moves** no uncrowned man has moved and
no piece has been captured. A mechanical count, like chess's fifty-move rule: any man
move or capture restarts it. Either player may claim; the record shows it.

``traditional`` (ACF Standard Laws): the weaker side asks the referee for a count.
From that notice the **stronger side** must win, or show a decided advantage, within
**40 of its own moves**; the count restarts on a man move, a capture, or a
strengthening of the position the defender concedes. Case fields:
``count_requested_ply`` (the ply after which notice was given; 0 = the record's
start), ``count_side`` (the side whose moves are counted; default: the claimant's
opponent) and ``strengthening_plies`` (plies after which the defender conceded a
strengthening). Without a notice, the claim is the request: the ruling defers and
the referee starts the count.

The count runs from the record's first move: moves before a set-up position are unknown.
"""

from __future__ import annotations

from typing import Any

from adjudicator.checkers.claims import (
    ART_FORTY_HARMONISED,
    ART_FORTY_TRADITIONAL,
    CheckersGame,
    claimant_of,
    game_for_case,
    incorrect_claim_consequences,
    ply_label,
    side_name,
)
from adjudicator.checkers.replay import CheckersReplay, Ply
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Ruling, Verdict
from adjudicator.services import Services

CLAIM = "forty-move"


def _last_reset(replay: CheckersReplay) -> Ply | None:
    for ply in reversed(replay.plies):
        if ply.is_made and ply.resets_count:
            return ply
    return None


def _describe(ply: Ply, replay: CheckersReplay) -> str:
    kind = "capture" if ply.is_capture else "man move"
    return f"{ply_label(ply.number, replay.start.red_to_move)} ({ply.token}, a {kind}) at ply {ply.number}"


def rule(case: Case, ruleset: CheckersRuleset, services: Services) -> Ruling:
    """Rule on a forty-move claim in the ruleset's form of the count."""
    mode = ruleset.move_rule.count
    moves = ruleset.move_rule.moves
    game = game_for_case(case)
    if game.replay is None:
        raise ContractError(
            "missing_field", "a forty-move claim is shown from the move record: give the record", "record"
        )
    claimant = claimant_of(case, game.position)
    if mode == "traditional":
        return _traditional(case, ruleset, game, game.replay, claimant, moves)
    return _harmonised(ruleset, game, game.replay, claimant, moves)


def _harmonised(
    ruleset: CheckersRuleset, game: CheckersGame, replay: CheckersReplay, claimant: str, moves: int
) -> Ruling:
    refs = (ruleset.ref(ART_FORTY_HARMONISED),)
    counter = replay.counter
    last = _last_reset(replay)
    evidence: dict[str, Any] = {
        "count": "harmonised",
        "plies_without_man_move_or_capture": counter,
        "needed_plies": 2 * moves,
        "last_reset_ply": last.number if last else None,
        "last_reset_move": last.token if last else None,
        "notes": list(game.notes),
    }
    since = f"since {_describe(last, replay)}" if last else "since the record's start (no man move or capture in it)"
    if counter >= 2 * moves:
        reasons: tuple[str, ...] = (
            f"{counter} moves (plies) have been played {since}: each player's own last {moves} moves "
            "include no man move and no capture.",
        )
        return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", refs, reasons, evidence=evidence)
    own = [p for p in replay.plies[len(replay.plies) - counter:] if p.is_made]
    red = sum(1 for p in own if p.side == "red")
    white = len(own) - red
    reasons = (
        f"Only {red} moves by Red and {white} by White have been played {since}; "
        f"the rule needs {moves} by each player.",
    )
    if last is not None and last.side == claimant:
        reasons += (f"The last man move or capture was {side_name(claimant)}'s own.",)
    adjustments, instructions = incorrect_claim_consequences(ruleset, claimant, _other(claimant))
    evidence["moves_since"] = {"red": red, "white": white}
    return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, adjustments, instructions, evidence)


def _other(side: str) -> str:
    return "white" if side == "red" else "red"


def _plies_list(case: Case, name: str, last: int) -> tuple[int, ...]:
    value = case.extra.get(name)
    if value is None:
        return ()
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise ContractError("invalid_field", f"{name} must be a list of ply numbers", name)
    if any(not 0 <= v <= last for v in value):
        raise ContractError("invalid_field", f"{name}: every ply must be between 0 and {last}", name)
    return tuple(value)


def _traditional(
    case: Case, ruleset: CheckersRuleset, game: CheckersGame, replay: CheckersReplay, claimant: str, moves: int
) -> Ruling:
    refs = (ruleset.ref(ART_FORTY_TRADITIONAL),)
    last_ply = len(replay.plies)
    notice = case.facts.count_requested_ply
    if notice is not None and notice > last_ply:
        raise ContractError(
            "invalid_field", f"count_requested_ply must be at most {last_ply}, the record's last ply",
            "count_requested_ply",
        )
    counted = case.facts.count_side
    stronger = _other(claimant) if counted is None else ("red" if counted == "black" else counted)
    strengthening = _plies_list(case, "strengthening_plies", last_ply)
    if notice is None:
        reasons: tuple[str, ...] = (
            f"{side_name(claimant)} asks for a count. From now on {side_name(stronger)} must win, or show a "
            f"decided advantage, within {moves} of his own moves.",
        )
        instructions: tuple[str, ...] = (
            f"Start the referee's count now (after ply {last_ply}): count {side_name(stronger)}'s moves.",
            "The count starts again on any man move, any capture, or a strengthening the defender concedes.",
        )
        evidence: dict[str, Any] = {"count": "traditional", "count_requested_ply": last_ply, "count_side": stronger}
        return Ruling(CLAIM, Verdict.DEFERRED, None, refs, reasons, (), instructions, evidence)
    last = _last_reset(replay)
    restarts = [notice, *(s for s in strengthening if s >= notice)]
    if last is not None and last.number > notice:
        restarts.append(last.number)
    start = max(restarts)
    counted_moves = sum(1 for p in replay.plies[start:] if p.is_made and p.side == stronger)
    evidence = {
        "count": "traditional",
        "count_requested_ply": notice,
        "count_side": stronger,
        "count_started_after_ply": start,
        "moves_counted": counted_moves,
        "needed": moves,
        "notes": list(game.notes),
    }
    if start == notice:
        why = f"since the count was requested after ply {notice}"
    elif last is not None and start == last.number:
        why = f"since the count restarted on {_describe(last, replay)}"
    else:
        why = f"since the defender conceded a strengthening after ply {start}"
    if counted_moves >= moves:
        reasons = (
            f"{side_name(stronger)} has made {counted_moves} moves {why} without winning or showing a "
            f"decided advantage: the count of {moves} is complete.",
        )
        return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", refs, reasons, evidence=evidence)
    reasons = (f"{side_name(stronger)} has made only {counted_moves} of {moves} moves {why}.",)
    adjustments, instructions = incorrect_claim_consequences(ruleset, claimant, stronger)
    instructions = (*instructions, f"The count continues: {moves - counted_moves} more moves by {side_name(stronger)}.")
    return Ruling(CLAIM, Verdict.REJECTED, None, refs, reasons, adjustments, instructions, evidence)
