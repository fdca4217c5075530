"""Storage: the SQLAlchemy engine, the declarative base, and one session per request.

SQLite (WAL) is the embedded default; ``ADJUDICATOR_DATABASE_URL`` switches to
PostgreSQL. Tables are created by the Alembic migrations in ``web/migrations``
(revision ids: ``0001`` cases and rulings, ``0002`` committee and audit, ...), run
by :func:`init_app` when the app starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from web.schema import MIGRATIONS, SQLITE_PRAGMAS, heads

if TYPE_CHECKING:  # Flask only where an app is served: the queue's client and workers use the database alone
    from flask import Flask


class Base(DeclarativeBase):
    """Every stored table."""


def normalise_url(url: str) -> str:
    """``postgresql://`` means the psycopg 3 driver (the one the project installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets :data:`web.schema.SQLITE_PRAGMAS` and a busy timeout."""
    url = normalise_url(url)
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            for pragma in SQLITE_PRAGMAS:
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

    return engine


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def is_at_head(engine: Engine) -> bool:
    """The database holds every migration already (its ``alembic_version`` rows are :func:`heads`): an
    upgrade to the head would do nothing, and Alembic need not load (the commands start fast, issue 40)."""
    wanted = heads()
    if wanted is None:
        return False
    with engine.connect() as connection:
        if not engine.dialect.has_table(connection, "alembic_version"):
            return False
        found = {row[0] for row in connection.exec_driver_sql("SELECT version_num FROM alembic_version")}
    return found == wanted


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` with the Alembic migrations in ``web/migrations``
    (to the head: nothing to do, without loading Alembic, where :func:`is_at_head`).

    On SQLite the migrations run with foreign keys off (a migration that rebuilds a
    table needs it: SQLite's documented procedure), and every reference is checked
    before the migration commits; they are on again afterwards.
    """
    if revision == "head" and is_at_head(engine):
        return
    from alembic import command  # deferred on purpose: only a migration needs Alembic
    from alembic.config import Config  # deferred on purpose: only a migration needs Alembic

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    is_sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if is_sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside any transaction, as SQLite needs
            connection.commit()
        try:
            with connection.begin():
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, revision)
                if is_sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise MigrationError(f"the migration leaves rows referring to missing rows: {broken[:5]}")
        finally:
            if is_sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


class MigrationError(RuntimeError):
    """A migration would leave the database inconsistent (it is rolled back)."""


def init_app(app: Flask, url: str) -> None:
    """Create the engine, migrate, and give each request its own session (``get_session``)."""
    from flask import g  # deferred on purpose: Flask only where an app is served

    engine = make_engine(url)
    migrate(engine)
    app.extensions["db_engine"] = engine
    app.extensions["db_sessions"] = make_sessionmaker(engine)

    @app.teardown_appcontext
    def _close_session(_exc: BaseException | None) -> None:
        session = g.pop("db_session", None)
        if session is not None:
            session.close()


def get_session() -> Session:
    """This request's session (opened on first use, closed when the request ends)."""
    from flask import current_app, g  # deferred on purpose: Flask only where an app is served (a loaded module)

    if "db_session" not in g:
        g.db_session = current_app.extensions["db_sessions"]()
    session: Session = g.db_session
    return session


def sessions() -> sessionmaker[Session]:
    """The session factory, for work outside a request (background jobs)."""
    from flask import current_app  # deferred on purpose: Flask only where an app is served

    factory: sessionmaker[Session] = current_app.extensions["db_sessions"]
    return factory
