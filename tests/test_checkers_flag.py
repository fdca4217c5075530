"""Flag claims in American checkers: match forfeits (P45), the Lowder Rule (P47), unstarted games (P48)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudicator.clocks import parse_time_control
from adjudicator.clocks.match import carry_over
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services

POSITION = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def judge(book: RulesetBook, ruleset: str, **fields: Any) -> Ruling:
    case = {"game": "checkers", "ruleset": ruleset, "claim": "flag", "fen": POSITION, **fields}
    ruling = rule(parse_case(case), book, Services())
    json.dumps(ruling.to_json())  # the contract's ruling is JSON, evidence included
    return ruling


def test_p45_match_clock_carried_into_game_2() -> None:
    """P45: 90-minute match clock; Red uses 52:30 in game 1 and White 61:00; colours swap for game 2."""
    clock = carry_over(parse_time_control("5400"), used={"red": 52 * 60 + 30, "white": 61 * 60})
    assert clock.game2 == {"white": 37 * 60 + 30, "red": 29 * 60}
    assert "plays White with 0:37:30" in clock.describe()


def test_match_clock_with_increment_counts_the_moves_of_game_1() -> None:
    """80 min + 10 s: 30 moves in game 1 earned 5 minutes."""
    clock = carry_over(parse_time_control("4800+10"), used={"red": 3000, "white": 4000}, moves={"red": 30, "white": 30})
    assert clock.game2 == {"white": 4800 - 3000 + 300, "red": 4800 - 4000 + 300}
    readings = carry_over(parse_time_control("4800+10"), remaining={"red": 100, "white": 200})
    assert readings.game2 == {"white": 100, "red": 200}


def test_flag_in_game_1_forfeits_game_1_and_game_2(book: RulesetBook) -> None:
    """Master Division: Red's flag falls in game 1: White wins it, and Red (White in game 2) forfeits game 2."""
    ruling = judge(book, "acf-master-division", claimant="white", clock={"red": 0, "white": 600, "flagged": ["red"]})
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    games = ruling.evidence["forfeited_games"]
    assert [(g["game"], g["result"]) for g in games] == [("match game 1", "0-1"), ("match game 2", "1-0")]
    assert any("Master Division" in ref for ref in ruling.rule_refs)


def test_p45_flag_in_game_2_and_the_next_game(book: RulesetBook, config: dict[str, Any]) -> None:
    """A flag in game 2 forfeits game 2; "next game" is the next round's first game only if so configured."""
    same = judge(book, "acf-master-division", match_game=2, clock={"white": 0, "flagged": ["white"]})
    assert same.result == "1-0" and len(same.evidence["forfeited_games"]) == 1
    changed = dict(config)
    changed["rulesets"] = dict(config["rulesets"])
    changed["rulesets"]["acf-master-division"] = dict(config["rulesets"]["acf-master-division"])
    changed["rulesets"]["acf-master-division"]["flag"] = {"forfeit_games": 2, "next_game": "next-round"}
    other = judge(
        RulesetBook.from_config(changed), "acf-master-division", match_game=2, clock={"white": 0, "flagged": ["white"]}
    )
    assert [g["game"] for g in other.evidence["forfeited_games"]] == ["match game 2", "next round, match game 1"]


def test_plain_acf_flag_forfeits_only_the_game(book: RulesetBook) -> None:
    ruling = judge(book, "acf", clock={"flagged": ["black"]})  # "black" is red in checkers
    assert ruling.result == "0-1" and len(ruling.evidence["forfeited_games"]) == 1


def test_a_flag_ruling_says_the_winner_and_names_the_match_game_only_in_a_match(book: RulesetBook) -> None:
    # the walk-through: plain acf said "Record 0-1 for match game 1." with no match; chess says "Black wins (0–1)"
    plain = judge(book, "acf", clock={"red": 0, "white": 600, "flagged": ["red"]})
    assert plain.instructions[0].startswith("White wins (0–1).")
    assert not any("match" in i for i in plain.instructions)
    assert plain.evidence["forfeited_games"][0]["game"] == "this game"
    named = judge(book, "acf", match_game=2, clock={"red": 0, "white": 600, "flagged": ["red"]})
    assert named.instructions == ("White wins match game 2 (0–1): record 0-1 for it.",)
    division = judge(book, "acf-master-division", clock={"red": 600, "white": 0, "flagged": ["white"]})
    assert division.instructions[0] == "Red wins match game 1 (1–0): record 1-0 for it."


