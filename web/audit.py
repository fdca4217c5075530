"""The audit trail: append-only entries for every case, ruling, vote and decision.

Each entry carries the hash of the one before it, so removing or editing any
entry breaks the chain from there on. Each entry also records the stored row it
speaks for (a vote, a case, a decision); :func:`verify` re-derives that payload
from the row as it is now, so a row edited by hand is caught too.

Appending takes the chain's head row first (``UPDATE audit_head ... RETURNING``,
which reads the head in the same statement that locks it), which serialises
writers on SQLite and PostgreSQL alike: two votes at once can never fork the
chain. The rows one flush adds are chained in one go (three statements).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Integer, String, Text, event, select, text
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


WATCHED: dict[str, str] = {}
"""Tables of other parts of the app whose new rows become entries: table name → entry kind."""


def row_payload(obj: Any) -> dict[str, Any]:
    """A stored row's plain column values (text, numbers, flags; times are left out, as they round-trip loosely)."""
    values: dict[str, Any] = {}
    for attribute in sa_inspect(obj).mapper.column_attrs:
        value = getattr(obj, attribute.key)
        if value is None or isinstance(value, str | int | float | bool):
            values[attribute.key] = value
    return values


def _mapped_class(table: str) -> Any:
    for mapper in Base.registry.mappers:
        if getattr(mapper.class_, "__tablename__", None) == table:
            return mapper.class_
    return None


def watch(tables: dict[str, str]) -> None:
    """Audit every new row of ``tables`` (e.g. the rulings given at the board), in the transaction that adds it."""
    for table, kind in tables.items():
        WATCHED[table] = kind

        def derive(session: Session, subject: str, table: str = table) -> dict[str, Any] | None:
            cls = _mapped_class(table)
            try:
                row = None if cls is None else session.get(cls, int(subject.rsplit(":", 1)[1]))
            except (IndexError, ValueError):
                row = None
            return None if row is None else row_payload(row)

        DERIVERS[kind] = derive


@event.listens_for(Session, "after_flush")
def _audit_new_rows(session: Session, _context: Any) -> None:
    if not WATCHED:
        return
    pending = []
    for obj in list(session.new):
        table = getattr(obj, "__tablename__", None)
        kind = WATCHED.get(table or "")
        if kind is not None:
            pending.append(Pending(kind, f"{table}:{obj.id}", row_payload(obj), "board rulings"))
    _append_all(session.connection(), pending)


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


@dataclass(frozen=True)
class Problem:
    seq: int
    kind: str
    subject: str
    problem: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "subject": self.subject, "problem": self.problem}

    def sentence(self) -> str:
        return f"entry #{self.seq} ({self.kind} {self.subject}): {self.problem}"


