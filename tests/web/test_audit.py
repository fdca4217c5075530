"""The audit trail: every case, ruling, vote and decision chained by hash; a hand edit is found and named."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from flask import Flask

from tests.cli_runs import run_in_process

ROOT = Path(__file__).resolve().parents[2]


def audit_verify(db: Path, process: bool = False) -> tuple[int, dict[str, object], str]:
    """``adjudicator audit verify`` on ``db``: in this process (tests/cli_runs.py), or as a real process."""
    env = {"ADJUDICATOR_DATABASE_URL": f"sqlite:///{db}", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if not process:
        found = run_in_process(["audit", "verify"], env)
        return found.returncode, json.loads(found.stdout), found.stderr
    done = subprocess.run([sys.executable, "-m", "adjudicator", "audit", "verify"], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    return done.returncode, json.loads(done.stdout), done.stderr


@pytest.fixture
def decided(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Flask, Path]:
    """A database holding one decided case (votes 1-0, 1-0, 1/2-1/2) and its audit trail."""
    app = make_app(tmp_path, monkeypatch)
    td = add_user(app, "tina", "td")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    client = app.test_client()
    case_id = client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
    for name, result in (("m1", "1-0"), ("m2", "1-0"), ("m3", "1/2-1/2")):
        client.post(f"/api/v1/committee-cases/{case_id}/votes", json={"result": result}, headers=bearer(members[name]))
    return app, tmp_path / "adjudicator.db"


def entries(db: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db) as con:
        return list(con.execute("SELECT seq, kind, subject FROM audit_entries ORDER BY seq"))


def test_every_case_recommendation_vote_and_decision_is_an_entry(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    kinds = [kind for _seq, kind, _subject in entries(db)]
    assert kinds == ["user"] * 4 + ["case", "recommendation", "vote", "vote", "vote", "decision"]
    code, report, _ = audit_verify(db)
    assert code == 0 and report["ok"] is True and report["entries"] == 10


def test_a_vote_edited_by_hand_is_found_and_named(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    with sqlite3.connect(db) as con:
        con.execute("UPDATE committee_votes SET result = '0-1' WHERE id = 2")
    code, report, stderr = audit_verify(db, process=True)
    assert code == 1
    first = report["first_problem"]
    assert isinstance(first, dict)
    assert (first["seq"], first["kind"], first["subject"]) == (8, "vote", "vote:2")
    assert "result is '0-1' but was recorded as '1-0'" in first["problem"]
    assert "entry #8 (vote vote:2)" in stderr


def test_an_audit_entry_edited_by_hand_is_found_and_named(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    with sqlite3.connect(db) as con:
        payload = json.loads(con.execute("SELECT payload FROM audit_entries WHERE seq = 9").fetchone()[0])
        payload["result"] = "0-1"
        con.execute("UPDATE audit_entries SET payload = ? WHERE seq = 9", (json.dumps(payload),))
    code, report, _ = audit_verify(db)
    assert code == 1
    assert report["first_problem"] == {"seq": 9, "kind": "vote", "subject": "vote:3",
                                       "problem": "was edited (its hash does not match)"}


def test_a_removed_entry_is_found(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM audit_entries WHERE seq = 6")
    code, report, _ = audit_verify(db)
    assert code == 1
    first = report["first_problem"]
    assert isinstance(first, dict) and first["seq"] == 6 and "entry #6 was removed" in str(first["problem"])


def test_the_last_entry_removed_is_found_too(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM audit_entries WHERE seq = 10")
    code, report, _ = audit_verify(db)
    assert code == 1
    first = report["first_problem"]
    assert isinstance(first, dict) and first["seq"] == 10


def test_a_decision_changed_by_hand_is_found(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    with sqlite3.connect(db) as con:
        con.execute("UPDATE committee_cases SET result = '1-0'")
    code, report, _ = audit_verify(db)
    assert code == 1
    first = report["first_problem"]
    assert isinstance(first, dict) and (first["kind"], first["subject"]) == ("decision", "committee-case:1")


def test_a_vote_slipped_in_by_hand_has_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    td = add_user(app, "tina", "td")
    for name in ("m1", "m2", "m3"):
        add_user(app, name, "committee")
    app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]), headers=bearer(td))
    db = tmp_path / "adjudicator.db"
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO committee_votes (case_id, user_id, result, comment, cast_at) "
                    "VALUES (1, 2, '1-0', '', '2026-01-01T00:00:00.000000Z')")
    code, report, _ = audit_verify(db)
    assert code == 1
    first = report["first_problem"]
    assert isinstance(first, dict) and first["subject"] == "vote:1" and "no audit entry" in str(first["problem"])


def test_a_ruling_given_at_the_board_is_an_entry_and_a_hand_edit_is_named(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("web.tables.rulings", reason="the rulings storage (web helper) is not merged yet")
    app = make_app(tmp_path, monkeypatch)
    case = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"}
    ruling_id = app.test_client().post("/api/v1/rulings", json=case).get_json()["id"]
    db = tmp_path / "adjudicator.db"
    kinds = {(kind, subject) for _seq, kind, subject in entries(db)}
    assert ("ruling", f"rulings:{ruling_id}") in kinds and any(kind == "board-case" for kind, _s in kinds)
    assert audit_verify(db)[0] == 0
    with sqlite3.connect(db) as con:  # the rulings table refuses UPDATE; a forger drops the guard first
        for (name,) in list(con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")):
            con.execute(f'DROP TRIGGER "{name}"')
        con.execute("UPDATE rulings SET result = '1-0' WHERE id = ?", (ruling_id,))
    code, report, _ = audit_verify(db)
    first = report["first_problem"]
    assert code == 1 and isinstance(first, dict) and first["subject"] == f"rulings:{ruling_id}"


def test_a_role_raised_by_hand_is_found(decided: tuple[Flask, Path]) -> None:
    _app, db = decided
    with sqlite3.connect(db) as con:
        con.execute("UPDATE users SET role = 'admin' WHERE name = 'm2'")
    code, report, _ = audit_verify(db)
    first = report["first_problem"]
    assert code == 1 and isinstance(first, dict) and (first["kind"], first["subject"]) == ("user", "user:3")
    assert "role is 'admin' but was recorded as 'committee'" in str(first["problem"])
