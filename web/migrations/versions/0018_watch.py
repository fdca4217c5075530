"""The arbiter's watch (issue 36): live games, alerts, acknowledgements and the lease of each event's watch.

``watch_alerts`` holds one row per alert (unique on event, game, kind, ply and action: a restarted watch
raises no alert twice); ``watch_acks`` at most one acknowledgement per alert, with its user and time;
``watch_games`` each board as last read; ``watch_leases`` the process that reads an event's broadcast until
its lease expires (one watch per event, however many web processes run).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

ACTIONS = "'act', 'may-act', 'claimable', 'do-not-call', 'check-board', 'event-rule'"


def upgrade() -> None:
    op.create_table(
        "watch_alerts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(300), nullable=False),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(80), nullable=True),
        sa.Column("rule_refs_json", sa.Text(), nullable=False),
        sa.Column("players_json", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("raised_at", sa.Float(), nullable=False),
        sa.Column("withdrawn_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("event_id", "game", "kind", "ply", "action", name="uq_watch_alerts_alert"),
        sa.CheckConstraint(f"action IN ({ACTIONS})", name="ck_watch_alerts_action"),
    )
    op.create_index("ix_watch_alerts_event", "watch_alerts", ["event_id", "id"])
    op.create_table(
        "watch_acks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("alert_id", sa.Integer(), sa.ForeignKey("watch_alerts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("acknowledged_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("alert_id", name="uq_watch_acks_alert"),
    )
    op.create_table(
        "watch_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(300), nullable=False),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("players_json", sa.Text(), nullable=False),
        sa.Column("last_move", sa.String(80), nullable=True),
        sa.Column("clock_first", sa.Float(), nullable=True),
        sa.Column("clock_second", sa.Float(), nullable=True),
        sa.Column("result", sa.String(10), nullable=True),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("event_id", "game", name="uq_watch_games_game"),
    )
    op.create_table(
        "watch_leases",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("holder", sa.String(120), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("watch_leases")
    op.drop_table("watch_games")
    op.drop_table("watch_acks")
    op.drop_index("ix_watch_alerts_event", "watch_alerts")
    op.drop_table("watch_alerts")
