"""Alembic revision 0004 (after 0003) creates the tables log-in throttling and server-side sessions
use; with the later revisions (0012: the user a failure names, one-time password secrets) they are
exactly the models; downgrading to 0003 removes them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from web.db import make_engine, migrate
from web.tables.logins import LoginFailure, LoginSession
from web.tables.users import User

MIGRATION = Path(__file__).resolve().parents[2] / "web" / "migrations" / "versions" / "0004_login_security.py"


def test_0004_follows_0003_and_matches_the_models(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("migration_0004", MIGRATION)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (module.revision, module.down_revision) == ("0004", "0003")

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine, "0004")
    assert {"login_failures", "login_sessions"} <= set(sa.inspect(engine).get_table_names())
    migrate(engine)
    metadata = sa.MetaData()
    for table in (User.__table__, LoginFailure.__table__, LoginSession.__table__):
        table.to_metadata(metadata)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"include_name": _ours})
        assert compare_metadata(context, metadata) == []
    migrate_down(engine, "0003")
    assert {"login_failures", "login_sessions"}.isdisjoint(sa.inspect(engine).get_table_names())


OURS = {"users", "login_failures", "login_sessions"}


def _ours(name: str | None, kind: str, parents: dict[str, str | None]) -> bool:
    """Compare only this revision's tables (and the users table they refer to)."""
    if kind == "schema":
        return True
    return name in OURS if kind == "table" else parents.get("table_name") in OURS


def migrate_down(engine: sa.Engine, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    from web.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)
