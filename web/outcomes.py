"""A ruling's outcome: the result that stands now and who decided it (issue 35, "one case, one story").

A ruling is given once and never changed (:mod:`web.tables.rulings`), but the result it leads to may be decided
later by someone else:

- **the ruling itself** (``decided_by: "ruling"``): a claim upheld or rejected at the board;
- **the arbiter's finding** (``"finding"``): an insufficient-losing-chances claim deferred for the
  arbiter's finding (FIDE Guidelines III.5, US Chess 14H, Sabah rule 8) is completed by the ruling the
  finding gives (:mod:`web.rulings.finding`); that ruling's outcome is the deferred one's too;
- **the committee** (``"committee"``, with its ``case``): an unfinished game referred to the
  adjudication committee (ACF Master Division rules; :mod:`web.committee`) is decided by its vote;
- **an appeal** (``"appeal"``, with its number): the appeals committee upholds or overturns a ruling or
  a committee's decision (:mod:`web.appeals`).

The database keeps one outcome per ruling (table ``ruling_outcomes``, a unique index on ``ruling_id``;
migration 0017): a row for each ruling a committee or an appeal decided, changed in place when a later
decision supersedes an earlier one. Every step is an audit entry (kind ``outcome``, subject
``ruling-outcome:<ruling id>``) in the same transaction, so the chain tells each step and
:func:`web.audit.verify` checks the row against the latest. A ruling without a row stands as it was given,
or waits for someone: the committee it was referred to, or the arbiter's finding it asks for. A ruling
that waits says so, never "Play on"; so does a deferred ruling that leaves the decision to the arbiter at the
board ("The arbiter decides").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.evidence import Evidence
from web.audit import AuditEntry, append, now
from web.tables.committee import CommitteeCase
from web.tables.outcomes import KIND, RulingOutcome
from web.tables.rulings import CaseRow, RulingRow

DECIDERS = ("committee", "appeal")
"""Who may store an outcome (the ruling itself and the arbiter's finding are read from their rulings)."""

ILC = "insufficient-losing-chances"
COMPLETED = "ruling-completed"
"""Audit entry kind linking a deferred ruling to the case that completes it (:mod:`web.rulings.finding`)."""
LINK = "completes_ruling"
"""The case field naming the deferred ruling that the case's ruling completes."""

RESULT_WORDS = {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½"}


@dataclass(frozen=True)
class Outcome:
    """Where a ruling stands: decided (``result`` and who, when) or waiting (for whom)."""

    result: str | None
    decided_by: str | None
    """``ruling``, ``finding``, ``committee``, ``appeal``; None while it waits."""
    at: str | None
    case: int | None = None
    """The committee case that decided it, or that it waits for."""
    appeal: int | None = None
    ruling: int | None = None
    """The ruling that gave the arbiter's finding (``decided_by == "finding"``)."""
    waiting_for: str | None = None
    """``committee`` or ``finding`` while the ruling waits for them."""
    is_left_to_arbiter: bool = False
    """A deferred ruling that gives no result and leaves the decision to the arbiter at the board (a flag
    under US Chess 14E, a draw the TD may declare, two readings of the record): its words say so, never
    "Play on"."""

    @property
    def is_waiting(self) -> bool:
        return self.waiting_for is not None

    @property
    def result_words(self) -> str:
        return RESULT_WORDS.get(self.result or "", "")

    @property
    def headline(self) -> str:
        """The banner's large words: the result that stands, or whom the ruling waits for."""
        if self.waiting_for == "committee":
            return f"With the committee, case {self.case}" if self.case else "For the committee to decide"
        if self.waiting_for == "finding":
            return "Waiting for the arbiter's finding"
        if self.waiting_for == "finding-ruling":
            return "The arbiter's finding is being ruled on"
        return self.result_words or self._no_result_words

    @property
    def _no_result_words(self) -> str:
        return "The arbiter decides" if self.is_left_to_arbiter else "Play on"

    @property
    def by_words(self) -> str:
        """Who decided it, in words ("" for the ruling itself and for a ruling that waits)."""
        if self.decided_by == "committee":
            return f"by the committee, case {self.case}"
        if self.decided_by == "appeal":
            return f"on appeal #{self.appeal}"
        if self.decided_by == "finding":
            return "by the arbiter's finding"
        return ""

    @property
    def words(self) -> str:
        """One line for History and the sheet: "½–½ by the committee, case 3", "With the committee, case 3",
        "Play on, on appeal #2" (no result: the game goes on, as the appeal upheld)."""
        if self.is_waiting:
            return self.headline
        if not self.result_words:
            return ", ".join(part for part in (self._no_result_words, self.by_words) if part)
        return " ".join(part for part in (self.result_words, self.by_words) if part)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"result": self.result, "decided_by": self.decided_by, "at": self.at,
                                "status": "waiting" if self.is_waiting else "decided", "words": self.words}
        if self.case is not None:
            body["case"] = self.case
        if self.appeal is not None:
            body["appeal"] = self.appeal
        if self.ruling is not None:
            body["ruling"] = self.ruling
        if self.waiting_for is not None:
            body["waiting_for"] = "committee" if self.waiting_for == "committee" else "finding"
        return body


def record(session: Session, ruling_id: int, result: str | None, decided_by: str, actor: str, *,
           case: int | None = None, appeal: int | None = None) -> RulingOutcome:
    """Store ``ruling_id``'s outcome (superseding any earlier one) with its audit entry; the caller commits."""
    if decided_by not in DECIDERS:
        raise ValueError(f"decided_by must be one of {DECIDERS}, not {decided_by!r}")
    row = _locked(session, ruling_id)
    values = {"result": result, "decided_by": decided_by, "committee_case_id": case, "appeal_id": appeal,
              "at": now()}
    if row is None:
        try:
            with session.begin_nested():  # uq_ruling_outcomes_ruling: another decision stored it meanwhile
                row = RulingOutcome(ruling_id=ruling_id, **values)
                session.add(row)
        except IntegrityError:
            row = _locked(session, ruling_id)
            if row is None:
                raise
    for key, value in values.items():
        setattr(row, key, value)
    session.flush()
    append(session, KIND, row.subject, row.audit_payload(), actor=actor)
    return row


def _locked(session: Session, ruling_id: int) -> RulingOutcome | None:
    return session.scalars(select(RulingOutcome).where(RulingOutcome.ruling_id == ruling_id)
                           .with_for_update()).first()


def stored(session: Session, ruling_ids: Iterable[int]) -> dict[int, RulingOutcome]:
    ids = sorted(set(ruling_ids))
    if not ids:
        return {}
    return {row.ruling_id: row for row in session.scalars(select(RulingOutcome)
                                                          .where(RulingOutcome.ruling_id.in_(ids)))}


def awaits_finding(claim: str, case: Mapping[str, Any], ruling: Mapping[str, Any]) -> bool:
    """Whether the ruling waits for the arbiter's finding: an ILC claim deferred without one."""
    finding = Evidence.read(ruling.get("evidence")).finding
    return (claim == ILC and ruling.get("verdict") == "deferred" and not case.get("td_finding")
            and finding.by != "td" and finding.request == "draw" and not case.get("postponed"))


def is_recommendation(ruling: Mapping[str, Any]) -> bool:
    """Whether an unfinished game's ruling only recommends its result (an engine's judgement, ``confidence``
    below 1): the analysis is evidence for the committee, not the ruling (rules README §5.6; ACF Master
    Division rules), so no result stands until the committee has decided. A result proven from the position
    (checkmate, a dead position, a tablebase, the checkers database: confidence 1) stands as the ruling gave
    it."""
    confidence = ruling.get("confidence", 1.0)
    return isinstance(confidence, int | float) and not isinstance(confidence, bool) and confidence < 1.0


def completion(session: Session, ruling_id: int) -> dict[str, Any] | None:
    """The arbiter's latest finding on a deferred ruling, ``{"case": <the completing case>, "finding": ...}``,
    as its audit entry keeps it (None: no finding yet)."""
    entry = session.scalars(select(AuditEntry).where(AuditEntry.kind == COMPLETED,
                                                     AuditEntry.subject == f"rulings:{ruling_id}")
                            .order_by(AuditEntry.seq.desc()).limit(1)).first()
    if entry is None:
        return None
    payload: dict[str, Any] = json.loads(entry.payload)
    return payload


def completing_case_id(session: Session, ruling_id: int) -> int | None:
    """The case the arbiter's (latest) finding made to complete a deferred ruling (None: no finding yet)."""
    found = completion(session, ruling_id)
    return None if found is None else int(found["case"])


def _iso(value: datetime) -> str:
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def _from_row(row: RulingOutcome) -> Outcome:
    return Outcome(row.result, row.decided_by, row.at, case=row.committee_case_id, appeal=row.appeal_id)


def outcome_of(session: Session, ruling: RulingRow, case: CaseRow | None = None, *,
               rows: Mapping[int, RulingOutcome] | None = None, referred: Mapping[int, int] | None = None,
               depth: int = 0) -> Outcome:
    """Where ``ruling`` stands now (``rows`` and ``referred``: outcomes and committee cases looked up
    beforehand for many rulings, by :func:`outcomes_of`)."""
    row = (rows if rows is not None else stored(session, [ruling.id])).get(ruling.id)
    if row is not None:
        return _from_row(row)
    case = case or session.get(CaseRow, ruling.case_id)
    claim = case.claim if case is not None else ""
    data = case.data if case is not None else {}
    if claim == "unfinished-game":
        committee = (referred.get(ruling.id) if referred is not None else session.scalar(
            select(CommitteeCase.id).where(CommitteeCase.referred_ruling_id == ruling.id)))
        if committee is not None:  # decided: its row is stored; else the committee is voting
            decided = session.get(CommitteeCase, committee)
            if decided is not None and decided.is_decided:
                return Outcome(decided.result, "committee", decided.decided_at, case=committee)
            return Outcome(None, None, None, case=committee, waiting_for="committee")
        if ruling.result is None or is_recommendation(ruling.data):
            return Outcome(None, None, None, waiting_for="committee")
    if claim == ILC and ruling.verdict == "deferred" and depth < 4:
        completing = completing_case_id(session, ruling.id)
        if completing is not None:
            later = session.scalars(select(RulingRow).where(RulingRow.case_id == completing)
                                    .order_by(RulingRow.id.desc()).limit(1)).first()
            if later is None:
                return Outcome(None, None, None, waiting_for="finding-ruling")
            found = outcome_of(session, later, depth=depth + 1)
            return found if found.decided_by != "ruling" else Outcome(
                found.result, "finding", found.at, ruling=later.id)
        if awaits_finding(claim, data, ruling.data):
            return Outcome(None, None, None, waiting_for="finding")
    if isinstance(data.get(LINK), int) and claim == ILC:
        return Outcome(ruling.result, "finding", _iso(ruling.created_at), ruling=ruling.id)
    return Outcome(ruling.result, "ruling", _iso(ruling.created_at),
                   is_left_to_arbiter=ruling.verdict == "deferred" and ruling.result is None)


def outcomes_of(session: Session, pairs: Iterable[tuple[RulingRow, CaseRow]]) -> dict[int, Outcome]:
    """The outcomes of many rulings (History's rows), with the stored ones and the referrals read at once."""
    found = list(pairs)
    ids = [r.id for r, _c in found]
    rows = stored(session, ids)
    referred = {int(ruling): int(case) for case, ruling in session.execute(
        select(CommitteeCase.id, CommitteeCase.referred_ruling_id)
        .where(CommitteeCase.referred_ruling_id.in_(ids or [0]))).tuples() if ruling is not None}
    return {r.id: outcome_of(session, r, c, rows=rows, referred=referred) for r, c in found}
