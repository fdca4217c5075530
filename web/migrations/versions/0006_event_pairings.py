"""An event's players and pairings, imported from its FIDE TRF file (issue 13, item 5).

Revision ID: 0006
Revises: 0005 (jobs)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_pairings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("white", sa.String(200), nullable=False),
        sa.Column("black", sa.String(200), nullable=False),
        sa.Column("white_rating", sa.Integer(), nullable=True),
        sa.Column("black_rating", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("event_id", "round", "board", name="uq_event_pairings_board"),
    )


def downgrade() -> None:
    op.drop_table("event_pairings")
