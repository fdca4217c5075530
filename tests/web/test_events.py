"""Events (issue 11): the default event works with no set-up, a private event's rulings reach its
staff and, through a share link, its players; a job is cancelled only by whoever entered it; tokens
limited to one event; the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from committee_support import add_user, bearer, make_app
from events_support import PASSWORD, QUICK_CASE, add_event, assign, board_case, event_token
from flask import Flask

from tests.cli_runs import run_in_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    app = make_app(tmp_path, monkeypatch)
    add_event(app, "closed", private=True, ruleset="fide-standard")
    add_user(app, "tara", "td", password=PASSWORD)
    assign(app, "closed", "tara", "td")
    return app


def login(app: Flask, name: str) -> object:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def test_with_no_set_up_anyone_rules_in_the_default_event(app: Flask) -> None:
    response = app.test_client().post("/api/v1/rulings", json=QUICK_CASE)
    assert response.status_code == 201
    assert (response.json["verdict"], response.json["event"]) == ("upheld", "default")
    page = app.test_client().get(f"/rulings/{response.json['id']}")
    assert page.status_code == 200


def test_a_private_events_ruling_is_hidden_from_others_and_reaches_a_player_by_its_link(app: Flask) -> None:
    tara = add_user(app, "tara2", "td")
    assign(app, "closed", "tara2", "td")
    given = app.test_client().post("/api/v1/rulings", json={**QUICK_CASE, "event": "closed"}, headers=bearer(tara))
    assert given.status_code == 201
    ruling_id, share = given.json["id"], given.json["share_url"]
    anyone = app.test_client()
    assert anyone.get(f"/api/v1/rulings/{ruling_id}").status_code == 404
    assert anyone.get(f"/rulings/{ruling_id}").status_code == 404
    assert f"/rulings/{ruling_id}" not in anyone.get("/history").get_data(as_text=True)
    staff_page = login(app, "tara").get(f"/rulings/{ruling_id}").get_data(as_text=True)  # type: ignore[attr-defined]
    assert share in staff_page and f"/rulings/{ruling_id}" in login(app, "tara").get(  # type: ignore[attr-defined]
        "/history").get_data(as_text=True)
    path = share.split("://", 1)[1].split("/", 1)[1]
    player = app.test_client()
    opened = player.get("/" + path)
    assert opened.status_code == 303
    assert player.get(opened.headers["Location"]).status_code == 200
    assert player.get(f"/rulings/{ruling_id}/sheet.pdf").status_code == 200
    code = path.rsplit("/", 1)[1]
    assert anyone.get(f"/api/v1/shared/{code}").json["verdict"] == "upheld"
    forged = code[:-1] + ("0" if code[-1] != "0" else "1")
    assert anyone.get(f"/s/{forged}").status_code == 404
    assert anyone.get(f"/api/v1/shared/{ruling_id - 1 if ruling_id > 1 else ruling_id + 1}-{code.split('-')[1]}"
                      ).status_code == 404
    # a superscript or Arabic-Indic digit is no id, and a code is ASCII
    for odd in ("\u00b9-abc", "\u0661-abc", f"{ruling_id}-\u00e9", "-", "x" * 500):
        assert anyone.get(f"/api/v1/shared/{odd}").status_code == 404
        assert anyone.get(f"/s/{odd}").status_code == 404


def test_an_event_is_ruled_under_its_ruleset(app: Flask) -> None:
    token = add_user(app, "tess", "td")
    assign(app, "closed", "tess", "td")
    response = app.test_client().post("/api/v1/rulings", json={**QUICK_CASE, "ruleset": "fide-rapid",
                                                               "event": "closed"}, headers=bearer(token))
    assert response.status_code == 422 and response.json["error"]["field"] == "ruleset"
    unknown = app.test_client().post("/api/v1/rulings", json={**QUICK_CASE, "event": "nowhere"})
    assert unknown.status_code == 422 and unknown.json["error"]["field"] == "event"


def test_an_event_token_acts_in_its_event_only(app: Flask) -> None:
    add_event(app, "other")
    assign(app, "other", "tara", "td")
    token = event_token(app, "closed", "tara")
    client = app.test_client()
    assert client.post("/api/v1/rulings", json={**QUICK_CASE, "event": "closed"},
                       headers=bearer(token)).status_code == 201
    assert client.post("/api/v1/rulings", json={**QUICK_CASE, "event": "other"},
                       headers=bearer(token)).status_code == 403
    assert client.post("/api/v1/rulings", json=QUICK_CASE, headers={"Authorization": "Bearer nonsense"}
                       ).status_code == 401


def test_a_visitor_with_a_csrf_token_cannot_cancel_someone_elses_job(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch, WTF_CSRF_ENABLED=True)
    case_id = board_case(app, "default", "anon")
    visitor = app.test_client()
    form = visitor.get("/claims/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert token is not None
    refused = visitor.post(f"/cases/{case_id}/cancel", data={"csrf_token": token.group(1)})
    assert refused.status_code == 403
    assert 'id="cancel"' not in visitor.get(f"/cases/{case_id}").get_data(as_text=True)


def test_whoever_entered_a_claim_cancels_its_job(app: Flask, stand_ins: dict[str, str]) -> None:
    submitter = app.test_client()
    response = submitter.post("/claims", data={"game": "chess", "ruleset": "fide-standard",
                                               "claim": stand_ins["slow"], "claimant": "white",
                                               "fen": "4k3/8/8/8/8/8/8/4K2R w - - 0 1"})
    assert response.status_code == 303 and "/cases/" in response.headers["Location"]
    job_page = response.headers["Location"]
    assert 'id="cancel"' in submitter.get(job_page).get_data(as_text=True)
    assert app.test_client().post(job_page + "/cancel").status_code == 403  # another browser
    assert submitter.post(job_page + "/cancel").status_code == 303
    deadline = time.monotonic() + 120  # polled: the analysis stops at its next progress report (bounds a hang)
    while "Cancelled" not in submitter.get(job_page).get_data(as_text=True) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Cancelled" in submitter.get(job_page).get_data(as_text=True)


def run(db: Path, *argv: str, process: bool = False) -> tuple[int, str]:
    """``adjudicator *argv`` on ``db``: in this process (tests/cli_runs.py), or as a real process."""
    env = {"ADJUDICATOR_DATABASE_URL": f"sqlite:///{db}", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if not process:
        done = run_in_process(argv, env)
        return done.returncode, done.stdout
    done = subprocess.run([sys.executable, "-m", "adjudicator", *argv], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)
    return done.returncode, done.stdout


def test_the_command_line_makes_events_staff_and_event_tokens(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    code, out = run(db, "events", "add", "spring-open", "--name", "Spring Open", "--starts", "2026-04-01",
                    "--ends", "2026-04-03", "--ruleset", "fide-standard", "--private", process=True)
    assert code == 0 and json.loads(out)["visibility"] == "private"
    assert run(db, "events", "add", "late", "--name", "x", "--starts", "2026-04-03", "--ends", "2026-04-01")[0] == 2
    assert run(db, "events", "add", "Bad Slug", "--name", "x")[0] == 2
    code, out = run(db, "events", "list")
    assert [json.loads(line)["slug"] for line in out.splitlines()] == ["default", "spring-open"]
    assert run(db, "users", "add", "tina", "--role", "td", "--password", PASSWORD)[0] == 0
    assert run(db, "events", "token", "spring-open", "tina")[0] == 2  # not on its staff yet
    assert run(db, "events", "staff", "spring-open", "tina", "--role", "td")[0] == 0
    code, token = run(db, "events", "token", "spring-open", "tina")
    assert code == 0 and len(token.strip()) > 30
    code, report = run(db, "audit", "verify")
    assert code == 0 and json.loads(report)["entries"] == 4  # user, event, staff, token


def test_whoever_voted_on_a_case_cannot_decide_the_appeal_against_it(app: Flask) -> None:
    from committee_support import checkers_case

    ada = add_user(app, "ada", "admin", password=PASSWORD)
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2")}
    april = add_user(app, "april", "appeals")
    client = app.test_client()
    case = client.post("/api/v1/committee-cases", json=checkers_case(["ada", "m1", "m2"]), headers=bearer(ada)).json
    for token in (ada, *members.values()):
        assert client.post(f"/api/v1/committee-cases/{case['id']}/votes", json={"result": "1-0"},
                           headers=bearer(token)).status_code == 201
    appeal = client.post("/api/v1/appeals", headers=bearer(ada), json={"subject": f"committee-case:{case['id']}",
                                                                      "grounds": "White holds"}).json
    decision = {"outcome": "overturned", "new_result": "1/2-1/2", "reasons": "White holds the draw"}
    refused = client.post(f"/api/v1/appeals/{appeal['id']}/decision", headers=bearer(ada), json=decision)
    assert refused.status_code == 403 and refused.json["error"]["code"] == "conflict_of_duties"
    page = login(app, "ada").post(f"/appeals/{appeal['id']}/decision", data=decision)  # type: ignore[attr-defined]
    assert page.status_code == 403
    assert client.post(f"/api/v1/appeals/{appeal['id']}/decision", headers=bearer(april),
                       json=decision).status_code == 201
