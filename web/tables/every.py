"""Every table at once: importing this module registers all of them on :class:`web.db.Base` (and how each
table's rows are read by the audit trail's check), so that Alembic, ``create_all``, :func:`web.audit.verify`
and a session that may flush any table see them all (a row whose foreign key names a table not registered
cannot be flushed). Imported by the app, the worker, the commands' storage, Alembic and the audit trail."""

from __future__ import annotations

from web.tables import (
    appeals,
    audit,
    checks,
    collections,
    committee,
    events,
    jobs,
    logins,
    outcomes,
    pairings,
    rulings,
    users,
    watch,
)

__all__ = ["appeals", "audit", "checks", "collections", "committee", "events", "jobs", "logins", "outcomes",
           "pairings", "rulings", "users", "watch"]
