"""The increment an illegal move gained (Arbiters' Manual on FIDE 7.5): one control, one adjustment, however written.

The arbiter removes the increment the offender's clock added on the illegal move (case P17). The
control is read by the reader every claim uses (:func:`adjudicator.clocks.parse_time_control`), so the
PGN ``TimeControl`` spelling and the US Chess spellings of one control give the same increment on
every move, for either side (house rule 3: one position, one verdict, whichever way it was entered),
and a delay (US 5E, Bronstein) is never taken for an increment.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.chess.claims.illegal_move import increment_seconds
from adjudicator.clocks import parse_time_control
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling


@dataclass(frozen=True)
class Control:
    """One time control, every way a TD may write it, and the increment on each side's ``move``-th move."""

    spellings: tuple[str, ...]
    first: tuple[float, ...]
    """First mover's increment on moves 1, 2, ... (the last repeats)."""
    second: tuple[float, ...]

    def increment(self, move: int, first_mover: bool) -> float:
        table = self.first if first_mover else self.second
        return table[min(move, len(table)) - 1]


@st.composite
def sudden_death(draw: st.DrawFn) -> Control:
    minutes = draw(st.integers(1, 180))
    bonus = draw(st.integers(0, 60))
    kind = draw(st.sampled_from(["increment", "delay", "bronstein", "none"]))
    secs = minutes * 60
    spellings: tuple[str, ...]
    if kind == "increment":
        spellings = (f"{secs}+{bonus}", f"G/{minutes}+{bonus}", f"G/{minutes};inc{bonus}", f"G/{minutes} inc {bonus}",
                     f"Game/{minutes};inc{bonus}", f"SD/{minutes};inc{bonus}", f"G/{minutes}min +{bonus}s",
                     f"G/{minutes};inc{bonus} from move 1")
        inc = float(bonus)
    elif kind == "delay":
        spellings = (f"{secs}+{bonus}d", f"G/{minutes};d{bonus}", f"G/{minutes}+{bonus} delay",
                     f"G/{minutes};delay {bonus}")
        inc = 0.0
    elif kind == "bronstein":
        spellings = (f"{secs}+{bonus}b", f"G/{minutes};b{bonus}", f"G/{minutes} bronstein {bonus}")
        inc = 0.0
    else:
        spellings = (f"{secs}", f"G/{minutes}", f"SD/{minutes}", f"Game/{minutes} min")
        inc = 0.0
    return Control(spellings, (inc,), (inc,))


@st.composite
def two_periods(draw: st.DrawFn) -> Control:
    moves = draw(st.integers(20, 60))
    first = draw(st.integers(7, 180))  # minutes: a US moves period of at most 6 with no unit is in hours
    rest = draw(st.integers(1, 60))
    bonus = draw(st.integers(1, 60))
    spellings: tuple[str, ...]
    table: tuple[float, ...]
    if draw(st.booleans()):  # the same increment in both periods
        spellings = (f"{moves}/{first * 60}+{bonus}:{rest * 60}+{bonus}", f"{moves}/{first}, SD/{rest};inc{bonus}",
                     f"{moves}/{first};inc{bonus}, SD/{rest};inc{bonus}", f"{moves}/{first}+{bonus}, G/{rest}+{bonus}")
        table = (float(bonus),)
    else:  # the increment from the second period on (US notation must say the first has none)
        spellings = (f"{moves}/{first * 60}:{rest * 60}+{bonus}", f"{moves}/{first};inc0, SD/{rest};inc{bonus}")
        table = (0.0,) * moves + (float(bonus),)
    return Control(spellings, table, table)


@st.composite
def per_side(draw: st.DrawFn) -> Control:
    white, black = draw(st.integers(1, 30)), draw(st.integers(1, 30))
    inc_white, inc_black = draw(st.integers(0, 10)), draw(st.integers(0, 10))
    spellings = (f"{white * 60}+{inc_white} v {black * 60}+{inc_black}",
                 f"G/{white};inc{inc_white} v G/{black};inc{inc_black}",
                 f"G/{white}+{inc_white} vs G/{black}+{inc_black}")
    return Control(spellings, (float(inc_white),), (float(inc_black),))


CONTROLS = st.one_of(sudden_death(), two_periods(), per_side())


@settings(max_examples=200)
@given(control=CONTROLS, move=st.integers(1, 120), first_mover=st.booleans())
def test_every_spelling_of_a_control_gives_the_same_increment_on_every_move(
    control: Control, move: int, first_mover: bool
) -> None:
    expected = control.increment(move, first_mover)
    for text in control.spellings:
        assert increment_seconds(parse_time_control(text), move, first_mover) == expected, text


@given(minutes=st.integers(1, 180), bonus=st.integers(1, 60), start=st.integers(2, 60), move=st.integers(1, 120))
def test_no_increment_before_the_move_it_starts_from(minutes: int, bonus: int, start: int, move: int) -> None:
    control = parse_time_control(f"G/{minutes};inc{bonus} from move {start}")
    assert increment_seconds(control, move) == (bonus if move >= start else 0)


BOARD = "8/8/3k4/8/8/8/3KQ3/8"
"""K+Q against K: the offender's king moves two squares (illegal), nobody's game is over."""


def _ruling(book: RulesetBook, ruleset: str, control: str, move: int, white: bool) -> Ruling:
    side, record = ("w", f"{move}. Kd2-d4") if white else ("b", f"{move}... Kd6-d4")
    case = parse_case({"claim": "illegal-move", "ruleset": ruleset, "start_fen": f"{BOARD} {side} - - 0 {move}",
                       "record": record, "clock": {"white": 600, "black": 600}, "time_control": control})
    return rule(case, book)


@settings(max_examples=25, deadline=None)
@given(control=CONTROLS, move=st.integers(1, 90), white=st.booleans(),
       ruleset=st.sampled_from(["fide-standard", "fide-rapid", "fide-blitz"]))
def test_one_control_however_written_gets_one_ruling(
    book: RulesetBook, control: Control, move: int, white: bool, ruleset: str
) -> None:
    rulings = {text: _ruling(book, ruleset, text, move, white) for text in control.spellings}
    said = {(r.verdict, r.adjustments, r.instructions, r.reasons) for r in rulings.values()}
    assert len(said) == 1, said
    offender = "white" if white else "black"
    removed = [a.seconds for a in next(iter(rulings.values())).adjustments if a.side == offender]
    expected = control.increment(move, white)
    assert removed == ([-expected] if expected else [])
