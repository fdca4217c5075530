"""Access that can be taken back (issue 23): event tokens are revoked, never deleted, and one user has
at most one live token per event; an appeal is never decided by its appellant.

- ``event_tokens.revoked_at``: when the token stopped working (None: it works). A partial unique
  index (``uq_event_tokens_live``) lets each user hold one live token per event, so a new token
  replaces the old in the database's own rule. Tokens stored before this migration that a newer
  one of the same user and event would have replaced are revoked here (the newest stays).
- ``ck_appeals_not_own``: the appellant never decides their own appeal (PostgreSQL: a CHECK,
  ``NOT VALID`` so that a row decided before it does not stop the upgrade; SQLite cannot add a
  CHECK to a table without rebuilding it, and rebuilding ``appeals`` would drop 0003's and 0009's
  triggers, so triggers refuse the same insert or update there).

Revision ID: 0011
Revises: 0009 (0010 is another engineer's broadcast column, in parallel: the lead re-chains on merge)
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

NOT_OWN = "decided_by_id IS NULL OR decided_by_id <> filed_by_id"
MESSAGE = "the appellant cannot decide their own appeal"


def upgrade() -> None:
    op.add_column("event_tokens", sa.Column("revoked_at", sa.String(40), nullable=True))
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    op.execute(sa.text(
        "UPDATE event_tokens SET revoked_at = :now WHERE id NOT IN "
        "(SELECT max(id) FROM event_tokens GROUP BY event_id, user_id)").bindparams(now=now))
    op.create_index("uq_event_tokens_live", "event_tokens", ["event_id", "user_id"], unique=True,
                    sqlite_where=sa.text("revoked_at IS NULL"), postgresql_where=sa.text("revoked_at IS NULL"))
    if op.get_bind().dialect.name == "sqlite":
        new_row = "NEW.decided_by_id IS NULL OR NEW.decided_by_id <> NEW.filed_by_id"
        for name, when in (("appeals_not_own_insert", "INSERT"),
                           ("appeals_not_own_update", "UPDATE OF decided_by_id, filed_by_id")):
            op.execute(f"CREATE TRIGGER {name} BEFORE {when} ON appeals WHEN NOT ({new_row}) "
                       f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END")
    else:
        op.execute(f"ALTER TABLE appeals ADD CONSTRAINT ck_appeals_not_own CHECK ({NOT_OWN}) NOT VALID")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS appeals_not_own_insert")
        op.execute("DROP TRIGGER IF EXISTS appeals_not_own_update")
    else:
        op.execute("ALTER TABLE appeals DROP CONSTRAINT IF EXISTS ck_appeals_not_own")
    op.drop_index("uq_event_tokens_live", table_name="event_tokens")
    op.drop_column("event_tokens", "revoked_at")
