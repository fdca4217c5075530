"""Fuzzed form posts and API bodies get a 4xx whose message names the field, never a 500.

The claims are the real ones (issue 41), the engine at a small node budget (SMALL_ENGINE): a valid
case gets a real ruling; what is tested is that nothing valid or invalid reaches a 500.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.contract import CLAIMS
from tests.web.conftest import make_app

FIELDS = (
    "game",
    "ruleset",
    "claim",
    "claimant",
    "record",
    "start_fen",
    "fen",
    "intended_move",
    "clock",
    "time_control",
    "alleged_illegal_ply",
    "language",
)
FORM_FIELDS = (
    "game",
    "ruleset",
    "claim",
    "claimant",
    "record",
    "fen",
    "intended_move",
    "clock_white",
    "clock_black",
    "clock_red",
    "flagged",
    "time_control",
    "alleged_illegal_ply",
    "round",
    "board",
    "first_player",
)

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
plausible = {
    "game": st.sampled_from(["chess", "checkers", "go", ""]) | json_values,
    "ruleset": st.sampled_from(["fide-standard", "acf", "uschess", "nope"]) | json_values,
    "claim": st.sampled_from([*CLAIMS, "resign"]) | json_values,
    "claimant": st.sampled_from(["white", "black", "red", "blue"]) | json_values,
    "clock": st.dictionaries(
        st.sampled_from(["white", "black", "red", "flagged", "x"]),
        json_values | st.sampled_from(["0:05:00", "1:99:00", "-3", "25:00"]),
        max_size=4,
    )
    | json_values,
    "alleged_illegal_ply": st.integers(-5, 10**20) | json_values,
}
cases = st.fixed_dictionaries({}, optional={name: plausible.get(name, json_values) for name in FIELDS})


SMALL_ENGINE = {"nodes = 100000                       # first search": "nodes = 2000  # first search (tests)",
                "max_nodes = 1000000": "max_nodes = 20000"}
"""The adjudication search's budget in the fuzzer (the event's 100,000 nodes take seconds per case)."""


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    from web.config import PROJECT_ROOT

    folder = Path(tmp_path_factory.mktemp("fuzz"))
    text = (PROJECT_ROOT / "config.toml").read_text()
    for old, new in SMALL_ENGINE.items():
        assert old in text, old
        text = text.replace(old, new)
    (folder / "small.toml").write_text(text)
    app = make_app(folder, CONFIG_PATH=str(folder / "small.toml"))
    yield app
    app.extensions["adjudicator"].shutdown()


def assert_names_the_field(status: int, error: dict[str, Any]) -> None:
    """A 4xx whose error names the input field at fault (a case that is not an object has none)."""
    assert 400 <= status < 500, status
    assert isinstance(error["message"], str) and error["message"]
    if error["code"] == "invalid_case":
        return
    field = error.get("field")
    assert isinstance(field, str) and field.split(".")[0] in (*FIELDS, "body"), error


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases)
def test_fuzzed_api_bodies_get_a_4xx_naming_the_field_or_a_ruling(fuzz_app: Flask, case: dict[str, Any]) -> None:
    response = fuzz_app.test_client().post("/api/v1/rulings", data=json.dumps(case), content_type="application/json")
    body = response.get_json()
    if response.status_code == 201:
        assert body["verdict"] and isinstance(body["id"], int)
    else:
        assert_names_the_field(response.status_code, body["error"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_fuzzed_raw_bodies_are_400_or_422(fuzz_app: Flask, raw: bytes) -> None:
    response = fuzz_app.test_client().post("/api/v1/rulings", data=raw, content_type="application/json")
    assert response.status_code in (201, 400, 422), response.status_code
    if response.status_code != 201:
        assert response.get_json()["error"]["message"]


form_values = st.text(max_size=40) | st.sampled_from(
    [
        "chess",
        "checkers",
        "fide-standard",
        "acf",
        "flag",
        "threefold-repetition",
        "0:05:00",
        "1:99:00",
        "white",
        "red",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "W:W21:B1",
        "1. e4 e5",
        "-1",
        "99999999999999999999",
        "²",
    ]
)
forms = st.fixed_dictionaries({}, optional={name: form_values for name in FORM_FIELDS})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=forms)
def test_fuzzed_form_posts_get_a_page_naming_the_field_or_a_ruling(fuzz_app: Flask, data: dict[str, str]) -> None:
    response = fuzz_app.test_client().post("/claims", data=data)
    with_nul = [name for name, value in data.items() if "\x00" in value]
    if with_nul:  # refused before the form (web.inputs): PostgreSQL cannot store a NUL
        assert response.status_code == 400
        assert any(f"form field {name} contains a NUL" in response.get_data(as_text=True) for name in with_nul)
        return
    assert response.status_code in (303, 422), response.status_code
    if response.status_code == 422:
        page = response.get_data(as_text=True)
        assert 'class="error"' in page or 'id="form-errors"' in page
        assert "Traceback" not in page


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    query=st.dictionaries(
        st.sampled_from(["q", "round", "board", "player", "line", "ply", "from"]), st.text(max_size=30)
    )
)
def test_fuzzed_queries_never_break_a_page(fuzz_app: Flask, query: dict[str, str]) -> None:
    client = fuzz_app.test_client()
    for path in ("/history", "/claims/new", "/rulings/1", "/rulings/1/board"):
        assert client.get(path, query_string=query).status_code < 500
