"""The OpenAPI 3.1 document for the JSON API (served at ``/api/v1/openapi.json``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.contract import CLAIMS

NO_NUL = "^[^\\x00]*$"
"""Every string and key the server stores: no NUL character (PostgreSQL cannot store one; the server
answers 400). Lone surrogates are refused too, but a JSON document in UTF-8 cannot carry one except as
a ``\\ud800`` escape, which no schema pattern can name."""
ONE_LINE = "^[^\\x00\\n]*$"
NOT_BLANK = "^[^\\x00]*[^\\x00\\s][^\\x00]*$"
"""Text with something besides spaces in it (and no NUL)."""
MAX_NUMBER = 2**53
"""Numbers the server takes: within ±2^53 (exact in every JSON reader); beyond, 400."""


def text(**constraints: Any) -> dict[str, Any]:
    """A string field: no NUL, and ``constraints`` (maxLength, enum, examples...)."""
    return {"type": "string", "pattern": NO_NUL, **constraints}


def or_null(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


JSON_VALUE: dict[str, Any] = {
    "description": "any JSON value the server stores: strings and keys without NUL, numbers within ±2^53, "
                   "nested at most 32 deep",
    "anyOf": [
        {"type": "null"}, {"type": "boolean"},
        {"type": "number", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER},
        text(),
        {"type": "array", "items": {"$ref": "#/components/schemas/JsonValue"}},
        {"type": "object", "propertyNames": {"pattern": NO_NUL},
         "additionalProperties": {"$ref": "#/components/schemas/JsonValue"}},
    ],
}
EXTRA: dict[str, Any] = {"$ref": "#/components/schemas/JsonValue"}


def body(properties: dict[str, Any], required: list[str], description: str | None = None) -> dict[str, Any]:
    """A request body object: its known fields, and any others as :data:`JSON_VALUE` (the contract keeps
    fields beyond its core for the claims that read them)."""
    schema: dict[str, Any] = {"type": "object", "required": required, "properties": properties,
                              "propertyNames": {"pattern": NO_NUL}, "additionalProperties": EXTRA}
    if description:
        schema["description"] = description
    return schema


CLOCK_READING: dict[str, Any] = {
    "anyOf": [{"type": "number", "minimum": 0, "maximum": 360_000},
              {"type": "string", "pattern": r"^(\d+:)?\d{1,2}:\d{1,2}(\.\d+)?$"}, {"type": "null"}],
    "description": "seconds, or h:mm:ss (at most 100 hours)",
}

SIDE = text(enum=["white", "black", "red"], description="white/black (chess), red/white (checkers; black = red)")

CASE_FIELDS: dict[str, Any] = {
    "game": or_null(text(enum=["chess", "checkers"], default="chess")),
    "ruleset": text(description="a ruleset id from config.toml", examples=["fide-standard"], minLength=1,
                    maxLength=80),
    "claim": text(enum=list(CLAIMS)),
    "claimant": or_null({**SIDE, "description": "white/black (chess), red/white (checkers; black = red). Required "
                         "for insufficient-losing-chances, and for a threefold, fifty- or forty-move claim unless the "
                         "ruling is the same whoever claims (the game ended without a claim)"}),
    "record": or_null(text(description="PGN (chess) or PDN (checkers); no run of more than 1,000 characters "
                           "without a space", maxLength=2_000_000)),
    "start_fen": or_null(text(maxLength=200)),
    "fen": or_null(text(description="the position on the board now", maxLength=200)),
    "intended_move": or_null(text(maxLength=40)),
    "clock": {
        "type": ["object", "null"],
        "additionalProperties": False,
        "properties": {
            "white": CLOCK_READING,
            "black": CLOCK_READING,
            "red": CLOCK_READING,
            "flagged": {"type": ["array", "null"], "items": SIDE, "maxItems": 2, "uniqueItems": True,
                        "description": "first to fall first; on a flag claim, given and empty is refused "
                        "(leave it out to let clocks at 0 say whose flag is down)"},
        },
    },
    "time_control": or_null(text(examples=["40/5400+30:1800+30", "G/30;d5"], maxLength=200)),
    "alleged_illegal_ply": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_NUMBER},
    "language": or_null(text(maxLength=10)),
    "event": or_null(text(description="the event's short name (adjudicator events list); default: the install's "
                          "default event", maxLength=40)),
}

CASE: dict[str, Any] = body({
    **CASE_FIELDS,
    "meta": {
        "type": ["object", "null"],
        "description": "optional: where the game stands in the event (kept with the case, searchable)",
        "properties": {k: {"anyOf": [text(maxLength=200), {"type": "integer", "minimum": -MAX_NUMBER,
                                                            "maximum": MAX_NUMBER}, {"type": "null"}]}
                       for k in ("event", "round", "board", "first_player", "second_player")},
        "propertyNames": {"pattern": NO_NUL},
        "additionalProperties": EXTRA,
    },
}, ["ruleset", "claim"], "the contract's case; a case the laws' facts refuse (an unreadable record, an illegal "
   "position, a fact the claim needs) is 422, naming the field")

RULING: dict[str, Any] = {
    "type": "object",
    "required": ["id", "claim", "verdict", "result", "adjustments", "instructions", "rule_refs", "reasons", "evidence"],
    "properties": {
        "id": {"type": "integer", "description": "the stored ruling's id"},
        "case_id": {"type": "integer"},
        "event": {"type": "string", "description": "the event the ruling belongs to"},
        "share_url": {"type": "string", "description": "the link that opens this ruling without a login"},
        "created_at": {"type": "string", "format": "date-time"},
        "claim": {"type": "string", "enum": list(CLAIMS)},
        "verdict": {"type": "string", "enum": ["upheld", "rejected", "deferred", "adjudicated"]},
        "result": {"type": ["string", "null"], "enum": ["1-0", "0-1", "1/2-1/2", None]},
        "adjustments": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"side": {"type": "string"}, "seconds": {"type": "number"}, "reason": {"type": "string"}},
            },
        },
        "instructions": {"type": "array", "items": {"type": "string"}},
        "rule_refs": {"type": "array", "items": {"type": "string"}},
        "reasons": {"type": "array", "items": {"type": "string"}},
        "evidence": {"type": "object"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    },
}

ERROR_ITEM: dict[str, Any] = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "field": {"type": ["string", "null"], "description": "the input field at fault"},
    },
}

ERROR: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": ERROR_ITEM,
        "errors": {"type": "array", "items": ERROR_ITEM, "minItems": 2,
                   "description": "a case refused for several reasons: every one, the first being `error`"},
    },
}


VOTE: dict[str, Any] = body({
    "result": text(enum=["1-0", "0-1", "1/2-1/2"]),
    "comment": or_null(text(maxLength=4000)),
}, ["result"])

ROUND_OR_BOARD: dict[str, Any] = {"anyOf": [text(maxLength=40, pattern=ONE_LINE),
                                            {"type": "integer", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER},
                                            {"type": "null"}]}
PLAYER_TEXT: dict[str, Any] = or_null(text(maxLength=120, pattern=ONE_LINE))
PLAYER: dict[str, Any] = {"anyOf": [
    PLAYER_TEXT,
    {"type": "object", "propertyNames": {"pattern": NO_NUL}, "additionalProperties": EXTRA,
     "properties": {part: PLAYER_TEXT for part in ("name", "club", "team")}}]}

COMMITTEE_CASE_IN: dict[str, Any] = body({
    **CASE_FIELDS,
    "claim": text(enum=["unfinished-game"], default="unfinished-game"),
    "members": {"type": "array", "items": text(maxLength=80), "minItems": 1, "maxItems": 9,
                "description": "the members' user names (as many as the ruleset's committee has: 3 by default)",
                "examples": [["m1", "m2", "m3"]]},
    "players": {"type": ["object", "null"], "description": "per side: a name, or {name, club, team}",
                "properties": {side: PLAYER for side in ("white", "black", "red")},
                "additionalProperties": False},
    "round": ROUND_OR_BOARD,
    "board": ROUND_OR_BOARD,
}, ["ruleset", "members"], "a case as for /api/v1/rulings (claim unfinished-game), with the members who vote; "
   "members who are not the event's committee, or sit on their own club's game, are 422")

COMMITTEE_CASE: dict[str, Any] = {
    "type": "object",
    "required": ["id", "status", "votes_cast", "votes_required", "members"],
    "properties": {
        "id": {"type": "integer"},
        "status": {"type": "string", "enum": ["voting", "decided"]},
        "game": {"type": "string", "enum": ["chess", "checkers"]},
        "ruleset": {"type": "string"},
        "round": {"type": ["string", "null"]},
        "board": {"type": ["string", "null"]},
        "players": {"type": "object"},
        "members": {"type": "array", "items": {"type": "string"}},
        "votes_cast": {"type": "integer", "minimum": 0},
        "votes_required": {"type": "integer", "minimum": 1},
        "votes": {"type": ["array", "null"], "items": {"type": "object"},
                  "description": "names, results and comments, once every member has voted"},
        "result": {"type": ["string", "null"], "enum": ["1-0", "0-1", "1/2-1/2", None]},
        "decision": {"type": ["object", "null"]},
        "recommendation": {"type": ["object", "null"], "description": "the engine/database ruling attached"},
        "recommendation_note": {"type": ["string", "null"]},
        "position": {"type": "object"},
        "opened_at": {"type": "string"},
        "opened_by": {"type": "string"},
    },
}

APPEAL_IN: dict[str, Any] = body({
    "subject": text(pattern="^(committee-case|ruling):[0-9]{1,10}$", examples=["committee-case:1", "ruling:1"],
                    description="the id in digits 0-9; an id no row has is 404"),
    "grounds": text(minLength=1, maxLength=4000, pattern=NOT_BLANK),
}, ["subject", "grounds"])

APPEAL_DECISION: dict[str, Any] = body({
    "outcome": text(enum=["upheld", "overturned"]),
    "new_result": {"type": ["string", "null"], "enum": ["1-0", "0-1", "1/2-1/2", None],
                   "description": "required when overturned (and not the result appealed: 422)"},
    "reasons": text(minLength=1, maxLength=4000, pattern=NOT_BLANK),
}, ["outcome", "reasons"])

APPEAL: dict[str, Any] = {
    "type": "object",
    "required": ["id", "event", "subject", "status"],
    "properties": {
        "id": {"type": "integer"},
        "event": {"type": "string"},
        "subject": {"type": "string"},
        "status": {"type": "string"},
        "filed_at": {"type": ["string", "null"]},
        "filed_by": {"type": ["string", "null"]},
        "grounds": {"type": ["string", "null"]},
        "difference": {"description": "the re-run compared with the original"},
        "outcome": {"type": ["string", "null"]},
        "new_result": {"type": ["string", "null"]},
        "reasons": {"type": ["string", "null"]},
        "decided_by": {"type": ["string", "null"]},
        "decided_at": {"type": ["string", "null"]},
    },
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "JsonValue": JSON_VALUE, "Case": CASE, "Ruling": RULING, "Error": ERROR, "Vote": VOTE,
    "CommitteeCaseIn": COMMITTEE_CASE_IN, "CommitteeCase": COMMITTEE_CASE,
    "AppealIn": APPEAL_IN, "AppealDecision": APPEAL_DECISION, "Appeal": APPEAL,
}
"""Every schema of the document; an area adds its own here (``SCHEMAS["Event"] = ...``)."""

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
                "responses": {"200": _json("Ruling", "the ruling as it was given"),
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
            "schemas": dict(SCHEMAS),
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer",
                               "description": "a user's API token, from `adjudicator users add`"},
            },
        },
    }
