"""Hostile input on every route, on SQLite and PostgreSQL: a 4xx naming the field, never a 500 (issue 11).

The routes come from the app's own URL map, so a route added later is covered without
editing this file: ids beyond the database's integer range are 404; a NUL character, a
5,000-digit integer and JSON nested 100,000 deep are 400 naming the field; a JSON write
to the API with another content type is 415 and stores nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, bearer, checkers_case
from flask import Flask

from tests.web.conftest import make_app
from web.inputs import MAX_ID

HUGE = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000
CASE = {"ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
        "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"}


def routes(app: Flask) -> Iterator[tuple[str, str, list[str]]]:
    """Every (method, rule, int arguments) of the app, static files left out."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        ints = [name for name, conv in rule._converters.items() if type(conv).__name__ == "IdConverter"]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield method, rule.rule, ints


def fill(rule: str, value: int = 1) -> str:
    return re.sub(r"<(?:int:)?([a-z_]+)>", str(value), rule)


def app_on(tmp_path: Path, url: str | None) -> Flask:
    return make_app(tmp_path, **({"DATABASE_URL": url} if url else {}))


def check_every_route(app: Flask) -> None:
    client = app.test_client()
    token = add_user(app, "tina", "td")
    headers = bearer(token)
    seen_int_routes = 0
    for method, rule, ints in routes(app):
        send = getattr(client, method.lower())
        is_api = rule.startswith("/api/")
        for too_big in (2**31, 2**63, 10**30):
            if ints:
                seen_int_routes += 1
                response = send(fill(rule, too_big), headers=headers)
                assert response.status_code == 404, (method, rule, too_big, response.status_code)
        path = fill(rule)
        nul_query = send(path, query_string={"q": "a\x00b"}, headers=headers)
        assert nul_query.status_code == 400, (method, rule, nul_query.status_code)
        if method == "GET":
            continue
        if is_api:
            for body, field in ((json.dumps({**CASE, "record": "1. e4\x00"}), "record"),
                                ('{"ruleset": "fide-standard", "alleged_illegal_ply": ' + HUGE + "}",
                                 "alleged_illegal_ply"),
                                ('{"clock": ' + DEEP + "}", "clock"),
                                (DEEP, "body")):
                response = send(path, data=body, content_type="application/json", headers=headers)
                assert response.status_code == 400, (method, rule, field, response.status_code)
                assert response.get_json()["error"]["field"] == field, (method, rule, response.get_json())
            plain = send(path, data=json.dumps(CASE), content_type="text/plain", headers=headers)
            assert plain.status_code == 415, (method, rule, plain.status_code)
            assert plain.get_json()["error"]["field"] == "Content-Type"
        else:
            response = send(path, data={"record": "1. e4\x00", "grounds": "x"}, headers=headers)
            assert response.status_code == 400, (method, rule, response.status_code)
            assert "record contains a NUL character" in response.get_data(as_text=True)
    assert seen_int_routes >= 3 * 10  # the rulings, cases, committee and appeals routes at least


def test_every_route_refuses_hostile_input_on_sqlite(tmp_path: Path) -> None:
    app = app_on(tmp_path, None)
    try:
        check_every_route(app)
    finally:
        app.extensions["adjudicator"].shutdown()


@pytest.mark.slow
def test_every_route_refuses_hostile_input_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    app = app_on(tmp_path, postgres_url)
    try:
        assert app.extensions["db_sessions"].kw["bind"].dialect.name == "postgresql"
        check_every_route(app)
        check_text_stored_on_postgresql(app)
    finally:
        app.extensions["adjudicator"].shutdown()


def check_text_stored_on_postgresql(app: Flask) -> None:
    """Text that does reach the database is stored: the refusals above stopped only what it cannot hold."""
    client = app.test_client()
    created = client.post("/api/v1/rulings", json={**CASE, "meta": {"event": "Open \u00e9t\u00e9 \U0001f600"}})
    assert created.status_code == 201
    assert client.get(created.headers["Location"]).get_json()["verdict"] == "upheld"


def test_a_text_plain_cross_site_post_stores_no_ruling(client: Any, app: Flask) -> None:
    before = client.get("/history").get_data(as_text=True).count("/rulings/")
    response = client.post("/api/v1/rulings", data=json.dumps(CASE), content_type="text/plain",
                           headers={"Origin": "https://elsewhere.example"})
    assert response.status_code == 415
    assert response.get_json()["error"]["code"] == "unsupported_media_type"
    assert client.get("/history").get_data(as_text=True).count("/rulings/") == before
    stored = client.post("/api/v1/rulings", json=CASE)
    assert stored.status_code == 201  # the same case as JSON is ruled on and stored


def test_the_claim_form_still_takes_a_form_post(client: Any) -> None:
    response = client.post("/claims", data={**CASE, "game": "chess"})
    assert response.status_code == 303
    assert client.get(response.headers["Location"]).status_code == 200


def test_an_id_at_the_limit_is_a_plain_not_found(client: Any) -> None:
    assert client.get(f"/api/v1/rulings/{MAX_ID}").status_code == 404
    assert client.get(f"/api/v1/rulings/{MAX_ID}").get_json()["error"]["field"] == "id"
    assert client.get(f"/rulings/{MAX_ID + 1}").status_code == 404


def test_a_query_id_beyond_the_range_is_refused_naming_it(client: Any) -> None:
    response = client.get("/claims/new", query_string={"from": "99999999999999999999"})
    assert response.status_code == 400
    assert "from is a number beyond" in response.get_data(as_text=True)


def test_a_huge_ply_in_the_claim_form_is_named_on_the_form(client: Any) -> None:
    data = {**CASE, "claim": "illegal-move", "alleged_illegal_ply": HUGE}
    response = client.post("/claims", data=data)
    assert response.status_code == 422
    assert "alleged_illegal_ply must be a whole number" in response.get_data(as_text=True)


def test_the_committee_api_refuses_deep_nesting_and_huge_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from committee_support import make_app as committee_app

    app = committee_app(tmp_path, monkeypatch)
    td = add_user(app, "tina", "td")
    members = [add_user(app, name, "committee") and name for name in ("m1", "m2", "m3")]
    client = app.test_client()
    deep = client.post("/api/v1/committee-cases", data='{"players": ' + DEEP + "}",
                       content_type="application/json", headers=bearer(td))
    assert deep.status_code == 400 and deep.get_json()["error"]["field"] == "players"
    body = json.dumps(checkers_case(members)).replace('"round": "5"', '"round": ' + HUGE)
    huge = client.post("/api/v1/committee-cases", data=body, content_type="application/json", headers=bearer(td))
    assert huge.status_code == 400 and huge.get_json()["error"]["field"] == "round"
    ok = client.post("/api/v1/committee-cases", json=checkers_case(members), headers=bearer(td))
    assert ok.status_code == 201


def test_a_checkers_position_with_fifteen_men_a_side_is_not_ruled_on(client: Any) -> None:
    case = {"game": "checkers", "ruleset": "acf", "claim": "unfinished-game", "fen": "B:W18-32:B1-15"}
    response = client.post("/api/v1/rulings", json=case)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["field"] == "fen" and "at most 12" in error["message"]
