"""The JSON API of the contract: the ruling with its id, the same errors as the forms,
an OpenAPI document, and no CSRF token needed."""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient

from tests.web.conftest import make_app

CASE = {
    "game": "chess",
    "ruleset": "fide-standard",
    "claim": "threefold-repetition",
    "claimant": "white",
    "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
}
RULING_KEYS = {
    "claim",
    "verdict",
    "result",
    "adjustments",
    "instructions",
    "rule_refs",
    "reasons",
    "evidence",
    "confidence",
}


def test_post_answers_with_the_ruling_and_its_id_and_get_returns_it(
    client: FlaskClient, stand_ins: dict[str, str]
) -> None:
    response = client.post("/api/v1/rulings", json=CASE)
    assert response.status_code == 201
    body = response.get_json()
    assert set(body) >= RULING_KEYS and isinstance(body["id"], int)
    assert body["verdict"] == "upheld" and body["result"] == "1/2-1/2"
    again = client.get(f"/api/v1/rulings/{body['id']}")
    assert again.status_code == 200 and again.get_json() == body


def test_engine_claims_answer_with_the_ruling_too(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post("/api/v1/rulings", json={**CASE, "claim": stand_ins["slow"]})
    assert response.status_code == 201 and response.get_json()["verdict"] == "adjudicated"


def test_a_body_that_is_not_json_is_400(client: FlaskClient) -> None:
    response = client.post("/api/v1/rulings", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"
    array = client.post("/api/v1/rulings", json=[CASE])
    assert array.status_code == 400 and array.get_json()["error"]["message"] == "a case must be a JSON object"


def test_a_case_the_contract_rejects_is_422_naming_the_field(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    for change, field in (
        ({"ruleset": "no-such-rules"}, "ruleset"),
        ({"claim": "resignation"}, "claim"),
        ({"claimant": "green"}, "claimant"),
        ({"game": "checkers"}, "ruleset"),
        ({"clock": {"white": "1:99:00"}}, "clock.white"),
        ({"alleged_illegal_ply": 0}, "alleged_illegal_ply"),
    ):
        response = client.post("/api/v1/rulings", json={**CASE, **change})
        assert response.status_code == 422, change
        error = response.get_json()["error"]
        assert error["field"] == field and error["message"], change


def test_a_missing_ruling_is_404_json(client: FlaskClient) -> None:
    response = client.get("/api/v1/rulings/12345")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"


def test_too_large_a_body_is_413_json(tmp_path: Path) -> None:
    app = make_app(tmp_path, MAX_CONTENT_LENGTH=10_000)
    response = app.test_client().post(
        "/api/v1/rulings", data=json.dumps({**CASE, "record": "x" * 20_000}), content_type="application/json"
    )
    assert response.status_code == 413 and response.get_json()["error"]["code"] == "too_large"
    app.extensions["adjudicator"].shutdown()


def test_the_api_needs_no_csrf_token_but_forms_do(tmp_path: Path, stand_ins: dict[str, str]) -> None:
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert client.post("/api/v1/rulings", json=CASE).status_code == 201
    form = client.post("/claims", data={"claim": "fifty-move", "ruleset": "fide-standard", "record": CASE["record"]})
    assert form.status_code == 400 and "reload the page" in form.get_data(as_text=True)
    app.extensions["adjudicator"].shutdown()


def test_the_openapi_document_describes_the_rulings_paths(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    assert {"/api/v1/rulings", "/api/v1/rulings/{id}"} <= set(document["paths"])  # every API route: test_web_openapi
    case = document["components"]["schemas"]["Case"]
    assert "threefold-repetition" in case["properties"]["claim"]["enum"]
    assert {"400", "422", "201"} <= set(document["paths"]["/api/v1/rulings"]["post"]["responses"])
