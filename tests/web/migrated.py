"""A SQLite database migrated to head once per test run, copied for each test's app (tests/web/conftest.py).

Every web test makes an app, and an app on an empty SQLite file runs the Alembic migrations 0001 to head
(over a hundred statements, a few tenths of a second; a thousand apps in a run). The app made on a copy of a
migrated file runs the same :func:`web.db.migrate`, which finds the database at head and changes nothing: the
app is the one a test would have had, sooner. The migrations themselves are still run from an empty database
by the tests that are about them (tests/web/test_web_storage.py: an app made twice on an empty SQLite file;
test_broadcast.py, test_checks_stored.py, test_login_migration.py, test_committee_migration.py: up and down,
on SQLite and on PostgreSQL), and every PostgreSQL app migrates its empty database.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from web.db import make_engine, migrate

_TEMPLATE: Path | None = None


def template() -> Path:
    """The migrated database file of this run (made on first use, removed when the run ends)."""
    global _TEMPLATE
    if _TEMPLATE is None:
        folder = Path(tempfile.mkdtemp(prefix="adjudicator-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "head.db"
        engine = make_engine(f"sqlite:///{path}")
        try:
            migrate(engine)
            with engine.connect() as connection:  # everything in the main file: the copy needs no -wal file
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            engine.dispose()
        _TEMPLATE = path
    return _TEMPLATE


def migrated(path: Path) -> Path:
    """``path`` holding a database at head, unless a file is there already (a test's own database is kept)."""
    if not path.exists():
        shutil.copyfile(template(), path)
    return path
