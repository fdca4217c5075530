"""Events: the unit of access (issue 11). Every case, ruling, committee case and appeal
belongs to an event; the rows already stored go to the default event (id 1).

Also: an appeal is decided once (a CHECK ties the status to the decision's columns, and
the database refuses to change a decision once made).

On SQLite a NOT NULL foreign key cannot be added to a table with rows, so the three
tables are rebuilt (SQLite's documented procedure: new table, copy, drop, rename, then
the indexes and triggers again). That needs foreign keys off; :func:`web.db.migrate`
turns them off around the migrations and checks every reference afterwards.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

APPEAL_DECIDED_ONCE = (
    "(status = 'open' AND outcome IS NULL AND decided_by_id IS NULL AND decided_at IS NULL) OR "
    "(status = 'decided' AND outcome IN ('upheld', 'overturned') AND decided_by_id IS NOT NULL "
    "AND decided_at IS NOT NULL)"
)
DECISION_COLUMNS = "status, outcome, new_result, reasons, decided_by_id, decided_at"
EVENT_FK = "REFERENCES events (id)"


def _sqlite_rebuild(table: str, columns: list[tuple[str, str, str]], constraints: list[str]) -> None:
    """Rebuild ``table`` with ``columns`` (name, DDL, value for the rows already there) and ``constraints``."""
    bind = op.get_bind()
    if bind.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError("migration 0003 rebuilds tables: run it with SQLite foreign keys off "
                           "(web.db.migrate does)")
    create = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).scalar_one()
    extras = [row[0] for row in bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
        (table,))]
    old_columns = [row[1] for row in bind.exec_driver_sql(f"PRAGMA table_info({table})")]
    body = re.sub(rf'^CREATE TABLE "?{table}"?', f"CREATE TABLE _new_{table}", create.strip())
    head, _, rest = body.partition("(")
    parts = [part.strip() for part in re.split(r",\s*\n", rest.rstrip()[:-1])]
    table_constraints = ("PRIMARY KEY", "UNIQUE", "FOREIGN KEY", "CONSTRAINT", "CHECK")
    first = next((i for i, part in enumerate(parts) if part.startswith(table_constraints)), len(parts))
    parts[first:first] = [f"{name} {ddl}" for name, ddl, _value in columns]
    op.execute(head + "(\n\t" + ",\n\t".join(parts + constraints) + "\n)")
    names = ", ".join(old_columns + [name for name, _ddl, _value in columns])
    values = ", ".join(old_columns + [value for _name, _ddl, value in columns])
    op.execute(f"INSERT INTO _new_{table} ({names}) SELECT {values} FROM {table}")
    op.execute(f"DROP TABLE {table}")
    op.execute(f"ALTER TABLE _new_{table} RENAME TO {table}")
    for sql in extras:
        op.execute(sql)


def _postgres_event_column(table: str) -> None:
    op.add_column(table, sa.Column("event_id", sa.Integer(), nullable=False, server_default="1"))
    op.alter_column(table, "event_id", server_default=None)
    op.create_foreign_key(f"fk_{table}_event_id", table, "events", ["event_id"], ["id"])


def upgrade() -> None:
    events = op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("slug", sa.String(40), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("ruleset", sa.String(80), nullable=True),
        sa.Column("visibility", sa.String(10), nullable=False),
        sa.Column("is_open", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.CheckConstraint("visibility IN ('public', 'private')", name="ck_events_visibility"),
        sa.CheckConstraint("starts_on IS NULL OR ends_on IS NULL OR ends_on >= starts_on", name="ck_events_dates"),
    )
    created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    op.bulk_insert(events, [{"id": 1, "slug": "default", "name": "Default event", "starts_on": None,
                             "ends_on": None, "ruleset": None, "visibility": "public", "is_open": True,
                             "created_at": created}])
    op.create_table(
        "event_staff",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("assigned_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("event_id", "user_id", "role", name="uq_event_staff"),
        sa.CheckConstraint("role IN ('td', 'committee', 'appeals')", name="ck_event_staff_role"),
    )
    op.create_index("ix_event_staff_event_id", "event_staff", ["event_id"])
    op.create_index("ix_event_staff_user_id", "event_staff", ["user_id"])
    op.create_table(
        "event_tokens",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_event_tokens_event_id", "event_tokens", ["event_id"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        _sqlite_rebuild("cases", [("event_id", f"INTEGER NOT NULL {EVENT_FK}", "1"),
                                  ("submitted_by_id", "INTEGER REFERENCES users (id)", "NULL")], [])
        _sqlite_rebuild("committee_cases", [("event_id", f"INTEGER NOT NULL {EVENT_FK}", "1")], [])
        _sqlite_rebuild("appeals", [("event_id", f"INTEGER NOT NULL {EVENT_FK}", "1")],
                        [f"CONSTRAINT ck_appeals_decided_once CHECK ({APPEAL_DECIDED_ONCE})"])
        op.execute(f"CREATE TRIGGER appeals_decision_final BEFORE UPDATE OF {DECISION_COLUMNS} ON appeals "
                   "WHEN OLD.status = 'decided' "
                   "BEGIN SELECT RAISE(ABORT, 'an appeal is decided once: its decision cannot change'); END")
    else:
        for table in ("cases", "committee_cases", "appeals"):
            _postgres_event_column(table)
        op.add_column("cases", sa.Column("submitted_by_id", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_cases_submitted_by_id", "cases", "users", ["submitted_by_id"], ["id"])
        op.create_check_constraint("ck_appeals_decided_once", "appeals", APPEAL_DECIDED_ONCE)
        op.execute(
            "CREATE FUNCTION appeal_decision_final() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'an appeal is decided once: its decision cannot change'; END $$"
        )
        op.execute(f"CREATE TRIGGER appeals_decision_final BEFORE UPDATE OF {DECISION_COLUMNS} ON appeals "
                   "FOR EACH ROW WHEN (OLD.status = 'decided') EXECUTE FUNCTION appeal_decision_final()")
    for table in ("cases", "committee_cases", "appeals"):
        op.create_index(f"ix_{table}_event_id", table, ["event_id"])


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in ("cases", "committee_cases", "appeals"):
        op.drop_index(f"ix_{table}_event_id", table_name=table)
    op.execute("DROP TRIGGER IF EXISTS appeals_decision_final" + (" ON appeals" if dialect != "sqlite" else ""))
    if dialect == "sqlite":
        for table, dropped in (("cases", ("event_id", "submitted_by_id")), ("committee_cases", ("event_id",)),
                               ("appeals", ("event_id",))):
            _sqlite_drop_columns(table, dropped)
    else:
        op.execute("DROP FUNCTION IF EXISTS appeal_decision_final()")
        op.drop_constraint("ck_appeals_decided_once", "appeals", type_="check")
        op.drop_column("cases", "submitted_by_id")
        for table in ("cases", "committee_cases", "appeals"):
            op.drop_column(table, "event_id")
    op.drop_table("event_tokens")
    op.drop_table("event_staff")
    op.drop_table("events")


def _sqlite_drop_columns(table: str, dropped: tuple[str, ...]) -> None:
    """SQLite 3.35+ drops a plain column; a column with a constraint needs the rebuild (without it)."""
    bind = op.get_bind()
    create = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).scalar_one()
    extras = [row[0] for row in bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
        (table,))]
    kept = [row[1] for row in bind.exec_driver_sql(f"PRAGMA table_info({table})") if row[1] not in dropped]
    body = re.sub(rf'^CREATE TABLE "?{table}"?', f"CREATE TABLE _old_{table}", create.strip())
    head, _, rest = body.partition("(")
    parts = [part.strip() for part in re.split(r",\s*\n", rest.rstrip()[:-1])]
    parts = [part for part in parts if part.split(" ", 1)[0] not in dropped and "ck_appeals_decided_once" not in part]
    body = head + "(\n\t" + ",\n\t".join(parts) + "\n)"
    op.execute(body)
    names = ", ".join(kept)
    op.execute(f"INSERT INTO _old_{table} ({names}) SELECT {names} FROM {table}")
    op.execute(f"DROP TABLE {table}")
    op.execute(f"ALTER TABLE _old_{table} RENAME TO {table}")
    for sql in extras:
        op.execute(sql)
