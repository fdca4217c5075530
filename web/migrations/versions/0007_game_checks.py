"""Game checks (issue 12, item 3): an event's PGN/PDN checked against the laws, its report stored.

Revision ID: 0007
Revises: 0006 (event pairings)

``game_checks``: one row per uploaded collection (the job: its state, the share done,
the games checked and how many have findings); ``game_check_games``: one row per game
checked, with the contract's check-games line and the game's record.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_checks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("submitted_by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("filename", sa.String(200), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("with_findings", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("message", sa.Text(), nullable=False, server_default=""),
        sa.Column("error_json", sa.Text(), nullable=True),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.CheckConstraint("status IN ('queued', 'running', 'done', 'failed', 'cancelled')",
                           name="ck_game_checks_status"),
    )
    op.create_index("ix_game_checks_event", "game_checks", ["event_id", "id"])
    op.create_table(
        "game_check_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("check_id", sa.Integer(), sa.ForeignKey("game_checks.id", ondelete="CASCADE"), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("has_findings", sa.Boolean(), nullable=False),
        sa.Column("line_json", sa.Text(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.UniqueConstraint("check_id", "index", name="uq_game_check_games_index"),
    )
    op.create_index("ix_game_check_games_findings", "game_check_games", ["check_id", "has_findings", "index"])


def downgrade() -> None:
    op.drop_index("ix_game_check_games_findings", table_name="game_check_games")
    op.drop_table("game_check_games")
    op.drop_index("ix_game_checks_event", table_name="game_checks")
    op.drop_table("game_checks")
