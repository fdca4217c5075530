"""The TD's and members' pages without JavaScript: open a case by form, vote by form, the tally fragment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from committee_support import CHECKERS_FEN, add_user, make_app
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "tina", "td", password="td-password")
    add_user(app, "m1", "committee", password="m1-password", club="Reds CC")
    for name in ("m2", "m3", "m4"):
        add_user(app, name, "committee", password=f"{name}-password")
    return app


def login(app: Flask, name: str) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": f"{name}-password" if name != "tina"
                                       else "td-password"}).status_code == 303
    return client


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


FORM = {"game": "checkers", "ruleset": "acf-master-division", "round": "3", "board": "7", "fen": CHECKERS_FEN,
        "red_name": "Ann Red", "red_club": "Reds CC", "white_name": "Walt White", "clock_red": "0:02:00"}


def test_the_td_opens_a_case_by_form_and_a_conflicted_member_is_refused(app: Flask) -> None:
    td = login(app, "tina")
    form_page = td.get("/committee/cases/new").get_data(as_text=True)
    assert 'value="m1"' in form_page and "(Reds CC)" in form_page
    refused = td.post("/committee/cases/new", data={**FORM, "members": ["m1", "m2", "m3"]})
    assert refused.status_code == 422
    assert "same club (Reds CC) as Ann Red" in refused.get_data(as_text=True)
    made = td.post("/committee/cases/new", data={**FORM, "members": ["m2", "m3", "m4"]})
    assert made.status_code == 303
    page = td.get(made.headers["Location"]).get_data(as_text=True)
    assert CHECKERS_FEN in page and "<svg" in page  # the position as entered, drawn for the members to verify
    assert "0 of 3 votes cast" in text(page) and 'hx-trigger="every 2' in page
    assert "Cast my vote" not in page  # the TD does not vote


def test_members_vote_by_form_and_the_tally_is_a_fragment_for_htmx(app: Flask) -> None:
    td = login(app, "tina")
    url = td.post("/committee/cases/new", data={**FORM, "members": ["m2", "m3", "m4"]}).headers["Location"]
    case_id = url.rstrip("/").rsplit("/", 1)[1]
    m2 = login(app, "m2")
    assert "Cast my vote" in m2.get(url).get_data(as_text=True)
    unverified = m2.post(f"{url}/votes", data={"result": "0-1", "comment": "White wins"})
    assert "error=Verify+the+position" in unverified.headers["Location"]
    assert "Cast my vote" in m2.get(url).get_data(as_text=True)  # not counted
    assert m2.post(f"{url}/votes", data={"result": "0-1", "comment": "White wins",
                                         "position_verified": "yes"}).status_code == 303
    page = m2.get(url).get_data(as_text=True)
    assert "Cast my vote" not in page and "You have voted" in page
    again = m2.post(f"{url}/votes", data={"result": "1-0", "position_verified": "yes"})
    assert "already+voted" in again.headers["Location"] or "already%20voted" in again.headers["Location"]
    outsider = login(app, "m1")
    assert outsider.post(f"{url}/votes", data={"result": "1-0", "position_verified": "yes"}).status_code == 403
    fragment = m2.get(f"/committee/cases/{case_id}/tally", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in fragment
    assert "1 of 3 votes cast" in text(fragment) and "White wins" not in fragment
    assert m2.get(f"/committee/cases/{case_id}/tally").status_code == 303  # without htmx: the page


def test_the_recommended_line_is_stepped_through_move_by_move(app: Flask) -> None:
    td = login(app, "tina")
    url = td.post("/committee/cases/new", data={**FORM, "members": ["m2", "m3", "m4"]}).headers["Location"]
    case_id = url.rstrip("/").rsplit("/", 1)[1]
    m2 = login(app, "m2")
    hidden = m2.get(url).get_data(as_text=True)  # a member still to vote: no engine before the position is verified
    assert 'id="verify-box"' in hidden and f"/committee/cases/{case_id}/line" not in hidden
    assert "Recommended result" not in hidden and "<svg" in hidden, "the position, not the line"
    assert m2.get(f"/committee/cases/{case_id}/line?ply=1", headers={"HX-Request": "true"}).status_code == 403
    assert m2.post(f"/committee/cases/{case_id}/verified", data={"verified": "yes"}).status_code == 303
    page = m2.get(url).get_data(as_text=True)
    assert "Recommended result" in page and 'id="verify-box"' not in page
    steps = re.findall(rf'href="(/committee/cases/{case_id}/line\?ply=(\d+))"', page)
    plies = [int(p) for _, p in steps]
    last = plies[1]
    assert plies == [1, last, *range(1, last + 1)] and last >= 2, "next and last move, then each move of the line"
    opening = re.search(r"\b1\. (\d+[-x]\d+(?:x\d+)*) (\d+[-x]\d+(?:x\d+)*)", text(page))
    assert opening is not None and "The position as entered" in text(page), "the line, from its first move"
    second = opening.group(2)  # the line depends on the endgame database built (4 or 5 pieces)
    assert page.count("<svg") == 1, "the position is drawn once: the line's board starts on it"
    assert page.index('id="board-line"') > page.index('id="position"'), "in the position's own section"
    fragment = m2.get(f"/committee/cases/{case_id}/line?ply=2", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in fragment and f"After 1... {second}" in text(fragment) and "<svg" in fragment
    assert "(ply 2 of" in text(fragment)
    plain = m2.get(f"/committee/cases/{case_id}/line?ply=2")  # without JavaScript: the page at that move
    assert plain.status_code == 303
    assert plain.headers["Location"].endswith(f"/committee/cases/{case_id}?ply=2#position")
    assert f"After 1... {second}" in text(m2.get(plain.headers["Location"]).get_data(as_text=True))
    outsider = login(app, "m1")  # not seated on this case
    assert outsider.get(f"/committee/cases/{case_id}/line?ply=1", headers={"HX-Request": "true"}).status_code == 403


def test_once_decided_the_voted_note_is_gone_and_times_read_to_the_minute(app: Flask) -> None:
    td = login(app, "tina")
    url = td.post("/committee/cases/new", data={**FORM, "members": ["m2", "m3", "m4"]}).headers["Location"]
    case_id = url.rstrip("/").rsplit("/", 1)[1]
    members = {name: login(app, name) for name in ("m2", "m3", "m4")}
    for client in members.values():
        client.post(f"{url}/votes", data={"result": "1/2-1/2", "comment": "drawn", "position_verified": "yes"})
    page = members["m2"].get(url).get_data(as_text=True)
    fragment = members["m2"].get(f"/committee/cases/{case_id}/tally", headers={"HX-Request": "true"})
    for html in (page, fragment.get_data(as_text=True)):
        assert "Decision:" in html and "You have voted" not in html
        shown = re.findall(r"<time[^>]*>(.*?)</time>", html, re.S)
        assert shown and all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", text(t)) for t in shown), shown
