"""Opening committee cases and casting votes: the transactions behind the pages and the API.

Each write is one transaction that also appends its audit entries, so a vote
that was acknowledged (committed: SQLite WAL with ``synchronous=FULL``) is on
disk with its audit entry, and a vote that was not is not there at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.committee import (
    RESULTS,
    Affiliation,
    CommitteeRules,
    Vote,
    VoteRule,
    conflicts,
    decide,
    is_complete,
)
from adjudicator.contract import Case, ContractError, parse_case
from adjudicator.evidence import Evidence
from adjudicator.requirements import time_control_errors
from adjudicator.rulesets import RulesetBook
from web import outcomes
from web.audit import append, canonical, now
from web.committee.analysis import ANALYSIS, analysed, recommend_here
from web.committee.position import position_of
from web.events.access import Actor, check_not_hidden, event_named, refused_status, roles_in
from web.inputs import whole_number
from web.queue.remote import JobFailed, QueueTimeout, QueueUnavailable
from web.runner import Runner
from web.tables.committee import CommitteeCase, CommitteeMember, CommitteeVote
from web.tables.events import Event
from web.tables.rulings import CaseRow, RulingRow
from web.tables.users import User, user_by_name


class CaseRefused(ContractError):
    """A case or vote that cannot be accepted; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(code, message, field)
        self.status = status


_TAG = re.compile(r'^\s*\[(White|Black|Round|Board)\s+"([^"]*)"\]', re.MULTILINE)
CASE_FIELDS = ("round", "board", "players", "members", "event", "ruling")
"""Fields of a committee case beyond the contract's case (``ruling``: the unfinished-game ruling it is
referred from, :mod:`web.committee.referral`)."""


def _text(value: object, field: str, limit: int = 120) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or len(value) > limit or "\n" in value:
        raise CaseRefused(422, "invalid_field", f"{field} must be text of at most {limit} characters", field)
    return value.strip() or None


def players_of(case: Case, raw: object) -> dict[str, dict[str, str | None]]:
    """Each side's name, club and team: from ``players`` (an object per side, or a name), else the record's tags."""
    tags = {name: value for name, value in _TAG.findall(case.record or "")}
    first, second = case.sides
    found: dict[str, dict[str, str | None]] = {}
    if raw is not None and not isinstance(raw, Mapping):
        raise CaseRefused(422, "invalid_field", "players must be an object with one entry per side", "players")
    given = dict(raw or {})
    if case.game == "checkers" and "black" in given and "red" not in given:
        given["red"] = given.pop("black")
    for key in given:
        if key not in (first, second):
            raise CaseRefused(422, "invalid_field", f"players has an unknown side {key!r}", f"players.{key}")
    for side, tag in ((first, "White" if case.game == "chess" else "Black"),
                      (second, "Black" if case.game == "chess" else "White")):
        entry = given.get(side)
        if isinstance(entry, str) or entry is None:
            entry = {"name": entry}
        if not isinstance(entry, Mapping):
            raise CaseRefused(422, "invalid_field", f"players.{side} must be a name or an object", f"players.{side}")
        found[side] = {
            "name": _text(entry.get("name"), f"players.{side}.name") or tags.get(tag),
            "club": _text(entry.get("club"), f"players.{side}.club"),
            "team": _text(entry.get("team"), f"players.{side}.team"),
        }
    return found


