"""The contract's Committee API (``/api/v1/committee-cases``), bearer-token authenticated."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, url_for

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook, RulesetError
from web.api.operations import QUEUE_ERROR, described
from web.api.schemas import CommitteeCase as CaseBody
from web.api.schemas import CommitteeCaseIn, Vote
from web.auth.tokens import api_user, token_required
from web.committee.gate import HIDDEN_REASON, hides_engine
from web.committee.service import CaseRefused, case_json, cast_vote, open_case
from web.db import get_session as db
from web.errors import api_error
from web.events.access import Actor, may_read_committee_case, refused_status
from web.inputs import json_body
from web.tables.committee import CommitteeCase

bp = Blueprint("committee_api", __name__, url_prefix="/api/v1/committee-cases")


def book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]  # built once per app
    return found


def refused(exc: Exception) -> tuple[Response, int]:
    if isinstance(exc, CaseRefused):
        return api_error(exc.status, exc.code, exc.message, exc.field)
    if isinstance(exc, RulesetError):
        error = exc.as_contract_error()
        return api_error(422, error.code, error.message, error.field)
    assert isinstance(exc, ContractError)
    status = 400 if exc.code in ("invalid_json", "invalid_case") else 422
    return api_error(status, exc.code, exc.message, exc.field)


def _json_body() -> Any:
    return json_body()  # decoded and checked before the view (web.inputs)


def _scope() -> int | None:
    scope: int | None = g.get("api_scope")
    return scope


@bp.post("")
@described("Open a committee case (role td or admin)", "openCommitteeCase", takes=CommitteeCaseIn,
           gives=(201, CaseBody, "the case, voting, with its recommendation"),
           links={"GetCommitteeCase": "getCommitteeCase", "Vote": "voteOnCommitteeCase"},
           errors={422: "the case or its members are refused (the field is named)", 503: QUEUE_ERROR})
@token_required()
def create() -> tuple[Response, int] | Response:
    """Open a case (a TD of the case's event, or an admin)."""
    try:
        case = open_case(db(), _json_body(), api_user(), book(), current_app.config["ADJUDICATOR"], scope=_scope())
    except (ContractError, RulesetError) as exc:
        db().rollback()
        return refused(exc)
    response = jsonify(case_json(case))
    response.status_code = 201
    response.headers["Location"] = url_for("committee_api.show", case_id=case.id)
    return response


@bp.post("/<int:case_id>/votes")
@described("Vote (an assigned member)", "voteOnCommitteeCase", takes=Vote,
           gives=(201, CaseBody, "the case with the vote counted (decided after the last)"),
           errors={404: "no such case", 409: "a second vote by the same member, or the case is decided",
                   422: "not a result"})
@token_required()
def vote(case_id: int) -> tuple[Response, int] | Response:
    try:
        data = _json_body()
        if not isinstance(data, dict):
            raise CaseRefused(400, "invalid_json", "a vote must be a JSON object", None)
        case = cast_vote(db(), case_id, api_user(), data.get("result"), data.get("comment"), scope=_scope())
    except ContractError as exc:
        db().rollback()
        return refused(exc)
    response = jsonify(case_json(case))
    response.status_code = 201
    return response


@bp.get("/<int:case_id>")
@described("A committee case: status, votes cast, the votes once all are in, the result", "getCommitteeCase",
           gives=(200, CaseBody, "the case"), errors={404: "no such case"})
@token_required()
def show(case_id: int) -> tuple[Response, int] | Response:
    """A case: for its seated members, the event's TDs and appeals committee, and admins (else 403; 404 for
    a stranger to its event)."""
    case = db().get(CommitteeCase, case_id)
    if case is None:
        return api_error(404, "not_found", f"there is no committee case {case_id}", None)
    actor = Actor(api_user(), _scope())
    if not may_read_committee_case(db(), actor, case.event, (m.user_id for m in case.members)):
        if refused_status(db(), actor, case.event) == 404:
            return api_error(404, "not_found", f"there is no committee case {case_id}", None)
        return api_error(403, "forbidden", f"{actor.user.name if actor.user else 'you'} may not read this case",
                         None)
    body = case_json(case)
    if hides_engine(db(), case, actor.user):  # the verify gate (web.committee.gate): no engine before it
        body.update(recommendation=None, recommendation_note=HIDDEN_REASON.format(case=case.id), engine_hidden=True)
    return jsonify(body)
