"""A private event cannot be told from one that does not exist (issue 39, item 1): anonymous clients, other
events' TDs and other events' organisers get the same status and the same error for a private event's slug
as for a slug no event has, on the rulings API, the claim form and the committee API."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from committee_support import add_user, checkers_case, make_app
from events_support import EVENTS, PASSWORD, QUICK_CASE, World, assign, build_world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        app = make_app(tmp_path_factory.mktemp("secrecy"), monkeypatch)
        world = build_world(app)
        world.tokens["opub"] = add_user(app, "opub", "td", password=PASSWORD)
        assign(app, "pub", "opub", "organiser")
        yield world
        app.extensions["adjudicator"].shutdown()


def _api_ruling(world: World, who: str, slug: str) -> tuple[int, Any]:
    response = world.app.test_client().post("/api/v1/rulings", json={**QUICK_CASE, "event": slug},
                                            headers=world.headers(who))
    return response.status_code, response.json


def _api_case(world: World, who: str, slug: str) -> tuple[int, Any]:
    response = world.app.test_client().post("/api/v1/committee-cases", headers=world.headers(who),
                                            json={**checkers_case(["m1", "m2", "m3"]), "event": slug})
    return response.status_code, response.json


def _form_claim(world: World, who: str, slug: str) -> tuple[int, Any]:
    client = world.app.test_client() if who == "anon" else world.login(who)
    form = {"event_slug": slug, "game": "chess", "ruleset": "fide-standard", "claim": QUICK_CASE["claim"],
            "record": QUICK_CASE.get("record", ""), "claimant": QUICK_CASE.get("claimant", "white")}
    response = client.post("/claims", data=form)
    text = response.get_data(as_text=True)
    return response.status_code, ("there is no event" in text, "not a TD" in text or "needs a TD" in text)


def _same(answer: tuple[int, Any], missing: tuple[int, Any], slug: str) -> bool:
    """The same status and the same body, but for the slug each names."""
    return answer[0] == missing[0] and (json.dumps(answer[1]).replace(repr(slug), "'?'")
                                        == json.dumps(missing[1]).replace("'nowhere'", "'?'"))


STRANGERS = ("anon", "tdef", "tpub", "opub")


@pytest.mark.parametrize("who", STRANGERS)
@pytest.mark.parametrize("ask", [_api_ruling, _form_claim])
def test_a_stranger_is_answered_as_for_an_event_that_does_not_exist(world: World, who: str, ask: Any) -> None:
    assert "priv" in EVENTS
    assert _same(ask(world, who, "priv"), ask(world, who, "nowhere"), "priv")


@pytest.mark.parametrize("who", ("tdef", "tpub", "opub"))
def test_the_committee_api_answers_a_stranger_as_for_no_event(world: World, who: str) -> None:
    hidden, missing = _api_case(world, who, "priv"), _api_case(world, who, "nowhere")
    assert hidden[0] == missing[0] == 422
    assert _same(hidden, missing, "priv")


def test_the_events_own_staff_are_still_told_what_they_may_not_do(world: World) -> None:
    status, body = _api_ruling(world, "m4", "priv")  # on its committee pool, not a TD
    assert status == 403 and "not a TD" in body["error"]["message"]
    status, _ = _api_ruling(world, "tpriv", "priv")
    assert status == 201
