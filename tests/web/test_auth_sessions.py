"""Server-side sessions (issue 11): a session cookie saved before logging out opens nothing
after it; logging out on one device leaves the others logged in; a log-in lasts at most
``session_hours``; a deactivated user's sessions stop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import make_app
from web.tables.users import User, create_user

PASSWORD = "the-right-password"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    application = make_app(tmp_path, SECURITY={"session_hours": 12})
    with application.extensions["db_sessions"]() as session:
        create_user(session, "alice", "committee", PASSWORD, hash_method="pbkdf2:sha256:1000")
        session.commit()
    yield application
    application.extensions["adjudicator"].shutdown()


def logged_in(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"name": "alice", "password": PASSWORD}).status_code == 303
    assert client.get("/committee/").status_code == 200
    return client


def cookie(client: FlaskClient) -> str:
    saved = client.get_cookie("session")
    assert saved is not None
    return saved.value


def test_a_cookie_saved_before_logout_is_refused_after_it(app: Flask) -> None:
    client = logged_in(app)
    saved = cookie(client)
    assert client.post("/logout").status_code == 303
    thief = app.test_client()
    thief.set_cookie("session", saved)
    response = thief.get("/committee/")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_logging_out_on_one_device_leaves_the_others_logged_in(app: Flask) -> None:
    phone, laptop = logged_in(app), logged_in(app)
    phone.post("/logout")
    assert phone.get("/committee/").status_code == 302
    assert laptop.get("/committee/").status_code == 200


def sid(app: Flask, client: FlaskClient) -> str:
    from flask.sessions import SecureCookieSessionInterface

    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert serializer is not None
    value: str = serializer.loads(cookie(client))["sid"]
    return value


def test_logging_in_again_starts_a_new_session_and_ends_the_old_one(app: Flask) -> None:
    client = logged_in(app)
    before, saved = sid(app, client), cookie(client)
    assert client.post("/login", data={"name": "alice", "password": PASSWORD}).status_code == 303
    assert sid(app, client) != before
    assert client.get("/committee/").status_code == 200
    copy = app.test_client()
    copy.set_cookie("session", saved)
    assert copy.get("/committee/").status_code == 302


def test_a_log_in_lasts_at_most_session_hours(app: Flask) -> None:
    throttle = app.extensions["login_throttle"]
    real = throttle.clock
    client = logged_in(app)
    throttle.clock = lambda: real() + 11.9 * 3600
    assert client.get("/committee/").status_code == 200
    throttle.clock = lambda: real() + 12.1 * 3600
    assert client.get("/committee/").status_code == 302
    throttle.clock = real
    assert client.get("/committee/").status_code == 302  # the expired row is gone for good


def test_a_deactivated_users_sessions_stop(app: Flask) -> None:
    client = logged_in(app)
    with app.extensions["db_sessions"]() as session:
        session.execute(sa.update(User).where(User.name == "alice").values(active=False))
        session.commit()
    assert client.get("/committee/").status_code == 302


def test_the_session_rows_hold_no_usable_id(app: Flask) -> None:
    client = logged_in(app)
    with app.extensions["db_engine"].connect() as connection:
        stored = connection.execute(sa.text("SELECT id_digest FROM login_sessions")).scalars().all()
    session_id = sid(app, client)
    assert len(stored) == 1 and session_id not in stored[0]  # only its SHA-256 is kept
