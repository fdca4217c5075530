"""Log-in throttling and server-side sessions (issue 11, item 4).

Revision ID: 0004
Revises: 0003 (events)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name_digest", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_login_failures_name_at", "login_failures", ["name_digest", "at"])
    op.create_index("ix_login_failures_address_at", "login_failures", ["address", "at"])
    op.create_index("ix_login_failures_at", "login_failures", ["at"])
    op.create_table(
        "login_sessions",
        sa.Column("id_digest", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_login_sessions_user_id", "login_sessions", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_login_sessions_user_id", table_name="login_sessions")
    op.drop_table("login_sessions")
    for index in ("ix_login_failures_at", "ix_login_failures_address_at", "ix_login_failures_name_at"):
        op.drop_index(index, table_name="login_failures")
    op.drop_table("login_failures")
