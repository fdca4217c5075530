"""Alembic revision 0002 creates exactly the tables the committee, appeals, users and audit models use."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.operations import Operations

from web.committee.store import _tables

MIGRATION = Path(__file__).resolve().parents[2] / "web" / "migrations" / "versions" / "0002_committee.py"


def _load() -> object:
    spec = importlib.util.spec_from_file_location("migration_0002", MIGRATION)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_0002_follows_0001_and_matches_the_models(tmp_path: Path) -> None:
    migration = _load()
    assert (migration.revision, migration.down_revision) == ("0002", "0001")  # type: ignore[attr-defined]
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    with engine.begin() as connection:
        context = MigrationContext.configure(connection)
        with Operations.context(context):
            migration.upgrade()  # type: ignore[attr-defined]
        metadata = sa.MetaData()
        for table in _tables():
            table.to_metadata(metadata)
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
        assert connection.execute(sa.text("SELECT seq, hash FROM audit_head")).all() == [(0, "0" * 64)]
        with Operations.context(MigrationContext.configure(connection)):
            migration.downgrade()  # type: ignore[attr-defined]
        assert sa.inspect(connection).get_table_names() == []
