"""The facts of a flag fall: whose flags are down, in which period, and were its moves completed?

FIDE 6.4 / 6.9 and US Chess 13C1: a player loses on time only if he "has not
completed the prescribed number of moves in the allotted time". So besides *whose*
flag is down, the arbiter checks *which period's* time ran out and whether the
player had already made that period's moves (then the flag changes nothing: the
next period begins).

Where the facts come from, most reliable first:

- ``flag_period`` (case field, 1-based): the period whose time ran out, as the clock
  shows it (a period indicator, the hour mark of a mechanical clock);
- the record's clock comments: the clock rebuilt from ``[%clk]``/``[%emt]``
  (:mod:`adjudicator.clocks.history`) shows time the clock failed to add, or the move
  on which the control's time ran out;
- otherwise the flag is taken to end the period the player was playing in (an
  electronic clock adds each period's time when its moves are made).

The flagged player's move count comes from the record, else ``moves_completed``,
else the position's move number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.clocks.history import TOLERANCE, MoveTime, Reading, SideClock, rebuild
from adjudicator.clocks.notation import TimeControlError, parse_time_control
from adjudicator.clocks.timecontrol import TimeControl
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import Ruleset


@dataclass(frozen=True)
class FlagState:
    """Whose flags are down."""

    flagged: tuple[str, ...]
    """First to fall first (when known)."""
    is_order_known: bool
    """Whether the order of two fallen flags is established (``flag_order_known``)."""
    source: str
    """``clock.flagged``, or ``clock`` when read from clocks showing 0:00."""

    @property
    def has_both_flags_down(self) -> bool:
        return len(self.flagged) == 2


@dataclass(frozen=True)
class PeriodCheck:
    """Was the flagged player's period completed before the flag fell? (FIDE 6.4, US 13C1)"""

    side: str
    moves_made: int | None
    moves_source: str
    """``record``, ``moves_completed``, ``fen`` or ``unknown``."""
    period: int | None
    """The period (0-based) whose time ran out; ``None`` when it cannot be told."""
    period_source: str
    """``flag_period``, ``record clocks``, ``moves``, ``single period`` or ``unknown``."""
    required: int | None
    """Moves required by the end of that period (``None``: all of them, sudden death)."""
    is_final: bool | None
    """Whether that period is the last (all remaining moves); ``None``: not known."""
    has_completed_period: bool
    """The flag fell after the period's move count was reached: no loss on time."""
    missing_seconds: float = 0.0
    """Time the control gives that the clock did not add."""
    overrun: MoveTime | None = None
    history: SideClock | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "side": self.side,
            "moves_made": self.moves_made,
            "moves_source": self.moves_source,
            "period": None if self.period is None else self.period + 1,
            "period_source": self.period_source,
            "required_moves": self.required,
            "is_final_period": self.is_final,
            "has_completed_period": self.has_completed_period,
            "missing_seconds": self.missing_seconds,
            "clock_history": None if self.history is None else self.history.to_json(),
        }


def flag_state(case: Case) -> FlagState:
    """The flags that are down, from ``clock.flagged`` (or clocks showing 0:00)."""
    if case.clock is None:
        raise ContractError("missing_field", "a flag claim needs the clock, with clock.flagged", "clock")
    flagged = case.clock.flagged
    source = "clock.flagged"
    if not flagged:
        flagged = tuple(side for side in case.sides if case.clock.seconds(side) == 0)
        source = "clock"
    known = case.facts.flag_order_known if len(flagged) == 2 else True
    return FlagState(tuple(flagged), known, source)


def time_control_for(case: Case, ruleset: Ruleset, record_tag: str | None = None) -> TimeControl | None:
    """The case's ``time_control``, else the record's ``TimeControl`` tag, else the ruleset's default."""
    return time_control_and_source(case.time_control, ruleset, record_tag)[0]


