"""The contract's case, ruling and error as models (:mod:`adjudicator.documents`) agree with the code that
reads cases and writes rulings: what the API document publishes is what the product does."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from adjudicator.contract import ContractError, parse_case, parse_seconds
from adjudicator.documents import (
    CLOCK_TEXT,
    CaseDocument,
    CaseFields,
    ErrorDocument,
    RulingDocument,
    max_length,
)
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook

CONTRACT_EXAMPLE: dict[str, Any] = {
    "game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
    "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8", "start_fen": None, "fen": None,
    "intended_move": None, "clock": {"white": "0:41:10", "black": 95, "flagged": ["black"]},
    "time_control": "40/5400+30:1800+30", "alleged_illegal_ply": None,
}
"""The "Case (input)" example of shared/contract.md, its record written out."""

CASES: list[dict[str, Any]] = [
    CONTRACT_EXAMPLE,
    {"ruleset": "fide-standard", "claim": "fifty-move", "claimant": "white", "record": "1. e4 e5"},
    {"ruleset": "fide-blitz", "claim": "flag", "claimant": "white", "fen": "8/8/8/4k3/8/8/8/4K2R b - - 0 60",
     "clock": {"white": 12, "black": 0}},
    {"ruleset": "fide-standard", "claim": "illegal-move", "claimant": "black", "record": "1. e4 e5 2. Ke3",
     "clock": {"white": 600, "black": 600}},
    {"game": "checkers", "ruleset": "acf", "claim": "forty-move", "claimant": "red",
     "record": "1. 11-15 23-19 2. 8-11 22-17"},
]


def test_the_contract_example_is_a_case_by_the_model_and_by_the_reader() -> None:
    CaseDocument.model_validate(CONTRACT_EXAMPLE)
    assert parse_case(CONTRACT_EXAMPLE).claimant == "white"


@pytest.mark.parametrize("case", CASES, ids=lambda case: str(case["claim"]))
def test_every_ruling_is_a_ruling_by_the_model(book: RulesetBook, case: dict[str, Any]) -> None:
    CaseDocument.model_validate(case)
    ruling = rule(parse_case(case), book).to_json()
    assert set(ruling) == set(RulingDocument.model_fields)
    assert RulingDocument.model_validate(ruling).model_dump(mode="json") == ruling


def test_an_error_is_an_error_by_the_model() -> None:
    with pytest.raises(ContractError) as refused:
        parse_case({"ruleset": "fide-standard", "claim": "fifty-move", "fen": "x" * 201})
    body = refused.value.to_json()
    assert ErrorDocument.model_validate(body).model_dump(mode="json", exclude_defaults=True) == body
    assert body["error"] == {"code": "invalid_field", "message": "fen is longer than 200 characters", "field": "fen"}


@pytest.mark.parametrize("name", ["start_fen", "fen", "intended_move", "time_control", "language"])
def test_a_text_longer_than_the_schema_allows_is_refused_naming_its_field(name: str) -> None:
    limit = max_length(CaseFields, name)
    case = {"ruleset": "fide-standard", "claim": "fifty-move", name: "1" * (limit + 1)}
    with pytest.raises(ContractError) as refused:
        parse_case(case)
    assert (refused.value.field, refused.value.message) == (name, f"{name} is longer than {limit} characters")
    CaseDocument.model_validate({**case, name: "1" * limit})
    with pytest.raises(ValidationError, match=name):
        CaseDocument.model_validate(case)


@given(st.from_regex(CLOCK_TEXT.replace(r"\d", "[0-9]"), fullmatch=True))
def test_every_clock_text_the_schema_allows_is_read_as_a_time(text: str) -> None:
    """The schema's h:mm:ss is the reader's: such a text is read, or refused only for its range (60
    minutes or seconds, more than 100 hours), never as "not seconds or h:mm:ss"."""
    try:
        seconds = parse_seconds(text, "clock.white")
    except ContractError as refused:
        assert refused.message.endswith(("is not a valid h:mm:ss time", "must be between 0 and 100 hours"))
    else:
        *hours, minutes, secs = text.split(":")
        assert seconds == (int(hours[0]) * 3600 if hours else 0) + int(minutes) * 60 + float(secs)
