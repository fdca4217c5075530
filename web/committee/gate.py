"""The verify gate (ACF Master Division: a computer may be consulted only after the position is verified;
issue 22, made whole by issue 35).

A member seated on a committee case who is still to vote sees the engine's line and score for it only once
they have ticked "I have verified the position on a board" (stored: ``committee_verifications``). The gate
holds every way in: the case page and its line fragment, the committee API's case, the referred ruling's
page, board fragment, sheet and API answer, and a share link of that ruling (the same page). The ruling is
then shown with its engine evidence, reasons and lines taken out (:func:`redacted`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from web.audit import now
from web.tables.committee import CommitteeCase, CommitteeVerification
from web.tables.users import User

HIDDEN_REASON = ("The engine's analysis is hidden: verify the position on a board first (committee case {case}, "
                 "“I have verified the position”).")


def is_verified(session: Session, case_id: int, user_id: int) -> bool:
    return session.scalar(select(CommitteeVerification.id).where(
        CommitteeVerification.case_id == case_id, CommitteeVerification.user_id == user_id)) is not None


def record_verified(session: Session, case: CommitteeCase, user: User) -> None:
    """Store the member's verification (once; a second tick changes nothing). The caller commits."""
    if is_verified(session, case.id, user.id):
        return
    try:
        with session.begin_nested():
            session.add(CommitteeVerification(case_id=case.id, user_id=user.id, verified_at=now()))
    except IntegrityError:  # ticked twice at once: the first stands
        pass


def hides_engine(session: Session, case: CommitteeCase, user: User | None) -> bool:
    """A seated member still to vote on an open case who has not verified the position."""
    if user is None or case.is_decided or not case.is_member(user) or case.has_voted(user):
        return False
    return not is_verified(session, case.id, user.id)


def hiding_case(session: Session, ruling_id: int, user: User | None) -> CommitteeCase | None:
    """The committee case the ruling was referred to, when it hides the engine from ``user``."""
    if user is None:
        return None
    case = session.scalars(select(CommitteeCase).where(CommitteeCase.referred_ruling_id == ruling_id)).first()
    return case if case is not None and hides_engine(session, case, user) else None


def redacted(ruling: Mapping[str, Any], case_id: int) -> dict[str, Any]:
    """The ruling without what the engine found: no evidence (so no lines), no reasons that quote the score,
    no engine confidence."""
    shown = {k: v for k, v in ruling.items() if k not in ("evidence", "reasons", "confidence")}
    shown["evidence"] = {"engine_hidden": True}
    shown["reasons"] = [HIDDEN_REASON.format(case=case_id)]
    return shown
