"""Alembic revision 0020 (after 0019) adds ``rulings.played_json``, the game a ruling kept: the rulings kept
before read NULL and their page replays the record; the table stays append-only (the column is added in
place, the triggers of 0001 stay); it matches the model; downgrading to 0019 removes it. On SQLite and on
PostgreSQL."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from tests.web.test_login_migration import migrate_down
from web.db import Base, make_engine, migrate
from web.evidence import kept_game, present

MIGRATION = Path(__file__).resolve().parents[2] / "web" / "migrations" / "versions" / "0020_kept_games.py"
SHUFFLE = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"


def _columns(engine: sa.Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("rulings")}


def _old_ruling(engine: sa.Engine) -> int:
    """A case and its ruling as the app kept them at 0019 (no game kept)."""
    case = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": SHUFFLE}
    ruling = {"claim": "threefold-repetition", "verdict": "upheld", "result": "1/2-1/2",
              "evidence": {"occurrences": [0, 4, 8]}}
    with engine.begin() as connection:
        event = connection.execute(sa.text("SELECT min(id) FROM events")).scalar_one()
        case_id = connection.execute(sa.text(
            "INSERT INTO cases (created_at, source, game, ruleset, claim, case_json, event_id) "
            "VALUES (CURRENT_TIMESTAMP, 'api', 'chess', 'fide-standard', 'threefold-repetition', :json, :event) "
            "RETURNING id"), {"json": json.dumps(case), "event": event}).scalar_one()
        return int(connection.execute(sa.text(
            "INSERT INTO rulings (case_id, created_at, verdict, result, duration_ms, ruling_json) "
            "VALUES (:case, CURRENT_TIMESTAMP, 'upheld', '1/2-1/2', 1, :json) RETURNING id"),
            {"case": case_id, "json": json.dumps(ruling)}).scalar_one())


def _rulings_only(found: Any, name: str | None, kind: str, reflected: bool, compare_to: Any) -> bool:
    """Compare only the rulings table (the other tables are other revisions' tests)."""
    return bool(name == "rulings" if kind == "table" else getattr(found.table, "name", None) == "rulings")


def _check(engine: sa.Engine) -> None:
    migrate(engine, "0019")
    assert "played_json" not in _columns(engine)
    ruling_id = _old_ruling(engine)
    migrate(engine)
    assert "played_json" in _columns(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"include_object": _rulings_only})
        assert compare_metadata(context, Base.metadata) == [], "the rulings table is the model's"
        kept, ruling_json, case_json = connection.execute(sa.text(
            "SELECT r.played_json, r.ruling_json, c.case_json FROM rulings r JOIN cases c ON c.id = r.case_id "
            "WHERE r.id = :id"), {"id": ruling_id}).one()
    assert kept is None and kept_game(kept) is None, "a ruling kept before keeps no game"
    shown = present(json.loads(case_json), json.loads(ruling_json), kept_game(kept))
    assert [s.label for s in shown.lines["game"].steps if s.is_marked] == ["2... Ng8", "4... Ng8"], "replayed"
    with pytest.raises(sa.exc.DBAPIError), engine.begin() as connection:
        connection.execute(sa.text("UPDATE rulings SET played_json = '{}' WHERE id = :id"), {"id": ruling_id})
    migrate_down(engine, "0019")
    assert "played_json" not in _columns(engine)
    with pytest.raises(sa.exc.DBAPIError), engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM rulings WHERE id = :id"), {"id": ruling_id})
    engine.dispose()


def test_0020_follows_0019() -> None:
    spec = importlib.util.spec_from_file_location("migration_0020", MIGRATION)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (module.revision, module.down_revision) == ("0020", "0019")


def test_0020_on_sqlite(tmp_path: Path) -> None:
    _check(make_engine(f"sqlite:///{tmp_path / 'm.db'}"))


def test_0020_on_postgresql(postgres_url: str) -> None:
    _check(make_engine(postgres_url))