def time_control_and_source(
    given: str | None, ruleset: Ruleset, record_tag: str | None = None
) -> tuple[TimeControl | None, str]:
    """:func:`time_control_for` from the case's ``given`` control, with where it came from: ``the case``,
    ``the record's TimeControl tag``, ``the ruleset's default time control`` (or ``none``)."""
    if given is not None:
        return parse_time_control(given, "time_control"), "the case"
    if record_tag is not None and record_tag.strip() not in ("", "?", "-"):
        try:
            return parse_time_control(record_tag, "record"), "the record's TimeControl tag"
        except TimeControlError:
            pass  # a record is read leniently: an unreadable tag is as good as none
    default = ruleset.time_control.default
    if default is not None:
        return parse_time_control(default, ruleset.key("time_control.default")), "the ruleset's default time control"
    return None, "none"


def moves_completed(case: Case, side: str) -> int | None:
    """The optional ``moves_completed`` field: a number (the flagged side's) or ``{side: number}``."""
    value = case.extra.get("moves_completed")
    if value is None:
        return None
    if isinstance(value, Mapping):
        item = value.get(side, value.get("black") if case.game == "checkers" and side == "red" else None)
        if item is None:
            return None
        value = item
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ContractError(
            "invalid_field", "moves_completed must be a whole number or {side: number}", "moves_completed"
        )
    return value


def check_period(
    case: Case,
    control: TimeControl | None,
    side: str,
    *,
    readings: list[Reading] | None = None,
    record_moves: int | None = None,
    position_moves: int | None = None,
) -> PeriodCheck:
    """Which period's time ran out for ``side``, and whether its moves were completed.

    ``readings``/``record_moves`` come from a replayed record; ``position_moves`` from
    the position's move number (least reliable).
    """
    first = side == case.sides[0]
    given = moves_completed(case, side)
    moves, moves_source = (
        (record_moves, "record")
        if record_moves is not None
        else (given, "moves_completed")
        if given is not None
        else (position_moves, "fen")
        if position_moves is not None
        else (None, "unknown")
    )
    flag_period = case.facts.flag_period
    if control is None or control.is_untimed or control.is_unknown or not control.first:
        return PeriodCheck(side, moves, moves_source, None, "unknown", None, None, False)
    if flag_period is not None:
        index = flag_period - 1
        required = control.required_moves(index, first)
        done = required is not None and moves is not None and moves >= required
        return PeriodCheck(
            side, moves, moves_source, index, "flag_period", required, control.is_final_period(index, first), done
        )
    history: SideClock | None = None
    if readings:
        history = rebuild(readings, control, case.sides).side(side)
    if history is not None and history.has_readings:
        if history.overrun is not None:
            index = history.overrun.period
            return _at(side, moves, moves_source, control, first, index, "record clocks", history=history)
        if history.missing > TOLERANCE:
            done_index = control.period_index_for_move(max(history.moves_made, 1), first)
            return _at(
                side,
                moves,
                moves_source,
                control,
                first,
                done_index,
                "record clocks",
                completed=True,
                missing=history.missing,
                history=history,
            )
    if moves is not None:
        index = control.period_index_for_move(moves + 1, first)
        return _at(side, moves, moves_source, control, first, index, "moves", history=history)
    if len(control.periods(first)) == 1 and control.periods(first)[0].is_sudden_death:
        return _at(side, moves, moves_source, control, first, 0, "single period", history=history)
    return PeriodCheck(side, None, moves_source, None, "unknown", None, None, False, history=history)


def _at(
    side: str,
    moves: int | None,
    moves_source: str,
    control: TimeControl,
    first: bool,
    index: int,
    source: str,
    *,
    completed: bool = False,
    missing: float = 0.0,
    history: SideClock | None = None,
) -> PeriodCheck:
    required = control.required_moves(index, first)
    return PeriodCheck(
        side,
        moves,
        moves_source,
        index,
        source,
        required,
        control.is_final_period(index, first),
        completed,
        missing,
        None if history is None else history.overrun,
        history,
    )
