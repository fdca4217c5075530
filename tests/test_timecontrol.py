"""Time controls: reading PGN TimeControl and US notation, and what each period asks."""

from __future__ import annotations

import pytest

from adjudicator.clocks import TimeControlError, TimingMode, parse_time_control
from adjudicator.contract import ContractError


def test_fide_standard_control_in_pgn() -> None:
    """90 min for 40 moves, then 30 min, 30 s increment from move 1 (cases.md's default)."""
    tc = parse_time_control("40/5400+30:1800+30")
    assert tc.notation == "pgn"
    first, second = tc.periods()
    assert (first.moves, first.seconds, first.bonus, first.mode) == (40, 5400, 30, TimingMode.INCREMENT)
    assert (second.moves, second.seconds, second.increment) == (None, 1800, 30)
    assert tc.period_index_for_move(40) == 0 and tc.period_index_for_move(41) == 1
    assert tc.required_moves(0) == 40 and tc.required_moves(1) is None
    assert tc.completes_period(40) == 0 and tc.completes_period(39) is None
    assert not tc.is_final_period(0) and tc.is_final_period(1)
    assert tc.is_sudden_death and tc.has_increment and not tc.has_delay


@pytest.mark.parametrize(
    ("text", "seconds", "bonus", "mode"),
    [
        ("1800", 1800, 0, TimingMode.NONE),
        ("300+3", 300, 3, TimingMode.INCREMENT),
        ("1800+5d", 1800, 5, TimingMode.DELAY),
        ("1800+5b", 1800, 5, TimingMode.BRONSTEIN),
        ("G/30;d5", 1800, 5, TimingMode.DELAY),
        ("G/90;d5", 5400, 5, TimingMode.DELAY),
        ("G/60;inc30", 3600, 30, TimingMode.INCREMENT),
        ("G/60+30", 3600, 30, TimingMode.INCREMENT),
        ("G/10+2 delay", 600, 2, TimingMode.DELAY),
        ("G/15 + 10 s", 900, 10, TimingMode.INCREMENT),
        ("G/10;b2", 600, 2, TimingMode.BRONSTEIN),
        ("Game/30", 1800, 0, TimingMode.NONE),
        ("G/45;d0", 2700, 0, TimingMode.DELAY),
    ],
)
def test_single_period_controls(text: str, seconds: float, bonus: float, mode: TimingMode) -> None:
    tc = parse_time_control(text)
    (period,) = tc.periods()
    assert (period.seconds, period.bonus, period.mode, period.moves) == (seconds, bonus, mode, None)
    assert tc.is_final_period(0)


def test_us_multi_period_bonus_on_the_last_period_applies_throughout() -> None:
    """US Chess sets the delay or increment for the whole game: "40/120, SD/30;inc30"."""
    tc = parse_time_control("40/120, SD/30;inc30")
    assert tc.notation == "us"
    assert [(p.moves, p.seconds, p.increment) for p in tc.periods()] == [(40, 7200, 30), (None, 1800, 30)]


def test_us_traditional_hour_form() -> None:
    tc = parse_time_control("40/2, SD/1")
    assert [(p.moves, p.seconds) for p in tc.periods()] == [(40, 7200), (None, 3600)]


def test_a_final_period_with_a_move_count_repeats() -> None:
    """40 moves in 2 h, then 20 moves per hour: there is no last period; 20 more moves every hour."""
    tc = parse_time_control("40/7200:20/3600")
    assert tc.period_index_for_move(60) == 1 and tc.period_index_for_move(61) == 2
    assert tc.required_moves(2) == 80
    assert tc.completes_period(80) == 2
    assert not tc.is_sudden_death and not tc.is_final_period(5)


def test_increment_from_a_later_move() -> None:
    tc = parse_time_control("G/90;inc30 from move 41")
    assert tc.bonus_from_move == 41 and tc.periods()[0].increment == 30
    assert "from move 41" in tc.describe()


@pytest.mark.parametrize("text", ["G/5 v G/4", "300 v 240", "G/5;d2 vs G/4;d2"])
def test_armageddon_bases_per_side(text: str) -> None:
    """Armageddon: White 5 minutes, Black 4."""
    tc = parse_time_control(text)
    assert tc.has_per_side_bases
    assert tc.base_seconds(first_mover=True) == 300 and tc.base_seconds(first_mover=False) == 240


def test_pgn_special_fields() -> None:
    assert parse_time_control("?").is_unknown
    assert parse_time_control("-").is_untimed
    hourglass = parse_time_control("*180")
    assert hourglass.is_hourglass and hourglass.base_seconds() == 180


def test_description_reads_like_the_regulations() -> None:
    assert parse_time_control("40/5400+30:1800+30").describe() == (
        "40 moves in 1:30:00, 30 s increment; then 0:30:00 for the rest of the game, 30 s increment"
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "give a time control"),
        ("ninety minutes", "is not a time control"),
        ("40/", "is not a time control"),
        ("G/30;x5", "cannot read 'x5'"),
        ("300:40/5400", "sudden-death period must be the last"),
        ("G/30;d5;inc2", "two bonuses"),
        ("0", "no time at all"),
        ("G/30;d900", "not plausible"),
        ("G/5 v G/4 v G/3", "more than two"),
    ],
)
def test_bad_controls_are_contract_errors_naming_the_field(text: str, words: str) -> None:
    with pytest.raises(TimeControlError) as err:
        parse_time_control(text)
    assert isinstance(err.value, ContractError)
    assert err.value.field == "time_control" and err.value.code == "invalid_time_control"
    assert words in err.value.message


def test_delay_modes_take_the_same_time_off_the_clock() -> None:
    """US delay: the clock waits; Bronstein: time is given back. Either way max(0, spent - delay) is charged."""
    simple = parse_time_control("G/30;d5").periods()[0]
    bronstein = parse_time_control("G/30;b5").periods()[0]
    fischer = parse_time_control("G/30;inc5").periods()[0]
    assert simple.charged(3) == bronstein.charged(3) == 0
    assert simple.charged(12) == bronstein.charged(12) == 7
    assert fischer.charged(12) == 12