def recommend(case: Case, book: RulesetBook, config: Mapping[str, Any], data: Mapping[str, Any] | None = None
              ) -> tuple[dict[str, Any] | None, str, dict[str, Any]]:
    """The engine/database recommendation: a committee analysis job of the app's runner (:mod:`web.runner`).

    Without a broker (or without the case's contract ``data``) it runs in this thread
    (:func:`web.committee.analysis.recommend_here`); with ``ADJUDICATOR_BROKER_URL`` set a worker
    computes it (the :data:`web.committee.analysis.ANALYSIS` kind) while this request waits up to
    ``[queue] wait_seconds``.

    :raises CaseRefused: 503 when the broker cannot be reached (``queue_unavailable``) or no worker answers
        in time (``queue_timeout``): nothing is stored, the TD tries again.
    """
    runner = _runner()
    if runner is None or data is None:
        return recommend_here(case, book, config)
    try:
        found = runner.run(ANALYSIS.name, {"case": dict(data)}, lambda: analysed(*recommend_here(case, book, config)))
    except QueueUnavailable as exc:
        raise CaseRefused(503, "queue_unavailable", f"no recommendation can be computed now: {exc}; nothing was "
                          "stored, try again", None) from None
    except QueueTimeout as exc:
        raise CaseRefused(503, "queue_timeout", f"the recommendation is not ready: {exc}", None) from None
    except JobFailed as exc:
        return None, f"No recommendation available: {exc.error.get('message')}.", {}
    return found["ruling"], str(found["note"] or ""), dict(found["settings"])


def _runner() -> Runner | None:
    """The app's job runner (None: outside a request)."""
    if not has_app_context():
        return None
    adjudicator = current_app.extensions.get("adjudicator")
    found: Runner | None = getattr(adjudicator, "runner", None)
    return found


def open_case(session: Session, data: object, opener: User, book: RulesetBook,
              config: Mapping[str, Any], *, scope: int | None = None) -> CommitteeCase:
    """Validate, attach the recommendation, assign the members, store and audit a new case.

    The case belongs to ``data["event"]`` (the default event when absent); the opener must
    be a TD of that event (or an admin), the members must be on its committee pool.
    ``scope`` is the event an event-scoped token is limited to.
    """
    if not isinstance(data, Mapping):
        raise CaseRefused(400, "invalid_case", "a committee case must be a JSON object", None)
    event = event_named(session, data.get("event"))
    check_not_hidden(session, Actor(opener, scope), event)
    if "td" not in roles_in(session, Actor(opener, scope), event):
        raise CaseRefused(403, "forbidden", f"{opener.name} is not a TD of the event {event.slug!r}", "event")
    contract_part = {k: v for k, v in data.items() if k not in CASE_FIELDS}
    contract_part.setdefault("claim", "unfinished-game")
    case = parse_case(contract_part)
    if data.get("ruling") is None:  # a referral carries its ruling's control as it was stored
        for error in time_control_errors(contract_part):
            raise CaseRefused(422, error.code, error.message, error.field)
    if event.ruleset and case.ruleset != event.ruleset:
        raise CaseRefused(422, "invalid_field", f"the event {event.slug!r} is played under {event.ruleset!r}, "
                          f"not {case.ruleset!r}", "ruleset")
    if case.claim != "unfinished-game":
        raise CaseRefused(422, "invalid_field", "a committee case has claim unfinished-game", "claim")
    ruleset = book[case.ruleset]
    if ruleset.game != case.game:
        raise CaseRefused(422, "invalid_field",
                          f"ruleset {ruleset.id!r} is for {ruleset.game}, but the case is a {case.game} game",
                          "ruleset")
    if not (case.record or case.fen):
        raise CaseRefused(422, "missing_field", "give the record or the position (fen) of the unfinished game",
                          "record")
    rules = CommitteeRules.for_ruleset(ruleset)
    players = players_of(case, data.get("players"))
    members = _members(session, data.get("members"), rules, players, event)
    referred = referred_ruling(session, data.get("ruling"), event)
    recommendation, note, settings = recommend(case, book, config, contract_part)
    row = CommitteeCase(
        opened_at=now(), opened_by_id=opener.id, game=case.game, ruleset=case.ruleset,
        round=_text(data.get("round"), "round", 40), board=_text(data.get("board"), "board", 40),
        case_json=canonical(contract_part), players_json=canonical(players),
        position_json=canonical(position_of(case)),
        recommendation_json=None if recommendation is None else canonical(recommendation),
        recommendation_note=note, services_json=canonical(settings), vote_rule=rules.vote_rule.value,
        members_required=rules.members, rule_ref=rules.rule_ref, status="voting", event_id=event.id,
        referred_ruling_id=referred,
    )
    session.add(row)
    try:
        session.flush()
    except IntegrityError:  # uq_committee_cases_referred_ruling: another TD referred it meanwhile
        session.rollback()
        raise _referred_already(session, referred) from None
    for seat, user in enumerate(members, start=1):
        session.add(CommitteeMember(case_id=row.id, user_id=user.id, seat=seat))
    session.flush()
    session.refresh(row)
    append(session, "case", row.subject, row.audit_payload(), actor=opener.name)
    append(session, "recommendation", row.subject, row.recommendation_payload(), actor=opener.name)
    session.commit()
    return row


