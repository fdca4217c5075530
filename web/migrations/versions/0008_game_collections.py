"""An event's stored game collections (issue 12, item 3: "or pick the event's stored games").

Revision ID: 0008
Revises: 0007 (game checks)

``game_collections``: every PGN/PDN uploaded to an event's checks page, byte for byte,
append-only as the rulings of ``0001`` are (triggers refuse UPDATE and DELETE; PostgreSQL
reuses 0001's ``append_only()`` function). ``game_checks.collection_id`` names the
collection a check read (NULL for checks made before: their files were not kept).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TABLE = "game_collections"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("filename", sa.String(200), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("uploaded_by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("uploaded_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("event_id", "game", "sha256", name="uq_game_collections_bytes"),
        sa.CheckConstraint("size = length(content)", name="ck_game_collections_size"),
        sa.CheckConstraint("game IN ('chess', 'checkers')", name="ck_game_collections_game"),
    )
    op.create_index("ix_game_collections_event", TABLE, ["event_id", "id"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER {TABLE}_no_{action.lower()} BEFORE {action} ON {TABLE} "
                       f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only'); END")
    elif dialect == "postgresql":
        op.execute(f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
                   "FOR EACH ROW EXECUTE FUNCTION append_only()")
    with op.batch_alter_table("game_checks") as batch:
        batch.add_column(sa.Column("collection_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_game_checks_collection", TABLE, ["collection_id"], ["id"])
        batch.create_index("ix_game_checks_collection", ["collection_id"])


def downgrade() -> None:
    with op.batch_alter_table("game_checks") as batch:
        batch.drop_index("ix_game_checks_collection")
        batch.drop_constraint("fk_game_checks_collection", type_="foreignkey")
        batch.drop_column("collection_id")
    op.drop_index("ix_game_collections_event", table_name=TABLE)
    op.drop_table(TABLE)  # drops its triggers too