@dataclass(frozen=True)
class Verification:
    entries: int
    problems: tuple[Problem, ...]

    @property
    def is_intact(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        first = self.problems[0].to_json() if self.problems else None
        return {"ok": self.is_intact, "entries": self.entries, "first_problem": first,
                "problems": [p.to_json() for p in self.problems]}


def _differences(recorded: dict[str, Any], current: dict[str, Any]) -> str:
    keys = sorted(set(recorded) | set(current))
    changed = [k for k in keys if recorded.get(k) != current.get(k)]
    shown = ", ".join(f"{k} is {current.get(k)!r} but was recorded as {recorded.get(k)!r}" for k in changed[:3])
    return f"the stored row was edited: {shown}"


BOARD_TABLES = {"cases": "board-case", "rulings": "ruling"}
"""The rulings storage's tables (``web/store.py``): audited like everything else."""


def _load_all() -> None:
    """Import the modules that register derivers, and the rulings storage's mapped tables when present."""

    for name in ("web.auth.models", "web.appeals.models", "web.committee.models", "web.store",
                 "web.checks.collections", "web.outcomes"):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    watch(BOARD_TABLES)


ONCE: dict[str, str] = {"appeal-decision": "an appeal is decided once", "decision": "a case is decided once"}
"""Entry kinds that may stand only once per subject (a second one is a second, contradictory decision)."""


def _repeated(entries: list[AuditEntry]) -> list[Problem]:
    """Two decisions of one appeal or case, or two votes of one member on one case, however they got in."""
    seen: dict[tuple[str, ...], list[AuditEntry]] = {}
    for entry in entries:
        if entry.kind in ONCE:
            seen.setdefault((entry.kind, entry.subject), []).append(entry)
        elif entry.kind == "vote":
            try:
                payload = json.loads(entry.payload)
                vote_key: tuple[str, ...] = ("vote", str(payload["case"]), str(payload["member"]))
            except (ValueError, KeyError, TypeError):
                continue
            seen.setdefault(vote_key, []).append(entry)
    problems = []
    for key, found in seen.items():
        if len(found) < 2:
            continue
        numbers = ", ".join(f"#{e.seq}" for e in found)
        if key[0] == "vote":
            what = (f"{key[2]} voted {len(found)} times on committee case {key[1]} (entries {numbers}); "
                    "a member votes once")
        else:
            what = f"{key[1]} has {len(found)} decisions (entries {numbers}); {ONCE[key[0]]}"
        second = found[1]
        problems.append(Problem(second.seq, second.kind, second.subject, what))
    return problems


def verify(session: Session) -> Verification:
    """Walk the chain; then compare every audited row with its latest entry.

    Problems come in chain order; the first one is the first entry that was
    edited or removed (or whose row was).
    """
    _load_all()
    problems: list[Problem] = []
    entries = list(session.scalars(select(AuditEntry).order_by(AuditEntry.seq)))
    expected, prev_hash = 1, GENESIS
    latest: dict[tuple[str, str], AuditEntry] = {}
    for entry in entries:
        if entry.seq != expected:
            gap = (f"entries #{expected} to #{entry.seq - 1} were" if entry.seq - expected > 1
                   else f"entry #{expected} was")
            problems.append(Problem(expected, "?", "?", f"{gap} removed (the chain jumps to #{entry.seq})"))
        elif entry.prev_hash != prev_hash:
            problems.append(Problem(entry.seq, entry.kind, entry.subject,
                                    "does not follow the entry before it (an entry before it was edited or removed)"))
        digest = entry_hash(entry.seq, entry.at, entry.actor, entry.kind, entry.subject, entry.payload,
                            entry.prev_hash)
        if digest != entry.hash:
            problems.append(Problem(entry.seq, entry.kind, entry.subject, "was edited (its hash does not match)"))
        expected, prev_hash = entry.seq + 1, entry.hash
        latest[(entry.kind, entry.subject)] = entry
    head = session.get(AuditHead, 1)
    if head is not None:
        if head.seq >= expected:
            last = f"#{expected}" if head.seq == expected else f"#{expected} to #{head.seq}"
            problems.append(Problem(expected, "?", "?", f"the last entries ({last}) were removed"))
        elif head.hash != prev_hash and not problems:
            problems.append(Problem(expected - 1, entries[-1].kind if entries else "?",
                                    entries[-1].subject if entries else "?", "was edited (the chain head differs)"))
    for (kind, subject), entry in latest.items():
        derive = DERIVERS.get(kind)
        if derive is None:
            continue
        current = derive(session, subject)
        recorded = json.loads(entry.payload)
        if current is None:
            if recorded != REMOVED:
                problems.append(Problem(entry.seq, kind, subject, f"the stored {subject} was removed"))
            continue
        if recorded == REMOVED:
            problems.append(Problem(entry.seq, kind, subject, f"{subject} was recorded as removed but is stored"))
            continue
        if isinstance(recorded, dict):  # a column added by a later migration is not in older entries
            current = {k: v for k, v in current.items() if k in recorded}
        if canonical(current) != canonical(recorded):
            problems.append(Problem(entry.seq, kind, subject, _differences(recorded, current)))
    problems.extend(_repeated(entries))
    for kind, lister in ROW_LISTERS.items():
        for subject in lister(session):
            if (kind, subject) not in latest:
                problems.append(Problem(expected, kind, subject, f"{subject} is stored but has no audit entry"))
    problems.sort(key=lambda p: p.seq)
    return Verification(entries=len(entries), problems=tuple(problems))


__all__ = ["AuditEntry", "AuditHead", "Verification", "append", "canonical", "deriver", "now", "verify", "watch"]
