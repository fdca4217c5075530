"""The audit trail: append-only entries for every case, ruling, vote and decision, and their check.

The entries' tables and their append are in :mod:`web.tables.audit`; this module watches the
tables whose new rows become entries and :func:`verify` walks the chain, then compares every
audited row with its latest entry (each table's module registers how its rows are read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from web.db import Base
from web.tables import every as _every_table  # noqa: F401  every table, and how its rows' entries are derived
from web.tables.audit import (
    DERIVERS,
    GENESIS,
    REMOVED,
    ROW_LISTERS,
    AuditEntry,
    AuditHead,
    Pending,
    _append_all,
    append,
    canonical,
    deriver,
    entry_hash,
    now,
    row_payload,
)

WATCHED: dict[str, str] = {}
"""Tables of other parts of the app whose new rows become entries: table name → entry kind."""


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
"""The rulings storage's tables (``web/tables/rulings.py``): audited like everything else."""


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
    watch(BOARD_TABLES)  # the rulings storage's rows are checked like the others
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


__all__ = ["DERIVERS", "GENESIS", "REMOVED", "ROW_LISTERS", "AuditEntry", "AuditHead", "Pending", "Verification",
           "append", "canonical", "deriver", "entry_hash", "now", "row_payload", "verify", "watch"]
