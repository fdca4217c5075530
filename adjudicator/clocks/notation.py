"""Reading time controls: the PGN ``TimeControl`` tag and US Chess notation.

PGN (seconds; fields joined by ``:``; the PGN standard, 9.6.1, with two extensions):

- ``40/5400+30:1800+30``: 40 moves in 90 min, then 30 min for the rest, 30 s increment;
- ``1800``, ``300+3`` (increment), ``1800+5d`` (simple/US delay), ``1800+5b`` (Bronstein);
- ``?`` unknown, ``-`` no time control, ``*180`` hourglass.

US notation (minutes unless a unit is written; periods joined by commas):

- ``G/30;d5`` (game in 30 min, 5 s delay), ``G/60;inc30``, ``G/60+30`` (increment),
  ``G/10+2 delay``, ``G/10;b2`` (Bronstein), ``40/120, SD/30;inc30``;
- ``40/2, SD/1``: the traditional hour form (a moves period of at most 6 with no unit is in hours);
- a bonus written only on the last period applies to every period (US Chess sets the
  delay or increment for the whole game); ``from move N`` delays the bonus.

Either notation may give each side its own control, joined by ``v``:
``G/5 v G/4`` (Armageddon), ``300 v 240``.

Note: ``90+30`` is PGN, so it means 90 *seconds* plus 30 s; write ``G/90;inc30`` or
``5400+30`` for the FIDE control.
"""

from __future__ import annotations

import re

from adjudicator.clocks.timecontrol import Period, TimeControl, TimingMode
from adjudicator.contract import ContractError

MAX_PERIODS = 20
MAX_SECONDS = 100 * 3600

_NUM = r"\d+(?:\.\d+)?"
_PGN_FIELD = re.compile(rf"^(?:(?P<moves>\d+)/)?(?P<secs>{_NUM})(?:\+(?P<bonus>{_NUM})(?P<kind>[db])?)?$")
_SIDES = re.compile(r"\s+(?:v|vs\.?|versus)\s+", re.IGNORECASE)
_FROM_MOVE = re.compile(r"\s*(?:,|;)?\s*(?:from|starting (?:at|from)) move\s*(\d+)\s*$", re.IGNORECASE)
_UNIT = r"(?P<unit>h|hr|hrs|hours?|m|min|mins|minutes?|'|s|sec|secs|seconds?)?"
_US_SD = re.compile(rf"^(?:g|game|sd)\s*(?:/|in)?\s*(?P<n>{_NUM})\s*{_UNIT}(?![a-z])")
_US_MOVES = re.compile(rf"^(?P<moves>\d+)\s*/\s*(?P<n>{_NUM})\s*{_UNIT}(?![a-z])")
_SECONDS_UNIT = r"\s*(?:s|sec|secs|seconds?)?"
_MODIFIERS: tuple[tuple[re.Pattern[str], TimingMode | None], ...] = (
    (re.compile(rf"^(?:d|delay)\s*(?P<n>{_NUM}){_SECONDS_UNIT}(?![a-z])"), TimingMode.DELAY),
    (re.compile(rf"^(?:inc|increment)\s*(?P<n>{_NUM}){_SECONDS_UNIT}(?![a-z])"), TimingMode.INCREMENT),
    (re.compile(rf"^(?:b|bronstein)\s*(?P<n>{_NUM}){_SECONDS_UNIT}(?![a-z])"), TimingMode.BRONSTEIN),
    (
        re.compile(rf"^\+\s*(?P<n>{_NUM}){_SECONDS_UNIT}\s*(?P<kind>d|delay|b|bronstein|inc|increment)?(?![a-z])"),
        None,
    ),
    (re.compile(rf"^(?P<n>{_NUM}){_SECONDS_UNIT}\s*(?P<kind>delay|bronstein|inc|increment)(?![a-z])"), None),
)
_KINDS = {
    "d": TimingMode.DELAY,
    "delay": TimingMode.DELAY,
    "b": TimingMode.BRONSTEIN,
    "bronstein": TimingMode.BRONSTEIN,
    "inc": TimingMode.INCREMENT,
    "increment": TimingMode.INCREMENT,
}

EXAMPLES = "PGN TimeControl (40/5400+30:1800+30, 1800+5d) or US notation (G/30;d5, 40/120, SD/30;inc30)"


class TimeControlError(ContractError):
    """A time control that cannot be read; names the field (``time_control``)."""

    def __init__(self, message: str, field: str = "time_control") -> None:
        super().__init__("invalid_time_control", f"{field}: {message}", field)


def parse_time_control(text: str, field: str = "time_control") -> TimeControl:
    """Read a time control in PGN or US notation.

    :raises TimeControlError: the text is neither, or asks for something impossible
        (a sudden-death period before another period, a zero-length game, ...).
    """
    if not isinstance(text, str) or not text.strip():
        raise TimeControlError(f"give a time control, e.g. {EXAMPLES}", field)
    source = text.strip()
    parts = _SIDES.split(source)
    if len(parts) > 2:
        raise TimeControlError(f"{source!r} gives more than two sides' controls", field)
    if len(parts) == 2:
        first = _parse_one(parts[0], field)
        second = _parse_one(parts[1], field)
        if first.is_untimed or first.is_unknown or second.is_untimed or second.is_unknown:
            raise TimeControlError("per-side controls must both be timed", field)
        if first.is_hourglass or second.is_hourglass:
            raise TimeControlError("an hourglass cannot be given per side", field)
        if first.bonus_from_move != second.bonus_from_move:
            raise TimeControlError("both sides' bonuses must start from the same move", field)
        return TimeControl(
            text=source,
            first=first.first,
            second=second.first,
            bonus_from_move=first.bonus_from_move,
            notation=first.notation if first.notation == second.notation else "us",
        )
    return _parse_one(source, field)


