"""The Alembic revisions: each follows the one before, and at the head they create exactly the
tables the committee, appeals, users, audit and events models use."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from web.commands.store import _tables
from web.db import Base, make_engine, migrate
from web.tables.rulings import CaseRow

assert CaseRow.__tablename__ == "cases"  # the rulings storage's tables are in Base

VERSIONS = Path(__file__).resolve().parents[2] / "web" / "migrations" / "versions"


def _load(name: str) -> object:
    spec = importlib.util.spec_from_file_location(f"migration_{name}", VERSIONS / name)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_revisions_follow_each_other() -> None:
    """Each revision file ``NNNN_topic.py`` is revision ``NNNN`` and revises the file before it: one chain, no
    second head (branches merged in parallel each take the next number and revise the one before)."""
    files = sorted(p.name for p in VERSIONS.glob("0*.py"))
    assert files[:16] == ["0001_cases_and_rulings.py", "0002_committee.py", "0003_events.py",
                          "0004_login_security.py", "0005_jobs.py", "0006_event_pairings.py", "0007_game_checks.py",
                          "0008_game_collections.py", "0009_appeal_rerun_final.py", "0010_event_broadcast.py",
                          "0011_revocable_access.py", "0012_login_throttle_and_totp.py", "0013_job_publications.py",
                          "0014_event_id_sequence.py", "0015_committee_referral.py", "0016_event_organisers.py"]
    chain = [(m.revision, m.down_revision) for m in (_load(n) for n in files)]  # type: ignore[attr-defined]
    numbers = [name.split("_", 1)[0] for name in files]
    assert chain == [(number, numbers[i - 1] if i else None) for i, number in enumerate(numbers)]
    assert len(set(numbers)) == len(numbers), "two revisions with one number: a second head"


def test_the_head_matches_the_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    with engine.begin() as connection:
        metadata = sa.MetaData()
        for table in _tables():
            table.to_metadata(metadata)
        for name in ("cases", "rulings"):  # what a committee case refers to (migration 0015)
            Base.metadata.tables[name].to_metadata(metadata)

        def ours(name: str | None, kind: str, _parent: object) -> bool:
            return kind != "table" or name in metadata.tables

        context = MigrationContext.configure(connection, opts={"include_name": ours})
        assert compare_metadata(context, metadata) == []
        for table in ("cases", "committee_cases", "appeals"):  # every row belongs to an event
            column = next(c for c in sa.inspect(connection).get_columns(table) if c["name"] == "event_id")
            assert column["nullable"] is False
            keys = sa.inspect(connection).get_foreign_keys(table)
            assert any(k["constrained_columns"] == ["event_id"] and k["referred_table"] == "events" for k in keys)
        assert connection.execute(sa.text("SELECT seq, hash FROM audit_head")).all() == [(0, "0" * 64)]
        assert connection.execute(sa.text("SELECT id, slug, visibility, is_open FROM events")).all() == [
            (1, "default", "public", 1)]
    engine.dispose()


def test_0003_goes_back_to_0002(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    from alembic import command
    from alembic.config import Config

    from web.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
        with connection.begin():
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0002")
        inspector = sa.inspect(connection)
        assert "events" not in inspector.get_table_names()
        for table in ("cases", "committee_cases", "appeals"):
            assert "event_id" not in {c["name"] for c in inspector.get_columns(table)}
        triggers = {name for (name,) in connection.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert {"cases_no_update", "cases_no_delete"} <= triggers  # cases stay append-only
    migrate(engine)  # and up again
    engine.dispose()