def test_both_flags_down_is_a_draw(book: RulesetBook) -> None:
    ruling = judge(book, "acf-master-division", clock={"red": 0, "white": 0})
    assert (ruling.verdict, ruling.result) == ("upheld", "1/2-1/2")
    assert "forfeited_games" not in ruling.evidence


def test_claimant_whose_own_flag_is_down(book: RulesetBook) -> None:
    ruling = judge(book, "acf", claimant="red", clock={"flagged": ["red"]})
    assert (ruling.verdict, ruling.result) == ("rejected", None)


def test_flag_after_the_period_s_moves_does_not_lose(book: RulesetBook) -> None:
    """30 moves an hour: Red had made his 30 moves when the hour ran out; the next hour begins."""
    ruling = judge(book, "acf", time_control="30/3600", moves_completed=30, flag_period=1, clock={"flagged": ["red"]})
    assert (ruling.verdict, ruling.result) == ("rejected", None)
    short = judge(book, "acf", time_control="30/3600", moves_completed=28, flag_period=1, clock={"flagged": ["red"]})
    assert short.result == "0-1"


def test_p47_lowder_rule_loss_after_the_warning(book: RulesetBook) -> None:
    """P47: the director called "10 seconds" at 55 s; White moved at 1:03: White loses the game."""
    ruling = judge(book, "acf-master-division", lowder={"side": "white", "seconds": "1:03", "warned": True})
    assert (ruling.verdict, ruling.result) == ("upheld", "1-0")
    assert any("Lowder" in ref for ref in ruling.rule_refs)


@pytest.mark.parametrize(
    ("lowder", "verdict"),
    [
        ({"side": "white", "seconds": 58, "warned": True}, "rejected"),  # within the minute
        ({"side": "white", "seconds": 63, "warned": False}, "rejected"),  # no warning: warn, play on
        ({"side": "white", "seconds": 63}, "deferred"),  # confirm the warning
    ],
)
def test_lowder_rule_without_a_loss(book: RulesetBook, lowder: dict[str, Any], verdict: str) -> None:
    ruling = judge(book, "acf-master-division", lowder=lowder)
    assert (ruling.verdict, ruling.result) == (verdict, None)


def test_lowder_rule_is_an_event_option(book: RulesetBook) -> None:
    ruling = judge(book, "acf", lowder={"side": "white", "seconds": 75, "warned": True})
    assert (ruling.verdict, ruling.result) == ("rejected", None)


def test_p48_game_not_started_half_an_hour_before_the_end_is_drawn(book: RulesetBook) -> None:
    """P48: round ends 18:30; the second-game ballot was not started by 18:00: drawn, whatever the clocks."""
    ruling = judge(
        book,
        "acf-master-division",
        match_game=2,
        round_ends_at="18:30",
        now="18:05",
        game_started=False,
        clock={"white": 0, "flagged": ["white"]},
    )
    assert (ruling.verdict, ruling.result) == ("rejected", "1/2-1/2")
    late_start = judge(
        book,
        "acf-master-division",
        match_game=2,
        round_ends_at="18:30",
        game_started_at="18:10",
        clock={"white": 0, "flagged": ["white"]},
    )
    assert late_start.result == "1/2-1/2"
    in_time = judge(
        book,
        "acf-master-division",
        match_game=2,
        round_ends_at="18:30",
        game_started_at="17:40",
        clock={"white": 0, "flagged": ["white"]},
    )
    assert in_time.result == "1-0"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"clock": {"flagged": ["red"]}, "match_game": 3}, "match_game"),
        ({"clock": {"flagged": ["red"]}, "round_ends_at": "6pm", "now": "17:00"}, "round_ends_at"),
        ({"lowder": {"side": "white", "seconds": "slow"}}, "lowder.seconds"),
        ({"lowder": {"side": "blue", "seconds": 70}}, "lowder.side"),
        ({}, "clock"),
    ],
)
def test_bad_input_names_the_field(book: RulesetBook, fields: dict[str, Any], field: str) -> None:
    with pytest.raises(ContractError) as err:
        judge(book, "acf-master-division", **fields)
    assert err.value.field == field
