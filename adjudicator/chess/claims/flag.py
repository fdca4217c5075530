"""Flag claims in chess: a win (or draw) on time, both flags down, and flags that change nothing.

The rules (``[rulesets.*.flag]`` in ``config.toml``):

- **One flag down** (FIDE 6.9, A.5.3; US Chess 13C1, 14E): the player whose flag fell
  loses, unless the ruleset's no-win test says the opponent cannot win
  (:mod:`adjudicator.clocks.no_win`): then it is a draw. The flag must end a period
  whose moves were *not* completed (FIDE 6.4, US 13C1; :mod:`adjudicator.clocks.flagfall`);
  otherwise play continues. ``claimant_flag_must_be_up``: the claimant's own flag
  must still be up (US 13C1, Sabah).
- **Both flags down**: FIDE Guidelines III.3.1 (``last-period-draw``): when the clock
  shows which fell first (``flag_order_known``), that player's flag is the one that
  counts (Arbiters' Manual); otherwise play continues unless this is the last period,
  where it is a draw. US 14G2 (``td-may-draw``): in the final control the TD may
  declare a draw (and no one can claim: the claimant's own flag is down).
  ``draw`` (Sabah, CalChess): a draw.
- **The game was already over** (FIDE 6.8, 5.2.2, 9.6; :mod:`adjudicator.clocks.game_end`):
  checkmate, stalemate, a dead position, fivefold repetition or 75 moves before the flag
  fell: that result stands.
- **Armageddon** (``flag.armageddon`` or the case field ``armageddon``): a draw counts
  as a win for Black.

Verdicts: ``upheld`` when the flag decides the game (a win, or a draw because the
opponent cannot win or both flags are down); ``rejected`` when it does not (the
game was over, the period's moves were made, only the claimant's own flag is down,
or play continues); ``deferred`` when the arbiter must settle a fact first (whether
a forced win exists, whether a helpmate exists when the analysis runs out of budget).
With both flags down and nothing telling the period, it is taken as the last one
(both clocks at zero almost always means sudden death), and the ruling says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess

from adjudicator.chess.claims.over import deadness_for
from adjudicator.chess.positions import JudgedPosition, judged_position
from adjudicator.chess.replay import Replay
from adjudicator.clocks.flagfall import FlagState, PeriodCheck, check_period, flag_state, time_control_for
from adjudicator.clocks.game_end import Deadness, GameEnd, game_end
from adjudicator.clocks.history import readings_from_replay
from adjudicator.clocks.no_win import WinChance, win_chance
from adjudicator.clocks.timecontrol import TimeControl, hms
from adjudicator.contract import Case
from adjudicator.rulebook.chess import Flag
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Adjustment, Result, Ruling, Verdict, unique, win_for
from adjudicator.services import Services


@dataclass
class Context:
    case: Case
    ruleset: ChessRuleset
    services: Services
    rules: Flag
    flags: FlagState
    control: TimeControl | None
    replay: Replay | None
    board: chess.Board
    deadness: Deadness
    claimant: str
    notes: list[str]
    evidence: dict[str, Any]
    position: JudgedPosition | None = None
    is_armageddon: bool = False
    """``flag.armageddon``, unless the case's ``armageddon`` field says otherwise."""


