"""Filing, re-running and deciding appeals.

An appeal keeps a copy of everything known when the ruling was made (the case
as entered, the evidence, the engine identity and settings, every vote with its
member's name and time), re-runs the analysis with deterministic settings
(``engines.build_services(config, deterministic=True)``) and lists every
difference, and records the appeals committee's decision.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session

from adjudicator.committee import RESULTS
from adjudicator.contract import parse_case
from adjudicator.evidence import SCORE_KEYS, SETTING_KEYS, VOLATILE_KEYS, Evidence
from adjudicator.rulesets import RulesetBook
from web import outcomes
from web.audit import append, canonical, now
from web.committee.service import CaseRefused, recommend
from web.events.access import Actor, roles_in
from web.inputs import MAX_ID
from web.tables.appeals import OUTCOMES, Appeal
from web.tables.committee import CommitteeCase
from web.tables.events import Event
from web.tables.rulings import CaseRow, RulingRow
from web.tables.users import User

COMPARED = ("verdict", "result", "rule_refs", "reasons", "evidence", "confidence", "adjustments", "instructions")
"""The parts of a ruling an appeal compares between the original and the re-run."""


def _committee_record(case: CommitteeCase) -> dict[str, Any]:
    return {
        "kind": "committee-case",
        "id": case.id,
        "opened_at": case.opened_at,
        "opened_by": case.opened_by.name,
        "case": case.case,
        "round": case.round,
        "board": case.board,
        "players": case.players,
        "position": case.position,
        "recommendation": case.recommendation,
        "recommendation_note": case.recommendation_note or None,
        "engine_settings": case.services,
        "members": case.member_names(),
        "vote_rule": case.vote_rule,
        "rule_ref": case.rule_ref,
        "votes": [v.to_json() for v in case.votes],
        "result": case.result,
        "decision": case.decision,
        "decided_at": case.decided_at,
    }


def _row(session: Session, table: str, ident: object) -> dict[str, Any] | None:
    """One row of a table this package does not own, JSON-ready (JSON text decoded, times as ISO text)."""
    try:
        row = session.execute(text(f"SELECT * FROM {table} WHERE id = :id"), {"id": ident}).mappings().first()
    except SQLAlchemyError:
        session.rollback()
        return None
    if row is None:
        return None
    found: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, str) and key.endswith("_json"):
            with contextlib.suppress(ValueError):
                value = json.loads(value)
            key = key.removesuffix("_json")
        elif not isinstance(value, str | int | float | bool | type(None)):
            value = value.isoformat() if hasattr(value, "isoformat") else str(value)
        found[key] = value
    return found


def _stored_ruling(session: Session, ident: int) -> dict[str, Any] | None:
    """A ruling given at the board and stored by the rulings API (tables ``rulings`` and ``cases``)."""
    ruling = _row(session, "rulings", ident)
    if ruling is None:
        return None
    case = _row(session, "cases", ruling.get("case_id"))
    stored = ruling.get("ruling")
    data: dict[str, Any] = stored if isinstance(stored, dict) else {}
    found = (case or {}).get("case")
    completes = found.get("completes_ruling") if isinstance(found, dict) else None
    earlier = _row(session, "rulings", completes) if isinstance(completes, int) else None
    return {
        "kind": "ruling",
        "id": ident,
        "given_at": ruling.get("created_at"),
        "case": found,
        # the deferred ruling this one completes with the arbiter's finding (web.rulings.finding): both are seen
        **({"completes": {"id": completes, "given_at": earlier.get("created_at"), "ruling": earlier.get("ruling")}}
           if earlier is not None else {}),
        "event": {k: (case or {}).get(k) for k in ("event", "round", "board", "first_player", "second_player")},
        "ruling": data,
        "result": ruling.get("result", data.get("result")),
        "engine_settings": {"duration_ms": ruling.get("duration_ms")},
        "stored": {"ruling": ruling, "case": case},
    }


SUBJECT = re.compile(r"(committee-case|ruling):([0-9]{1,10})")
"""What an appeal names: ``committee-case:<id>`` or ``ruling:<id>``, the id in ASCII digits (``str.isdigit``
also takes ``'¹'`` and ``'٢'``, which ``int`` refuses or reads as another number)."""


def parse_subject(subject: object) -> tuple[str, int]:
    """The kind and id an appeal's subject names.

    :raises CaseRefused: 422 for anything but ``committee-case:<id>`` or ``ruling:<id>``; 404 for an id
        beyond any stored one (and the database's integer range).
    """
    found = SUBJECT.fullmatch(subject) if isinstance(subject, str) else None
    if found is None:
        shown = subject[:40] if isinstance(subject, str) else subject
        raise CaseRefused(422, "invalid_field", f"subject must be committee-case:<id> or ruling:<id> (the id in "
                          f"digits 0-9), not {shown!r}", "subject")
    ident = int(found.group(2))
    if not 0 < ident <= MAX_ID:
        raise CaseRefused(404, "not_found", f"there is nothing stored as {subject!r}", "subject")
    return found.group(1), ident


def appealed_case_id(subject: str) -> int | None:
    """The committee case an appeal's (stored) subject names, or None (a ruling given at the board)."""
    found = SUBJECT.fullmatch(subject)
    return int(found.group(2)) if found is not None and found.group(1) == "committee-case" else None


def load_subject(session: Session, subject: str) -> dict[str, Any]:
    """The full record of what is appealed.

    :raises CaseRefused: 404 for an unknown subject, 422 for a case still being voted on.
    """
    kind, ident = parse_subject(subject)
    if kind == "committee-case":
        case = session.get(CommitteeCase, ident)
        if case is None:
            raise CaseRefused(404, "not_found", f"there is no committee case {ident}", "subject")
        if not case.is_decided:
            raise CaseRefused(422, "not_decided", "the committee has not decided yet", "subject")
        return _committee_record(case)
    if kind == "ruling":
        record = _stored_ruling(session, ident)
        if record is None:
            raise CaseRefused(404, "not_found", f"there is no stored ruling {ident}", "subject")
        return record
    raise AssertionError(kind)  # parse_subject takes these two kinds only


VOLATILE = VOLATILE_KEYS
"""Evidence keys that measure how long the analysis took: never compared (a re-run is slower or faster)."""
SETTINGS = SETTING_KEYS
"""Evidence keys that say how the analysis was run, not what it found: listed apart on the appeal's page
(:mod:`web.appeals.decisive`), never counted as a difference (issue 35: a hash size is not a new ruling)."""


def _steady(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _steady(v) for k, v in value.items() if k not in VOLATILE and k not in SETTINGS}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def differences(original: Mapping[str, Any] | None, rerun: Mapping[str, Any] | None,
                original_note: str | None, rerun_note: str | None,
                allowed: float = 50) -> list[dict[str, Any]]:
    """Every part of the ruling that differs between the original analysis and the re-run: timings and how it
    was run (:data:`SETTINGS`) aside, the score only beyond ``allowed``."""
    if original is None or rerun is None:
        if original is None and rerun is None:
            return [] if (original_note or "") == (rerun_note or "") else [
                {"field": "recommendation", "original": original_note, "rerun": rerun_note}]
        return [{"field": "recommendation", "original": original if original is not None else original_note,
                 "rerun": rerun if rerun is not None else rerun_note}]
    found = [{"field": key, "original": original.get(key), "rerun": rerun.get(key)}
             for key in COMPARED if canonical(_scoreless(_steady(original.get(key))))
             != canonical(_scoreless(_steady(rerun.get(key))))]
    before, after = _score(original), _score(rerun)
    if (before is None) != (after is None) or (before is not None and after is not None
                                               and abs(after - before) > allowed):
        found.append({"field": "score", "original": before, "rerun": after})
    return found


SCORE_TOLERANCE = 50
"""Centipawns (chess) or search points (checkers) by which a re-run's score may move and still be the same
(``[appeals] score_tolerance``): a search that ran a little further never moves its score by exactly nothing."""
SCORES = SCORE_KEYS


def _scoreless(value: Any) -> Any:
    return {k: v for k, v in value.items() if k not in SCORES} if isinstance(value, Mapping) else value


def _score(ruling: Mapping[str, Any]) -> float | None:
    return Evidence.read(ruling.get("evidence")).score


Rerun = tuple[dict[str, Any] | None, str, dict[str, Any]]
"""A re-run's ruling (None: no recommendation), its note and the engine settings (``recommend``'s answer)."""


def compute_rerun(record: Mapping[str, Any], book: RulesetBook, config: Mapping[str, Any]) -> Rerun | None:
    """The appealed case's analysis re-run with deterministic settings (None: the record keeps no case).

    :raises CaseRefused: 503 when the task queue cannot be reached or answer in time (``recommend``).
    """
    case_data = record.get("case")
    if not isinstance(case_data, Mapping):
        return None
    contract_part = {k: v for k, v in case_data.items() if k not in ("round", "board", "players", "members")}
    return recommend(parse_case(contract_part), book, stored_config(record, config), contract_part)


def stored_config(record: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """The configuration with the engine settings the appealed analysis ran with, where the record keeps them
    (a committee case's recommendation keeps its engines, checkers and tablebases settings)."""
    settings = record.get("engine_settings")
    kept = {key: dict(settings[key]) for key in ("engines", "checkers", "tablebases")
            if isinstance(settings, Mapping) and isinstance(settings.get(key), Mapping)}
    return {**config, **kept}


def deferred_rerun(record: Mapping[str, Any], book: RulesetBook, config: Mapping[str, Any]) -> Rerun | None:
    """For a ruling completed by the arbiter's finding: the deferred ruling's analysis re-run, engine included
    (the case without the finding), so the appeal sees again what the finding rested on (None: not such a
    ruling)."""
    case_data = record.get("case")
    if record.get("kind") != "ruling" or not isinstance(record.get("completes"), Mapping) or not isinstance(
            case_data, Mapping):
        return None
    deferred = {k: v for k, v in case_data.items() if k not in ("td_finding", "completes_ruling")}
    return recommend(parse_case(deferred), book, config, deferred)


def rerun(session: Session, appeal: Appeal, book: RulesetBook, config: Mapping[str, Any], actor: User,
          computed: Rerun | None = None) -> Appeal:
    """Re-run the analysis of the appealed case with deterministic settings (or take ``computed``) and store
    the differences (an open appeal only: a decided one keeps the re-run its decision saw; :raises
    CaseRefused: 409)."""
    record = appeal.record
    if not isinstance(record.get("case"), Mapping):
        raise CaseRefused(422, "no_case", "the appealed record keeps no case to re-run", "subject")
    if appeal.status != "open":
        raise CaseRefused(409, "already_decided", "this appeal is decided: the re-run its decision saw is kept", None)
    ruling, note, settings = computed or compute_rerun(record, book, config) or (None, "", {})
    original = record.get("recommendation") if record.get("kind") == "committee-case" else record.get("ruling")
    allowed = (config.get("appeals") or {}).get("score_tolerance", SCORE_TOLERANCE)
    allowed = allowed if isinstance(allowed, int | float) and not isinstance(allowed, bool) else SCORE_TOLERANCE
    found = differences(original, ruling, record.get("recommendation_note"), note or None, allowed)
    body: dict[str, Any] = {"ruling": ruling, "note": note or None, "engine_settings": settings}
    again = deferred_rerun(record, book, config)
    if again is not None:  # the finding's ruling: the engine's analysis it rested on, re-run too
        body["deferred"] = {"ruling": again[0], "note": again[1] or None, "engine_settings": again[2]}
        before = (record.get("completes") or {}).get("ruling")
        found += [{**d, "field": f"deferred {d['field']}"} for d in differences(before, again[0], None,
                                                                                 again[1] or None, allowed)]
    stored = update(Appeal).where(Appeal.id == appeal.id, Appeal.status == "open").values(
        rerun_json=canonical(body),
        difference_json=canonical(found),
        rerun_at=now()).execution_options(synchronize_session=False)
    try:
        changed = session.execute(stored).rowcount  # type: ignore[attr-defined]
    except DBAPIError:  # 0009's trigger: decided meanwhile by another transaction
        changed = 0
    if changed != 1:
        session.rollback()
        raise CaseRefused(409, "already_decided", "this appeal is decided: the re-run its decision saw is kept", None)
    session.refresh(appeal)
    append(session, "appeal-rerun", appeal.audit_subject, appeal.rerun_payload(), actor=actor.name)
    session.commit()
    return appeal


def subject_event(session: Session, subject: str) -> tuple[Event, list[int], int | None]:
    """The event of what is appealed, the members who voted on it (a committee case) and who entered
    it (a ruling given at the board).

    :raises CaseRefused: 404 for an unknown subject, 422 for one that cannot be appealed.
    """
    kind, ident = parse_subject(subject)
    if kind == "committee-case":
        case = session.get(CommitteeCase, ident)
        if case is None:
            raise CaseRefused(404, "not_found", f"there is no committee case {ident}", "subject")
        return case.event, [v.user_id for v in case.votes], None
    row = session.execute(
        select(CaseRow.event_id, CaseRow.submitted_by_id).join(RulingRow, RulingRow.case_id == CaseRow.id)
        .where(RulingRow.id == ident)).first()
    if row is None:
        raise CaseRefused(404, "not_found", f"there is no stored ruling {ident}", "subject")
    event = session.get(Event, row.event_id)
    assert event is not None  # a foreign key
    return event, [], row.submitted_by_id


def file_appeal(session: Session, subject: str, grounds: str, filer: User, book: RulesetBook,
                config: Mapping[str, Any], *, scope: int | None = None) -> Appeal:
    """File an appeal against a committee decision or a ruling: a TD or appeals member of its event.

    :raises CaseRefused: 403 for anyone else, 404/422 for what cannot be appealed.
    """
    grounds = grounds.strip() if isinstance(grounds, str) and len(grounds) <= 4000 else ""
    if not grounds:
        raise CaseRefused(422, "missing_field", "give the grounds for the appeal (at most 4000 characters)",
                          "grounds")
    event, _voters, _submitter = subject_event(session, subject)
    roles = roles_in(session, Actor(filer, scope), event)
    if not roles:  # a stranger to the event: its cases and rulings are not even said to exist
        raise CaseRefused(404, "not_found", f"there is nothing stored as {subject!r}", "subject")
    if not roles & {"td", "appeals"}:
        raise CaseRefused(403, "forbidden", f"{filer.name} is neither a TD nor on the appeals committee of the "
                          f"event {event.slug!r}", None)
    record = load_subject(session, subject)
    computed = compute_rerun(record, book, config)  # first: a queue that cannot be reached stores nothing (503)
    appeal = Appeal(subject=subject, filed_at=now(), filed_by_id=filer.id, grounds=grounds,
                    record_json=canonical(record), status="open", event_id=event.id)
    session.add(appeal)
    session.flush()
    session.refresh(appeal)
    append(session, "appeal", appeal.audit_subject, appeal.filing_payload(), actor=filer.name)
    session.commit()
    if computed is not None:
        rerun(session, appeal, book, config, filer, computed)
    return appeal


def check_may_decide(session: Session, appeal: Appeal, member: User, scope: int | None = None) -> None:
    """The event's appeals committee (or an admin) decides, but never the appellant, someone who voted on
    the decision appealed, nor the one who entered the ruling appealed (separation of duties; admins
    included; the database refuses an appeal decided by its appellant, ``ck_appeals_not_own``).

    :raises CaseRefused: 403 naming why.
    """
    if "appeals" not in roles_in(session, Actor(member, scope), appeal.event):
        raise CaseRefused(403, "forbidden", f"{member.name} is not on the appeals committee of the event "
                          f"{appeal.event.slug!r}", None)
    if member.id == appeal.filed_by_id:
        raise CaseRefused(403, "conflict_of_duties", f"{member.name} filed this appeal and cannot decide it", None)
    _event, voters, submitter = subject_event(session, appeal.subject)
    if member.id in voters:
        raise CaseRefused(403, "conflict_of_duties", f"{member.name} voted on the decision appealed and cannot "
                          "decide the appeal against it", None)
    if submitter is not None and member.id == submitter:
        raise CaseRefused(403, "conflict_of_duties", f"{member.name} entered the ruling appealed and cannot "
                          "decide the appeal against it", None)


def decide_appeal(session: Session, appeal: Appeal, member: User, outcome: object, new_result: object,
                  reasons: object, *, scope: int | None = None) -> Appeal:
    """Record the appeals committee's decision: the ruling upheld, or overturned with a new result.

    One decision per appeal is the database's rule: the decision is a conditional update
    (``WHERE status = 'open'``), so of two deciders at once exactly one changes the row and
    the other is answered 409; a trigger refuses any later change to a decision.

    :raises CaseRefused: 403 not an appeals member of the event or a conflict of duties,
        409 already decided, 422 a bad outcome, result or reasons.
    """
    check_may_decide(session, appeal, member, scope)
    if appeal.status != "open":
        raise CaseRefused(409, "already_decided", "this appeal has already been decided", None)
    if outcome not in OUTCOMES:
        raise CaseRefused(422, "invalid_field", "outcome must be upheld or overturned", "outcome")
    if new_result is not None and new_result not in RESULTS:
        raise CaseRefused(422, "invalid_field", f"new_result must be one of {', '.join(RESULTS)}", "new_result")
    if not isinstance(reasons, str) or not reasons.strip() or len(reasons) > 4000:
        raise CaseRefused(422, "missing_field", "give the reasons for the decision", "reasons")
    original = appeal.record.get("result")
    if outcome == "overturned":
        if new_result not in RESULTS:
            raise CaseRefused(422, "invalid_field", f"an overturned ruling needs the new result "
                              f"({', '.join(RESULTS)})", "new_result")
        if new_result == original:
            raise CaseRefused(422, "invalid_field", "the new result is the result appealed", "new_result")
        result: str | None = str(new_result)
    else:
        result = original if isinstance(original, str) else None
    decided = update(Appeal).where(Appeal.id == appeal.id, Appeal.status == "open").values(
        status="decided", outcome=str(outcome), new_result=result, reasons=reasons.strip(),
        decided_by_id=member.id, decided_at=now()).execution_options(synchronize_session=False)
    try:
        changed = session.execute(decided).rowcount  # type: ignore[attr-defined]
    except DBAPIError:  # the trigger: decided meanwhile by another transaction
        changed = 0
    if changed != 1:
        session.rollback()
        raise CaseRefused(409, "already_decided", "this appeal has already been decided", None)
    session.refresh(appeal)
    append(session, "appeal-decision", appeal.audit_subject, appeal.decision_payload(), actor=member.name)
    for ruling_id in appealed_rulings(session, appeal.subject):  # the result that stands now (web.outcomes)
        outcomes.record(session, ruling_id, appeal.new_result, "appeal", member.name, appeal=appeal.id)
    session.commit()
    return appeal


def appealed_rulings(session: Session, subject: str) -> list[int]:
    """The rulings whose outcome an appeal's decision sets: the ruling appealed (and the deferred ruling it
    completes with the arbiter's finding), or the ruling referred to the committee case appealed."""
    kind, ident = parse_subject(subject)
    if kind == "committee-case":
        case = session.get(CommitteeCase, ident)
        return [] if case is None or case.referred_ruling_id is None else [case.referred_ruling_id]
    found = [ident]
    row = session.get(RulingRow, ident)
    origin = None if row is None else session.get(CaseRow, row.case_id)
    completes = None if origin is None else origin.data.get(outcomes.LINK)
    if isinstance(completes, int) and not isinstance(completes, bool) and session.get(RulingRow,
                                                                                      completes) is not None:
        found.append(completes)
    return found
