"""Storage: migrations to revision 0001, every case and ruling kept, rows never changed;
PostgreSQL through ADJUDICATOR_DATABASE_URL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from tests.web.opened_apps import opened
from web import create_app
from web.db import make_engine, migrate

CASE = {"ruleset": "fide-standard", "claim": "fifty-move", "claimant": "white", "record": "1. e4 e5"}


def test_migration_0001_creates_cases_rulings_and_notes(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine, "0001")
    tables = set(sa.inspect(engine).get_table_names())
    assert {"cases", "rulings", "case_notes", "alembic_version"} <= tables
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0001"


def test_the_first_revision_is_0001_with_no_parent() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from web.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    base = script.get_revision("0001")
    assert base is not None and base.down_revision is None



def test_the_heads_read_from_the_files_are_alembics_and_an_upgraded_database_is_at_them(tmp_path: Path) -> None:
    # migrate() skips Alembic where the database is at the head (issue 40: the commands start fast): the heads it
    # reads from the migration files must be the ones Alembic finds, and a database part-way is not at them
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from web.db import MIGRATIONS, heads, is_at_head

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert heads() == set(ScriptDirectory.from_config(config).get_heads())
    engine = make_engine(f"sqlite:///{tmp_path / 'h.db'}")
    assert not is_at_head(engine)  # no tables yet
    migrate(engine, "0002")
    assert not is_at_head(engine)
    migrate(engine)
    assert is_at_head(engine)
    with engine.connect() as connection:
        assert {row[0] for row in connection.execute(sa.text("SELECT version_num FROM alembic_version"))} == heads()

def test_every_case_and_ruling_is_kept_and_cannot_be_changed(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    for _ in range(3):
        assert client.post("/api/v1/rulings", json=CASE).status_code == 201
    engine = client.application.extensions["db_engine"]
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM cases")).scalar() == 3
        assert connection.execute(sa.text("SELECT count(*) FROM rulings")).scalar() == 3
    for statement in ("UPDATE rulings SET verdict = 'rejected'", "DELETE FROM cases", "UPDATE cases SET claim = 'x'"):
        with pytest.raises(sa.exc.DatabaseError, match="append-only"), engine.begin() as connection:
            connection.execute(sa.text(statement))


def test_a_cancelled_case_is_kept_with_a_note(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post("/claims", data={**CASE, "claim": stand_ins["slow"], "game": "chess"})
    case_url = response.headers["Location"]
    client.post(f"{case_url}/cancel")
    engine = client.application.extensions["db_engine"]
    deadline = time.monotonic() + 60  # only bounds a hang: the note is written when the job stops
    while True:
        with engine.connect() as connection:
            notes = connection.execute(sa.text("SELECT kind FROM case_notes")).scalars().all()
        if notes or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    with engine.connect() as connection:
        assert notes == ["cancelled"]
        assert connection.execute(sa.text("SELECT count(*) FROM rulings")).scalar() == 0


def test_restarting_the_app_keeps_the_rulings(tmp_path: Path, stand_ins: dict[str, str]) -> None:
    url = f"sqlite:///{tmp_path / 'keep.db'}"
    first = opened(create_app({"DATABASE_URL": url, "TESTING": True, "SECRET_KEY": "x"}))
    ruling = first.test_client().post("/api/v1/rulings", json=CASE).get_json()
    first.extensions["adjudicator"].shutdown()
    second = opened(create_app({"DATABASE_URL": url, "TESTING": True, "SECRET_KEY": "x"}))
    assert second.test_client().get(f"/api/v1/rulings/{ruling['id']}").get_json() == ruling
    second.extensions["adjudicator"].shutdown()


def test_postgresql_through_the_environment(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, stand_ins: dict[str, str]
) -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", postgres_url)
    app = opened(create_app({"TESTING": True, "SECRET_KEY": "x"}))
    assert app.config["DATABASE_URL"] == postgres_url
    assert app.extensions["db_engine"].dialect.name == "postgresql"
    client = app.test_client()
    ruling = client.post("/api/v1/rulings", json={**CASE, "meta": {"round": "5", "first_player": "Ann"}}).get_json()
    assert client.get(f"/api/v1/rulings/{ruling['id']}").get_json() == ruling
    assert "Ann" in client.get("/history?round=5").get_data(as_text=True)
    with pytest.raises(sa.exc.DatabaseError, match="append-only"), app.extensions["db_engine"].begin() as connection:
        connection.execute(sa.text("DELETE FROM rulings"))
    app.extensions["adjudicator"].shutdown()
    app.extensions["db_engine"].dispose()