def referred_ruling(session: Session, ruling: object, event: Event) -> int | None:
    """The id of the unfinished-game ruling of ``event`` that the case is referred from (None: none given).

    :raises CaseRefused: 422 not a ruling of this event on an unfinished game; 409 referred already (a ruling
        goes to one committee: the database's unique index holds it too).
    """
    if ruling is None or ruling == "":
        return None
    ident = ruling if isinstance(ruling, int) and not isinstance(ruling, bool) else whole_number(str(ruling))
    found = None if ident is None else session.get(RulingRow, ident)
    origin = None if found is None else session.get(CaseRow, found.case_id)
    if found is None or origin is None or origin.event_id != event.id:
        raise CaseRefused(422, "invalid_field", f"ruling must be a ruling of the event {event.slug!r}", "ruling")
    if origin.claim != "unfinished-game":
        raise CaseRefused(422, "invalid_field", f"ruling {found.id} is on a {origin.claim} claim; only an "
                          "unfinished game goes to the committee", "ruling")
    ended = ended_by_law(found.data)
    if ended is not None:
        raise CaseRefused(422, "invalid_field", f"ruling {found.id}: {ended}", "ruling")
    if session.scalar(select(CommitteeCase.id).where(CommitteeCase.referred_ruling_id == found.id)) is not None:
        raise _referred_already(session, found.id)
    return found.id


def ended_by_law(ruling: Mapping[str, Any]) -> str | None:
    """Why a game its ruling found already ended by the Laws needs no committee (None: it goes on; see
    :attr:`adjudicator.evidence.Evidence.law_ending`)."""
    ending = Evidence.read(ruling.get("evidence")).law_ending
    return None if ending is None else f"{ending}: nothing for the committee"


def _referred_already(session: Session, ruling_id: int | None) -> CaseRefused:
    case_id = session.scalar(select(CommitteeCase.id).where(CommitteeCase.referred_ruling_id == ruling_id))
    return CaseRefused(409, "already_referred", f"ruling {ruling_id} is with the committee already (committee case "
                       f"{case_id})", "ruling")


def _members(session: Session, names: object, rules: CommitteeRules,
             players: Mapping[str, Mapping[str, str | None]], event: Event) -> list[User]:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CaseRefused(422, "missing_field", f"members must list the {rules.members} members by name", "members")
    if len(names) != rules.members or len(set(names)) != len(names):
        raise CaseRefused(422, "invalid_field",
                          f"members must name {rules.members} different members, not {len(names)}", "members")
    sitting = [Affiliation(p["name"] or "", p.get("club"), p.get("team")) for p in players.values()]
    users: list[User] = []
    for name in names:
        user = user_by_name(session, name)
        if user is None or not user.is_active:
            raise CaseRefused(422, "unknown_member", f"no user named {name!r}", "members")
        if "committee" not in roles_in(session, Actor(user), event):
            raise CaseRefused(422, "invalid_member", f"{name} is not a committee member of the event "
                              f"{event.slug!r} (role {user.role})", "members")
        found = conflicts(Affiliation(user.name, user.club, user.team), sitting)
        if found:
            raise CaseRefused(422, "conflict_of_interest", f"{found[0].reason}; {name} cannot sit on this game",
                              "members")
        users.append(user)
    return users


