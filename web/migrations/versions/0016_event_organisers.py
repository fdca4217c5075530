"""An event's organisers, and who changed what, held to the rights of each by the database (issue 22, item 10).

An *organiser* runs one event from the web (its settings, its TDs, committee pool and appeals
committee, its tokens) without being an admin of the whole install. What each may do is the
database's own rule, checked on the row that records who did it (as ``ck_appeals_not_own``
checks the appeal's decider against its appellant):

- ``event_staff.role`` may be ``organiser``; ``event_staff.assigned_by_id`` is who assigned the
  place (NULL: the command line, or a place assigned before this migration). Only an active admin
  assigns an organiser; an active admin or an active organiser *of that event* assigns its other
  roles. A place is added or removed, never changed (an UPDATE is refused).
- ``events.changed_by_id`` is who last wrote the event (NULL: the command line). Only an active
  admin creates an event; an active admin, or an active organiser of that very event, changes it;
  its slug (its name in the API) only an admin.
- ``event_tokens.issued_by_id`` is who issued the token (NULL: the command line). A token is issued
  by its own user or by an active admin: an organiser never holds a credential of someone else.

SQLite cannot alter a CHECK, so ``event_staff`` is rebuilt (new table, copy, drop, rename, indexes
again; nothing refers to it); triggers refuse what the rules refuse, ``RAISE(ABORT)`` there and
``check_violation`` (SQLSTATE 23514) on PostgreSQL, so both answer with an integrity error.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

ROLES_BEFORE = "'td', 'committee', 'appeals'"
ROLES_AFTER = "'td', 'committee', 'appeals', 'organiser'"


def _admin(column: str) -> str:
    return f"EXISTS (SELECT 1 FROM users u WHERE u.id = {column} AND u.active AND u.role = 'admin')"


def _organiser(column: str, event: str) -> str:
    return (f"EXISTS (SELECT 1 FROM event_staff s JOIN users u ON u.id = s.user_id WHERE s.event_id = {event} "
            f"AND s.user_id = {column} AND s.role = 'organiser' AND u.active)")


STAFF_RULE = (f"NEW.assigned_by_id IS NULL OR {_admin('NEW.assigned_by_id')} OR "
              f"(NEW.role <> 'organiser' AND {_organiser('NEW.assigned_by_id', 'NEW.event_id')})")
STAFF_MESSAGE = ("only an admin assigns an event's organisers, and only an admin or an organiser of the event "
                 "its other staff")
EVENT_NEW_RULE = f"NEW.changed_by_id IS NULL OR {_admin('NEW.changed_by_id')}"
EVENT_NEW_MESSAGE = "only an admin creates an event"
EVENT_CHANGE_RULE = (f"NEW.changed_by_id IS NULL OR {_admin('NEW.changed_by_id')} OR "
                     f"(NEW.id = OLD.id AND NEW.slug = OLD.slug AND {_organiser('NEW.changed_by_id', 'OLD.id')})")
EVENT_CHANGE_MESSAGE = "only an admin or an organiser of the event changes it (its slug: only an admin)"
TOKEN_RULE = f"NEW.issued_by_id IS NULL OR NEW.issued_by_id = NEW.user_id OR {_admin('NEW.issued_by_id')}"
TOKEN_MESSAGE = "an event token is issued by its own user or an admin"
STAFF_FIXED = "an event's staff place is added or removed, never changed"

TRIGGERS = (  # name, table, timing, rule (SQL that must hold), message
    ("event_staff_assigned_by", "event_staff", "INSERT", STAFF_RULE, STAFF_MESSAGE),
    ("event_staff_fixed", "event_staff", "UPDATE", "FALSE", STAFF_FIXED),
    ("events_created_by", "events", "INSERT", EVENT_NEW_RULE, EVENT_NEW_MESSAGE),
    ("events_changed_by", "events", "UPDATE", EVENT_CHANGE_RULE, EVENT_CHANGE_MESSAGE),
    ("event_tokens_issued_by", "event_tokens", "INSERT", TOKEN_RULE, TOKEN_MESSAGE),
)


def _quoted(message: str) -> str:
    return message.replace("'", "''")


def _sqlite_staff_table(roles: str, with_assigner: bool) -> None:
    """Rebuild ``event_staff`` with ``roles`` in its CHECK (and the assigner's column or not)."""
    assigner = ",\n\tassigned_by_id INTEGER REFERENCES users (id)" if with_assigner else ""
    op.execute(
        "CREATE TABLE _new_event_staff (\n"
        "\tid INTEGER NOT NULL PRIMARY KEY,\n"
        "\tevent_id INTEGER NOT NULL REFERENCES events (id),\n"
        "\tuser_id INTEGER NOT NULL REFERENCES users (id),\n"
        "\trole VARCHAR(20) NOT NULL,\n"
        f"\tassigned_at VARCHAR(40) NOT NULL{assigner},\n"
        "\tCONSTRAINT uq_event_staff UNIQUE (event_id, user_id, role),\n"
        f"\tCONSTRAINT ck_event_staff_role CHECK (role IN ({roles}))\n)")
    columns = "id, event_id, user_id, role, assigned_at"
    op.execute(f"INSERT INTO _new_event_staff ({columns}) SELECT {columns} FROM event_staff")
    op.execute("DROP TABLE event_staff")
    op.execute("ALTER TABLE _new_event_staff RENAME TO event_staff")
    op.create_index("ix_event_staff_event_id", "event_staff", ["event_id"])
    op.create_index("ix_event_staff_user_id", "event_staff", ["user_id"])


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_staff_table(ROLES_AFTER, with_assigner=True)
        for table, column in (("events", "changed_by_id"), ("event_tokens", "issued_by_id")):
            op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES users (id)")
        for name, table, timing, rule, message in TRIGGERS:
            op.execute(f"CREATE TRIGGER {name} BEFORE {timing} ON {table} WHEN NOT ({rule}) "
                       f"BEGIN SELECT RAISE(ABORT, '{_quoted(message)}'); END")
        return
    op.execute("ALTER TABLE event_staff DROP CONSTRAINT ck_event_staff_role")
    op.execute(f"ALTER TABLE event_staff ADD CONSTRAINT ck_event_staff_role CHECK (role IN ({ROLES_AFTER}))")
    for table, column in (("event_staff", "assigned_by_id"), ("events", "changed_by_id"),
                          ("event_tokens", "issued_by_id")):
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES users (id)")
    for name, table, timing, rule, message in TRIGGERS:
        op.execute(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                   f"IF NOT ({rule}) THEN RAISE EXCEPTION '{_quoted(message)}' "
                   "USING ERRCODE = 'check_violation'; END IF; "
                   "RETURN NEW; END $$")
        op.execute(f"CREATE TRIGGER {name} BEFORE {timing} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()")


def downgrade() -> None:
    """Organisers' places go (the roles before this migration stay); the columns and the rules go."""
    is_sqlite = op.get_bind().dialect.name == "sqlite"
    for name, table, _timing, _rule, _message in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}" + ("" if is_sqlite else f" ON {table}"))
        if not is_sqlite:
            op.execute(f"DROP FUNCTION IF EXISTS {name}()")
    op.execute(sa.text("DELETE FROM event_staff WHERE role = 'organiser'"))
    if is_sqlite:
        _sqlite_staff_table(ROLES_BEFORE, with_assigner=False)
        for table, column in (("events", "changed_by_id"), ("event_tokens", "issued_by_id")):
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        return
    op.execute("ALTER TABLE event_staff DROP CONSTRAINT ck_event_staff_role")
    op.execute(f"ALTER TABLE event_staff ADD CONSTRAINT ck_event_staff_role CHECK (role IN ({ROLES_BEFORE}))")
    for table, column in (("event_staff", "assigned_by_id"), ("events", "changed_by_id"),
                          ("event_tokens", "issued_by_id")):
        op.drop_column(table, column)
