"""Rulesets are data: inheritance, and errors that name the key."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook, RulesetError

CONTRACT_IDS = {
    "fide-standard", "fide-rapid", "fide-blitz", "fide-standard-guidelines-iii", "uschess",
    "uschess-variation-14h", "acf", "acf-master-division", "us-senior", "sabah-active30",
    "calchess-scholastic",
}


def test_every_contract_ruleset_is_configured(book: RulesetBook) -> None:
    assert {r.id for r in book} >= CONTRACT_IDS


def test_local_rulesets_override_only_what_they_change(book: RulesetBook) -> None:
    sabah = book["sabah-active30"]
    assert sabah.is_a("fide-rapid") and sabah.is_a("fide-standard")
    assert sabah.get_str("flag.both_flags") == "draw"
    assert sabah.get_int("illegal_move.opponent_bonus_seconds") == 60  # from fide-rapid (A.3)
    assert sabah.get_int("repetition.claim_occurrences") == 3  # from fide-standard
    assert book["fide-standard"].get_str("flag.both_flags") == "last-period-draw"
    assert book["us-senior"].get_int("draw_offer.no_offer_before_move") == 30
    assert book["fide-standard"].ref("9.2.2") == "FIDE 9.2.2"
    assert book["calchess-scholastic"].ref("11A") == "US Chess 11A"


def test_unknown_ruleset_names_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as err:
        book["fide-classical"]
    assert err.value.code == "unknown_ruleset" and err.value.field == "ruleset"


def test_malformed_value_names_the_key(book: RulesetBook) -> None:
    with pytest.raises(RulesetError) as err:
        book["fide-standard"].get_int("flag.both_flags")
    assert err.value.key == "rulesets.fide-standard.flag.both_flags"


@pytest.mark.parametrize(
    ("rulesets", "key"),
    [
        ({"a": {"title": "A", "game": "chess", "authority": "X", "extends": "b"}}, "rulesets.a.extends"),
        ({"a": {"title": "A", "game": "go", "authority": "X"}}, "rulesets.a.game"),
        ({"a": {"title": "A", "game": "chess"}}, "rulesets.a.authority"),
        ({"a": {"extends": "b"}, "b": {"extends": "a"}}, "rulesets.a.extends"),
    ],
)
def test_broken_configuration_names_the_key(rulesets: dict[str, Any], key: str) -> None:
    with pytest.raises(RulesetError) as err:
        RulesetBook.from_config({"rulesets": rulesets})
    assert err.value.key == key