def rule(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    """The ruling on a flag claim in chess (see the module docstring)."""
    rules = ruleset.flag
    is_armageddon = case.facts.armageddon
    if is_armageddon is None:
        is_armageddon = rules.armageddon
    flags = flag_state(case)
    position = judged_position(case)  # a record ending in an impossible position: 7.5.1 reinstates
    replay, board = position.replay, position.board
    control = time_control_for(case, ruleset, replay.tag("TimeControl") if replay is not None else None)
    claimant, notes = _claimant(case, flags, rules)
    notes[:0] = position.notes()
    ctx = Context(
        case,
        ruleset,
        services,
        rules,
        flags,
        control,
        replay,
        board,
        deadness_for(ruleset, services),
        claimant,
        notes,
        {},
        position,
        is_armageddon,
    )
    ctx.evidence.update(
        {
            "flagged": list(flags.flagged),
            "flag_order_known": flags.is_order_known if flags.has_both_flags_down else None,
            "claimant": claimant,
            "time_control": None if control is None else control.to_json(),
            "fen": board.fen(),
        }
    )
    if (
        len(flags.flagged) == 1 and rules.no_win_test == "helpmate" and ctx.deadness.analyses
        and not board.is_insufficient_material()
    ):
        ctx.deadness.search(board, _color(ctx, case.opponent(flags.flagged[0])))  # the 6.9 question first
    ended = game_end(replay, board, ruleset, ctx.deadness, case.sides)
    if ended is not None and ended.is_mandatory:
        return _already_over(ctx, ended)
    if ended is not None:
        ctx.notes.append(ended.reason)
        ctx.evidence["td_may_end"] = {"kind": ended.kind, "ply": ended.ply, **ended.evidence}
    if not flags.flagged:
        return _ruling(
            ctx,
            Verdict.REJECTED,
            None,
            [rules.refs.flag or ruleset.ref("6.9")],
            ["No flag is down: neither clock shows 0:00 and clock.flagged is empty."],
            instructions=["Play continues."],
        )
    if flags.has_both_flags_down:
        return _both_flags(ctx)
    other = case.opponent(flags.flagged[0])
    if case.clock is not None and case.clock.seconds(other) == 0:
        ctx.notes.append(
            f"Both clocks show 0:00, but only {flags.flagged[0].capitalize()}'s flag is down: "
            f"{flags.flagged[0].capitalize()}'s fell first (Arbiters' Manual on both clocks showing 0.00)."
        )
    return _one_flag(ctx, flags.flagged[0])


def _claimant(case: Case, flags: FlagState, rules: Flag) -> tuple[str, list[str]]:
    notes: list[str] = []
    if case.claimant is not None:
        return case.claimant, notes
    if len(flags.flagged) == 1:
        claimant = case.opponent(flags.flagged[0])
        if rules.called_by == "players":
            notes.append(f"Only the players claim flags here; this ruling applies once {claimant.capitalize()} claims.")
        return claimant, notes
    return case.sides[0], notes


def _already_over(ctx: Context, ended: GameEnd) -> Ruling:
    flagged = ", ".join(s.capitalize() for s in ctx.flags.flagged) or "No one"
    refs = [*ended.articles]
    if ctx.rules.refs.over is not None:
        refs.append(ctx.rules.refs.over)
    ctx.evidence["game_end"] = {"kind": ended.kind, "ply": ended.ply, **ended.evidence}
    ctx.evidence["ended_at_ply"] = ended.ply
    return _ruling(
        ctx,
        Verdict.REJECTED,
        ended.result,
        refs,
        [ended.reason, f"{flagged}'s flag fell afterwards; that changes nothing."],
        confidence=ended.confidence,
        armageddon=True,
    )


def _one_flag(ctx: Context, flagged: str) -> Ruling:
    case, rules = ctx.case, ctx.rules
    winner = case.opponent(flagged)
    name, other = flagged.capitalize(), winner.capitalize()
    refs = [rules.refs.flag or ctx.ruleset.ref("6.9")]
    if rules.claimant_flag_must_be_up and rules.refs.claimant_flag is not None:
        refs.append(rules.refs.claimant_flag)
    reasons: list[str] = []
    if ctx.claimant == flagged:
        if rules.called_by == "players":
            return _ruling(
                ctx,
                Verdict.REJECTED,
                None,
                refs,
                [f"{name}'s own flag is down and {other}'s is up: only {other} can claim a win on time."],
                instructions=[f"Play continues unless {other} claims."],
            )
        reasons.append(f"The arbiter calls {name}'s flag; the claim is taken as {other}'s.")
    period = _period(ctx, flagged)
    ctx.evidence["period"] = period.to_json()
    if period.has_completed_period:
        return _completed(ctx, period, refs)
    if period.period is None and ctx.control is not None and not ctx.control.is_sudden_death:
        return _ruling(
            ctx,
            Verdict.DEFERRED,
            None,
            [*refs, rules.refs.moves or ctx.ruleset.ref("6.4")],
            [
                f"{name}'s flag is down, but the moves {name} completed are not known, so it cannot be "
                "told whether the period's moves were made."
            ],
            instructions=["Count the moves on the scoresheets (or give moves_completed) and rule again."],
        )
    checks: list[str] = []
    if (
        rules.scoresheet_before_final
        and period.is_final is False
        and period.moves_source not in ("record", "moves_completed")
    ):
        refs.append(rules.refs.moves or ctx.ruleset.ref("6.4"))
        checks.append(
            f"Before the final control the claim stands only on a scoresheet: check that it shows {name} short of "
            f"the {period.required} moves (at most 3 missing or wrong move pairs); if the moves were made, play "
            "continues instead."
        )
    reasons.append(_flag_reason(ctx, flagged, period))
    chance = win_chance(
        ctx.board, winner, _color(ctx, winner), rules.no_win_test, ctx.ruleset, ctx.services, ctx.deadness
    )
    ctx.evidence["win_test"] = {"test": chance.test, "can_win": chance.can_win, **chance.evidence}
    refs += chance.articles
    reasons += chance.reasons
    if chance.can_win is None:
        return _ruling(
            ctx,
            Verdict.DEFERRED,
            None,
            refs,
            reasons,
            instructions=[_undecided_instruction(chance, name, other), *checks],
            confidence=0.5,
        )
    if chance.can_win:
        result = win_for(winner, case.sides[0])
        reasons.append(f"{name} loses on time.")
    else:
        result = "1/2-1/2"
        reasons.append(f"{other} cannot win, so the game is drawn.")
    return _ruling(
        ctx, Verdict.UPHELD, result, refs, reasons, instructions=checks, confidence=chance.confidence, armageddon=True
    )


def _period(ctx: Context, side: str) -> PeriodCheck:
    readings = readings_from_replay(ctx.replay) if ctx.replay is not None else None
    record_moves = None
    if readings is not None and ctx.replay is not None:
        # the moves made before the record's start position count too: a record from a
        # start_fen at move 45 has 44 moves behind it, as the same position's FEN says
        record_moves = sum(1 for r in readings if r.side == side) + _moves_before(ctx.replay.start_board, side)
    position_moves = None
    if ctx.replay is None:
        position_moves = _moves_before(ctx.board, side)
    return check_period(
        ctx.case, ctx.control, side, readings=readings, record_moves=record_moves, position_moves=position_moves
    )


def _moves_before(board: chess.Board, side: str) -> int:
    """The moves ``side`` has made before ``board``, by its move number and side to move."""
    return board.fullmove_number - 1 + (1 if side == "white" and board.turn == chess.BLACK else 0)


def _flag_reason(ctx: Context, flagged: str, period: PeriodCheck) -> str:
    name = flagged.capitalize()
    if ctx.control is None or period.period is None:
        return f"{name}'s flag is down."
    which = f"period {period.period + 1}"
    if period.overrun is not None:
        needed = "all remaining moves" if period.required is None else f"the {period.required} moves required"
        return (
            f"By the clock readings {name}'s time ran out during move {period.overrun.move}, in {which}, "
            f"before {needed}; the flag counts from when it is noticed or claimed (6.8)."
        )
    if period.required is None:
        return f"{name}'s flag fell in {which}, the period in which all remaining moves must be made."
    made = "an unknown number of" if period.moves_made is None else str(period.moves_made)
    source = " (by the position's move number)" if period.moves_source == "fen" else ""
    return f"{name}'s flag fell in {which} with {made} moves made{source} of the {period.required} required by its end."


def _last_completed(ctx: Context, period: PeriodCheck) -> tuple[int, int] | None:
    """(period number, moves it requires in all) of the last period whose moves the side has made (FIDE 6.4)."""
    if ctx.control is None or period.moves_made is None:
        return None
    first = period.side == ctx.case.sides[0]
    done: tuple[int, int] | None = None
    for index in range(period.moves_made):
        required = ctx.control.required_moves(index, first)
        if required is None or required > period.moves_made:
            break
        done = (index + 1, required)
    return done


def _completed(ctx: Context, period: PeriodCheck, refs: list[str]) -> Ruling:
    name = period.side.capitalize()
    refs = [*refs, ctx.rules.refs.moves or ctx.ruleset.ref("6.4")]
    number = (period.period or 0) + 1
    adjustments: list[Adjustment] = []
    instructions = ["Play continues."]
    if period.missing_seconds > 0:
        kinds = {i.kind for i in (period.history.irregularities if period.history else ())}
        what = "the next period's time" if "period-time-missing" in kinds else "time the control gives"
        done = _last_completed(ctx, period)
        completing = "" if done is None else f", completing the {done[1]} moves of period {done[0]}"
        reason = (
            f"By the clock readings {name} had made {period.moves_made} moves{completing}, "
            f"but the clock did not add {what} ({hms(period.missing_seconds)})."
        )
        adjustments.append(Adjustment(period.side, period.missing_seconds, f"{what} the clock did not add"))
        instructions.insert(0, f"Give {name} the {hms(period.missing_seconds)} the clock did not add.")
    else:
        reason = (
            f"{name} had made {period.moves_made} moves when the flag fell, completing the "
            f"{period.required} moves required by the end of period {number}."
        )
        if ctx.control is not None:
            following = ctx.control.period(number, period.side == ctx.case.sides[0])
            instructions.insert(
                0, f"Period {number + 1} begins: {following.describe()}; set the clock to it if it has not done so."
            )
    return _ruling(
        ctx,
        Verdict.REJECTED,
        None,
        refs,
        [reason, "The flag fell after the period's move count was reached, so it does not lose."],
        adjustments=adjustments,
        instructions=instructions,
    )


def _both_flags(ctx: Context) -> Ruling:
    rules, case = ctx.rules, ctx.case
    first, second = ctx.flags.flagged
    ref = rules.refs.both_flags or ctx.ruleset.ref("Guidelines III.3.1")
    if ctx.flags.is_order_known and not rules.claimant_flag_must_be_up and rules.both_flags == "last-period-draw":
        ctx.notes.append(f"Both flags are down; the clock shows {first.capitalize()}'s fell first.")
        ctx.claimant = second
        ruling = _one_flag(ctx, first)
        return _with_ref(ruling, ref)
    periods = {side: _period(ctx, side) for side in (first, second)}
    ctx.evidence["periods"] = {side: p.to_json() for side, p in periods.items()}
    finals = [p.is_final for p in periods.values()]
    final = case.facts.final_period
    if final is not None:
        finals = [final] * 2
    reasons = [
        "Both flags are down"
        + ("" if ctx.flags.is_order_known else " and it cannot be established which fell first")
        + "."
    ]
    if rules.both_flags == "draw":
        reasons.append("Under this event's rules both flags down is a draw.")
        return _ruling(ctx, Verdict.UPHELD, "1/2-1/2", [ref], reasons, armageddon=True)
    if rules.claimant_flag_must_be_up:
        reasons.append(f"{ctx.claimant.capitalize()}'s own flag is down, so no win on time can be claimed.")
    if not any(f is False for f in finals) and not all(f is True for f in finals):
        # Neither the control nor the case tells: both clocks at zero almost always means the
        # final (sudden-death) period, since a clock adds each earlier period's time itself.
        reasons.append(
            "The time control does not tell which period this is; it is taken as the last period "
            "(give time_control, or final_period: false, if it is not)."
        )
        finals = [True, True]
    if all(f is True for f in finals):
        if rules.both_flags == "td-may-draw":
            reasons.append("This is the final time control: the TD may declare the game drawn.")
        else:
            reasons.append("This is the last period, so the game is drawn.")
        return _ruling(ctx, Verdict.UPHELD, "1/2-1/2", [ref], reasons, armageddon=True)
    reasons.append("This is not the last period, so play continues.")
    tc = ctx.control
    steps = []
    for side, p in periods.items():
        if tc is not None and p.period is not None and p.is_final is False:
            nxt = tc.period(p.period + 1, side == case.sides[0])
            steps.append(f"{side.capitalize()}: period {p.period + 2}, {nxt.describe()}")
    return _ruling(
        ctx,
        Verdict.REJECTED,
        None,
        [ref],
        reasons,
        instructions=[
            "Set both clocks to the next period and continue" + (f" ({'; '.join(steps)})." if steps else ".")
        ],
    )


def _with_ref(ruling: Ruling, ref: str) -> Ruling:
    return Ruling(
        ruling.claim,
        ruling.verdict,
        ruling.result,
        unique([*ruling.rule_refs, ref]),
        ruling.reasons,
        ruling.adjustments,
        ruling.instructions,
        ruling.evidence,
        ruling.confidence,
    )


def _undecided_instruction(chance: WinChance, name: str, other: str) -> str:
    if chance.test == "uschess-14e":
        return (
            f"The TD decides: if {other} has a forced win, {name} loses on time; otherwise the game is drawn "
            "(the claim is also a draw offer)."
        )
    return f"The arbiter decides whether {other} can checkmate by any series of legal moves."


def _color(ctx: Context, side: str) -> chess.Color:
    return chess.WHITE if side == ctx.case.sides[0] else chess.BLACK


def _ruling(
    ctx: Context,
    verdict: Verdict,
    result: Result | None,
    refs: list[str],
    reasons: list[str],
    *,
    adjustments: list[Adjustment] | None = None,
    instructions: list[str] | None = None,
    confidence: float = 1.0,
    armageddon: bool = False,
) -> Ruling:
    reasons = [*ctx.notes, *reasons]
    evidence = dict(ctx.evidence)
    if ctx.position is not None and ctx.position.reinstated is not None:
        instructions = [*ctx.position.instructions(), *(instructions or ())]
        refs = [*refs, ctx.position.article(ctx.ruleset)]
        evidence["reinstated_before_ply"] = ctx.position.reinstated.number
    if armageddon and ctx.is_armageddon and result == "1/2-1/2":
        winner = ctx.rules.armageddon_draw_winner
        evidence["game_result"] = result
        evidence["armageddon"] = True
        result = win_for(winner, ctx.case.sides[0])
        reasons.append(f"Armageddon: a draw counts as a win for {winner.capitalize()}.")
    return Ruling(
        claim="flag",
        verdict=verdict,
        result=result,
        rule_refs=unique(refs),
        reasons=tuple(reasons),
        adjustments=tuple(adjustments or ()),
        instructions=tuple(instructions or ()),
        evidence=evidence,
        confidence=confidence,
    )
