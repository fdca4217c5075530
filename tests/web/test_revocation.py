"""Access that can be taken back (issue 23): a token revoked, a user deactivated or taken off an event's
staff is refused at once, by the command line and by the admin pages alike; a new event token
replaces the old; the database holds one live token per user and event; the audit stays intact.

The commands run through the command line's own entry point (``web.cli.main``, in this process: a
fresh engine each, as ``python3 -m adjudicator`` has) on the app's own SQLite file, as a chief TD runs
them beside a running server."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from committee_support import add_user, bearer, make_app
from events_support import PASSWORD, QUICK_CASE
from flask import Flask


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "ada", "admin", password=PASSWORD)
    add_user(app, "tara", "td", password=PASSWORD)
    assert run(app, "events", "add", "spring", "--name", "Spring", "--private", "--ruleset", "fide-standard")[0] == 0
    assert run(app, "events", "staff", "spring", "tara", "--role", "td")[0] == 0
    return app


def run(app: Flask, *argv: str) -> tuple[int, str]:
    """``adjudicator ARGV`` on the app's database (``make_app`` set ``ADJUDICATOR_DATABASE_URL``): exit status
    and standard output."""
    from web.cli import main

    assert os.environ["ADJUDICATOR_DATABASE_URL"] == app.config["DATABASE_URL"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue()


def login(app: Flask, name: str) -> object:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def rules(app: Flask, token: str) -> int:
    """A TD's ruling in the private event with ``token``: 201, or the refusal."""
    response = app.test_client().post("/api/v1/rulings", json={**QUICK_CASE, "event": "spring"},
                                      headers=bearer(token))
    return response.status_code


def audit_is_intact(app: Flask) -> None:
    code, report = run(app, "audit", "verify")
    assert code == 0, report
    assert json.loads(report)["ok"] is True


def test_a_new_event_token_replaces_the_old_at_once(app: Flask) -> None:
    code, first = run(app, "events", "token", "spring", "tara")
    assert code == 0 and rules(app, first.strip()) == 201
    code, second = run(app, "events", "token", "spring", "tara")
    assert code == 0 and second != first
    assert rules(app, first.strip()) == 401  # the old one stopped the moment the new one was issued
    assert rules(app, second.strip()) == 201
    with app.extensions["db_engine"].connect() as connection, pytest.raises(sa.exc.IntegrityError):
        connection.execute(sa.text("UPDATE event_tokens SET revoked_at = NULL"))  # the database's rule: one live
    audit_is_intact(app)


def test_renewing_a_users_token_stops_the_old_one_and_their_event_tokens(app: Flask) -> None:
    _code, scoped = run(app, "events", "token", "spring", "tara")
    code, own = run(app, "users", "token", "tara")
    assert code == 0
    assert rules(app, scoped.strip()) == 401 and rules(app, own.strip()) == 201
    code, out = run(app, "users", "revoke-token", "tara")
    assert code == 0 and json.loads(out)["token"] == "revoked"
    assert rules(app, own.strip()) == 401
    audit_is_intact(app)


def test_a_deactivated_user_is_refused_at_once_everywhere(app: Flask) -> None:
    browser = login(app, "tara")
    assert browser.get("/committee/").status_code == 200  # type: ignore[attr-defined]
    _code, scoped = run(app, "events", "token", "spring", "tara")
    _code, own = run(app, "users", "token", "tara")
    code, out = run(app, "users", "deactivate", "tara")
    assert code == 0 and json.loads(out) == {"name": "tara", "active": False, "sessions_ended": 1,
                                             "tokens": "revoked"}
    assert browser.get("/committee/").status_code == 302  # type: ignore[attr-defined]  # its next request
    assert rules(app, own.strip()) == 401 and rules(app, scoped.strip()) == 401
    again = app.test_client().post("/login", data={"name": "tara", "password": PASSWORD})
    assert again.status_code == 401
    assert run(app, "users", "activate", "tara")[0] == 0
    assert app.test_client().post("/login", data={"name": "tara", "password": PASSWORD}).status_code == 303
    assert rules(app, own.strip()) == 401  # tokens stay revoked: a new one is issued on purpose
    assert run(app, "users", "deactivate", "ada")[1].count("only active admin") == 1  # never the last admin
    audit_is_intact(app)


