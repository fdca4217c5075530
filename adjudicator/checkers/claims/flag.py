"""Flag claims in American checkers: time forfeits, match forfeits, the Lowder Rule, unstarted games.

- **Flag fall** (ACF; ``flag.forfeit_games``): the player whose flag fell loses the
  game. In the Master Division the flag forfeits **the current and the next game**
  (README 3.4, 5.4): after game 1, game 2 of the same match (colours reversed); after
  game 2, the first game of the next round's match when ``flag.next_game =
  "next-round"``, nothing more when ``same-match`` (P45: confirm with the organiser).
  Checkers has no "cannot win" exception: any material can win on time.
  A flag that ends a period whose moves were made does not lose (``moves_completed``,
  ``flag_period``, the time control: :mod:`adjudicator.clocks.flagfall`).
- **Both flags down** (``flag.both_flags``): a draw (no ACF text; neither player can
  claim with his own flag down).
- **Lowder Rule** (Master Division, ``[lowder]``; case field ``lowder``): near the end
  of the round each move within one minute, with a "10 seconds" warning at 50 s.
  The local text gives no sanction; the default is loss of the game after the
  warning (P47, ``lowder.penalty``).
- **Games not started** 30 minutes before the end of the round are drawn
  (``round.unstarted_drawn_minutes``; P48): a flag in such a game changes nothing.

Match clocks carried between the two games: :mod:`adjudicator.clocks.match`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from adjudicator.clocks.flagfall import check_period, flag_state, time_control_for
from adjudicator.contract import Case, ContractError, parse_seconds
from adjudicator.next_steps import RESULT_WORDS
from adjudicator.rulebook.checkers import FlagRefs
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Result, Ruling, Verdict, unique, win_for
from adjudicator.services import Services

CLAIM = "flag"
RED = "red"


def rule(case: Case, ruleset: CheckersRuleset, services: Services) -> Ruling:
    """The ruling on a flag (or Lowder Rule) claim in checkers."""
    refs = ruleset.flag.refs
    unstarted = _unstarted(case, ruleset, refs)
    if unstarted is not None:
        return unstarted
    if case.extra.get("lowder") is not None:
        return _lowder(case, ruleset, refs)
    flags = flag_state(case)
    flag_ref = refs.flag or ruleset.ref("tournament rules (time forfeit)")
    if not flags.flagged:
        return _ruling(Verdict.REJECTED, None, [flag_ref], ["No flag is down."], instructions=["Play continues."])
    if flags.has_both_flags_down:
        mode = ruleset.flag.both_flags
        ref = refs.both_flags or flag_ref
        if mode == "draw":
            return _ruling(
                Verdict.UPHELD,
                "1/2-1/2",
                [ref],
                ["Both flags are down; neither player can claim a win on time: the game is drawn."],
            )
        return _ruling(
            Verdict.DEFERRED,
            None,
            [ref],
            ["Both flags are down."],
            instructions=["The referee decides whether the game is drawn or play continues."],
        )
    flagged = flags.flagged[0]
    winner = case.opponent(flagged)
    name, other = flagged.capitalize(), winner.capitalize()
    if case.claimant == flagged:
        return _ruling(
            Verdict.REJECTED,
            None,
            [flag_ref],
            [f"{name}'s own flag is down and {other}'s is up: only {other} can claim a win on time."],
            instructions=[f"Play continues unless {other} claims."],
        )
    control = time_control_for(case, ruleset)
    period = check_period(case, control, flagged)
    evidence: dict[str, Any] = {
        "flagged": [flagged],
        "period": period.to_json(),
        "time_control": None if control is None else control.to_json(),
    }
    if period.has_completed_period:
        number = (period.period or 0) + 1
        return _ruling(
            Verdict.REJECTED,
            None,
            [flag_ref],
            [
                f"{name} had made {period.moves_made} moves, the {period.required} required by the end of "
                f"period {number}: the flag fell after the period's move count was reached."
            ],
            instructions=[f"Period {number + 1} begins; play continues."],
            evidence=evidence,
        )
    result = win_for(winner, RED)
    reasons = [f"{name}'s flag fell: {name} loses the game on time."]
    instructions, forfeits = _forfeits(case, ruleset, flagged, result)
    evidence["forfeited_games"] = forfeits
    if len(forfeits) > 1:
        reasons.append(f"Under this event's rules the flag also forfeits {name}'s next game ({forfeits[1]['game']}).")
    return _ruling(Verdict.UPHELD, result, [flag_ref], reasons, instructions=instructions, evidence=evidence)


def _forfeits(
    case: Case, ruleset: CheckersRuleset, flagged: str, result: Result
) -> tuple[list[str], list[dict[str, Any]]]:
    """This game and, where the event says so, the flagged player's next game.

    The winner is said in words; the match game only in a match: the event's flag forfeits the
    match's next game (``flag.forfeit_games`` = 2) or the case names its ``match_game``. Elsewhere
    (plain ``acf``) no instruction is given here: the ruling's next steps say who won
    (:func:`adjudicator.next_steps.steps`), as for any game.
    """
    match_game = _match_game(case)
    count = ruleset.flag.forfeit_games
    scope = ruleset.flag.next_game
    if count < 2 and case.facts.match_game is None:
        return [], [{"game": "this game", "loser_colour": flagged, "result": result}]
    games: list[dict[str, Any]] = [{"game": f"match game {match_game}", "loser_colour": flagged, "result": result}]
    winner = case.opponent(flagged).capitalize()
    instructions = [
        f"{winner} wins match game {match_game} ({RESULT_WORDS.get(result, result)}): record {result} for it."
    ]
    if count < 2:
        return instructions, games
    player = f"the player who had {flagged.capitalize()} in match game {match_game}"
    if match_game == 1:
        # game 2 replays the ballot with colours reversed: the flagged player now has the other colour
        colour = case.opponent(flagged)
        game2 = win_for(case.opponent(colour), RED)
        games.append({"game": "match game 2", "loser_colour": colour, "result": game2})
        instructions.append(
            f"Match game 2 is forfeited by {player} (he would have had {colour.capitalize()}): "
            f"record {game2}; it is not played."
        )
    elif scope == "next-round":
        games.append({"game": "next round, match game 1", "loser": player, "result": None})
        instructions.append(f"Record the first game of the next round's match as lost by {player}.")
    else:
        instructions.append("This was the last game of the match; no further game is forfeited (flag.next_game).")
    return instructions, games


def _match_game(case: Case) -> int:
    value = case.facts.match_game
    if value is None:
        return 1
    if value > 2:
        raise ContractError("invalid_field", "match_game must be 1 or 2 (a match is two games)", "match_game")
    return value


_HHMM = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


def _minutes(case: Case, name: str) -> int | None:
    value = case.extra.get(name)
    if value is None:
        return None
    m = _HHMM.match(value) if isinstance(value, str) else None
    if m is None or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise ContractError("invalid_field", f"{name} must be a time of day, hh:mm", name)
    return int(m.group(1)) * 60 + int(m.group(2))


def _unstarted(case: Case, ruleset: CheckersRuleset, refs: FlagRefs) -> Ruling | None:
    """P48: a game not started ``unstarted_drawn_minutes`` before the end of the round is drawn."""
    cutoff = ruleset.round.unstarted_drawn_minutes
    ends, started_at, now = (_minutes(case, n) for n in ("round_ends_at", "game_started_at", "now"))
    started = case.facts.game_started
    if started is None:
        started = started_at is not None or ends is None
    if cutoff <= 0 or ends is None:
        return None
    at = started_at if started else now
    if at is None:
        return None
    left = (ends - at) % (24 * 60)
    late = left < cutoff if started else left <= cutoff
    if not late:
        return None
    when = f"{left} minutes before the end of the round"
    what = f"started only {when}" if started else f"not started by {when}"
    return _ruling(
        Verdict.REJECTED,
        "1/2-1/2",
        [refs.round or ruleset.ref("round rules")],
        [
            f"The game was {what}; games not started {cutoff} minutes before the end are drawn.",
            "A flag in it changes nothing.",
        ],
        evidence={"round_ends_at": case.extra.get("round_ends_at"), "minutes_left": left, "game_started": started},
    )


def _lowder(case: Case, ruleset: CheckersRuleset, refs: FlagRefs) -> Ruling:
    """The Lowder Rule: one minute per move near the end of the round, with a 10-second warning."""
    ref = refs.lowder or ruleset.ref("Lowder Rule")
    info = case.extra["lowder"]
    if not isinstance(info, Mapping):
        raise ContractError("invalid_field", "lowder must be an object {side, seconds, warned}", "lowder")
    lowder = ruleset.lowder
    if not lowder.enabled:  # the event has no Lowder Rule to cite: its time-forfeit rule is what applies
        return _ruling(
            Verdict.REJECTED,
            None,
            [refs.flag or ruleset.ref("tournament rules (time forfeit)")],
            ["The Lowder Rule is not in force in this event."],
            instructions=["Play continues."],
        )
    side = info.get("side")
    if side is None and case.clock is not None and case.clock.flagged:
        side = case.clock.flagged[0]
    if side is None and case.claimant is not None:
        side = case.opponent(case.claimant)
    if not isinstance(side, str) or side.lower().replace("black", RED) not in case.sides:
        raise ContractError("invalid_field", "lowder.side must name the player who overstepped", "lowder.side")
    side = side.lower().replace("black", RED)
    if "seconds" not in info:
        raise ContractError("missing_field", "lowder.seconds (the time the move took) is required", "lowder.seconds")
    seconds = parse_seconds(info["seconds"], "lowder.seconds")
    warned = info.get("warned")
    if warned is not None and not isinstance(warned, bool):
        raise ContractError("invalid_field", "lowder.warned must be true or false", "lowder.warned")
    limit, warn_at, penalty = lowder.move_limit_seconds, lowder.warning_at_seconds, lowder.penalty
    name, other = side.capitalize(), case.opponent(side).capitalize()
    evidence = {
        "side": side,
        "seconds": seconds,
        "limit": limit,
        "warning_at": warn_at,
        "warned": warned,
        "penalty": penalty,
    }
    took = f"{name} took {int(seconds) // 60}:{int(seconds) % 60:02d} over the move"
    if seconds <= limit:
        return _ruling(
            Verdict.REJECTED,
            None,
            [ref],
            [f"{took}, within the {limit}-second limit."],
            instructions=["Play continues."],
            evidence=evidence,
        )
    over = f"{took}, beyond the {limit}-second limit."
    loss = win_for(case.opponent(side), RED)
    if penalty == "loss" or (penalty == "loss-after-warning" and warned is True):
        reasons = [over]
        if warned:
            reasons.append(f'The director called "10 seconds" at {warn_at} s.')
        reasons.append(f"{name} loses the game (the event's sanction: {penalty}).")
        return _ruling(Verdict.UPHELD, loss, [ref], reasons, evidence=evidence)
    if penalty == "loss-after-warning" and warned is None:
        return _ruling(
            Verdict.DEFERRED,
            None,
            [ref],
            [over],
            instructions=[
                f'Confirm that "10 seconds" was called at {warn_at} s: if it was, {name} '
                f"loses ({loss}); if not, warn {name} and play continues."
            ],
            evidence=evidence,
        )
    if penalty == "td-decides":
        return _ruling(
            Verdict.DEFERRED,
            None,
            [ref],
            [over],
            instructions=["The director decides the sanction."],
            evidence=evidence,
        )
    why = "no warning was called" if penalty == "loss-after-warning" else "the event's sanction is a warning"
    return _ruling(
        Verdict.REJECTED,
        None,
        [ref],
        [over, f"The game is not lost: {why}."],
        instructions=[f"Warn {name}; {other} plays on with the rule in force."],
        evidence=evidence,
    )


def _ruling(
    verdict: Verdict,
    result: Result | None,
    refs: list[str],
    reasons: list[str],
    *,
    instructions: list[str] | None = None,
    evidence: dict[str, Any] | None = None,
) -> Ruling:
    return Ruling(
        claim=CLAIM,
        verdict=verdict,
        result=result,
        rule_refs=unique(refs),
        reasons=tuple(reasons),
        instructions=tuple(instructions or ()),
        evidence=evidence or {},
    )
