"""Issue 22, item 7: "Refer to the committee" on an unfinished-game ruling opens the committee's form with the
game filled in (players from the pairings, clubs, clocks, the record and its end position, round and board),
and the case opened from it remembers the ruling (one case per ruling). Who may: the event's TDs. The forms
work without JavaScript: the checkers editor's taps and a change of game are posts the server answers with
the form drawn again."""

from __future__ import annotations

import re
from typing import Any

import pytest
from committee_support import add_user, bearer, make_app
from events_support import PASSWORD, add_event, assign
from flask import Flask

from web.audit import now
from web.tables.committee import CommitteeCase
from web.tables.events import Event
from web.tables.pairings import Pairing

RECORD = ('[Event "Spring"]\n[Round "3"]\n[WhiteClub "Rooks"]\n[BlackTeam "Texas"]\n\n'
          "1. e4 {[%clk 0:59:50]} e5 {[%clk 0:59:40]} 2. Nf3 {[%clk 0:59:00]} Nc6 {[%clk 0:58:30]} *")
END = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w"
"""The record's end: placement and side to move."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    made = make_app(tmp_path_factory.mktemp("referral"), mp)
    tokens = {name: add_user(made, name, role, password=PASSWORD, club=club)
              for name, role, club in (("tina", "td", None), ("tom", "td", None), ("m1", "committee", "Knights"),
                                       ("m2", "committee", None), ("m3", "committee", None))}
    add_event(made, "spring")  # any ruleset: chess and checkers games
    add_event(made, "other")
    assign(made, "spring", "tina", "td")
    assign(made, "other", "tom", "td")
    for member in ("m1", "m2", "m3"):
        assign(made, "spring", member, "committee")
    with made.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug="spring").one()
        session.add(Pairing(event_id=event.id, round=3, board=7, white="Alice Alpha", black="Bob Beta",
                            imported_at=now()))
        session.commit()
    made.config["tokens"] = tokens
    try:
        made.config["rulings"] = _rulings(made, tokens["tina"])
        yield made
    finally:
        made.extensions["adjudicator"].shutdown()
        mp.undo()


def _rulings(made: Flask, token: str) -> dict[str, int]:
    client = made.test_client()
    found: dict[str, int] = {}
    for key, body in (("chess", {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game",
                                 "record": RECORD, "meta": {"board": "7"}, "time_control": "5400",
                                 "clock": {"white": "0:59:00", "black": 1710}}),
                      ("checkers", {"game": "checkers", "ruleset": "acf-master-division", "claim": "unfinished-game",
                                    "fen": "B:W21,22,23,K30:B9,10,11", "meta": {"round": "2", "board": "1"},
                                    "clock": {"red": "0:03:10", "white": "0:01:40"}}),
                      ("threefold", {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                                     "claimant": "white", "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"})):
        response = client.post("/api/v1/rulings", headers=bearer(token), json={"event": "spring", **body})
        assert response.status_code == 201, response.json
        found[key] = response.json["id"]
    return found


def login(app: Flask, name: str) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def field(page: str, name: str) -> str | None:
    found = re.search(rf'name="{name}"[^>]*?value="([^"]*)"', page)
    return None if found is None else found.group(1).replace("&#39;", "'").replace("&amp;", "&")


def test_the_ruling_page_refers_an_unfinished_game_and_the_form_has_everything(app: Flask) -> None:
    tina = login(app, "tina")
    ruling = app.config["rulings"]["chess"]
    page = tina.get(f"/rulings/{ruling}").get_data(as_text=True)
    assert f'href="/committee/cases/new?ruling={ruling}"' in page and "Refer to the committee" in page
    form = tina.get(f"/committee/cases/new?ruling={ruling}")
    assert form.status_code == 200
    text = form.get_data(as_text=True)
    assert field(text, "ruling") == str(ruling) and "Referred from ruling" in text
    assert field(text, "white_name") == "Alice Alpha" and field(text, "black_name") == "Bob Beta"  # the pairings
    assert field(text, "white_club") == "Rooks" and field(text, "black_team") == "Texas"  # the record's tags
    assert field(text, "clock_white") == "0:59:00" and field(text, "clock_black") == "28:30"  # 1710 s
    assert field(text, "round") == "3" and field(text, "board") == "7" and field(text, "time_control") == "5400"
    assert (field(text, "fen") or "").startswith(END)  # the record's end, on the board editor
    assert "data-board-editor" in text and "[%clk 0:59:50]" in text  # the chess editor; the record kept
    assert 'value="fide-standard" title' in text and field(text, "event") == "spring"
    assert 'value="other"' not in text  # a referred ruling stays with its event: no other event is offered


def test_the_referred_case_opens_without_javascript_once_and_the_ruling_points_to_it(app: Flask) -> None:
    tina = login(app, "tina")
    ruling = app.config["rulings"]["chess"]
    text = tina.get(f"/committee/cases/new?ruling={ruling}").get_data(as_text=True)
    names = ("event", "game", "ruleset", "round", "board", "fen", "time_control", "ruling", "white_name",
             "white_club", "black_name", "black_team", "clock_white", "clock_black")
    data = {name: field(text, name) or "" for name in names}
    data.update(event="spring", game="chess", ruleset="fide-standard", record=RECORD, members=["m1", "m2", "m3"])
    edited = {**data, "fen": "7k/8/5KQ1/8/8/8/8/8 w - - 0 70"}  # the board moved off the record's end
    refused = tina.post("/committee/cases/new", data=edited)
    assert refused.status_code == 422 and "the record rules" in refused.get_data(as_text=True)
    assert 'aria-invalid="true" aria-describedby="error-fen"' in refused.get_data(as_text=True)
    opened = tina.post("/committee/cases/new", data=data)
    assert opened.status_code == 303, opened.get_data(as_text=True)[:3000]
    case_id = int(opened.headers["Location"].rsplit("/", 1)[1])
    with app.extensions["db_sessions"]() as session:
        case = session.get(CommitteeCase, case_id)
        assert case is not None and case.referred_ruling_id == ruling
        assert case.players["white"] == {"name": "Alice Alpha", "club": "Rooks", "team": None}
        assert case.case["clock"] == {"white": "0:59:00", "black": "28:30"}
    page = tina.get(f"/rulings/{ruling}").get_data(as_text=True)
    assert f"/committee/cases/{case_id}" in page and 'id="refer"' not in page
    again = tina.get(f"/committee/cases/new?ruling={ruling}")
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/committee/cases/{case_id}")
    twice = tina.post("/committee/cases/new", data=data)
    assert twice.status_code == 409 and f"committee case {case_id}" in twice.get_data(as_text=True)


@pytest.mark.parametrize(("who", "status"), [("m1", 403), ("tom", 404)])  # tom: a stranger to the event
def test_only_the_event_s_tds_refer(app: Flask, who: str, status: int) -> None:
    client = login(app, who)
    ruling = app.config["rulings"]["checkers"]
    assert 'id="refer"' not in client.get(f"/rulings/{ruling}").get_data(as_text=True)
    assert client.get(f"/committee/cases/new?ruling={ruling}").status_code == status


def test_only_an_unfinished_game_is_referred(app: Flask) -> None:
    tina = login(app, "tina")
    ruling = app.config["rulings"]["threefold"]
    assert 'id="refer"' not in tina.get(f"/rulings/{ruling}").get_data(as_text=True)
    assert tina.get(f"/committee/cases/new?ruling={ruling}").status_code == 422
    assert tina.get("/committee/cases/new?ruling=99999").status_code == 404


def test_a_game_the_laws_already_ended_is_not_referred(app: Flask) -> None:
    """FIDE 5.2.2: a game whose record ends in a dead position (king and bishop against king) was drawn there; the
    ruling says so, and there is nothing for the committee: no "Refer" button, and the form and the API refuse."""
    tokens = app.config["tokens"]
    client = app.test_client()
    dead = client.post("/api/v1/rulings", headers=bearer(tokens["tina"]), json={
        "event": "spring", "game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game",
        "record": '[FEN "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1"]\n[SetUp "1"]\n\n1. Kxd2'})
    assert dead.status_code == 201 and dead.json["result"] == "1/2-1/2", dead.json
    assert dead.json["instructions"] == ["The Laws ended the game in this position: record the result; there is "
                                         "nothing for the committee to decide."]
    ruling = dead.json["id"]
    tina = login(app, "tina")
    assert 'id="refer"' not in tina.get(f"/rulings/{ruling}").get_data(as_text=True)
    refused = tina.get(f"/committee/cases/new?ruling={ruling}")
    assert refused.status_code == 422 and "dead position, FIDE 5.2.2" in refused.get_data(as_text=True)
    opened = client.post("/api/v1/committee-cases", headers=bearer(tokens["tina"]), json={
        "event": "spring", "game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game",
        "record": '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 2. Nf3 *', "members": ["m1", "m2", "m3"],
        "ruling": ruling})
    assert opened.status_code == 422 and opened.json["error"]["field"] == "ruling", opened.json


def test_a_checkers_referral_has_its_board_and_its_taps_work_without_javascript(app: Flask) -> None:
    tina = login(app, "tina")
    text = tina.get(f"/committee/cases/new?ruling={app.config['rulings']['checkers']}").get_data(as_text=True)
    assert field(text, "fen") == "B:W21,22,23,K30:B9,10,11" and field(text, "clock_red") == "0:03:10"
    assert 'id="checkers-editor"' in text and 'data-square="9" data-piece="r"' in text
    assert 'name="black_name"' not in text and field(text, "round") == "2"
    tapped = tina.post("/committee/cases/new/form", data={
        "event": "spring", "game": "checkers", "fen": "B:W21,22,23,K30:B9,10,11", "place": "14",
        "checkers_piece": "w", "red_name": "Ann", "clock_red": "0:03:10", "ruling": "7"})
    page = tapped.get_data(as_text=True)
    assert tapped.status_code == 200 and 'data-square="14" data-piece="w"' in page
    assert field(page, "fen") == "B:W14,21,22,23,K30:B9,10,11" and field(page, "red_name") == "Ann"
    assert field(page, "ruling") == "7" and "Legal position" in page


def test_changing_the_game_draws_its_sides_and_board(app: Flask) -> None:
    tina = login(app, "tina")
    page = tina.get("/committee/cases/new").get_data(as_text=True)
    assert 'name="white_name"' in page and 'name="black_name"' in page and 'name="red_name"' not in page
    redrawn = tina.post("/committee/cases/new/form", data={"event": "spring", "game": "checkers"})
    page = redrawn.get_data(as_text=True)
    assert redrawn.status_code == 200 and 'name="red_name"' in page and 'id="checkers-editor"' in page
    assert 'value="acf' in page and 'value="fide-standard"' not in page  # the game's own rulesets
    assert tina.post("/committee/cases/new/form", data={"event": "spring"}).status_code == 200
    m1 = login(app, "m1")
    assert m1.post("/committee/cases/new/form", data={"event": "spring"}).status_code == 403
