"""A decided appeal keeps the re-run its decision saw.

The appeals committee decides on the re-run it read. Re-running after the decision would
overwrite that evidence (``rerun_json``, ``difference_json``, ``rerun_at``) under a
decision that never saw the new one. A trigger refuses any change to those columns once
the appeal is decided, as 0003's trigger does for the decision's own columns.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

RERUN_COLUMNS = "rerun_json, difference_json, rerun_at"
MESSAGE = "an appeal is decided once: the re-run its decision saw cannot change"


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"CREATE TRIGGER appeals_rerun_final BEFORE UPDATE OF {RERUN_COLUMNS} ON appeals "
                   f"WHEN OLD.status = 'decided' BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END")
    else:
        op.execute("CREATE FUNCTION appeal_rerun_final() RETURNS trigger LANGUAGE plpgsql AS $$ "
                   f"BEGIN RAISE EXCEPTION '{MESSAGE}'; END $$")
        op.execute(f"CREATE TRIGGER appeals_rerun_final BEFORE UPDATE OF {RERUN_COLUMNS} ON appeals "
                   "FOR EACH ROW WHEN (OLD.status = 'decided') EXECUTE FUNCTION appeal_rerun_final()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS appeals_rerun_final")
    else:
        op.execute("DROP TRIGGER IF EXISTS appeals_rerun_final ON appeals")
        op.execute("DROP FUNCTION IF EXISTS appeal_rerun_final()")
