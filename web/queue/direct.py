"""The queue client's job rows through the database's own driver (``sqlite3``; ``psycopg`` for PostgreSQL).

``check-games`` with a broker writes a row per part, reads each part's end and deletes the rows read: nothing
else of the database. SQLAlchemy's import was 0.2-0.3 s of that command's 0.5 s start-up, during which every
worker waits for its first part (issue 40); this module does the same few statements with the driver alone.
It writes what :class:`web.queue.rows.SessionRows` writes (:func:`web.queue.job_rows.queued_values`, the same
columns) and sets SQLite's connection up as :func:`web.db.make_engine` does (:data:`web.schema.SQLITE_PRAGMAS`,
a 30 s busy timeout); ``tests/web/test_job_rows.py`` holds the two to each other on SQLite and PostgreSQL.
SQLAlchemy and Alembic bring a database not yet at the migrations' head there (the rows then go through the
driver all the same); a URL the driver might read otherwise than SQLAlchemy (options, percent-escapes, a ``/`` in
a password, a Unix socket) is left to SQLAlchemy altogether (:func:`connect`).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from web.queue.job_rows import FINISHED, Ended, queued_values
from web.schema import SQLITE_PRAGMAS, heads

SQLITE = ("sqlite:///", "sqlite+pysqlite:///")
PLAIN_POSTGRESQL = re.compile(r"(?:postgresql|postgres|postgresql\+psycopg)://"
                              r"((?:[A-Za-z0-9._~-]+(?::[A-Za-z0-9._~-]*)?@)?[A-Za-z0-9._~-]+(?::[0-9]+)?/[A-Za-z0-9._~-]+)")
"""A PostgreSQL URL that SQLAlchemy and libpq read alike: a user, a password, a host, a port and a database name of
letters, digits and ``._~-`` only (no percent-escapes, which libpq decodes and SQLAlchemy keeps in a database's
name; no ``/`` in a password, which libpq would read as the path), and no options; any other is SQLAlchemy's."""
BUSY_SECONDS = 30
"""How long a write waits for SQLite's other writer (``web.db.make_engine``'s timeout)."""


def connect(url: str) -> DirectRows | None:
    """The job rows of the database at ``url`` (as :func:`web.config.database_url` gives it), through its driver;
    None where this module leaves the URL to SQLAlchemy: an in-memory database, options after ``?``, a PostgreSQL
    URL not :data:`PLAIN_POSTGRESQL`, another database. Connects now: a database that cannot be reached raises its
    driver's error."""
    if "?" in url or ":memory:" in url:
        return None
    for prefix in SQLITE:
        if url.startswith(prefix) and len(url) > len(prefix):
            connection = sqlite3.connect(url[len(prefix):], timeout=BUSY_SECONDS, check_same_thread=False)
            for pragma in SQLITE_PRAGMAS:
                connection.execute(f"PRAGMA {pragma}")
            return DirectRows(connection, "?", sqlite3.Error)
    plain = PLAIN_POSTGRESQL.fullmatch(url)
    if plain is not None:
        import psycopg  # deferred on purpose: only a PostgreSQL database needs its driver

        def opened() -> Any:
            return psycopg.connect("postgresql://" + plain.group(1))

        return DirectRows(opened(), "%s", psycopg.Error, reconnect=opened)
    return None


class DirectRows:
    """:class:`web.queue.job_rows.JobRows` on one connection of the database's driver; each call commits."""

    def __init__(self, connection: Any, placeholder: str, error: type[Exception],
                 reconnect: Callable[[], Any] | None = None) -> None:
        self.connection = connection
        self.mark = placeholder
        self.error = error
        """The driver's base error (a missing ``alembic_version`` table, :meth:`is_at_head`)."""
        self.reconnect = reconnect
        """A database server's: a new connection where the one held was lost (a server restarted, an idle
        connection closed), tried before each statement as SQLAlchemy's ``pool_pre_ping`` does (web.db)."""

    def _ping(self) -> None:
        """Open the connection again if it was lost (``closed`` or ``broken`` after a failed ``SELECT 1``); any
        other error is the statement's to raise."""
        try:
            with contextlib.closing(self.connection.cursor()) as cursor:
                cursor.execute("SELECT 1")
        except self.error:
            if not (self.connection.closed or getattr(self.connection, "broken", False)):
                raise
            with contextlib.suppress(self.error):
                self.connection.close()
            assert self.reconnect is not None
            self.connection = self.reconnect()

    def _run(self, sql: str, values: Sequence[Any] = ()) -> tuple[list[Any], int]:
        """Run one statement in a transaction of its own: the rows it gives, and how many it changed."""
        if self.reconnect is not None:
            self._ping()
        cursor = self.connection.cursor()
        try:
            cursor.execute(sql.replace("?", self.mark), tuple(values))
            found = list(cursor.fetchall()) if cursor.description is not None else []
            changed = int(cursor.rowcount)
        except BaseException:
            with contextlib.suppress(self.error):  # a connection lost: the statement's own error tells
                self.connection.rollback()
            raise
        finally:
            with contextlib.suppress(self.error):
                cursor.close()
        self.connection.commit()
        return found, changed

    def is_at_head(self) -> bool:
        """The database holds every migration (:func:`web.db.is_at_head`, read without SQLAlchemy)."""
        wanted = heads()
        if wanted is None:
            return False
        try:
            found = {row[0] for row in self._run("SELECT version_num FROM alembic_version")[0]}
        except self.error:  # no alembic_version table: a new database
            return False
        return found == wanted

    def add_queued(self, job_id: str, kind: str, payload: Any, *, published: bool = False) -> None:
        values = queued_values(job_id, kind, payload=payload, published=published)
        self._run(f"INSERT INTO jobs ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                  list(values.values()))

    def published(self, job_id: str) -> None:
        self._run("UPDATE jobs SET published_at = ?, publications = publications + 1 WHERE id = ?",
                  (time.time(), job_id))

    def fail_unsent(self, job_id: str, error: Mapping[str, Any]) -> bool:
        return self._run("UPDATE jobs SET status = 'failed', finished_at = ?, error_json = ? "
                         "WHERE id = ? AND status = 'queued'",
                         (time.time(), json.dumps(dict(error), ensure_ascii=False), job_id))[1] > 0

    def ended(self, job_id: str) -> Ended | None:
        found, _ = self._run(f"SELECT status, result_json, error_json FROM jobs WHERE id = ? AND status IN "
                             f"({', '.join('?' * len(FINISHED))})", (job_id, *FINISHED))
        return Ended(*found[0]) if found else None

    def forget(self, job_ids: Sequence[str]) -> None:
        if job_ids:
            self._run(f"DELETE FROM jobs WHERE id IN ({', '.join('?' * len(job_ids))})", list(job_ids))

    def forget_named(self, prefix: str) -> None:
        escaped = prefix.replace("/", "//").replace("%", "/%").replace("_", "/_")
        self._run("DELETE FROM jobs WHERE id LIKE ? ESCAPE '/'", (escaped + "%",))

    def close(self) -> None:
        """Close the connection for good (SQLite folds its write-ahead log into the database file at its last
        close): a statement after this raises the driver's error, it opens no new connection."""
        self.reconnect = None
        self.connection.close()
