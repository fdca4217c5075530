"""Each side's clock rebuilt from the record (``[%clk]``/``[%emt]``) and checked against the control.

For every move of a side the history gives the time spent, the time the move took
off the clock (less any delay), the bonus and the period time the control gives
after it, and the time the control leaves the player. Where the clock readings
disagree with the control it lists an irregularity an arbiter would act on:

- ``period-time-missing``: the next period's time was not added after the
  period's last move (FIDE 6.4 / US 13C: the move count was reached, so a later
  flag does not lose);
- ``increment-missing``: the increment was not given (needs ``[%emt]`` to prove);
- ``excess-time``: the clock rose by more than the control gives;
- ``clock-mismatch``: the readings do not follow from the control at all.

It also says on which move, if any, the control's time ran out (``overrun``): the
flag would have fallen then, whether or not anyone saw it (FIDE 6.8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from adjudicator.chess.replay import Replay
from adjudicator.clocks.timecontrol import TimeControl, TimingMode, hms, secs

TOLERANCE = 1.0
"""Seconds of slack: ``[%clk]`` readings are whole seconds."""


@dataclass(frozen=True)
class Reading:
    """What the record says about one move's clock."""

    ply: int
    side: str
    clock: float | None = None
    """Time left on the mover's clock after the move (``[%clk]``)."""
    emt: float | None = None
    """Time the mover spent on the move (``[%emt]``)."""


@dataclass(frozen=True)
class MoveTime:
    """One move of one side, as the clock and the control account for it."""

    side: str
    move: int
    """The side's own move number (1 = its first move)."""
    ply: int
    period: int
    """The period (0-based) the move was played in."""
    clock: float | None
    spent: float | None
    """Seconds spent on the move (``None`` when a delay hides it and there is no ``[%emt]``)."""
    charged: float | None
    """Seconds the move took off the clock (the time spent less any delay)."""
    bonus: float
    """Increment the control gives after the move."""
    added: float
    """Next period's time the control gives after the move (0 unless it completes a period)."""
    remaining: float | None
    """Time the control leaves the player after the move."""


@dataclass(frozen=True)
class ClockIrregularity:
    """Where the clock readings depart from the control."""

    side: str
    move: int
    ply: int
    kind: str
    seconds: float
    message: str

    def to_json(self) -> dict[str, object]:
        return {
            "side": self.side,
            "move": self.move,
            "ply": self.ply,
            "kind": self.kind,
            "seconds": self.seconds,
            "message": self.message,
        }


@dataclass(frozen=True)
class SideClock:
    """One side's clock over the record."""

    side: str
    first_mover: bool
    base: float
    moves: tuple[MoveTime, ...]
    irregularities: tuple[ClockIrregularity, ...]
    overrun: MoveTime | None
    """The first move during which the control's time ran out (the flag would have fallen)."""
    missing: float
    """Time the control gives that the clock did not (period time or increments not added)."""

    @property
    def moves_made(self) -> int:
        return len(self.moves)

    @property
    def has_readings(self) -> bool:
        return any(m.clock is not None or m.spent is not None for m in self.moves)

    @property
    def remaining(self) -> float | None:
        """Time the control leaves the player after the last move."""
        return self.moves[-1].remaining if self.moves else self.base

    @property
    def device_remaining(self) -> float | None:
        """The last ``[%clk]`` reading (``None`` when the last move has none)."""
        return self.moves[-1].clock if self.moves else None

    def to_json(self) -> dict[str, object]:
        return {
            "side": self.side,
            "moves": self.moves_made,
            "remaining": self.remaining,
            "clock": self.device_remaining,
            "missing_seconds": self.missing,
            "overrun": None
            if self.overrun is None
            else {
                "move": self.overrun.move,
                "ply": self.overrun.ply,
                "period": self.overrun.period + 1,
            },
            "irregularities": [i.to_json() for i in self.irregularities],
        }


@dataclass(frozen=True)
class ClockHistory:
    """Both sides' clocks over a record."""

    control: TimeControl
    sides: tuple[SideClock, SideClock]

    def side(self, name: str) -> SideClock:
        for side in self.sides:
            if side.side == name:
                return side
        raise KeyError(name)

    @property
    def irregularities(self) -> tuple[ClockIrregularity, ...]:
        return tuple(sorted((i for s in self.sides for i in s.irregularities), key=lambda i: i.ply))

    def to_json(self) -> dict[str, object]:
        return {"time_control": self.control.text, "sides": [s.to_json() for s in self.sides]}


