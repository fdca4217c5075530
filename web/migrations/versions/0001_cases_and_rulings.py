"""Cases, rulings and case notes: append-only.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("cases", "rulings", "case_notes")


def upgrade() -> None:
    op.create_table(
        "cases",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.String(80), nullable=False),
        sa.Column("claim", sa.String(40), nullable=False),
        sa.Column("claimant", sa.String(16)),
        sa.Column("event", sa.String(200)),
        sa.Column("round", sa.String(20)),
        sa.Column("board", sa.String(20)),
        sa.Column("first_player", sa.String(200)),
        sa.Column("second_player", sa.String(200)),
        sa.Column("case_json", sa.Text, nullable=False),
    )
    op.create_index("ix_cases_round_board", "cases", ["round", "board"])
    op.create_table(
        "rulings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("case_id", sa.Integer, sa.ForeignKey("cases.id"), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("result", sa.String(8)),
        sa.Column("duration_ms", sa.Integer, nullable=False),
        sa.Column("ruling_json", sa.Text, nullable=False),
    )
    op.create_table(
        "case_notes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("case_id", sa.Integer, sa.ForeignKey("cases.id"), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    )
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for table in APPEND_ONLY:
            for action in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
                )
    elif dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION append_only()"
            )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in reversed(APPEND_ONLY):
        op.drop_table(table)  # drops its triggers too
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS append_only()")
