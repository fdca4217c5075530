"""No stuck job (issue 23): when each queued job's message was last sent to the broker, and how often.

A broker without persistence (redis-server with ``save ""``) that restarts loses every message it
held: the jobs stayed ``queued`` for good. With ``published_at`` a sweep (``web.queue.recovery``)
finds a queued job whose message the broker no longer holds and sends it again, or fails it with
the reason once the broker cannot be reached for ``[queue] give_up_seconds``; ``publications``
counts the sendings (a job sent ``max_attempts + 2`` times and never taken fails).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE jobs ADD COLUMN published_at FLOAT")
    op.execute("ALTER TABLE jobs ADD COLUMN publications INTEGER DEFAULT 0 NOT NULL "
               "CONSTRAINT ck_jobs_publications CHECK (publications >= 0)")
    op.execute("UPDATE jobs SET published_at = created_at, publications = 1")  # every stored job was sent once


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.drop_constraint("ck_jobs_publications", type_="check")
        batch.drop_column("publications")
        batch.drop_column("published_at")
