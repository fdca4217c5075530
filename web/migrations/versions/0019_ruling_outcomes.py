"""A ruling's outcome, and a committee member's verification of the position (issue 35).

- ``ruling_outcomes``: the result a committee or an appeal decided for a ruling (:mod:`web.outcomes`).
  One outcome per ruling: a unique index on ``ruling_id``; a later decision supersedes the earlier one
  in place (the audit chain keeps each step). Checks: the decider is ``committee`` (with its case) or
  ``appeal`` (with its appeal), never both, never neither.
- ``committee_verifications``: "I have verified the position on a board", one per member and case
  (:mod:`web.committee.gate`): the engine's line and score are shown to a seated member only after it.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ruling_outcomes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("ruling_id", sa.Integer(), sa.ForeignKey("rulings.id"), nullable=False),
        sa.Column("result", sa.String(10), nullable=True),
        sa.Column("decided_by", sa.String(20), nullable=False),
        sa.Column("committee_case_id", sa.Integer(), sa.ForeignKey("committee_cases.id"), nullable=True),
        sa.Column("appeal_id", sa.Integer(), sa.ForeignKey("appeals.id"), nullable=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.CheckConstraint("decided_by IN ('committee', 'appeal')", name="ck_ruling_outcomes_decider"),
        sa.CheckConstraint("(decided_by = 'committee') = (committee_case_id IS NOT NULL)",
                           name="ck_ruling_outcomes_case"),
        sa.CheckConstraint("(decided_by = 'appeal') = (appeal_id IS NOT NULL)", name="ck_ruling_outcomes_appeal"),
    )
    op.create_index("uq_ruling_outcomes_ruling", "ruling_outcomes", ["ruling_id"], unique=True)
    op.create_table(
        "committee_verifications",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("case_id", sa.Integer(), sa.ForeignKey("committee_cases.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("verified_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("case_id", "user_id", name="uq_committee_verification"),
    )
    op.create_index("ix_committee_verifications_case_id", "committee_verifications", ["case_id"])


def downgrade() -> None:
    op.drop_index("ix_committee_verifications_case_id", table_name="committee_verifications")
    op.drop_table("committee_verifications")
    op.drop_index("uq_ruling_outcomes_ruling", table_name="ruling_outcomes")
    op.drop_table("ruling_outcomes")
