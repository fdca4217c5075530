"""Storage: the SQLAlchemy engine, the declarative base, and one session per request.

SQLite (WAL) is the embedded default; ``ADJUDICATOR_DATABASE_URL`` switches to
PostgreSQL. Tables are created by the Alembic migrations in ``web/migrations``
(revision ids: ``0001`` rulings, ``0002`` committee and audit, ...).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, sessionmaker


class Base(DeclarativeBase):
    """Every stored table."""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys and a busy timeout."""
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    return engine


def make_sessionmaker(engine: Engine) -> sessionmaker[Any]:
    return sessionmaker(bind=engine, expire_on_commit=False)
