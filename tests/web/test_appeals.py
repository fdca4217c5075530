"""Appeals: the full record as it stood, a deterministic re-run with its differences, and the decision."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    app = make_app(tmp_path, monkeypatch)
    td = add_user(app, "tina", "td", password="td-password")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    add_user(app, "april", "appeals", password="appeals-password")
    client = app.test_client()
    case_id = client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
    for name, result, comment in (("m1", "1-0", "Red breaks through"), ("m2", "1-0", ""),
                                  ("m3", "1/2-1/2", "White holds")):
        client.post(f"/api/v1/committee-cases/{case_id}/votes", json={"result": result, "comment": comment},
                    headers=bearer(members[name]))
    return app


def login(app: Flask, name: str, password: str) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": password}).status_code == 303
    return client


def file_appeal(app: Flask) -> tuple[FlaskClient, str]:
    td = login(app, "tina", "td-password")
    response = td.post("/appeals/", data={"subject": "committee-case:1", "grounds": "Red says the win is clear"})
    assert response.status_code == 303
    return td, response.headers["Location"]


def test_the_appeal_page_shows_the_full_record_and_the_rerun(app: Flask) -> None:
    _td, url = file_appeal(app)
    page = login(app, "april", "appeals-password").get(url).get_data(as_text=True)
    assert "Red says the win is clear" in page
    for member, vote in (("m1", "1-0"), ("m2", "1-0"), ("m3", "1/2-1/2")):
        assert re.search(rf"<td>{member}</td><td[^>]*>{re.escape(vote)}</td>", page), member
    assert "White holds" in page
    # vote times: readable on the page, the exact instant kept in <time datetime>
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z">'
                     r'<span class="nowrap">\d{4}-\d\d-\d\d</span> '
                     r'<span class="nowrap">\d\d:\d\d UTC</span></time>', page)
    assert "B:W21,22,23,K30:B9,10,11" in page  # the inputs
    assert "&#34;deterministic&#34;: true" in page or '"deterministic": true' in page  # engine settings
    assert "ACF Master Division local rules" in page
    assert "Re-run at" in page
    assert "No difference: the re-run gives the same analysis." in page


def test_a_changed_analysis_shows_as_a_difference(app: Flask, tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "adjudicator.db") as con:  # as if another engine version had been used
        con.execute("UPDATE committee_cases SET recommendation_json = ?",
                    (json.dumps({"verdict": "adjudicated", "result": "1-0", "reasons": ["Red wins"]}),))
    _td, url = file_appeal(app)
    page = login(app, "april", "appeals-password").get(url).get_data(as_text=True)
    assert "difference(s) from the original analysis" in page
    # in words, part by part, before the raw record: the reasons differ, and both are written out
    readable = page.split('id="raw"')[0]
    assert re.search(r"<strong>Reasons</strong>:\s*<span class=\"tag rejected\">differs</span>", readable)
    assert "Original: Red wins" in readable
    assert "Result</strong>:" in readable and "Original: 1-0" in readable


def test_the_appeals_committee_overturns_with_a_new_result_and_reasons(app: Flask) -> None:
    td, url = file_appeal(app)
    appeal_id = url.rstrip("/").rsplit("/", 1)[1]
    assert td.post(f"/appeals/{appeal_id}/decision", data={"outcome": "upheld", "reasons": "x"}).status_code == 403
    april = login(app, "april", "appeals-password")
    missing = april.post(f"/appeals/{appeal_id}/decision",
                         data={"outcome": "overturned", "reasons": "Red's win is not clear"})
    assert missing.status_code == 422  # overturning needs the new result: the page again, as typed
    page = missing.get_data(as_text=True)
    assert re.search(r'<select id="d-new_result" name="new_result" aria-invalid="true"[^>]* autofocus>', page)
    assert 'id="d-new_result-error"' in page and "new result" in page
    assert 'value="overturned" checked' in page and ">Red&#39;s win is not clear</textarea>" in page
    same = april.post(f"/appeals/{appeal_id}/decision",
                      data={"outcome": "overturned", "new_result": "1/2-1/2", "reasons": "x"})
    assert same.status_code == 422 and "<option selected>1/2-1/2</option>" in same.get_data(as_text=True)
    done = april.post(f"/appeals/{appeal_id}/decision",
                      data={"outcome": "overturned", "new_result": "1-0", "reasons": "The win was verified."})
    assert done.status_code == 303 and "error=" not in done.headers["Location"]
    page = april.get(url).get_data(as_text=True)
    assert "<strong data-outcome>overturned</strong>; result <strong>1-0</strong>" in page
    assert "The win was verified." in page and "Decided by april" in page
    again = april.post(f"/appeals/{appeal_id}/decision", data={"outcome": "upheld", "reasons": "y"})
    assert again.status_code == 409  # one decision per appeal
    assert "already been decided" in again.get_data(as_text=True)


def test_the_appellant_is_told_why_they_cannot_decide_and_shown_no_form_to_submit(app: Flask) -> None:
    """Separation of duties: an appeals member who filed the appeal cannot decide it, so the page gives them no
    decision form (it answered 403 once submitted), only the reason; another member gets the form."""
    add_user(app, "ada", "appeals", password="appeals-password")
    april = login(app, "april", "appeals-password")
    filed = april.post("/appeals/", data={"subject": "committee-case:1", "grounds": "Red says the win is clear"})
    assert filed.status_code == 303
    own = april.get(filed.headers["Location"]).get_data(as_text=True)
    assert "Record the decision" not in own and 'id="decision-refused"' in own
    assert "april filed this appeal and cannot decide it" in own
    other = login(app, "ada", "appeals-password").get(filed.headers["Location"]).get_data(as_text=True)
    assert "Record the decision" in other and 'id="decision-refused"' not in other


def test_an_undecided_case_cannot_be_appealed_yet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    td = add_user(app, "tina", "td", password="td-password")
    for name in ("m1", "m2", "m3"):
        add_user(app, name, "committee")
    app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]), headers=bearer(td))
    response = login(app, "tina", "td-password").post("/appeals/", data={"subject": "committee-case:1",
                                                                          "grounds": "too early"})
    assert response.status_code == 422
    assert "has not decided yet" in response.get_data(as_text=True)


def test_appeal_filing_rerun_and_decision_are_audited(app: Flask, tmp_path: Path) -> None:
    td, url = file_appeal(app)
    appeal_id = url.rstrip("/").rsplit("/", 1)[1]
    login(app, "april", "appeals-password").post(f"/appeals/{appeal_id}/decision",
                                                  data={"outcome": "upheld", "reasons": "The draw stands."})
    with sqlite3.connect(tmp_path / "adjudicator.db") as con:
        kinds = [k for (k,) in con.execute("SELECT kind FROM audit_entries WHERE subject LIKE 'appeal:%' "
                                            "ORDER BY seq")]
    assert kinds == ["appeal", "appeal-rerun", "appeal-decision"]
    from web.audit import verify

    with app.extensions["db_sessions"]() as session:
        assert verify(session).is_intact


def test_an_overturned_decision_changes_the_exported_result(app: Flask) -> None:
    td, url = file_appeal(app)
    appeal_id = url.rstrip("/").rsplit("/", 1)[1]
    before = td.get("/committee/cases/1/record").get_data(as_text=True)
    assert before.rstrip().endswith("1/2-1/2") and "a win needs a unanimous vote" in before
    login(app, "april", "appeals-password").post(
        f"/appeals/{appeal_id}/decision",
        data={"outcome": "overturned", "new_result": "1-0", "reasons": "The win was verified."})
    after = td.get("/committee/cases/1/record").get_data(as_text=True)
    assert '[Result "1-0"]' in after and after.rstrip().endswith("1-0")
    assert f"Overturned on appeal #{appeal_id} (april): 1-0. The win was verified." in " ".join(after.split())
    page = td.get("/committee/cases/1").get_data(as_text=True)
    assert "TRF code 1 for Red, 0 for White" in page
    assert "the decision is overturned; new result 1-0" in page


def test_a_ruling_given_at_the_board_can_be_appealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("web.tables.rulings", reason="the rulings storage (web helper) is not merged yet")
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "tina", "td", password="td-password")
    add_user(app, "april", "appeals", password="appeals-password")
    case = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"}
    given = app.test_client().post("/api/v1/rulings", json=case)
    assert given.status_code == 201, given.get_json()
    ruling_id = given.get_json()["id"]
    response = login(app, "tina", "td-password").post(
        "/appeals/", data={"subject": f"ruling:{ruling_id}", "grounds": "Black says the position differed"})
    assert response.status_code == 303
    page = login(app, "april", "appeals-password").get(response.headers["Location"]).get_data(as_text=True)
    assert "threefold-repetition" in page and "1. Nf3 Nf6 2. Ng1 Ng8" in page
    assert "No difference: the re-run gives the same analysis." in page
    assert "setting(s) of the analysis differ" not in page, "how long the ruling took is not a setting"


def test_timings_are_not_differences_but_a_changed_line_is() -> None:
    from web.appeals.service import differences

    original = {"result": None, "evidence": {"line": ["11-16", "21-17"], "seconds": 11.0, "nodes": 100001}}
    slower = {"result": None, "evidence": {"line": ["11-16", "21-17"], "seconds": 14.2, "nodes": 100001}}
    assert differences(original, slower, None, None) == []
    changed = {"result": None, "evidence": {"line": ["11-15"], "seconds": 11.0, "nodes": 100001}}
    assert [d["field"] for d in differences(original, changed, None, None)] == ["evidence"]


def test_a_decided_appeal_keeps_the_rerun_its_decision_saw(app: Flask, tmp_path: Path) -> None:
    _td, url = file_appeal(app)
    appeal_id = url.rstrip("/").rsplit("/", 1)[1]
    april = login(app, "april", "appeals-password")
    assert "Re-run the analysis" in april.get(url).get_data(as_text=True)  # open: the committee may re-run it
    april.post(f"/appeals/{appeal_id}/decision", data={"outcome": "upheld", "reasons": "The re-run agrees."})
    db = sqlite3.connect(tmp_path / "adjudicator.db")
    before = db.execute("SELECT rerun_json, rerun_at FROM appeals WHERE id = ?", (appeal_id,)).fetchone()
    assert "Re-run the analysis" not in april.get(url).get_data(as_text=True)
    refused = april.post(f"/appeals/{appeal_id}/rerun")
    assert refused.status_code == 303 and "error=" in refused.headers["Location"]
    assert "decided" in april.get(refused.headers["Location"]).get_data(as_text=True)
    assert db.execute("SELECT rerun_json, rerun_at FROM appeals WHERE id = ?", (appeal_id,)).fetchone() == before
    with pytest.raises(sqlite3.DatabaseError, match="re-run its decision saw cannot change"):  # the database's own rule
        db.execute("UPDATE appeals SET rerun_at = 'later' WHERE id = ?", (appeal_id,))
