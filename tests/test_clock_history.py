"""Each side's clock rebuilt from a record's [%clk]/[%emt] comments and checked against the control."""

from __future__ import annotations

from adjudicator.chess.replay import replay_chess
from adjudicator.clocks import hms, parse_time_control
from adjudicator.clocks.history import SideClock, readings_from_replay, rebuild

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def pgn(comments: list[str]) -> str:
    """Knight shuffles with one comment per ply (the moves do not matter to the clock)."""
    parts = []
    for ply, comment in enumerate(comments):
        if ply % 2 == 0:
            parts.append(f"{ply // 2 + 1}.")
        parts.append(f"{SHUFFLE[ply % 4]} {{{comment}}}" if comment else SHUFFLE[ply % 4])
    return " ".join(parts) + " *"


def white_clock(comments: list[str], control: str) -> SideClock:
    replay = replay_chess(pgn(comments))
    return rebuild(readings_from_replay(replay), parse_time_control(control), ("white", "black")).side("white")


def both(white: list[str], black: list[str]) -> list[str]:
    return [c for pair in zip(white, black, strict=True) for c in pair]


def test_fischer_increment_with_clk_and_emt() -> None:
    """3 min + 2 s: each move takes the time spent off and adds 2 s."""
    spent = [5, 10, 1, 30]
    clocks, left = [], 180.0
    for s in spent:
        left = left - s + 2
        clocks.append(f"[%clk {hms(left)}] [%emt {hms(s)}]")
    side = white_clock(both(clocks, [""] * 4), "180+2")
    assert side.moves_made == 4
    assert [m.spent for m in side.moves] == spent
    assert [m.bonus for m in side.moves] == [2, 2, 2, 2]
    assert side.remaining == left == side.device_remaining
    assert side.irregularities == () and side.overrun is None and side.missing == 0


def test_increment_not_given_is_found_with_emt() -> None:
    comments = [
        "[%clk 0:02:57] [%emt 0:00:05]",  # 180 - 5 + 2
        "[%clk 0:02:47] [%emt 0:00:10]",  # 177 - 10 + 0: the 2 s were not added
    ]
    side = white_clock(both(comments, ["", ""]), "180+2")
    (issue,) = side.irregularities
    assert (issue.kind, issue.move, issue.seconds) == ("increment-missing", 2, 2)
    assert side.missing == 2 and side.remaining == 169


def test_clock_rising_by_more_than_the_increment() -> None:
    comments = ["[%clk 0:02:55]", "[%clk 0:03:05]"]  # +10 s with a 2 s increment
    side = white_clock(both(comments, ["", ""]), "180+2")
    assert [i.kind for i in side.irregularities] == ["excess-time"]


def test_us_delay_moves_inside_the_delay_cost_nothing() -> None:
    """G/5;d5 (US delay): a 3 s move leaves the clock where it was; a 12 s move costs 7 s."""
    comments = ["[%clk 0:05:00] [%emt 0:00:03]", "[%clk 0:04:53] [%emt 0:00:12]"]
    side = white_clock(both(comments, ["", ""]), "G/5;d5")
    assert [m.charged for m in side.moves] == [0, 7]
    assert side.remaining == 293 and side.irregularities == ()


def test_delay_with_clk_only_gives_the_time_charged() -> None:
    comments = ["[%clk 0:05:00]", "[%clk 0:04:53]", "[%clk 0:04:53]"]
    side = white_clock(both(comments, ["", "", ""]), "300+5d")
    assert [m.charged for m in side.moves] == [0, 7, 0]
    assert [m.spent for m in side.moves] == [None, None, None]  # hidden by the delay
    assert side.irregularities == ()


def test_a_delay_clock_never_rises() -> None:
    comments = ["[%clk 0:04:50]", "[%clk 0:04:55]"]
    side = white_clock(both(comments, ["", ""]), "G/5;d5")
    assert [i.kind for i in side.irregularities] == ["excess-time"]


def multi_period(added_after_40: bool, increment: int = 30) -> list[str]:
    """White spends 130 s per move for 40 moves, then 10 s per move, under 40/5400+inc:1800+inc."""
    comments, left = [], 5400.0
    for move in range(1, 46):
        left = left - (130 if move <= 40 else 10) + increment
        if move == 40 and added_after_40:
            left += 1800
        comments.append(f"[%clk {hms(left)}]")
    return both(comments, [""] * 45)


def test_multi_period_time_added_after_move_40() -> None:
    side = white_clock(multi_period(added_after_40=True), "40/5400+30:1800+30")
    assert side.moves_made == 45
    assert [m.period for m in side.moves][38:42] == [0, 0, 1, 1]
    assert side.moves[39].added == 1800
    assert all(m.spent == 130 for m in side.moves[:40]) and all(m.spent == 10 for m in side.moves[40:])
    assert side.irregularities == () and side.missing == 0
    assert side.remaining == side.device_remaining


def test_multi_period_time_not_added_is_an_irregularity() -> None:
    side = white_clock(multi_period(added_after_40=False), "40/5400+30:1800+30")
    (issue,) = side.irregularities
    assert (issue.kind, issue.move, issue.seconds) == ("period-time-missing", 40, 1800)
    assert side.missing == 1800
    assert side.remaining is not None and side.device_remaining is not None
    assert side.remaining - side.device_remaining == 1800


def test_the_control_running_out_before_the_period_s_moves() -> None:
    """40/5400:1800 without increment: White's emt adds up past 90 minutes on move 38."""
    comments, left = [], 5400.0
    for move in range(1, 39):
        spent = 145 if move < 38 else 200  # 37 * 145 = 5365; 35 s left, then 200 s
        left = max(0.0, left - spent)
        comments.append(f"[%clk {hms(left)}] [%emt {hms(spent)}]")
    side = white_clock(both(comments, [""] * 38), "40/5400:1800")
    assert side.overrun is not None
    assert (side.overrun.move, side.overrun.period) == (38, 0)


def test_record_without_clock_comments_has_no_readings() -> None:
    side = white_clock(["", "", "", ""], "G/30;d5")
    assert not side.has_readings and side.moves_made == 2


def test_bronstein_delay_gives_back_the_time_spent_up_to_the_delay() -> None:
    comments = ["[%clk 0:03:00] [%emt 0:00:02]", "[%clk 0:02:52] [%emt 0:00:11]"]
    side = white_clock(both(comments, ["", ""]), "180+3b")
    assert [m.charged for m in side.moves] == [0, 8]
    assert side.irregularities == ()


def test_increment_only_from_a_later_move() -> None:
    """ "G/90;inc30 from move 3": moves 1 and 2 earn nothing, move 3 earns 30 s."""
    comments = ["[%clk 1:29:50]", "[%clk 1:29:40]", "[%clk 1:30:00]"]
    side = white_clock(both(comments, ["", "", ""]), "G/90;inc30 from move 3")
    assert [m.bonus for m in side.moves] == [0, 0, 30]
    assert [m.spent for m in side.moves] == [10, 10, 10]
    assert side.irregularities == ()
