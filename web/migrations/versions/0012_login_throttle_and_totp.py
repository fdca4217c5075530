"""Log-in throttling that a stranger cannot turn against a user, and one-time passwords (issue 23).

- ``login_failures.user_id``: the user a failed log-in named (None: a name no user has), so that
  an admin sees whose log-ins are being throttled and lifts them; the name itself stays stored
  only as its SHA-256 (a password typed into the name field is not kept). Failures are counted
  per (name, address) and per address (``web.auth.throttle``); the index serves the first.
- ``users.totp_secret`` (base32, 32 characters) and ``users.totp_last_step`` (the last 30-second
  step whose code was used, so a code is good once): time-based one-time passwords
  (``web.auth.totp``), optional per user and required for the roles ``[security] totp_roles``
  names. The CHECKs hold the shapes.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("login_failures") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_login_failures_user_id", "users", ["user_id"], ["id"], ondelete="CASCADE")
    op.create_index("ix_login_failures_name_address_at", "login_failures", ["name_digest", "address", "at"])
    # column constraints in ADD COLUMN: both SQLite (which adds no table constraint later) and PostgreSQL take them
    op.execute("ALTER TABLE users ADD COLUMN totp_secret VARCHAR(32) CONSTRAINT ck_users_totp_secret "
               "CHECK (totp_secret IS NULL OR length(totp_secret) = 32)")
    op.execute("ALTER TABLE users ADD COLUMN totp_last_step INTEGER CONSTRAINT ck_users_totp_last_step "
               "CHECK (totp_last_step IS NULL OR (totp_secret IS NOT NULL AND totp_last_step >= 0))")


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("ck_users_totp_last_step", type_="check")
        batch.drop_constraint("ck_users_totp_secret", type_="check")
        batch.drop_column("totp_last_step")
        batch.drop_column("totp_secret")
    op.drop_index("ix_login_failures_name_address_at", table_name="login_failures")
    with op.batch_alter_table("login_failures") as batch:
        batch.drop_constraint("fk_login_failures_user_id", type_="foreignkey")
        batch.drop_column("user_id")