def readings_from_replay(replay: Replay, sides: tuple[str, str] = ("white", "black")) -> list[Reading]:
    """The clock comments of a chess record, move by move."""
    white_first = chess.Board(replay.start_fen).turn == chess.WHITE
    readings = []
    for ply in replay.plies:
        white = (ply.number % 2 == 1) == white_first
        readings.append(Reading(ply.number, sides[0] if white else sides[1], ply.clock, ply.emt))
    return readings


def rebuild(
    readings: Sequence[Reading], control: TimeControl, sides: tuple[str, str], tolerance: float = TOLERANCE
) -> ClockHistory:
    """Both sides' clocks from the record's readings under ``control``."""
    first = _side_clock([r for r in readings if r.side == sides[0]], control, sides[0], True, tolerance)
    second = _side_clock([r for r in readings if r.side == sides[1]], control, sides[1], False, tolerance)
    return ClockHistory(control, (first, second))


def _side_clock(readings: Sequence[Reading], control: TimeControl, side: str, first: bool, tol: float) -> SideClock:
    base = control.base_seconds(first)
    remaining: float | None = base
    device: float | None = base
    missing = 0.0
    moves: list[MoveTime] = []
    issues: list[ClockIrregularity] = []
    overrun: MoveTime | None = None
    name = side.capitalize()
    for number, reading in enumerate(readings, start=1):
        index = control.period_index_for_move(number, first)
        period = control.period(index, first)
        applies = number >= control.bonus_from_move
        inc = period.increment if applies else 0.0
        completes = control.completes_period(number, first) is not None
        added = control.period(index + 1, first).seconds if completes else 0.0
        spent = reading.emt
        charged = None if spent is None else period.charged(spent, bonus_applies=applies)
        clock = reading.clock

        def issue(kind: str, seconds: float, message: str, ply: int = reading.ply, move: int = number) -> None:
            issues.append(ClockIrregularity(side, move, ply, kind, seconds, message))

        if clock is not None and device is not None:
            jump = clock - device
            device_added = added > 0 and jump > inc + tol
            if charged is not None:
                expected = device - charged + inc + added
                if abs(clock - expected) <= tol:
                    device_added = added > 0
                elif added > 0 and abs(clock - (expected - added)) <= tol:
                    device_added = False
                    issue(
                        "period-time-missing",
                        added,
                        f"{name}'s clock did not add the next period's {hms(added)} after move {number}.",
                    )
                elif inc > 0 and abs(clock - (expected - inc)) <= tol:
                    missing += inc
                    issue("increment-missing", inc, f"{name} was not given the {secs(inc)} increment on move {number}.")
                else:
                    issue(
                        "clock-mismatch",
                        clock - expected,
                        f"{name}'s clock after move {number} shows {hms(clock)}; the control gives {hms(expected)}.",
                    )
            else:
                derived = device + inc + (added if device_added else 0.0) - clock
                if derived < -tol:
                    issue(
                        "excess-time",
                        -derived,
                        f"{name}'s clock rose by {secs(round(jump))} on move {number}, more than the control gives.",
                    )
                charged = max(0.0, derived)
                if period.mode in (TimingMode.NONE, TimingMode.INCREMENT) or not applies:
                    spent = charged
                if added > 0 and not device_added:
                    issue(
                        "period-time-missing",
                        added,
                        f"{name}'s clock did not add the next period's {hms(added)} after move {number} "
                        f"(it rose by {secs(max(0, round(jump)))} only).",
                    )
            if added > 0 and not device_added:
                missing += added
        if remaining is not None and charged is not None:
            if overrun is None and charged > remaining + tol:
                overrun = MoveTime(side, number, reading.ply, index, clock, spent, charged, inc, added, None)
            remaining = remaining - charged + inc + added
        else:  # no way to account for this move: resynchronise on the reading, if any
            remaining = None if clock is None else clock + missing
        moves.append(MoveTime(side, number, reading.ply, index, clock, spent, charged, inc, added, remaining))
        device = clock
    return SideClock(side, first, base, tuple(moves), tuple(issues), overrun, missing)
