"""The audit trail's tables, its append, and the registry by which every table says what its rows' entries hold.

Each entry carries the hash of the one before it, so removing or editing any
entry breaks the chain from there on. Each entry also records the stored row it
speaks for (a vote, a case, a decision); :func:`web.audit.verify` re-derives that payload
from the row as it is now (through :data:`DERIVERS`), so a row edited by hand is caught too.

Appending takes the chain's head row first (``UPDATE audit_head ... RETURNING``,
which reads the head in the same statement that locks it), which serialises
writers on SQLite and PostgreSQL alike: two votes at once can never fork the
chain. The rows one flush adds are chained in one go (three statements).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Integer, String, Text, text
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.db import Base

GENESIS = "0" * 64
"""The hash the first entry points back to."""


class AuditError(RuntimeError):
    """The chain's head row is missing (the schema was not set up)."""


class AuditEntry(Base):
    __tablename__ = "audit_entries"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(40), index=True)
    subject: Mapped[str] = mapped_column(String(80), index=True)
    payload: Mapped[str] = mapped_column(Text)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))

    @property
    def label(self) -> str:
        return f"entry #{self.seq} ({self.kind} {self.subject})"


class AuditHead(Base):
    """One row: the number and hash of the last entry."""

    __tablename__ = "audit_head"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str] = mapped_column(String(64))


def now() -> str:
    """The time as stored everywhere in these tables (UTC, ISO 8601, microseconds)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(seq: int, at: str, actor: str, kind: str, subject: str, payload: str, prev_hash: str) -> str:
    text = "\n".join((str(seq), at, actor, kind, subject, payload, prev_hash))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Appended:
    seq: int
    hash: str


_TAKE_SEQS = text("UPDATE audit_head SET seq = seq + :count WHERE id = 1 RETURNING seq, hash")
"""Take the next ``count`` numbers and read the head's hash in one statement: the write lock (SQLite)
or the row lock (PostgreSQL) is held from here to the commit, so no other writer reads the same head."""
_SET_HEAD_HASH = text("UPDATE audit_head SET hash = :hash WHERE id = 1")
_INSERT_ENTRY = text(
    "INSERT INTO audit_entries (seq, at, actor, kind, subject, payload, prev_hash, hash) "
    "VALUES (:seq, :at, :actor, :kind, :subject, :payload, :prev_hash, :hash)"
)
# Plain SQL built once: the ORM constructs cost more to build and cache-key than the writes themselves.


@dataclass(frozen=True)
class Pending:
    """An entry to add: what it speaks for, and who."""

    kind: str
    subject: str
    payload: Any
    actor: str


def _append_all(connection: Connection, pending: list[Pending]) -> list[Appended]:
    """Chain ``pending`` after the head, in order, inside the connection's transaction."""
    if not pending:
        return []
    head = connection.execute(_TAKE_SEQS, {"count": len(pending)}).first()
    if head is None:
        raise AuditError("the audit chain has no head row; set up the database first")
    seq, prev_hash = int(head.seq) - len(pending), str(head.hash)
    at = now()
    rows: list[dict[str, Any]] = []
    appended: list[Appended] = []
    for item in pending:
        seq += 1
        text_payload = canonical(item.payload)
        digest = entry_hash(seq, at, item.actor, item.kind, item.subject, text_payload, prev_hash)
        rows.append({"seq": seq, "at": at, "actor": item.actor, "kind": item.kind, "subject": item.subject,
                     "payload": text_payload, "prev_hash": prev_hash, "hash": digest})
        appended.append(Appended(seq, digest))
        prev_hash = digest
    connection.execute(_INSERT_ENTRY, rows)
    connection.execute(_SET_HEAD_HASH, {"hash": prev_hash})
    return appended


def _append(connection: Connection, kind: str, subject: str, payload: Any, actor: str) -> Appended:
    return _append_all(connection, [Pending(kind, subject, payload, actor)])[0]


def append(session: Session, kind: str, subject: str, payload: Any, actor: str) -> Appended:
    """Add an entry inside the caller's transaction (committed with it)."""
    session.flush()
    return _append(session.connection(), kind, subject, payload, actor)


REMOVED: dict[str, Any] = {"removed": True}
"""The payload of an entry saying its row was removed on purpose (a staff member taken off an event):
:func:`verify` then expects the row gone, and a row removed without such an entry is still a problem."""

def row_payload(obj: Any) -> dict[str, Any]:
    """A stored row's plain column values (text, numbers, flags; times are left out, as they round-trip loosely)."""
    values: dict[str, Any] = {}
    for attribute in sa_inspect(obj).mapper.column_attrs:
        value = getattr(obj, attribute.key)
        if value is None or isinstance(value, str | int | float | bool):
            values[attribute.key] = value
    return values



Deriver = Callable[[Session, str], "dict[str, Any] | None"]
DERIVERS: dict[str, Deriver] = {}
"""Entry kind → the payload the stored row gives now (``None``: the row is gone)."""

ROW_LISTERS: dict[str, Callable[[Session], list[str]]] = {}
"""Entry kind → every subject that should have such an entry (catches rows added by hand)."""


def deriver(kind: str) -> Callable[[Deriver], Deriver]:
    def register(function: Deriver) -> Deriver:
        DERIVERS[kind] = function
        return function

    return register
