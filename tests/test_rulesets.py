"""Rulesets are data: inheritance, typed options, and errors that name the key at start-up."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from adjudicator.contract import ContractError
from adjudicator.rulesets import CheckersRuleset, ChessRuleset, RulesetBook, RulesetError, check_rulesets

ROOT = Path(__file__).resolve().parent.parent

CONTRACT_IDS = {
    "fide-standard", "fide-rapid", "fide-blitz", "fide-standard-guidelines-iii", "uschess",
    "uschess-variation-14h", "acf", "acf-master-division", "us-senior", "sabah-active30",
    "calchess-scholastic",
}


def with_ruleset(config: dict[str, Any], rid: str, table: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(config)
    changed["rulesets"][rid] = table
    return changed


def test_every_contract_ruleset_is_configured(book: RulesetBook) -> None:
    assert {r.id for r in book} >= CONTRACT_IDS


def test_the_rulesets_of_config_toml_validate_with_no_problem() -> None:
    config = tomllib.loads((ROOT / "config.toml").read_text(encoding="utf-8"))
    rulesets, problems = check_rulesets(config)
    assert problems == []
    assert set(rulesets) == set(config["rulesets"])
    assert all(isinstance(r, ChessRuleset if r.game == "chess" else CheckersRuleset) for r in rulesets.values())


def test_local_rulesets_override_only_what_they_change(book: RulesetBook) -> None:
    sabah = book.chess("sabah-active30")
    assert sabah.is_a("fide-rapid") and sabah.is_a("fide-standard")
    assert sabah.lineage == ("sabah-active30", "fide-rapid", "fide-standard")
    assert sabah.flag.both_flags == "draw"
    assert sabah.illegal_move.opponent_bonus_seconds == 60  # from fide-rapid (A.3)
    assert sabah.repetition.claim_occurrences == 3  # from fide-standard
    assert sabah.flag.refs.flag == "FIDE A.5.3" and sabah.flag.refs.over == "FIDE 6.8"  # tables merge key by key
    assert book.chess("fide-standard").flag.both_flags == "last-period-draw"
    assert book.chess("us-senior").draw_offer.no_offer_before_move == 30
    assert book["fide-standard"].ref("9.2.2") == "FIDE 9.2.2"
    assert book["calchess-scholastic"].ref("11A") == "US Chess 11A"


def test_an_option_a_ruleset_does_not_set_has_the_models_default(book: RulesetBook) -> None:
    acf = book.checkers("acf")
    assert acf.lowder.warning_at_seconds == 50  # move_limit_seconds - 10
    assert acf.illegal_move.correction_window == "before-reply"
    assert book.chess("fide-standard").committee.members == 3


def test_unknown_ruleset_names_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as err:
        book["fide-classical"]
    assert err.value.code == "unknown_ruleset" and err.value.field == "ruleset"
    with pytest.raises(ContractError) as other:
        book.chess("acf")
    assert other.value.field == "ruleset"


def test_a_misspelt_option_is_an_error_at_start_up_naming_its_full_key(config: dict[str, Any]) -> None:
    local = with_ruleset(config, "my-open", {
        "extends": "fide-standard", "title": "My Open", "repetition": {"claim_occurences": 4},
    })
    with pytest.raises(RulesetError) as err:
        RulesetBook.from_config(local)
    assert err.value.key == "rulesets.my-open.repetition.claim_occurences"
    assert "did you mean claim_occurrences?" in err.value.problem


def test_a_malformed_value_names_the_key(config: dict[str, Any]) -> None:
    broken = copy.deepcopy(config)
    broken["rulesets"]["sabah-active30"]["ilc"]["claimant_floor_seconds"] = "2:00"
    with pytest.raises(RulesetError) as err:
        RulesetBook.from_config(broken)
    assert err.value.key == "rulesets.sabah-active30.ilc.claimant_floor_seconds"
    assert err.value.problem == "must be a whole number, not '2:00'"


def test_every_problem_is_listed_once_in_the_table_that_holds_it(config: dict[str, Any]) -> None:
    broken = copy.deepcopy(config)
    broken["rulesets"]["fide-standard"]["flag"]["both_flags"] = "dra"  # inherited by eight rulesets
    broken["rulesets"]["acf-master-division"]["committee"]["members"] = 0
    broken["rulesets"]["uschess-variation-14h"]["ilc"]["mode"] = "guidelines-iii"  # calchess-scholastic inherits it
    assert [str(p) for p in check_rulesets(broken)[1]] == [
        "rulesets.fide-standard.flag.both_flags: must be one of 'last-period-draw', 'draw' or 'td-may-draw', "
        "not 'dra'",
        "rulesets.uschess-variation-14h.ilc.below_seconds: is required when mode is guidelines-iii",
        "rulesets.uschess-variation-14h.ilc.increment_seconds: is required when mode is guidelines-iii",
        "rulesets.uschess-variation-14h.ilc.opponent_bonus_seconds: is required when mode is guidelines-iii",
        "rulesets.acf-master-division.committee.members: must be between 1 and 15, not 0",
    ]
    with pytest.raises(RulesetError) as err:
        RulesetBook.from_config(broken)
    assert err.value.key == "rulesets.fide-standard.flag.both_flags" and len(err.value.problems) == 5


def test_an_option_a_mode_needs_is_required_for_that_mode(config: dict[str, Any]) -> None:
    local = with_ruleset(config, "quick", {"extends": "fide-standard", "title": "Q", "ilc": {"mode": "variation-14h"}})
    problems = [str(p) for p in check_rulesets(local)[1]]
    assert problems == [
        "rulesets.quick.ilc.at_most_seconds: is required when mode is variation-14h",
        "rulesets.quick.ilc.delay_seconds: is required when mode is variation-14h",
    ]


@pytest.mark.parametrize(
    ("rulesets", "key"),
    [
        ({"a": {"title": "A", "game": "chess", "authority": "X", "extends": "b"}}, "rulesets.a.extends"),
        ({"a": {"title": "A", "game": "go", "authority": "X"}}, "rulesets.a.game"),
        ({"a": {"title": "A", "game": "chess"}}, "rulesets.a.authority"),
        ({"a": {"extends": "b"}, "b": {"extends": "a"}}, "rulesets.a.extends"),
        ({"a": {"title": "A", "game": "checkers", "authority": "X", "flag": 3}}, "rulesets.a.flag"),
        ({"a": {"title": "A", "game": "checkers", "authority": "X", "time_control": {"default": "soon"}}},
         "rulesets.a.time_control.default"),
    ],
)
def test_broken_configuration_names_the_key(rulesets: dict[str, Any], key: str) -> None:
    with pytest.raises(RulesetError) as err:
        RulesetBook.from_config({"rulesets": rulesets})
    assert err.value.key == key


def test_a_chess_ruleset_must_say_what_the_laws_leave_to_it() -> None:
    bare = {"a": {"title": "A", "game": "chess", "authority": "X"}}
    assert [p.key for p in check_rulesets({"rulesets": bare})[1]] == [
        "rulesets.a.flag.no_win_test", "rulesets.a.flag.both_flags", "rulesets.a.flag.called_by",
        "rulesets.a.flag.claimant_flag_must_be_up", "rulesets.a.ilc.mode",
    ]


def test_a_table_changed_by_one_value_is_validated_again_not_taken_from_the_last_start() -> None:
    # a start validates its rulesets once and keeps the book by the table's text: never another table's book
    config = tomllib.loads((ROOT / "config.toml").read_text(encoding="utf-8"))
    assert RulesetBook.from_config(config) is RulesetBook.from_config(copy.deepcopy(config))
    five = copy.deepcopy(config)
    five["rulesets"]["fide-standard"]["committee"] = {"members": 5}
    assert RulesetBook.from_config(five)["fide-standard"].committee.members == 5
    assert RulesetBook.from_config(config)["fide-standard"].committee.members == 3
    fraction = copy.deepcopy(config)
    fraction["rulesets"]["fide-standard"]["committee"] = {"members": 3.0}  # equal to 3, and no whole number
    with pytest.raises(RulesetError, match=r"committee\.members: must be a whole number, not 3\.0"):
        RulesetBook.from_config(fraction)
