"""The queue's parts that need no broker: its table (revision 0005), its settings, the worker command
without a broker, and the embedded default (no ``ADJUDICATOR_BROKER_URL``: jobs stay in the process)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

from web.config import PROJECT_ROOT
from web.db import MIGRATIONS, make_engine, migrate
from web.queue import QueueSettings, QueueSettingsError
from web.tables.jobs import JobRow

VERSIONS = MIGRATIONS / "versions"


def test_0005_follows_0004() -> None:
    spec = importlib.util.spec_from_file_location("migration_0005", VERSIONS / "0005_jobs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (module.revision, module.down_revision) == ("0005", "0004")


def test_the_jobs_table_is_the_model_and_goes_back_to_0004(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    with engine.begin() as connection:
        import web.tables.rulings
        from web.commands.store import _tables
        from web.db import Base

        assert _tables() and web.tables.rulings.CaseRow  # every model the jobs table refers to is loaded

        def ours(obj: object, _name: object, kind: str, _reflected: bool, _other: object) -> bool:
            table = obj if kind == "table" else getattr(obj, "table", None)
            return getattr(table, "name", JobRow.__tablename__) == JobRow.__tablename__

        context = MigrationContext.configure(connection, opts={"include_object": ours})
        assert compare_metadata(context, Base.metadata) == []
        with pytest.raises(sa.exc.IntegrityError):  # the database keeps the states to the known ones
            connection.execute(sa.text("INSERT INTO jobs (id, kind, status, created_at) VALUES ('x', 'claim', "
                                       "'lost', 0)"))
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "0004")
        assert "jobs" not in sa.inspect(connection).get_table_names()
    migrate(engine)
    engine.dispose()


def test_queue_settings_name_the_key_they_refuse() -> None:
    assert QueueSettings.from_config({}).lease_seconds == 30.0
    with pytest.raises(QueueSettingsError, match="lease_seconds"):
        QueueSettings.from_config({"queue": {"lease_seconds": "soon"}})
    with pytest.raises(QueueSettingsError, match="twice heartbeat_seconds"):
        QueueSettings.from_config({"queue": {"lease_seconds": 1, "heartbeat_seconds": 1}})


def test_the_worker_without_a_broker_exits_2_naming_the_variable() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ADJUDICATOR_BROKER_URL"}
    done = subprocess.run([sys.executable, "-m", "adjudicator", "worker"], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "missing_broker" and error["field"] == "ADJUDICATOR_BROKER_URL"
    assert "Traceback" not in done.stderr


def test_without_a_broker_engine_jobs_stay_in_the_serving_process(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.web.conftest import make_app

    monkeypatch.delenv("ADJUDICATOR_BROKER_URL", raising=False)
    app = make_app(tmp_path)
    try:
        assert app.extensions["adjudicator"].remote is None
    finally:
        app.extensions["adjudicator"].shutdown()