def _parse_one(text: str, field: str) -> TimeControl:
    text = text.strip()
    if text == "?":
        return TimeControl(text=text, first=(), is_unknown=True)
    if text == "-":
        return TimeControl(text=text, first=(), is_untimed=True)
    if re.fullmatch(r"\*\d+", text):
        seconds = _seconds(float(text[1:]), text, field)
        return TimeControl(text=text, first=(Period(seconds),), is_hourglass=True)
    fields = text.split(":")
    if all(_PGN_FIELD.match(f) for f in fields):
        return _check(TimeControl(text=text, first=tuple(_pgn_period(f, text, field) for f in fields)), field)
    return _parse_us(text, field)


def _pgn_period(item: str, text: str, field: str) -> Period:
    m = _PGN_FIELD.match(item)
    assert m is not None
    moves = None if m["moves"] is None else int(m["moves"])
    bonus = float(m["bonus"] or 0)
    mode = TimingMode.NONE
    if m["bonus"] is not None:
        mode = {"d": TimingMode.DELAY, "b": TimingMode.BRONSTEIN}.get(m["kind"] or "", TimingMode.INCREMENT)
    return Period(seconds=_seconds(float(m["secs"]), text, field), moves=moves, bonus=bonus, mode=mode)


def _parse_us(text: str, field: str) -> TimeControl:
    lowered = text.lower()
    bonus_from_move = 1
    found = _FROM_MOVE.search(lowered)
    if found:
        bonus_from_move = int(found.group(1))
        if bonus_from_move < 1:
            raise TimeControlError("'from move' must name move 1 or later", field)
        lowered = lowered[: found.start()]
    segments = [s.strip() for s in lowered.split(",")]
    if not segments or any(not s for s in segments):
        raise TimeControlError(f"{text!r} is not a time control; expected {EXAMPLES}", field)
    heads: list[tuple[int | None, float, str | None]] = []
    bonuses: list[tuple[float, TimingMode] | None] = []
    for segment in segments:
        m = _US_SD.match(segment)
        moves: int | None = None
        if m is None:
            m = _US_MOVES.match(segment)
            if m is None:
                raise TimeControlError(f"{text!r} is not a time control; expected {EXAMPLES}", field)
            moves = int(m["moves"])
        heads.append((moves, float(m["n"]), m["unit"]))
        bonuses.append(_modifiers(segment[m.end() :], text, field))
    hour_form = any(moves is not None and unit is None and n <= 6 for moves, n, unit in heads)
    periods: list[Period] = []
    for moves, n, unit in heads:
        seconds = _seconds(n * _unit_seconds(unit, n, hour_form), text, field)
        periods.append(Period(seconds=seconds, moves=moves))
    given = [b for b in bonuses if b is not None]
    if len(given) == 1 and bonuses[-1] is not None and len(periods) > 1:
        bonuses = [bonuses[-1]] * len(periods)  # US Chess: the delay/increment is set for the whole game
    periods = [
        p if b is None else Period(seconds=p.seconds, moves=p.moves, bonus=b[0], mode=b[1])
        for p, b in zip(periods, bonuses, strict=True)
    ]
    return _check(TimeControl(text=text, first=tuple(periods), bonus_from_move=bonus_from_move, notation="us"), field)


def _modifiers(rest: str, text: str, field: str) -> tuple[float, TimingMode] | None:
    found: tuple[float, TimingMode] | None = None
    rest = rest.strip()
    while rest:
        if rest[0] in "; ":
            rest = rest[1:].strip()
            continue
        for pattern, mode in _MODIFIERS:
            m = pattern.match(rest)
            if m is None:
                continue
            kind = mode or _KINDS.get(m.groupdict().get("kind") or "inc", TimingMode.INCREMENT)
            if found is not None:
                raise TimeControlError(f"{text!r} gives two bonuses for one period", field)
            found = (float(m["n"]), kind)
            rest = rest[m.end() :].strip()
            break
        else:
            raise TimeControlError(f"cannot read {rest!r} in {text!r}; expected {EXAMPLES}", field)
    if found is not None and found[0] > 600:
        raise TimeControlError(f"a bonus of {found[0]:g} s per move is not plausible", field)
    return found


def _unit_seconds(unit: str | None, n: float, hour_form: bool) -> float:
    if unit is None:
        return 3600.0 if hour_form and n <= 6 else 60.0
    if unit.startswith("h"):
        return 3600.0
    if unit.startswith("s"):
        return 1.0
    return 60.0


def _seconds(value: float, text: str, field: str) -> float:
    if value > MAX_SECONDS:
        raise TimeControlError(f"{text!r} gives more than 100 hours", field)
    return value


def _check(control: TimeControl, field: str) -> TimeControl:
    periods = control.first
    if len(periods) > MAX_PERIODS:
        raise TimeControlError(f"{control.text!r} has more than {MAX_PERIODS} periods", field)
    for index, period in enumerate(periods):
        if period.moves is not None and period.moves < 1:
            raise TimeControlError(f"{control.text!r}: a period must ask for at least one move", field)
        if period.moves is None and index != len(periods) - 1:
            raise TimeControlError(f"{control.text!r}: a sudden-death period must be the last one", field)
        if period.seconds <= 0 and not (index > 0 or period.bonus > 0):
            raise TimeControlError(f"{control.text!r} gives no time at all", field)
    return control
