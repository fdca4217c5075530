"""A time control through the JSON API: the one reader of every claim (adjudicator.clocks.parse_time_control).

The TD's walk-through found the illegal-move and unfinished-game claims stored a control nobody can read
(``40/90+30/30+30``, ``zzz+30``) with 201, where the flag claim refused it with 422; and an illegal move
under ``G/90+30`` kept the 30 s increment the offender gained (case P17). New input is refused naming
``time_control``; a case stored before the check still opens, and an unfinished game's referral to the
committee carries its control as it was stored.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from adjudicator.contract import parse_case
from adjudicator.rule import rule
from tests.web.committee_support import add_user, bearer, make_app
from tests.web.events_support import PASSWORD, add_event, assign
from web.submit import book
from web.tables.events import Event
from web.tables.rulings import add_case, add_ruling

P17 = "1. e4 e5 2. f4 Qh4+ 3. Nc3"
MATED = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 40"
OPEN = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 40"
"""A game that goes on (a mated one has nothing for the committee: it is not referred)."""
"""Black is checkmated: the unfinished game is ruled by the rules alone (no engine needed)."""
UNREADABLE = ("40/90+30/30+30", "zzz+30")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    made = make_app(tmp_path_factory.mktemp("time-control"), mp)
    made.config["tokens"] = {"tina": add_user(made, "tina", "td", password=PASSWORD)}
    add_event(made, "spring")
    assign(made, "spring", "tina", "td")
    try:
        yield made
    finally:
        made.extensions["adjudicator"].shutdown()
        mp.undo()


def post(app: Flask, body: dict[str, Any]) -> Any:
    return app.test_client().post("/api/v1/rulings", headers=bearer(app.config["tokens"]["tina"]),
                                  json={"event": "spring", "game": "chess", "ruleset": "fide-standard", **body})


@pytest.mark.parametrize("control", UNREADABLE)
@pytest.mark.parametrize("claim", [{"claim": "illegal-move", "claimant": "black", "record": P17},
                                   {"claim": "unfinished-game", "fen": MATED},
                                   {"claim": "flag", "fen": MATED, "clock": {"white": 0, "black": 60,
                                                                            "flagged": ["white"]}}],
                         ids=["illegal-move", "unfinished-game", "flag"])
def test_an_unreadable_control_is_422_naming_time_control_for_every_claim(
    app: Flask, claim: dict[str, Any], control: str
) -> None:
    response = post(app, {**claim, "time_control": control})
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "invalid_time_control" and error["field"] == "time_control"


def test_p17_under_g90_plus_30_removes_the_increment(app: Flask) -> None:
    response = post(app, {"claim": "illegal-move", "claimant": "black", "record": P17, "time_control": "G/90+30",
                          "clock": {"white": "0:14:10", "black": "0:09:00"}})
    assert response.status_code == 201
    body = response.get_json()
    assert "remove the 30 s increment White gained by pressing the clock" in body["instructions"]
    assert {"side": "white", "seconds": -30} in [{k: a[k] for k in ("side", "seconds")} for a in body["adjustments"]]


def test_a_case_stored_before_the_check_still_opens_and_its_referral_carries_the_control(app: Flask) -> None:
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game", "fen": OPEN,
            "time_control": UNREADABLE[0]}
    with app.app_context():
        ruling = rule(parse_case(data), book()).to_json()  # the claim itself never needed the control
    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug="spring").one()
        case = add_case(session, data, {"board": "4"}, "api", event.id)
        ruling_id = add_ruling(session, case.id, ruling, 5).id
        session.commit()
    tina = app.test_client()
    assert tina.post("/login", data={"name": "tina", "password": PASSWORD}).status_code == 303
    page = tina.get(f"/rulings/{ruling_id}")
    assert page.status_code == 200 and "Refer to the committee" in page.get_data(as_text=True)
    assert tina.get(f"/api/v1/rulings/{ruling_id}", headers=bearer(app.config["tokens"]["tina"])).status_code == 200
    form = tina.get(f"/committee/cases/new?ruling={ruling_id}")
    assert form.status_code == 200
    found = re.search(r'name="time_control"[^>]*?value="([^"]*)"', form.get_data(as_text=True))
    assert found is not None and found.group(1) == UNREADABLE[0]
