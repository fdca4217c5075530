"""Every route that uses the broker, with the broker down (issue 23): a clear state or a 503 with the
contract's error, nothing half-stored. Before, a committee case opened while redis-server was down gave
500 and left an orphan job row.

The app is configured with ``ADJUDICATOR_BROKER_URL`` naming a port where nothing listens (Celery's own
retries give up after about a second).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, bearer, checkers_case
from flask import Flask

from tests.web.conftest import make_app
from tests.web.test_checks_web import COLLECTION, PASSWORD, finished
from web.tables.appeals import Appeal
from web.tables.committee import CommitteeCase
from web.tables.jobs import JobRow

QUICK = {"ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
         "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"}
ENGINE = {"ruleset": "fide-standard", "claim": "unfinished-game", "fen": "8/8/8/4k3/8/8/4K3/7R w - - 0 1"}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # free once closed: nothing listens there
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADJUDICATOR_BROKER_URL", f"redis://127.0.0.1:{port}/0")
        application = make_app(tmp_path_factory.mktemp("down"))
    assert application.extensions["adjudicator"].remote is not None
    for name, role in (("tina", "td"), ("m1", "committee"), ("m2", "committee"), ("m3", "committee")):
        add_user(application, name, role, password=PASSWORD)
    yield application
    application.extensions["adjudicator"].shutdown()


def rows(app: Flask, model: Any) -> list[Any]:
    with app.extensions["db_sessions"]() as session:
        return list(session.query(model))


def token(app: Flask, name: str) -> dict[str, str]:
    from web.tables.users import token_digest, user_by_name

    with app.extensions["db_sessions"]() as session:  # a fresh token for the name (the test's own)
        user = user_by_name(session, name)
        assert user is not None
        user.token_hash = token_digest(f"token-of-{name}")
        session.commit()
    return bearer(f"token-of-{name}")


def test_a_committee_case_opened_with_the_broker_down_is_a_503_and_stores_nothing(app: Flask) -> None:
    response = app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                                      headers=token(app, "tina"))
    assert response.status_code == 503
    assert response.json["error"]["code"] == "queue_unavailable"
    assert "nothing was stored" in response.json["error"]["message"]
    assert rows(app, CommitteeCase) == []
    assert {row.status for row in rows(app, JobRow) if row.kind == "recommend"} == {"failed"}  # no orphan queued
    page = app.test_client()
    assert page.post("/login", data={"name": "tina", "password": PASSWORD}).status_code == 303
    form = page.post("/committee/cases/new", data={"game": "checkers", "ruleset": "acf-master-division",
                                                   "fen": checkers_case([])["fen"], "members": ["m1", "m2", "m3"]})
    assert form.status_code == 503 and "the task queue cannot be reached" in form.get_data(as_text=True)
    assert rows(app, CommitteeCase) == []


def test_an_appeal_filed_with_the_broker_down_is_a_503_and_stores_nothing(app: Flask) -> None:
    ruled = app.test_client().post("/api/v1/rulings", json=QUICK)  # a quick claim: ruled in the web process
    assert ruled.status_code == 201
    response = app.test_client().post("/api/v1/appeals", headers=token(app, "tina"),
                                      json={"subject": f"ruling:{ruled.json['id']}", "grounds": "wrong count"})
    assert response.status_code == 503 and response.json["error"]["code"] == "queue_unavailable"
    assert rows(app, Appeal) == []


def test_an_engine_claim_with_the_broker_down_fails_at_once_with_the_reason(app: Flask) -> None:
    response = app.test_client().post("/api/v1/rulings", json=ENGINE)
    assert response.status_code == 503
    assert response.json["error"]["code"] == "queue_unavailable"
    page = app.test_client().post("/claims", data={"game": "chess", **ENGINE})
    assert page.status_code == 303
    shown = app.test_client().get(page.headers["Location"]).get_data(as_text=True)
    assert "No ruling:" in shown and "the task queue cannot be reached" in shown and "enter it again" in shown


def test_a_game_check_with_the_broker_down_ends_failed_with_the_reason(app: Flask, tmp_path: Path) -> None:
    client = app.test_client()
    assert client.post("/login", data={"name": "tina", "password": PASSWORD}).status_code == 303
    started = client.post("/events/default/checks", data={"ruleset": "fide-standard",
                                                          "collection": (io.BytesIO(COLLECTION), "event.pgn")})
    assert started.status_code == 303
    report = finished(client, started.headers["Location"], 60)
    assert "The check failed:" in report and "the task queue cannot be reached" in report


def test_check_games_with_the_broker_down_exits_3_and_leaves_the_database_whole_in_its_file(tmp_path: Path) -> None:
    """The command line: exit 3 with ``queue_unavailable``, and the database it made (migrated, the part's row
    failed and then removed) closed on the way out, so SQLite folded its write-ahead log into the file: no
    ``-wal`` file is left, and a copy of the file alone holds the tables (a backup of it is whole)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # free once closed: nothing listens there
    games, database = tmp_path / "event.pgn", tmp_path / "queue.db"
    games.write_bytes(COLLECTION)
    env = {**os.environ, "ADJUDICATOR_BROKER_URL": f"redis://127.0.0.1:{port}/0",
           "ADJUDICATOR_DATABASE_URL": f"sqlite:///{database}"}
    done = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(games)], capture_output=True,
                          text=True, env=env, cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert done.returncode == 3 and json.loads(done.stdout)["error"]["code"] == "queue_unavailable"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.pgn", "queue.db"]
    copy = tmp_path / "copy.db"
    copy.write_bytes(database.read_bytes())
    with contextlib.closing(sqlite3.connect(copy)) as connection:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "jobs" in tables and connection.execute("SELECT count(*) FROM jobs").fetchone() == (0,)
