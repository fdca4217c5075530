"""The addresses a name has logged in from (issue 39, item 3): a guesser with many addresses is slowed per
name, its owner from an address it logged in from before is not.

``login_known_addresses`` holds one row per (name digest, address) with the last successful log-in there
(``web.auth.throttle``); the name is stored as its SHA-256, as in ``login_failures``.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_known_addresses",
        sa.Column("name_digest", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("last_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("login_known_addresses")
