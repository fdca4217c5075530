"""Races (issues 11 and 39): two appeals members deciding one appeal at the same moment, one member
sending the same vote twice (and ten times) at once, and three members voting together, against the real
served app on SQLite and PostgreSQL.
The database keeps one decision per appeal and one vote per member; the loser gets 409."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from committee_support import add_user, bearer, checkers_case, small_budgets
from events_support import QUICK_CASE
from flask import Flask

from tests.web.opened_apps import opened
from web import create_app

TRIES = 6


def serve(app: Flask) -> Iterator[str]:
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        app.extensions["adjudicator"].shutdown()
        app.extensions["db_engine"].dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def served(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[
        tuple[str, Flask]]:
    small_budgets(monkeypatch)
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else f"sqlite:///{tmp_path / 'r.db'}"
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", url)
    app = opened(create_app({"TESTING": True, "SECRET_KEY": "races", "WTF_CSRF_ENABLED": False}))
    for base in serve(app):
        yield base, app


def at_once(*calls: tuple[str, str, dict[str, str], dict[str, object]]) -> list[int]:
    """Send the requests together: every thread waits at a barrier, then posts."""
    barrier = threading.Barrier(len(calls))

    def send(call: tuple[str, str, dict[str, str], dict[str, object]]) -> int:
        method, url, headers, body = call
        with requests.Session() as session:
            prepared = session.prepare_request(requests.Request(method, url, headers=headers, json=body))
            barrier.wait()
            return session.send(prepared, timeout=60).status_code

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(send, calls))


def test_two_deciders_at_once_one_decision(served: tuple[str, Flask]) -> None:
    base, app = served
    td = add_user(app, "tina", "td")
    deciders = [add_user(app, name, "appeals") for name in ("april", "amos")]
    outcomes = []
    for attempt in range(TRIES):
        ruling = requests.post(f"{base}/api/v1/rulings", json=QUICK_CASE, timeout=60).json()
        appeal = requests.post(f"{base}/api/v1/appeals", headers=bearer(td), timeout=60,
                               json={"subject": f"ruling:{ruling['id']}", "grounds": "recount"}).json()
        url = f"{base}/api/v1/appeals/{appeal['id']}/decision"
        upheld = {"outcome": "upheld", "reasons": f"april, try {attempt}"}
        overturned = {"outcome": "overturned", "new_result": "1-0", "reasons": f"amos, try {attempt}"}
        statuses = at_once(("POST", url, bearer(deciders[0]), upheld), ("POST", url, bearer(deciders[1]), overturned))
        assert sorted(statuses) == [201, 409], statuses
        stored = requests.get(f"{base}/api/v1/appeals/{appeal['id']}", headers=bearer(td), timeout=60).json()
        winner = "april" if statuses[0] == 201 else "amos"
        assert (stored["status"], stored["decided_by"]) == ("decided", winner)
        outcomes.append(stored["outcome"])
    from web.audit import AuditEntry, verify

    with app.extensions["db_sessions"]() as session:
        decisions = [e.subject for e in session.query(AuditEntry).filter_by(kind="appeal-decision")]
        assert sorted(decisions) == sorted(set(decisions)) and len(decisions) == TRIES  # one entry per appeal
        assert verify(session).is_intact


def test_one_member_voting_twice_at_once_counts_once(served: tuple[str, Flask]) -> None:
    base, app = served
    td = add_user(app, "tina", "td")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    for _attempt in range(TRIES // 2):
        case = requests.post(f"{base}/api/v1/committee-cases", json=checkers_case(list(members)),
                             headers=bearer(td), timeout=120).json()
        url = f"{base}/api/v1/committee-cases/{case['id']}/votes"
        statuses = at_once(("POST", url, bearer(members["m1"]), {"result": "1-0"}),
                           ("POST", url, bearer(members["m1"]), {"result": "0-1"}))
        assert sorted(statuses) == [201, 409], statuses
        body = requests.get(f"{base}/api/v1/committee-cases/{case['id']}", headers=bearer(td), timeout=60).json()
        assert body["votes_cast"] == 1


def test_three_members_voting_at_once_are_all_counted(served: tuple[str, Flask]) -> None:
    """Issue 39, item 5: the three votes arrive together; each is stored once and the tally decides once."""
    base, app = served
    td = add_user(app, "tina", "td")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    case = requests.post(f"{base}/api/v1/committee-cases", json=checkers_case(list(members)),
                         headers=bearer(td), timeout=120).json()
    url = f"{base}/api/v1/committee-cases/{case['id']}/votes"
    statuses = at_once(*[("POST", url, bearer(token), {"result": "1/2-1/2"}) for token in members.values()])
    assert statuses == [201, 201, 201], statuses
    body = requests.get(f"{base}/api/v1/committee-cases/{case['id']}", headers=bearer(td), timeout=60).json()
    assert body["votes_cast"] == 3 and body["status"] == "decided", body


def test_one_member_sending_the_same_vote_ten_times_at_once_counts_once(served: tuple[str, Flask]) -> None:
    base, app = served
    td = add_user(app, "tina", "td")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    case = requests.post(f"{base}/api/v1/committee-cases", json=checkers_case(list(members)),
                         headers=bearer(td), timeout=120).json()
    url = f"{base}/api/v1/committee-cases/{case['id']}/votes"
    statuses = at_once(*[("POST", url, bearer(members["m2"]), {"result": "1-0"})] * 10)
    assert sorted(statuses) == [201] + [409] * 9, statuses
    body = requests.get(f"{base}/api/v1/committee-cases/{case['id']}", headers=bearer(td), timeout=60).json()
    assert body["votes_cast"] == 1


def test_audit_verify_names_an_appeal_decided_twice_by_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second decision chained into the trail by hand (hash and head rewritten: the chain itself holds)."""
    from committee_support import make_app

    from web.audit import Pending, _append_all, verify

    app = make_app(tmp_path, monkeypatch)
    td = add_user(app, "tina", "td")
    april = add_user(app, "april", "appeals")
    client = app.test_client()
    ruling = client.post("/api/v1/rulings", json=QUICK_CASE).json
    appeal = client.post("/api/v1/appeals", headers=bearer(td), json={"subject": f"ruling:{ruling['id']}",
                                                                      "grounds": "recount"}).json
    decided = client.post(f"/api/v1/appeals/{appeal['id']}/decision", headers=bearer(april),
                          json={"outcome": "upheld", "reasons": "the count is right"})
    assert decided.status_code == 201
    with app.extensions["db_sessions"]() as session:
        assert verify(session).is_intact
    with app.extensions["db_sessions"]() as session, session.begin():  # a second decision, bypassing the app
        _append_all(session.connection(), [Pending("appeal-decision", f"appeal:{appeal['id']}", {
            "status": "decided", "outcome": "overturned", "new_result": "1-0", "reasons": "forged",
            "decided_by": "april", "decided_at": "2026-01-01T00:00:00.000000Z"}, "april")])
    with sqlite3.connect(tmp_path / "adjudicator.db") as con:
        kinds = [k for (k,) in con.execute("SELECT kind FROM audit_entries WHERE subject = ?",
                                           (f"appeal:{appeal['id']}",))]
    assert kinds.count("appeal-decision") == 2
    with app.extensions["db_sessions"]() as session:
        report = verify(session)
    named = [p for p in report.problems if p.subject == f"appeal:{appeal['id']}" and "2 decisions" in p.problem]
    assert named, json.dumps(report.to_json())
    assert "an appeal is decided once" in named[0].problem
