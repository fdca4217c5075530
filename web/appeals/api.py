"""The Appeals API (``/api/v1/appeals``), bearer-token authenticated like the Committee API.

- ``POST /api/v1/appeals`` ``{"subject": "committee-case:<id>" | "ruling:<id>", "grounds": "..."}``:
  a TD or appeals member of the subject's event; 201 with the appeal.
- ``GET /api/v1/appeals/<id>``: whoever filed it, the event's TDs and appeals committee,
  admins, the members of the appealed case.
- ``POST /api/v1/appeals/<id>/decision`` ``{"outcome": "upheld" | "overturned",
  "new_result": ..., "reasons": "..."}``: the event's appeals committee, never a member who
  voted on the appealed decision (403 ``conflict_of_duties``); 409 once decided.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request, url_for

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.api.operations import QUEUE_ERROR, described
from web.api.schemas import Appeal as AppealBody
from web.api.schemas import AppealDecision, AppealIn
from web.appeals.service import appealed_case_id, decide_appeal, file_appeal
from web.auth.tokens import api_user, token_required
from web.committee.service import CaseRefused
from web.db import get_session as db
from web.errors import api_error
from web.events.access import Actor, may_read_appeal, refused_status
from web.tables.appeals import Appeal
from web.tables.committee import CommitteeCase

bp = Blueprint("appeals_api", __name__, url_prefix="/api/v1/appeals")


def _book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]
    return found


def _actor() -> Actor:
    return Actor(api_user(), g.get("api_scope"))


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise CaseRefused(400, "invalid_json", "the body must be a JSON object (Content-Type: application/json)",
                          None)
    return data


def _refused(exc: ContractError) -> tuple[Response, int]:
    db().rollback()
    status = exc.status if isinstance(exc, CaseRefused) else 422
    return api_error(status, exc.code, exc.message, exc.field)


def appeal_json(appeal: Appeal) -> dict[str, Any]:
    return {"id": appeal.id, "event": appeal.event.slug, "subject": appeal.subject, "status": appeal.status,
            "filed_at": appeal.filed_at, "filed_by": appeal.filed_by.name, "grounds": appeal.grounds,
            "difference": appeal.difference, "outcome": appeal.outcome, "new_result": appeal.new_result,
            "reasons": appeal.reasons, "decided_by": appeal.decided_by.name if appeal.decided_by else None,
            "decided_at": appeal.decided_at}


def _readable(appeal_id: int) -> Appeal | tuple[Response, int]:
    """The appeal, for whoever may read it; 404 when there is none or the asker is a stranger to its event."""
    appeal = db().get(Appeal, appeal_id)
    if appeal is None:
        return api_error(404, "not_found", f"there is no appeal {appeal_id}", None)
    case_id = appealed_case_id(appeal.subject)
    case = None if case_id is None else db().get(CommitteeCase, case_id)
    members = [] if case is None else [m.user_id for m in case.members]
    if not may_read_appeal(db(), _actor(), appeal.event, appeal.filed_by_id, members):
        if refused_status(db(), _actor(), appeal.event) == 404:
            return api_error(404, "not_found", f"there is no appeal {appeal_id}", None)
        return api_error(403, "forbidden", "you may not read this appeal", None)
    return appeal


@bp.post("")
@described("File an appeal against a committee decision or a ruling (a TD or appeals member of its event)",
           "fileAppeal", takes=AppealIn, gives=(201, AppealBody, "the appeal, with the re-run compared"),
           links={"GetAppeal": "getAppeal", "Decide": "decideAppeal"},
           errors={404: "no such subject", 409: "the subject cannot be appealed now",
                   422: "the appeal is refused (the field is named)", 503: QUEUE_ERROR})
@token_required()
def create() -> tuple[Response, int]:
    try:
        data = _body()
        appeal = file_appeal(db(), data.get("subject"), data.get("grounds"), api_user(),  # type: ignore[arg-type]
                             _book(), current_app.config["ADJUDICATOR"], scope=g.get("api_scope"))
    except ContractError as exc:
        return _refused(exc)
    response = jsonify(appeal_json(appeal))
    response.headers["Location"] = url_for("appeals_api.show", appeal_id=appeal.id)
    return response, 201


@bp.get("/<int:appeal_id>")
@described("An appeal", "getAppeal", gives=(200, AppealBody, "the appeal"),
           errors={404: "no such appeal"})
@token_required()
def show(appeal_id: int) -> Response | tuple[Response, int]:
    found = _readable(appeal_id)
    return found if isinstance(found, tuple) else jsonify(appeal_json(found))


@bp.post("/<int:appeal_id>/decision")
@described("Decide an appeal (the event's appeals committee; never a member who voted on the appealed decision)",
           "decideAppeal", takes=AppealDecision, gives=(201, AppealBody, "the appeal, decided"),
           errors={404: "no such appeal", 409: "the appeal is already decided",
                   422: "not an outcome or result (the field is named)"})
@token_required()
def decide(appeal_id: int) -> tuple[Response, int]:
    found = _readable(appeal_id)
    if isinstance(found, tuple):
        return found
    try:
        data = _body()
        appeal = decide_appeal(db(), found, api_user(), data.get("outcome"), data.get("new_result"),
                               data.get("reasons"), scope=g.get("api_scope"))
    except ContractError as exc:
        return _refused(exc)
    return jsonify(appeal_json(appeal)), 201
