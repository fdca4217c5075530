"""The case going in: every mistake names its field."""

from __future__ import annotations

import pytest

from adjudicator.contract import ContractError, parse_case, parse_seconds


def test_a_minimal_case_defaults_to_chess() -> None:
    case = parse_case({"ruleset": "fide-standard", "claim": "flag", "claimant": "White"})
    assert case.game == "chess"
    assert case.claimant == "white"
    assert case.opponent("white") == "black"


def test_checkers_accepts_black_as_red() -> None:
    case = parse_case(
        {"game": "checkers", "ruleset": "acf", "claim": "flag", "claimant": "black",
         "clock": {"black": "0:00:00", "white": 30, "flagged": ["black"]}}
    )
    assert case.claimant == "red"
    assert case.clock is not None
    assert case.clock.seconds("red") == 0
    assert case.clock.has_flag_down("red")


def test_clock_readings() -> None:
    assert parse_seconds("0:41:10", "clock.white") == 2470
    assert parse_seconds("1:35", "clock.white") == 95
    assert parse_seconds(95, "clock.white") == 95
    with pytest.raises(ContractError) as err:
        parse_seconds("soon", "clock.white")
    assert err.value.field == "clock.white"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"claim": "flag"}, "ruleset"),
        ({"ruleset": "fide-standard"}, "claim"),
        ({"ruleset": "fide-standard", "claim": "resign"}, "claim"),
        ({"ruleset": "fide-standard", "claim": "flag", "game": "go"}, "game"),
        ({"ruleset": "fide-standard", "claim": "flag", "claimant": "red"}, "claimant"),
        ({"ruleset": "fide-standard", "claim": "flag", "record": 5}, "record"),
        ({"ruleset": "fide-standard", "claim": "flag", "clock": {"white": "x"}}, "clock.white"),
        ({"ruleset": "fide-standard", "claim": "flag", "clock": {"flagged": ["green"]}}, "clock.flagged"),
        ({"ruleset": "fide-standard", "claim": "illegal-move", "alleged_illegal_ply": 0}, "alleged_illegal_ply"),
    ],
)
def test_bad_fields_are_named(data: dict[str, object], field: str) -> None:
    with pytest.raises(ContractError) as err:
        parse_case(data)
    assert err.value.field == field
    assert err.value.to_json()["error"]["field"] == field


def test_a_case_must_be_an_object() -> None:
    with pytest.raises(ContractError):
        parse_case(["not", "a", "case"])
