"""Every stored table, on one floor: one module per aggregate, all registered on :class:`web.db.Base`.

Importing this package registers every table (and how each table's rows are read by the audit
trail's check), so Alembic, ``create_all`` and :func:`web.audit.verify` see them all. A module here
imports only :mod:`web.db`, its sibling tables and the domain: never an area, never a service.
"""

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
