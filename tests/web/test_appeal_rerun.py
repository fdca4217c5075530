"""Issue 35, item 3: an appeal re-runs what was appealed and compares what matters to the decision, in words
first (verdict, result, proven facts, the score beyond a stated tolerance); settings that differ are listed
apart, folded; an appeal against the arbiter's finding re-runs the deferred analysis, engine included, and
shows the finding and the facts it rested on (web/appeals/decisive.py)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from committee_support import add_user, bearer, make_app
from events_support import PASSWORD, assign
from flask import Flask

from web.appeals.decisive import decisive, settings_differing
from web.appeals.service import differences
from web.tables.events import DEFAULT_EVENT_ID

ORIGINAL = {"verdict": "deferred", "result": None, "evidence": {
    "favours": "white", "method": "search", "score": -135, "line": ["11-16", "22-17"],
    "engine": {"name": "search", "hash_mb": 16}, "deterministic": False, "nodes": 6001}}


def test_a_hash_size_and_a_deterministic_flag_are_settings_not_differences() -> None:
    rerun = {**ORIGINAL, "evidence": {**ORIGINAL["evidence"], "engine": {"name": "search", "hash_mb": 64},
                                      "deterministic": True, "nodes": 6100, "score": -120}}
    assert differences(ORIGINAL, rerun, None, None) == []
    found = {f.label: (f.is_same, f.text) for f in decisive(ORIGINAL, rerun, 50)}
    assert found["Verdict"] == (True, "the same: deferred") and found["Proven facts"][0]
    assert found["Score"] == (True, "-135 then, -120 now: within the tolerance of 50")
    assert {name for name, _then, _now in settings_differing(ORIGINAL, rerun, None, None)} == {
        "engine", "deterministic", "nodes"}


def test_a_score_beyond_the_tolerance_and_a_changed_fact_are_differences() -> None:
    rerun = {**ORIGINAL, "evidence": {**ORIGINAL["evidence"], "score": 40, "favours": "red"}}
    found = {f.label: (f.is_same, f.text) for f in decisive(ORIGINAL, rerun, 50)}
    assert found["Score"] == (False, "-135 then, 40 now: beyond the tolerance of 50")
    assert found["Proven facts"] == (False, "favours: white then, red now")
    assert [d["field"] for d in differences(ORIGINAL, rerun, None, None)] == ["evidence", "score"]


ILC = {"game": "chess", "ruleset": "fide-standard-guidelines-iii", "claim": "insufficient-losing-chances",
       "claimant": "black", "fen": "6k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 60",
       "clock": {"white": "0:05:00", "black": "0:01:30"}, "time_control": "5400"}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    made = make_app(tmp_path_factory.mktemp("rerun"), mp)
    made.config["tokens"] = {name: add_user(made, name, role, password=PASSWORD)
                             for name, role in (("tina", "td"), ("ada", "appeals"))}
    assign(made, "default", "tina", "td")
    assign(made, "default", "ada", "appeals")
    try:
        yield made
    finally:
        made.extensions["adjudicator"].shutdown()
        mp.undo()


def test_an_appeal_against_the_finding_reruns_the_engine_and_shows_what_the_finding_rested_on(app: Flask) -> None:
    assert DEFAULT_EVENT_ID == 1
    client = app.test_client()
    deferred = client.post("/api/v1/rulings", json=ILC).json
    assert client.post(f"/rulings/{deferred['id']}/finding", data={"finding": "accept"}).status_code == 303
    for _ in range(400):
        outcome = client.get(f"/api/v1/rulings/{deferred['id']}").json["outcome"]
        if outcome["status"] == "decided":
            break
        time.sleep(0.05)
    finding_ruling = outcome["ruling"]
    filed = client.post("/api/v1/appeals", headers=bearer(app.config["tokens"]["tina"]),
                        json={"subject": f"ruling:{finding_ruling}", "grounds": "White could still win."})
    assert filed.status_code == 201, filed.json
    ada = app.test_client()
    assert ada.post("/login", data={"name": "ada", "password": PASSWORD}).status_code == 303
    page = ada.get(f"/appeals/{filed.json['id']}").get_data(as_text=True)
    assert 'id="finding-facts"' in page and "Finding" in page.split('id="finding-facts"')[1][:400]
    rerun = page.split('id="deferred-decisive"')[1].split("</ul>")[0]
    assert re.search(r"<strong>Verdict</strong>: the same: deferred", rerun), rerun
    assert re.search(r"<strong>Proven facts</strong>: the same", rerun), rerun
