"""Committee, appeals, users and the audit trail (issue 7).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("club", sa.String(120), nullable=True),
        sa.Column("team", sa.String(120), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "committee_cases",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("opened_at", sa.String(40), nullable=False),
        sa.Column("opened_by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(10), nullable=False),
        sa.Column("ruleset", sa.String(80), nullable=False),
        sa.Column("round", sa.String(40), nullable=True),
        sa.Column("board", sa.String(40), nullable=True),
        sa.Column("case_json", sa.Text(), nullable=False),
        sa.Column("players_json", sa.Text(), nullable=False),
        sa.Column("position_json", sa.Text(), nullable=False),
        sa.Column("recommendation_json", sa.Text(), nullable=True),
        sa.Column("recommendation_note", sa.Text(), nullable=False),
        sa.Column("services_json", sa.Text(), nullable=False),
        sa.Column("vote_rule", sa.String(40), nullable=False),
        sa.Column("members_required", sa.Integer(), nullable=False),
        sa.Column("rule_ref", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("result", sa.String(10), nullable=True),
        sa.Column("decision_json", sa.Text(), nullable=True),
        sa.Column("decided_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "committee_members",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("case_id", sa.Integer(), sa.ForeignKey("committee_cases.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.UniqueConstraint("case_id", "user_id", name="uq_committee_member"),
    )
    op.create_index("ix_committee_members_case_id", "committee_members", ["case_id"])
    op.create_table(
        "committee_votes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("case_id", sa.Integer(), sa.ForeignKey("committee_cases.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("result", sa.String(10), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("cast_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("case_id", "user_id", name="uq_committee_vote"),
    )
    op.create_index("ix_committee_votes_case_id", "committee_votes", ["case_id"])
    op.create_table(
        "appeals",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("filed_at", sa.String(40), nullable=False),
        sa.Column("filed_by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("grounds", sa.Text(), nullable=False),
        sa.Column("record_json", sa.Text(), nullable=False),
        sa.Column("rerun_json", sa.Text(), nullable=True),
        sa.Column("difference_json", sa.Text(), nullable=True),
        sa.Column("rerun_at", sa.String(40), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=True),
        sa.Column("new_result", sa.String(10), nullable=True),
        sa.Column("reasons", sa.Text(), nullable=True),
        sa.Column("decided_by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("decided_at", sa.String(40), nullable=True),
    )
    op.create_index("ix_appeals_subject", "appeals", ["subject"])
    op.create_table(
        "audit_entries",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(120), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_audit_entries_kind", "audit_entries", ["kind"])
    op.create_index("ix_audit_entries_subject", "audit_entries", ["subject"])
    head = op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": "0" * 64}])


def downgrade() -> None:
    for index, table in (("ix_audit_entries_subject", "audit_entries"), ("ix_audit_entries_kind", "audit_entries"),
                         ("ix_appeals_subject", "appeals"), ("ix_committee_votes_case_id", "committee_votes"),
                         ("ix_committee_members_case_id", "committee_members")):
        op.drop_index(index, table_name=table)
    for table in ("audit_head", "audit_entries", "appeals", "committee_votes", "committee_members",
                  "committee_cases", "users"):
        op.drop_table(table)
