"""Time controls as values: periods, increments and delays, per side.

A time control is a sequence of **periods**. Each period gives a number of
seconds (added to the clock when the period begins, i.e. "time added after N
moves") and asks for a number of moves (``None``: the rest of the game, sudden
death). Each period may give a per-move bonus:

- **increment** (Fischer): added after every move (FIDE 6.3.2 "increment");
- **delay** (US Chess 5E, "simple" or US delay): the clock waits that long before
  it starts counting down, so a move takes ``max(0, spent - delay)`` off the clock;
- **bronstein** delay: the time spent is given back after the move, up to the delay
  (the same time is taken off the clock as with a simple delay).

The bonus applies from move 1 unless the control says ``from move N``. A
control may give each side its own periods (Armageddon: "G/5 v G/4").

A final period that asks for a number of moves repeats (the classical "then 20
moves per hour"); a control whose last period is sudden death has a **final
period**, the one in which "all remaining moves must be completed"
(FIDE Guidelines III.3.1).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class TimingMode(enum.StrEnum):
    """What the clock gives per move in a period."""

    NONE = "none"
    INCREMENT = "increment"
    """Fischer increment: added after each move."""
    DELAY = "delay"
    """US (simple) delay: the clock starts counting down after the delay."""
    BRONSTEIN = "bronstein"
    """Bronstein delay: time spent is given back after the move, up to the delay."""


@dataclass(frozen=True)
class Period:
    """One period of a time control."""

    seconds: float
    """Time given when the period begins."""
    moves: int | None = None
    """Moves to complete in the period; ``None``: all remaining moves (sudden death)."""
    bonus: float = 0.0
    """Increment or delay per move, in seconds."""
    mode: TimingMode = TimingMode.NONE

    @property
    def is_sudden_death(self) -> bool:
        return self.moves is None

    @property
    def increment(self) -> float:
        return self.bonus if self.mode is TimingMode.INCREMENT else 0.0

    @property
    def delay(self) -> float:
        return self.bonus if self.mode in (TimingMode.DELAY, TimingMode.BRONSTEIN) else 0.0

    def charged(self, spent: float, *, bonus_applies: bool = True) -> float:
        """Seconds a move taking ``spent`` seconds takes off the clock (before any increment)."""
        if bonus_applies and self.mode in (TimingMode.DELAY, TimingMode.BRONSTEIN):
            return max(0.0, spent - self.bonus)
        return spent

    def describe(self) -> str:
        length = hms(self.seconds)
        text = f"{length} for the rest of the game" if self.moves is None else f"{self.moves} moves in {length}"
        if self.mode is TimingMode.INCREMENT:
            text += f", {secs(self.bonus)} increment"
        elif self.mode is TimingMode.DELAY:
            text += f", {secs(self.bonus)} delay"
        elif self.mode is TimingMode.BRONSTEIN:
            text += f", {secs(self.bonus)} Bronstein delay"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "moves": self.moves, "bonus": self.bonus, "mode": self.mode.value}


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control: the periods of each side (first mover first)."""

    text: str
    """The control as written."""
    first: tuple[Period, ...]
    """The first mover's periods (White in chess, Red in checkers)."""
    second: tuple[Period, ...] | None = None
    """The second mover's periods when they differ (Armageddon); ``None``: the same."""
    bonus_from_move: int = 1
    """Increments and delays apply from this move on ("increment from move 1")."""
    notation: str = "pgn"
    """``pgn`` (PGN TimeControl tag) or ``us`` (US Chess notation)."""
    is_untimed: bool = False
    """PGN ``-``: no time control."""
    is_unknown: bool = False
    """PGN ``?``: the control is not known."""
    is_hourglass: bool = False
    """PGN ``*N`` sandclock: time used by one player is added to the other's."""

    def periods(self, first_mover: bool = True) -> tuple[Period, ...]:
        """The periods of the first mover (``True``) or of the second."""
        return self.first if first_mover or self.second is None else self.second

    @property
    def has_per_side_bases(self) -> bool:
        return self.second is not None and self.second != self.first

    def period(self, index: int, first_mover: bool = True) -> Period:
        """Period ``index`` (0-based); a final period with a move count repeats."""
        periods = self.periods(first_mover)
        return periods[min(index, len(periods) - 1)]

    def base_seconds(self, first_mover: bool = True) -> float:
        periods = self.periods(first_mover)
        return periods[0].seconds if periods else 0.0

    def required_moves(self, index: int, first_mover: bool = True) -> int | None:
        """Moves a player must have completed by the end of period ``index`` (``None``: sudden death)."""
        total = 0
        for i in range(index + 1):
            moves = self.period(i, first_mover).moves
            if moves is None:
                return None
            total += moves
        return total

    def period_index_for_move(self, move: int, first_mover: bool = True) -> int:
        """The period (0-based) in which a side plays its ``move``-th move (1 = its first move)."""
        index = 0
        while True:
            required = self.required_moves(index, first_mover)
            if required is None or move <= required:
                return index
            index += 1

    def completes_period(self, move: int, first_mover: bool = True) -> int | None:
        """The period (0-based) that a side's ``move``-th move completes, if any."""
        index = self.period_index_for_move(move, first_mover)
        return index if self.required_moves(index, first_mover) == move else None

    def is_final_period(self, index: int, first_mover: bool = True) -> bool:
        """Whether period ``index`` is the one in which all remaining moves must be made."""
        return self.period(index, first_mover).is_sudden_death and not (self.is_untimed or self.is_unknown)

    @property
    def is_sudden_death(self) -> bool:
        """Whether the last period is sudden death (a final period exists)."""
        return (
            bool(self.first)
            and self.first[-1].is_sudden_death
            and (self.second is None or self.second[-1].is_sudden_death)
        )

    @property
    def has_increment(self) -> bool:
        return any(p.mode is TimingMode.INCREMENT and p.bonus > 0 for p in self._all())

    @property
    def has_delay(self) -> bool:
        return any(p.mode in (TimingMode.DELAY, TimingMode.BRONSTEIN) and p.bonus > 0 for p in self._all())

    def bonus_seconds(self, index: int, first_mover: bool = True) -> float:
        return self.period(index, first_mover).bonus

    def _all(self) -> tuple[Period, ...]:
        return self.first + (self.second or ())

    def describe(self) -> str:
        """The control in words, for reasons and instructions."""
        if self.is_untimed:
            return "no time control"
        if self.is_unknown:
            return "an unknown time control"
        if self.is_hourglass:
            return f"hourglass of {hms(self.first[0].seconds)}"

        def side(periods: tuple[Period, ...]) -> str:
            text = "; then ".join(p.describe() for p in periods)
            if periods and periods[-1].moves is not None:
                text += " (the last period repeats)"
            return text

        text = side(self.first)
        if self.has_per_side_bases and self.second is not None:
            text = f"first mover: {text}; second mover: {side(self.second)}"
        if self.bonus_from_move > 1 and (self.has_increment or self.has_delay):
            text += f"; the bonus applies from move {self.bonus_from_move}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "notation": self.notation,
            "periods": [p.to_json() for p in self.first],
            "second_mover_periods": None if self.second is None else [p.to_json() for p in self.second],
            "bonus_from_move": self.bonus_from_move,
            "description": self.describe(),
        }


def hms(seconds: float) -> str:
    """``h:mm:ss`` as arbiters write clock times."""
    whole = int(round(seconds))
    sign = "-" if whole < 0 else ""
    whole = abs(whole)
    return f"{sign}{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def secs(seconds: float) -> str:
    return f"{int(seconds)} s" if float(seconds).is_integer() else f"{seconds:g} s"
