"""Users, passwords, tokens and CSRF: the command line creates users; pages need a login and a CSRF token."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from flask import Flask
from flask.testing import FlaskClient

from tests.cli_runs import run_in_process

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, db: Path, process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator *args`` on ``db``: in this process (tests/cli_runs.py), or as a real process."""
    env = {"ADJUDICATOR_DATABASE_URL": f"sqlite:///{db}", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if not process:
        return run_in_process(args, env)
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)


def test_users_add_prints_a_token_that_opens_the_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "adjudicator.db"
    made = cli("users", "add", "Tina TD", "--role", "td", db=db, process=True)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert re.fullmatch(r"[A-Za-z0-9_-]{40,}", token)
    assert "password: " in made.stderr  # generated, shown once
    for name in ("m1", "m2", "m3"):
        assert cli("users", "add", name, "--role", "committee", "--password", "long-enough", db=db).returncode == 0
    again = cli("users", "add", "m1", "--role", "committee", db=db)
    assert again.returncode == 2
    assert json.loads(again.stdout)["error"]["field"] == "name"
    bad_role = cli("users", "add", "x", "--role", "king", db=db)
    assert bad_role.returncode == 2 and "role" in json.loads(bad_role.stdout)["error"]["message"]
    as_json = json.loads(cli("users", "add", "ap", "--role", "appeals", "--json", db=db).stdout)
    assert as_json["role"] == "appeals" and as_json["password"] and as_json["token"]

    app = make_app(tmp_path, monkeypatch)
    response = app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                                      headers=bearer(token))
    assert response.status_code == 201

    reissued = cli("users", "token", "Tina TD", db=db)
    assert reissued.returncode == 0
    client = app.test_client()
    assert client.get("/api/v1/committee-cases/1", headers=bearer(token)).status_code == 401  # the old one is dead
    assert client.get("/api/v1/committee-cases/1", headers=bearer(reissued.stdout.strip())).status_code == 200


def test_passwords_are_stored_hashed_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "m1", "committee", password="correct horse")
    client = app.test_client()
    assert client.get("/committee/").status_code == 302  # to the login page
    assert client.post("/login", data={"name": "m1", "password": "wrong"}).status_code == 401
    assert client.post("/login", data={"name": "m1", "password": "correct horse"}).status_code == 303
    assert client.get("/committee/").status_code == 200
    raw = (tmp_path / "adjudicator.db").read_bytes()
    assert b"correct horse" not in raw


@pytest.fixture
def csrf_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    app = make_app(tmp_path, monkeypatch, WTF_CSRF_ENABLED=True)
    add_user(app, "tina", "td", password="td-password")
    for name in ("m1", "m2", "m3"):
        add_user(app, name, "committee", password="member-password")
    return app


def _token(client: FlaskClient, url: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(url).get_data(as_text=True))
    assert match, url
    return match.group(1)


def test_forms_without_the_csrf_token_are_rejected(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    assert client.post("/login", data={"name": "m1", "password": "member-password"}).status_code == 400
    token = _token(client, "/login")
    assert client.post("/login", data={"name": "m1", "password": "member-password",
                                       "csrf_token": token}).status_code == 303

    td = add_user(csrf_app, "td2", "td")
    case_id = client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                          headers=bearer(td)).get_json()["id"]  # the token API needs no CSRF token
    url = f"/committee/cases/{case_id}/votes"
    vote = {"result": "1-0", "position_verified": "yes"}
    assert client.post(url, data=vote).status_code == 400
    assert client.post(url, data={**vote, "csrf_token": "forged"}).status_code == 400
    assert client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(td)).get_json()["votes_cast"] == 0
    page_token = _token(client, f"/committee/cases/{case_id}")
    assert client.post(url, data={**vote, "csrf_token": page_token}).status_code == 303
    assert client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(td)).get_json()["votes_cast"] == 1


def test_the_login_page_never_redirects_off_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "m1", "committee", password="member-password")
    response = app.test_client().post("/login?next=https://evil.example/", data={"name": "m1",
                                                                                  "password": "member-password"})
    assert response.status_code == 303
    assert "evil.example" not in response.headers["Location"]


def test_roles_guard_the_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "m1", "committee", password="member-password")
    client = app.test_client()
    client.post("/login", data={"name": "m1", "password": "member-password"})
    assert client.get("/committee/cases/new").status_code == 403  # only a TD opens cases
