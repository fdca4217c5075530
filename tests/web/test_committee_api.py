"""The Committee API as the contract describes it: open a case, members vote blind, the ruleset decides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from committee_support import SEARCH_NODES, add_user, bearer, checkers_case, make_app
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    return make_app(tmp_path, monkeypatch)


@pytest.fixture
def tokens(app: Flask) -> dict[str, str]:
    return {
        "td": add_user(app, "tina", "td"),
        "m1": add_user(app, "m1", "committee"),
        "m2": add_user(app, "m2", "committee"),
        "m3": add_user(app, "m3", "committee", club="Blues"),
        "outsider": add_user(app, "oscar", "committee"),
        "appeals": add_user(app, "april", "appeals"),
    }


def open_case(client: FlaskClient, tokens: dict[str, str], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"], **extra),
                           headers=bearer(tokens["td"]))
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.get_json()
    return body


def vote(client: FlaskClient, token: str, case_id: int, result: str, comment: str = "") -> Any:
    return client.post(f"/api/v1/committee-cases/{case_id}/votes", json={"result": result, "comment": comment},
                       headers=bearer(token))


def test_a_td_opens_a_case_with_the_recommendation_attached(app: Flask, tokens: dict[str, str]) -> None:
    body = open_case(app.test_client(), tokens)
    assert body["status"] == "voting"
    assert body["members"] == ["m1", "m2", "m3"]
    assert body["votes_cast"] == 0 and body["votes"] is None
    assert body["position"]["fen"] == "B:W21,22,23,K30:B9,10,11"
    recommendation = body["recommendation"]  # the checkers search, deterministic settings
    assert recommendation["claim"] == "unfinished-game" and recommendation["verdict"] in ("adjudicated", "deferred")
    assert recommendation["evidence"]["engine"]["name"] == "adjudicator checkers search"
    assert recommendation["evidence"]["engine"]["max_nodes"] == SEARCH_NODES
    assert (body["round"], body["board"]) == ("5", "2")


def test_votes_stay_hidden_until_all_three_are_in_and_a_split_win_is_a_draw(app: Flask,
                                                                           tokens: dict[str, str]) -> None:
    client = app.test_client()
    case_id = open_case(client, tokens)["id"]
    assert vote(client, tokens["m1"], case_id, "1-0", "Red's extra man wins").status_code == 201
    after_two = vote(client, tokens["m2"], case_id, "1-0").get_json()
    assert after_two["votes_cast"] == 2 and after_two["votes"] is None and after_two["status"] == "voting"
    seen = client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(tokens["m1"])).get_json()
    assert seen["votes"] is None and seen["result"] is None and "1-0" not in str(seen.get("decision"))
    assert vote(client, tokens["m3"], case_id, "1/2-1/2", "White holds the corner").status_code == 201
    final = client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(tokens["td"])).get_json()
    assert final["status"] == "decided"
    assert final["result"] == "1/2-1/2"  # acf-master-division: a win needs a unanimous vote
    assert [(v["member"], v["result"]) for v in final["votes"]] == [("m1", "1-0"), ("m2", "1-0"),
                                                                     ("m3", "1/2-1/2")]
    assert final["votes"][0]["comment"] == "Red's extra man wins" and final["votes"][0]["cast_at"]
    assert final["decision"]["rule_refs"] == ["ACF Master Division local rules"]


def test_a_unanimous_vote_gives_the_win(app: Flask, tokens: dict[str, str]) -> None:
    client = app.test_client()
    case_id = open_case(client, tokens)["id"]
    for member in ("m1", "m2", "m3"):
        vote(client, tokens[member], case_id, "1-0")
    final = client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(tokens["m2"])).get_json()
    assert (final["status"], final["result"]) == ("decided", "1-0")


def test_an_outsider_gets_403_and_a_second_vote_409(app: Flask, tokens: dict[str, str]) -> None:
    client = app.test_client()
    case_id = open_case(client, tokens)["id"]
    outsider = vote(client, tokens["outsider"], case_id, "1-0")
    assert outsider.status_code == 403
    assert outsider.get_json()["error"]["code"] == "forbidden"
    assert vote(client, tokens["td"], case_id, "1-0").status_code == 403  # the TD does not vote
    assert vote(client, tokens["m1"], case_id, "1-0").status_code == 201
    second = vote(client, tokens["m1"], case_id, "0-1")
    assert second.status_code == 409
    assert second.get_json()["error"]["code"] == "already_voted"
    assert client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(tokens["td"])).get_json()[
        "votes_cast"] == 1


def test_missing_or_wrong_token_is_401(app: Flask, tokens: dict[str, str]) -> None:
    client = app.test_client()
    case_id = open_case(client, tokens)["id"]
    url = f"/api/v1/committee-cases/{case_id}"
    for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic bTE6eA=="},
                    {"Authorization": "Bearer "}):
        assert client.get(url, headers=headers).status_code == 401
        response = client.post(f"{url}/votes", json={"result": "1-0"}, headers=headers)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.get_json()["error"]["field"] == "Authorization"
    assert client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"])).status_code == 401
    assert client.get(url, headers=bearer(tokens["m1"])).get_json()["votes_cast"] == 0


def test_only_a_td_or_admin_opens_cases(app: Flask, tokens: dict[str, str]) -> None:
    client = app.test_client()
    response = client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                           headers=bearer(tokens["m1"]))
    assert response.status_code == 403
    admin = add_user(app, "chief", "admin")
    assert client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                       headers=bearer(admin)).status_code == 201


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        ({"members": ["m1", "m2"]}, "members", "3 different members"),
        ({"members": ["m1", "m1", "m2"]}, "members", "3 different members"),
        ({"members": ["m1", "m2", "nobody"]}, "members", "no user named 'nobody'"),
        ({"members": ["m1", "m2", "april"]}, "members", "not a committee member"),
        ({"players": {"red": {"name": "Ann", "club": "Blues"}}}, "members", "same club (Blues)"),
        ({"players": {"white": "m2"}}, "members", "m2 is a player in this game"),
        ({"ruleset": "fide-standard"}, "ruleset", "is for chess"),
        ({"ruleset": "no-such"}, "ruleset", "unknown ruleset"),
        ({"claim": "flag"}, "claim", "unfinished-game"),
        ({"fen": None}, "record", "record or the position"),
        ({"result": "x", "result_extra": 1, "clock": {"blue": 3}}, "clock.blue", "unknown entry"),
        ({"time_control": "zzz+30"}, "time_control", "zzz+30"),  # as a claim refuses it
    ],
)
def test_bad_cases_are_refused_naming_the_field(app: Flask, tokens: dict[str, str], change: dict[str, Any],
                                               field: str, fragment: str) -> None:
    body = checkers_case(["m1", "m2", "m3"])
    body.update(change)
    response = app.test_client().post("/api/v1/committee-cases", json=body, headers=bearer(tokens["td"]))
    assert response.status_code in (400, 422)
    error = response.get_json()["error"]
    assert error["field"] == field
    assert fragment in error["message"]


def test_bad_votes_and_unknown_cases(app: Flask, tokens: dict[str, str]) -> None:
    client = app.test_client()
    case_id = open_case(client, tokens)["id"]
    bad = vote(client, tokens["m1"], case_id, "white wins")
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "result"
    not_json = client.post(f"/api/v1/committee-cases/{case_id}/votes", data="1-0", headers=bearer(tokens["m1"]))
    assert not_json.status_code == 415  # a JSON write needs Content-Type: application/json (issue 11)
    not_object = client.post(f"/api/v1/committee-cases/{case_id}/votes", data="1", headers=bearer(tokens["m1"]),
                             content_type="application/json")
    assert not_object.status_code == 400
    assert vote(client, tokens["m1"], 999, "1-0").status_code == 404
    assert client.get("/api/v1/committee-cases/999", headers=bearer(tokens["m1"])).status_code == 404
    assert vote(client, tokens["m1"], case_id, "1-0").status_code == 201  # the refused attempts cost nothing


def test_a_chess_case_from_a_record_shows_the_position_reached(app: Flask, tokens: dict[str, str]) -> None:
    body = {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game",
            "record": '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 2. Nf3 *', "members": ["m1", "m2", "m3"]}
    response = app.test_client().post("/api/v1/committee-cases", json=body, headers=bearer(tokens["td"]))
    assert response.status_code == 201
    case = response.get_json()
    assert case["position"]["fen"].startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b")
    assert case["players"]["white"]["name"] == "Ann" and case["players"]["black"]["name"] == "Bob"
