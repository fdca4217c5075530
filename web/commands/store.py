"""Storage for command-line commands (``users``, ``audit``): an engine, the schema, a session.

Requests use the app's one session per request (``web.db.get_session``), for the
committee, appeals, users and audit tables as for everything else; this module only
serves commands that run outside the app. The schema comes from the Alembic
migrations (``create_all`` for these tables when they are absent), plus the audit
chain's head row.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, select
from sqlalchemy.orm import Session, sessionmaker

from web.config import database_url
from web.db import Base, make_engine, migrate
from web.tables import every as _every_table  # noqa: F401  the tables the commands write, and all they name
from web.tables.audit import GENESIS, AuditHead

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def _tables() -> list[Any]:
    """The tables the commands write (:mod:`web.tables.every` registered every table)."""
    names = ("users", "committee_cases", "committee_members", "committee_votes", "appeals",
             "audit_entries", "audit_head", "events", "event_staff", "event_tokens", "committee_verifications")
    return [Base.metadata.tables[name] for name in names]


def ensure_schema(engine: Engine) -> None:
    """Create the tables if they are missing (idempotent), and the audit chain's head row."""
    if (MIGRATIONS / "env.py").exists():  # the web helper's Alembic set-up, once merged
        migrate(engine)
    else:
        Base.metadata.create_all(engine, tables=_tables())
    with engine.begin() as connection:
        if connection.execute(select(AuditHead.id)).first() is None:
            connection.execute(insert(AuditHead).values(id=1, seq=0, hash=GENESIS))


def sessionmaker_for(config: Mapping[str, Any]) -> sessionmaker[Session]:
    engine = make_engine(database_url(config))
    ensure_schema(engine)
    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def command_session(config: Mapping[str, Any]) -> Iterator[Session]:
    """A session for a command-line command."""
    maker = sessionmaker_for(config)
    session = maker()
    try:
        yield session
    finally:
        session.close()
        bind = maker.kw.get("bind")
        if isinstance(bind, Engine):
            bind.dispose()
