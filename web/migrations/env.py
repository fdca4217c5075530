"""Alembic environment: the app passes its connection in ``config.attributes["connection"]``;
run from the command line, ``sqlalchemy.url`` or ``ADJUDICATOR_DATABASE_URL`` names the database."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy.engine import Connection

from web.db import Base, make_engine
from web.tables import every as _every_table  # noqa: F401  autogenerate compares every table

config = context.config
connection = config.attributes.get("connection")


def _run(conn: Connection) -> None:
    context.configure(connection=conn, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("ADJUDICATOR_DATABASE_URL")
    if not url:
        raise SystemExit("set sqlalchemy.url or ADJUDICATOR_DATABASE_URL")
    with make_engine(url).connect() as conn:
        if conn.dialect.name == "sqlite":  # migrations that rebuild a table need foreign keys off (see 0003)
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        _run(conn)
        conn.commit()
