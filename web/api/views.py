"""JSON API views. Same validation and errors as the forms: 400 for a body that is not a
JSON object, 422 for a case the contract rejects, both as ``{"error": {...}}``."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from flask import Blueprint, Response, jsonify, url_for

from adjudicator.contract import ContractError
from web import submit
from web.api.openapi import openapi
from web.db import get_session
from web.inputs import json_body
from web.store import RulingRow

bp = Blueprint("api", __name__, url_prefix="/api/v1")

UNAVAILABLE = ("ruling_failed", "engine_unavailable")
"""Error codes that mean the service could not rule now (503), not that the case is wrong."""

META = ("event", "round", "board", "first_player", "second_player")


def error(status: int, code: str, message: str, field: str | None = None) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message, "field": field}}), status


@bp.post("/rulings")
def create() -> tuple[Response, int]:
    """Rule on a case; 201 with the ruling and its stored ``id``."""
    data: Any = json_body()  # decoded and checked before the view (web.inputs)
    if not isinstance(data, dict):
        return error(400, "invalid_case", "a case must be a JSON object", None)
    given = data.get("meta")
    meta_source: dict[str, Any] = given if isinstance(given, dict) else {}
    meta = {k: meta_source.get(k) for k in META if isinstance(meta_source.get(k), str | int)}
    try:
        job = submit.start(data, meta, "api")
    except ContractError as exc:
        return jsonify(exc.to_json()), 422
    if not job.wait(submit.adjudicator().api_timeout_seconds):
        submit.adjudicator().persist(job)
    if job.error is not None:
        status = 503 if job.error.get("code") in UNAVAILABLE else 422
        return jsonify({"error": job.error}), status
    if job.ruling_id is None:
        return error(503, "not_ready", "the ruling is taking longer than the API waits; try again", None)
    row = job.ruling_row or get_session().get(RulingRow, job.ruling_id)
    assert row is not None
    return _ruling_json(row), 201


@bp.get("/rulings/<int:ruling_id>")
def show(ruling_id: int) -> tuple[Response, int]:
    """A stored ruling, as it was given, with its id."""
    row = get_session().get(RulingRow, ruling_id)
    if row is None:
        return error(404, "not_found", f"there is no ruling {ruling_id}", "id")
    return _ruling_json(row), 200


def _ruling_json(row: RulingRow) -> Response:
    body = dict(row.data)
    body["id"] = row.id
    body["case_id"] = row.case_id
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    body["created_at"] = created.isoformat()
    response = jsonify(body)
    response.headers["Location"] = url_for("api.show", ruling_id=row.id)
    return response


@bp.get("/openapi.json")
def openapi_document() -> Response:
    return jsonify(openapi())
