"""JSON API views. Same validation and errors as the forms: 400 for a body that is not a
JSON object, 422 for a case the contract rejects, both as ``{"error": {...}}``."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, url_for

from adjudicator.contract import ContractError
from adjudicator.documents import CaseDocument
from web import submit
from web.api.openapi import openapi
from web.api.operations import described
from web.api.schemas import StoredRuling
from web.committee.gate import hiding_case, redacted
from web.db import get_session
from web.errors import api_error
from web.events.access import AccessRefused, may_see_rulings, share_code, shared_ruling_id
from web.events.actors import TokenRefused, bearer_actor, resolve_event
from web.inputs import json_body
from web.outcomes import outcome_of
from web.queue.rows import claim_job_id
from web.tables.events import Event, EventFacts
from web.tables.rulings import CaseRow, RulingRow
from web.tables.users import User

bp = Blueprint("api", __name__, url_prefix="/api/v1")

UNAVAILABLE = ("ruling_failed", "engine_unavailable", "queue_unavailable")
"""Error codes that mean the service could not rule now (503), not that the case is wrong."""

META = ("event", "round", "board", "first_player", "second_player")


@bp.post("/rulings")
@described("Rule on a case", "createRuling", takes=CaseDocument, gives=(201, StoredRuling, "the ruling, stored"),
           links={"GetRuling": "getRuling"}, errors={
               422: "the case breaks the contract or lacks a fact the claim needs (the field is named; nothing is "
                    "stored)",
               503: "no ruling now: the analysis cannot be done (engine_unavailable), failed, or took longer than the "
                    "API waits (not_ready); nothing is stored as a ruling"})
def create() -> tuple[Response, int]:
    """Rule on a case; 201 with the ruling and its stored ``id``."""
    data: Any = json_body()  # decoded and checked before the view (web.inputs)
    if not isinstance(data, dict):
        return api_error(400, "invalid_case", "a case must be a JSON object", None)
    given = data.get("meta")
    if given is not None and not isinstance(given, dict):
        return api_error(422, "invalid_field", "meta must be an object (event, round, board, first_player, "
                     "second_player)", "meta")
    meta_source: dict[str, Any] = given or {}
    for key in META:
        value = meta_source.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
            return api_error(422, "invalid_field", f"meta.{key} must be text", f"meta.{key}")
    meta = {k: meta_source.get(k) for k in META if isinstance(meta_source.get(k), str | int)}
    try:
        actor = bearer_actor()
    except TokenRefused:
        return _unauthorized()
    try:
        event = resolve_event(data.get("event"))
        job = submit.start(data, meta, "api", event, actor)
    except AccessRefused as exc:
        response = jsonify(exc.to_json())
        if exc.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="adjudicator"'
        return response, exc.status
    except ContractError as exc:
        return jsonify(exc.to_json()), 422
    if not job.wait(submit.adjudicator().api_timeout_seconds):
        case_id = submit.adjudicator().persist(job)
        if actor.user is None:  # an anonymous request's work ends with its time limit (issue 39): stopped, kept
            submit.cancel(claim_job_id(case_id))
            return api_error(503, "not_ready", f"the ruling takes longer than the API waits, so the analysis was "
                             f"stopped (case {case_id} is kept); a TD's token lets a long analysis go on", None)
    if job.error is not None:
        status = 503 if job.error.get("code") in UNAVAILABLE else 422
        return jsonify({"error": job.error}), status
    if job.ruling_id is None:
        return api_error(503, "not_ready", "the ruling is taking longer than the API waits; try again", None)
    row = job.ruling_row or get_session().get(RulingRow, job.ruling_id)
    assert row is not None
    return _ruling_json(row, event, actor.user), 201


@bp.get("/rulings/<int:ruling_id>")
@described("A stored ruling", "getRuling", gives=(
    200, StoredRuling, "the ruling as it was given, with its outcome (the result that stands now and who decided it)"),
    errors={401: "a bearer token was sent and is not valid",
            404: "no such ruling (or a private event's, for anyone but its staff)"})
def show(ruling_id: int) -> tuple[Response, int]:
    """A stored ruling, as it was given, with its id (a private event's only for its staff's tokens)."""
    try:
        actor = bearer_actor()
    except TokenRefused:
        return _unauthorized()
    session = get_session()
    row = session.get(RulingRow, ruling_id)
    case = None if row is None else session.get(CaseRow, row.case_id)
    event = None if case is None else session.get(Event, case.event_id)
    if row is None or event is None or not may_see_rulings(session, actor, event):
        return api_error(404, "not_found", f"there is no ruling {ruling_id}", "id")
    return _ruling_json(row, event, actor.user), 200


@bp.get("/shared/<code>")
@described("A ruling through its share link (how a player of a private event gets it)", "getSharedRuling",
           gives=(200, StoredRuling, "the ruling"), errors={404: "no ruling has this code"})
def shared(code: str) -> tuple[Response, int]:
    """A ruling through its share link's code (how a player of a private event gets it): no token needed."""
    session = get_session()
    ruling_id = shared_ruling_id(current_app.config["SECRET_KEY"], code[:80])
    row = None if ruling_id is None else session.get(RulingRow, ruling_id)
    case = None if row is None else session.get(CaseRow, row.case_id)
    event = None if case is None else session.get(Event, case.event_id)
    if row is None or event is None:
        return api_error(404, "not_found", "there is no ruling with this share code", "code")
    try:
        user = bearer_actor().user  # a committee member's token: the verify gate holds here too
    except TokenRefused:
        user = None
    return _ruling_json(row, event, user), 200


def _unauthorized() -> tuple[Response, int]:
    return api_error(401, "unauthorized", "the token is not valid", "Authorization")


def _ruling_json(row: RulingRow, event: EventFacts, user: User | None = None) -> Response:
    """The ruling as given (its engine analysis taken out for a committee member who has not verified the
    position, :mod:`web.committee.gate`), with its id, share link and ``outcome`` (:mod:`web.outcomes`)."""
    session = get_session()
    hidden = hiding_case(session, row.id, user)
    body = redacted(row.data, hidden.id) if hidden is not None else dict(row.data)
    body["id"] = row.id
    body["case_id"] = row.case_id
    body["event"] = event.slug
    code = share_code(current_app.config["SECRET_KEY"], row.id)
    body["share_url"] = url_for("rulings.shared", code=code, _external=True)
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    body["created_at"] = created.isoformat()
    body["outcome"] = outcome_of(session, row).to_json()
    response = jsonify(body)
    response.headers["Location"] = url_for("api.show", ruling_id=row.id)
    return response


@bp.get("/openapi.json")
@described("This document", "getOpenApi", gives=(200, {"type": "object"}, "the OpenAPI document"))
def openapi_document() -> Response:
    """The API document, written from the app's described routes once per app (:mod:`web.api.openapi`)."""
    document = current_app.extensions.get("openapi")
    if document is None:
        document = current_app.extensions["openapi"] = openapi(current_app)
    return jsonify(document)
