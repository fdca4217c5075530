"""A committee case remembers the ruling it was referred from (issue 22, item 7).

``committee_cases.referred_ruling_id``: the unfinished-game ruling whose "Refer to the committee"
opened the case (NULL: a case opened on its own, by the form or the API). A ruling is referred
once: a unique index (NULLs apart, in SQLite and PostgreSQL alike), so two taps on "Refer" or two
TDs at once never give one game two committees.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

INDEX = "uq_committee_cases_referred_ruling"


def upgrade() -> None:
    # one statement both SQLite and PostgreSQL take: a nullable column with its reference, no table rebuild
    op.execute("ALTER TABLE committee_cases ADD COLUMN referred_ruling_id INTEGER REFERENCES rulings (id)")
    op.create_index(INDEX, "committee_cases", ["referred_ruling_id"], unique=True)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="committee_cases")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE committee_cases DROP COLUMN referred_ruling_id")  # SQLite 3.35+
    else:
        op.drop_column("committee_cases", "referred_ruling_id")
