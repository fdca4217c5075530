"""PostgreSQL: the events' id sequence starts after the default event (issue 23).

Migration ``0003`` inserts the default event with its id (1) given, which a PostgreSQL ``serial``
sequence does not see: the first ``adjudicator events add`` on a fresh database took id 1 again and
failed (``UniqueViolation events_pkey``); the second try worked. The sequence is set to the largest
id stored (SQLite takes the largest id plus one by itself: nothing to do there).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("SELECT setval(pg_get_serial_sequence('events', 'id'), (SELECT max(id) FROM events))")


def downgrade() -> None:
    """Nothing to undo: the sequence only moved past ids already taken."""