def test_a_user_taken_off_the_staff_loses_the_event_and_its_token(app: Flask) -> None:
    _code, scoped = run(app, "events", "token", "spring", "tara")
    assert rules(app, scoped.strip()) == 201
    code, out = run(app, "events", "unstaff", "spring", "tara")
    assert code == 0 and json.loads(out)["removed"] == ["td"]
    assert rules(app, scoped.strip()) == 401
    tara = add_user(app, "tara2", "td")
    assert rules(app, tara) == 422  # a TD, not of this private event: as if it did not exist (issue 39)
    assert run(app, "events", "unstaff", "spring", "tara")[0] == 2  # not on its staff any more
    audit_is_intact(app)
    with app.extensions["db_engine"].begin() as connection:  # put back by hand, without an entry: caught
        connection.execute(sa.text("INSERT INTO event_staff (event_id, user_id, role, assigned_at) "
                                   "SELECT e.id, u.id, 'td', 'x' FROM events e, users u "
                                   "WHERE e.slug = 'spring' AND u.name = 'tara'"))
    code, report = run(app, "audit", "verify")
    assert code != 0 and ("was recorded as removed but is stored" in report or "has no audit entry" in report)


def test_the_admin_pages_take_access_back(app: Flask) -> None:
    from web.tables.users import user_by_name

    with app.extensions["db_sessions"]() as session:
        tara = user_by_name(session, "tara")
        assert tara is not None
        tara_id = tara.id
    browser = login(app, "tara")
    _code, scoped = run(app, "events", "token", "spring", "tara")
    admin = login(app, "ada")
    page = admin.get("/admin/").get_data(as_text=True)  # type: ignore[attr-defined]
    assert f'id="user-{tara_id}"' in page and "Deactivate" in page
    event_page = admin.get("/admin/events/spring").get_data(as_text=True)  # type: ignore[attr-defined]
    assert re.search(r'<strong>tara</strong>\s*<ul class="plain roles">\s*<li><span class="role">TD</span>', event_page)
    assert "Revoke" in event_page
    assert admin.post(f"/admin/events/spring/tokens/{tara_id}/revoke").status_code == 303  # type: ignore[attr-defined]
    assert rules(app, scoped.strip()) == 401
    assert admin.post(f"/admin/users/{tara_id}/deactivate").status_code == 303  # type: ignore[attr-defined]
    assert browser.get("/committee/").status_code == 302  # type: ignore[attr-defined]
    assert admin.post(f"/admin/users/{tara_id}/activate").status_code == 303  # type: ignore[attr-defined]
    with app.extensions["db_sessions"]() as session:
        staff_id = session.execute(sa.text("SELECT id FROM event_staff")).scalar_one()
    assert admin.post(f"/admin/events/spring/staff/{staff_id}/remove").status_code == 303  # type: ignore[attr-defined]
    assert "Nobody." in admin.get("/admin/events/spring").get_data(as_text=True)  # type: ignore[attr-defined]
    wrong = admin.post("/admin/")  # type: ignore[attr-defined]
    assert wrong.status_code == 405 and "GET" in wrong.headers["Allow"]  # a 405 says what the page takes
    with app.extensions["db_sessions"]() as session:
        ada = user_by_name(session, "ada")
        assert ada is not None
        ada_id = ada.id
    refused = admin.post(f"/admin/users/{ada_id}/deactivate")  # type: ignore[attr-defined]
    assert refused.status_code == 409 and "cannot deactivate yourself" in refused.get_data(as_text=True)
    td = login(app, "tara")
    assert td.get("/admin/").status_code == 403  # type: ignore[attr-defined]
    assert td.post(f"/admin/users/{ada_id}/deactivate").status_code == 403  # type: ignore[attr-defined]
    audit_is_intact(app)


def test_the_appellant_never_decides_their_own_appeal(app: Flask) -> None:
    ruled = app.test_client().post("/api/v1/rulings", json=QUICK_CASE)
    assert ruled.status_code == 201
    april = add_user(app, "april", "appeals")
    filed = app.test_client().post("/api/v1/appeals", headers=bearer(april),
                                   json={"subject": f"ruling:{ruled.json['id']}", "grounds": "the count is wrong"})
    assert filed.status_code == 201
    decision = {"outcome": "upheld", "reasons": "the count is right"}
    refused = app.test_client().post(f"/api/v1/appeals/{filed.json['id']}/decision", headers=bearer(april),
                                     json=decision)
    assert refused.status_code == 403 and refused.json["error"]["code"] == "conflict_of_duties"
    with app.extensions["db_engine"].connect() as connection, pytest.raises(sa.exc.DatabaseError):
        connection.execute(sa.text("UPDATE appeals SET status = 'decided', outcome = 'upheld', "  # the database too
                                   "decided_by_id = filed_by_id, decided_at = 'now'"))
    other = add_user(app, "arno", "appeals")
    assert app.test_client().post(f"/api/v1/appeals/{filed.json['id']}/decision", headers=bearer(other),
                                  json=decision).status_code == 201
