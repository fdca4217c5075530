"""The arbiter's finding on an insufficient-losing-chances claim, given on the ruling page (issue 22).

Whether the claimant can lose by normal means (FIDE Guidelines III.5), has insufficient losing
chances (US Chess Variation 14H) or has a clear draw (Sabah) is the arbiter's judgement: without
the arbiter's finding the app recommends one and defers the ruling
(:func:`adjudicator.chess.claims.losing_chances._ruled_on`). The ruling page then offers the
finding in one tap: "accept the recommendation", or any of the three findings.

Rulings are append-only (:mod:`web.tables.rulings`): the deferred ruling stays as it was given. The finding
makes a new case, the same case with the arbiter's finding (``td_finding``) and the ruling it
completes (``completes_ruling``, a field the rules ignore), ruled like any other, so an appeal's
re-run of it gives the same ruling. The audit trail records the link the other way
(kind :data:`COMPLETED`, subject ``rulings:<deferred id>``, payload the new case and the finding),
so the deferred ruling's page points to the ruling that completes it, and the appeals committee sees
both (:func:`web.appeals.service.load_subject`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from adjudicator.evidence import Evidence
from web.audit import append
from web.outcomes import COMPLETED, ILC, LINK, completion
from web.outcomes import awaits_finding as awaits_finding
from web.tables import rulings as store
from web.tables.rulings import CaseRow, RulingRow

CLAIM = ILC

CHOICES: dict[str, str] = {
    "clear": "Clear: the claimant cannot lose by normal means",
    "unclear": "Unclear: postpone the decision",
    "incorrect": "Incorrect: reject the claim",
}
"""The findings as the buttons say them (the contract's ``td_finding`` values)."""

OUTCOME_WORDS = {"upheld": "uphold the claim", "rejected": "reject the claim", "deferred": "postpone the decision"}


@dataclass(frozen=True)
class Recommendation:
    """What the app recommends the arbiter finds, in words for the button."""

    finding: str
    words: str


def recommendation(ruling: Mapping[str, Any]) -> Recommendation | None:
    """The app's recommended finding (None: it recommends none, e.g. no position was given)."""
    finding = Evidence.read(ruling.get("evidence")).finding
    if finding.value not in CHOICES or finding.by != "app":
        return None
    if finding.recommended is not None:
        verdict, result = finding.recommended
        words = f"{OUTCOME_WORDS.get(verdict, 'rule')}{', a draw' if result == '1/2-1/2' else ''}"
    else:
        words = OUTCOME_WORDS["deferred"]
    return Recommendation(str(finding.value), words)


def completing_case(case: Mapping[str, Any], finding: str, ruling_id: int) -> dict[str, Any]:
    """The case with the arbiter's finding, naming the ruling it completes."""
    data = {k: v for k, v in case.items() if k not in (LINK, "td_finding")}
    return {**data, "td_finding": finding, LINK: ruling_id}


def record_completion(session: Session, ruling_id: int, case_id: int, finding: str, actor: str) -> None:
    """The audit entry linking the deferred ruling to the case that completes it (committed by the caller)."""
    append(session, COMPLETED, f"rulings:{ruling_id}", {"case": case_id, "finding": finding}, actor=actor)


@dataclass(frozen=True)
class Completion:
    """The case that completes a deferred ruling, its finding, and its ruling once given."""

    case_id: int
    finding: str
    ruling: RulingRow | None


def completed_by(session: Session, ruling_id: int) -> Completion | None:
    """The latest completion of a deferred ruling (None: the arbiter has given no finding yet)."""
    payload = completion(session, ruling_id)
    if payload is None:
        return None
    case_id = int(payload["case"])
    return Completion(case_id, str(payload.get("finding", "")), store.ruling_for_case(session, case_id))


def completes(session: Session, case: CaseRow) -> RulingRow | None:
    """The deferred ruling this case's ruling completes (None: it completes none)."""
    ident = case.data.get(LINK)
    if not isinstance(ident, int) or isinstance(ident, bool):
        return None
    return session.get(RulingRow, ident)
