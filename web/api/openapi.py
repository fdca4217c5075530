"""The OpenAPI 3.1 document for the JSON API (served at ``/api/v1/openapi.json``): the paths, their
parameters, responses and security declared here; every body's schema generated from its model
(:mod:`web.api.schemas`, the case and the ruling from :mod:`adjudicator.documents`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from web.api.schemas import all_schemas

BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
ID: dict[str, Any] = {"name": "id", "in": "path", "required": True,
      "schema": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
      "description": "a stored id; any other number is 404"}


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _json(schema: str, description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def _linked(response: dict[str, Any], links: dict[str, str]) -> dict[str, Any]:
    """``response`` with OpenAPI links: the resource it made, by its ``id``, to the operations named."""
    return {**response, "links": {name: {"operationId": operation, "parameters": {"id": "$response.body#/id"}}
                                  for name, operation in links.items()}}


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


WRITE_ERRORS = {
    "400": _error("the body is not JSON, not an object, nests too deeply, or holds a NUL or a huge number "
                  "(the field is named)"),
    "413": _error("the body is too large"),
    "415": _error("the body is not sent as Content-Type: application/json"),
}
QUEUE_ERROR = _error("no recommendation now: the task queue cannot be reached (queue_unavailable) or no worker "
                     "answered in time (queue_timeout); nothing is stored, try again")
AUTH_ERRORS = {
    "401": _error("no bearer token, or not a valid one"),
    "403": _error("the token's user may not do this"),
}


def rulings_paths() -> dict[str, Any]:
    """``/api/v1/rulings``: the contract's case in, its ruling out (web.api)."""
    return {
        "/api/v1/rulings": {
            "post": {
                "summary": "Rule on a case",
                "operationId": "createRuling",
                "requestBody": _body("Case"),
                "responses": {
                    "201": _linked(_json("Ruling", "the ruling, stored"), {"GetRuling": "getRuling"}),
                    **WRITE_ERRORS,
                    "422": _error("the case breaks the contract or lacks a fact the claim needs (the field is "
                                  "named; nothing is stored)"),
                    "503": _error("no ruling now: the analysis cannot be done (engine_unavailable), failed, "
                                  "or took longer than the API waits (not_ready); nothing is stored as a ruling"),
                },
            }
        },
        "/api/v1/rulings/{id}": {
            "get": {
                "summary": "A stored ruling",
                "operationId": "getRuling",
                "parameters": [ID],
                "responses": {"200": _json("Ruling", "the ruling as it was given, with its outcome (the result that "
                                                    "stands now and who decided it)"),
                              "401": _error("a bearer token was sent and is not valid"),
                              "404": _error("no such ruling (or a private event's, for anyone but its staff)")},
            }
        },
        "/api/v1/shared/{code}": {
            "get": {
                "summary": "A ruling through its share link (how a player of a private event gets it)",
                "operationId": "getSharedRuling",
                "parameters": [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": _json("Ruling", "the ruling"), "404": _error("no ruling has this code")},
            }
        },
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "operationId": "getOpenApi",
                "responses": {"200": {"description": "the OpenAPI document",
                                      "content": {"application/json": {"schema": {"type": "object"}}}}},
            }
        },
    }


def committee_paths() -> dict[str, Any]:
    """``/api/v1/committee-cases``: the contract's Committee API, bearer tokens (web.committee.api)."""
    return {
        "/api/v1/committee-cases": {
            "post": {
                "summary": "Open a committee case (role td or admin)",
                "operationId": "openCommitteeCase",
                "security": BEARER,
                "requestBody": _body("CommitteeCaseIn"),
                "responses": {
                    "201": _linked(_json("CommitteeCase", "the case, voting, with its recommendation"),
                                   {"GetCommitteeCase": "getCommitteeCase", "Vote": "voteOnCommitteeCase"}),
                    **WRITE_ERRORS, **AUTH_ERRORS,
                    "422": _error("the case or its members are refused (the field is named)"),
                    "503": QUEUE_ERROR,
                },
            }
        },
        "/api/v1/committee-cases/{id}": {
            "get": {
                "summary": "A committee case: status, votes cast, the votes once all are in, the result",
                "operationId": "getCommitteeCase",
                "security": BEARER,
                "parameters": [ID],
                "responses": {"200": _json("CommitteeCase", "the case"), **AUTH_ERRORS,
                              "404": _error("no such case")},
            }
        },
        "/api/v1/committee-cases/{id}/votes": {
            "post": {
                "summary": "Vote (an assigned member)",
                "operationId": "voteOnCommitteeCase",
                "security": BEARER,
                "parameters": [ID],
                "requestBody": _body("Vote"),
                "responses": {
                    "201": _json("CommitteeCase", "the case with the vote counted (decided after the last)"),
                    **WRITE_ERRORS, **AUTH_ERRORS,
                    "404": _error("no such case"),
                    "409": _error("a second vote by the same member, or the case is decided"),
                    "422": _error("not a result"),
                },
            }
        },
    }


def appeals_paths() -> dict[str, Any]:
    """``/api/v1/appeals``: file, read and decide appeals, bearer tokens (web.appeals.api)."""
    return {
        "/api/v1/appeals": {
            "post": {
                "summary": "File an appeal against a committee decision or a ruling (a TD or appeals member "
                           "of its event)",
                "operationId": "fileAppeal",
                "security": BEARER,
                "requestBody": _body("AppealIn"),
                "responses": {
                    "201": _linked(_json("Appeal", "the appeal, with the re-run compared"),
                                   {"GetAppeal": "getAppeal", "Decide": "decideAppeal"}),
                    **WRITE_ERRORS, **AUTH_ERRORS,
                    "404": _error("no such subject"),
                    "409": _error("the subject cannot be appealed now"),
                    "422": _error("the appeal is refused (the field is named)"),
                    "503": QUEUE_ERROR,
                },
            }
        },
        "/api/v1/appeals/{id}": {
            "get": {
                "summary": "An appeal",
                "operationId": "getAppeal",
                "security": BEARER,
                "parameters": [ID],
                "responses": {"200": _json("Appeal", "the appeal"), **AUTH_ERRORS, "404": _error("no such appeal")},
            }
        },
        "/api/v1/appeals/{id}/decision": {
            "post": {
                "summary": "Decide an appeal (the event's appeals committee; never a member who voted on the "
                           "appealed decision)",
                "operationId": "decideAppeal",
                "security": BEARER,
                "parameters": [ID],
                "requestBody": _body("AppealDecision"),
                "responses": {
                    "201": _json("Appeal", "the appeal, decided"),
                    **WRITE_ERRORS, **AUTH_ERRORS,
                    "404": _error("no such appeal"),
                    "409": _error("the appeal is already decided"),
                    "422": _error("not an outcome or result (the field is named)"),
                },
            }
        },
    }


AREAS: list[Callable[[], dict[str, Any]]] = [rulings_paths, committee_paths, appeals_paths]
"""Each API area's paths; a new area appends its function (every /api/ route must be in the document:
tests/web/test_web_openapi.py checks the app's URL map against it)."""


def openapi() -> dict[str, Any]:
    """The document."""
    paths: dict[str, Any] = {}
    for area in AREAS:
        paths.update(area())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "The arbiter's assistant",
            "version": "1",
            "description": "Case in, ruling out: the contract of shared/contract.md over HTTP. Every error is "
                           '{"error": {"code", "message", "field"}}.',
        },
        "paths": paths,
        "components": {
            "schemas": all_schemas(),
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer",
                               "description": "a user's API token, from `adjudicator users add`"},
            },
        },
    }