def cast_vote(session: Session, case_id: int, voter: User, result: object, comment: object, *,
              scope: int | None = None) -> CommitteeCase:
    """Record ``voter``'s vote; when it is the last one, decide under the ruleset's vote rule.

    One vote per member is the database's rule (``uq_committee_vote``): of two votes sent
    at once, the second insert fails and is answered 409.

    :raises CaseRefused: 404 no such case, 403 not an assigned member (or a token for
        another event), 409 a second vote (or the case is closed), 422 not a result.
    """
    case = session.execute(
        select(CommitteeCase).where(CommitteeCase.id == case_id).with_for_update()
    ).scalar_one_or_none()
    if case is None:
        raise CaseRefused(404, "not_found", f"there is no committee case {case_id}", None)
    if not case.is_member(voter) or not Actor(voter, scope).reaches(case.event_id):
        if refused_status(session, Actor(voter, scope), case.event) == 404:
            raise CaseRefused(404, "not_found", f"there is no committee case {case_id}", None)
        raise CaseRefused(403, "forbidden", f"{voter.name} is not a member of this committee", None)
    if result not in RESULTS:
        raise CaseRefused(422, "invalid_field", f"result must be one of {', '.join(RESULTS)}", "result")
    if comment is None:
        comment = ""
    if not isinstance(comment, str) or len(comment) > 4000:
        raise CaseRefused(422, "invalid_field", "comment must be text of at most 4000 characters", "comment")
    if case.has_voted(voter) or case.is_decided:
        raise CaseRefused(409, "already_voted", f"{voter.name} has already voted on this case", None)
    vote = CommitteeVote(case_id=case.id, user_id=voter.id, result=result, comment=comment.strip(),
                         cast_at=now())
    session.add(vote)
    try:
        session.flush()  # takes SQLite's write lock; from here the transaction sees every committed vote
    except IntegrityError:
        session.rollback()
        raise CaseRefused(409, "already_voted", f"{voter.name} has already voted on this case", None) from None
    session.refresh(vote)
    append(session, "vote", vote.subject, vote.audit_payload(), actor=voter.name)
    cast = session.scalar(select(func.count()).select_from(CommitteeVote).where(CommitteeVote.case_id == case.id))
    session.refresh(case)
    rules = _rules_of(case)
    if is_complete(int(cast or 0), rules):
        votes = [Vote(v.user.name, v.result, v.comment) for v in case.votes]  # type: ignore[arg-type]
        decision = decide(votes, rules)
        case.status, case.result = "decided", decision.result
        case.decision_json, case.decided_at = canonical(decision.to_json()), now()
        session.flush()
        append(session, "decision", case.subject, case.decision_payload(), actor="committee")
        if case.referred_ruling_id is not None:  # the committee's result is the referred ruling's outcome
            outcomes.record(session, case.referred_ruling_id, case.result, "committee", "committee", case=case.id)
    session.commit()
    return case


def _rules_of(case: CommitteeCase) -> CommitteeRules:
    """The rules the case was opened under (kept with the case, so a later config change cannot move them)."""
    return CommitteeRules(vote_rule=VoteRule(case.vote_rule), members=case.members_required,
                          rule_ref=case.rule_ref)


def case_json(case: CommitteeCase) -> dict[str, Any]:
    """The API's view of a case: votes only once every member has voted."""
    complete = len(case.votes) >= case.members_required
    body: dict[str, Any] = {
        "id": case.id,
        "event": case.event.slug,
        "status": case.status,
        "game": case.game,
        "ruleset": case.ruleset,
        "round": case.round,
        "board": case.board,
        "players": case.players,
        "members": case.member_names(),
        "votes_cast": len(case.votes),
        "votes_required": case.members_required,
        "votes": [v.to_json() for v in case.votes] if complete else None,
        "result": case.result,
        "decision": case.decision,
        "recommendation": case.recommendation,
        "recommendation_note": case.recommendation_note or None,
        "position": case.position,
        "opened_at": case.opened_at,
        "opened_by": case.opened_by.name,
        "referred_ruling": case.referred_ruling_id,
    }
    return body
