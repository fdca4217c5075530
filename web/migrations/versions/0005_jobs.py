"""Jobs on the task queue (issue 12): every queued job's state is a row, not a worker's memory.

Revision ID: 0005
Revises: 0004 (log-in security)

A row per job: its kind (``claim``: an engine claim, ``recommend``: a committee
recommendation or an appeal's re-run, ``check-chunk``: a chunk of a collection being
checked), its state (queued, running, done, failed, cancelled), the share done and
the analysis's last message (the web progress bar), whether the TD asked to cancel,
which worker runs it and when that worker last said it is alive (a job whose worker
fell silent is given to another). Unlike cases and rulings, these rows change.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("case_id", sa.Integer(), sa.ForeignKey("cases.id"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("fraction", sa.Float(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False, server_default=""),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("payload_json", sa.Text(), nullable=True),
        sa.Column("result_json", sa.Text(), nullable=True),
        sa.Column("error_json", sa.Text(), nullable=True),
        sa.Column("ruling_id", sa.Integer(), sa.ForeignKey("rulings.id"), nullable=True),
        sa.Column("worker", sa.String(120), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("heartbeat_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.CheckConstraint("status IN ('queued', 'running', 'done', 'failed', 'cancelled')", name="ck_jobs_status"),
    )
    op.create_index("ix_jobs_case_id", "jobs", ["case_id"])
    op.create_index("ix_jobs_status_heartbeat", "jobs", ["status", "heartbeat_at"])


def downgrade() -> None:
    op.drop_index("ix_jobs_status_heartbeat", table_name="jobs")
    op.drop_index("ix_jobs_case_id", table_name="jobs")
    op.drop_table("jobs")
