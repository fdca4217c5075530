"""An event's broadcast: where its live games are published (issue 21, item 4).

``events.broadcast`` names a folder on the server (a DGT LiveChess export: one PGN per round,
rewritten as moves arrive) or an http(s) URL polled for a PGN (lichess broadcast style); NULL
for none. The database refuses anything else: an absolute path or an http(s) URL.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

CHECK = ("broadcast IS NULL OR broadcast LIKE 'http://%' OR broadcast LIKE 'https://%' "
         "OR broadcast LIKE '/%'")


def upgrade() -> None:
    # one statement both SQLite and PostgreSQL take: a column with its own check, no table rebuild
    op.execute(f"ALTER TABLE events ADD COLUMN broadcast VARCHAR(1000) CONSTRAINT ck_events_broadcast CHECK ({CHECK})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE events DROP COLUMN broadcast")  # its own check goes with it (SQLite 3.35+)
    else:
        op.drop_column("events", "broadcast")
