"""Storage for the committee, appeals, users and audit tables: engine, sessions, schema.

TEMPORARY until the web helper's storage is merged: one engine per app (or per
command), one session per request, and the schema from the Alembic migrations when
``web/migrations/env.py`` exists, else ``create_all`` for these tables.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import Engine, insert, select
from sqlalchemy.orm import Session, sessionmaker

from web.config import PROJECT_ROOT
from web.db import Base, make_engine

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
_EXTENSION = "committee.sessionmaker"


def database_url(config: Mapping[str, Any]) -> str:
    """The configured URL; a relative SQLite path is taken from the configuration's folder."""
    url = str(config.get("database", {}).get("url") or "sqlite:///instance/adjudicator.db")
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and ":memory:" not in url:
        path = Path(str(config.get("_root", PROJECT_ROOT))) / url[len(prefix):]
        path.parent.mkdir(parents=True, exist_ok=True)
        url = prefix + str(path)
    return url


def _tables() -> list[Any]:
    import importlib

    for name in ("web.appeals.models", "web.audit", "web.auth.models", "web.committee.models"):
        importlib.import_module(name)  # registers the tables

    names = ("users", "committee_cases", "committee_members", "committee_votes", "appeals",
             "audit_entries", "audit_head")
    return [Base.metadata.tables[name] for name in names]


def ensure_schema(engine: Engine) -> None:
    """Create the tables if they are missing (idempotent), and the audit chain's head row."""
    from web.audit import GENESIS, AuditHead

    if (MIGRATIONS / "env.py").exists():  # the web helper's Alembic set-up, once merged
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
    else:
        Base.metadata.create_all(engine, tables=_tables())
    with engine.begin() as connection:
        if connection.execute(select(AuditHead.id)).first() is None:
            connection.execute(insert(AuditHead).values(id=1, seq=0, hash=GENESIS))


def sessionmaker_for(config: Mapping[str, Any]) -> sessionmaker[Session]:
    engine = make_engine(database_url(config))
    ensure_schema(engine)
    return sessionmaker(bind=engine, expire_on_commit=False)


def init_app(app: Flask) -> None:
    """Attach the sessionmaker and close the request's session at teardown.

    When the app's own storage is set up (``web.db.init_app``: engine, migrations
    up to head, ``db_sessions``), its sessionmaker is used.
    """
    if "db_sessions" in app.extensions:
        app.extensions[_EXTENSION] = app.extensions["db_sessions"]
    elif _EXTENSION not in app.extensions:
        app.extensions[_EXTENSION] = sessionmaker_for(app.config["ADJUDICATOR"])

    @app.teardown_appcontext
    def _close(_exc: BaseException | None) -> None:
        session = g.pop("committee_session", None)
        if session is not None:
            session.close()


def db() -> Session:
    """The request's session."""
    if "committee_session" not in g:
        g.committee_session = current_app.extensions[_EXTENSION]()
    session: Session = g.committee_session
    return session


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
