"""The OpenAPI 3.1 document for the JSON API (served at ``/api/v1/openapi.json``)."""

from __future__ import annotations

from typing import Any

from adjudicator.contract import CLAIMS

CLOCK_READING: dict[str, Any] = {
    "oneOf": [{"type": "number", "minimum": 0}, {"type": "string", "pattern": r"^(\d+:)?\d{1,2}:\d{1,2}(\.\d+)?$"}],
    "description": "seconds, or h:mm:ss",
}

CASE: dict[str, Any] = {
    "type": "object",
    "required": ["ruleset", "claim"],
    "properties": {
        "game": {"type": "string", "enum": ["chess", "checkers"], "default": "chess"},
        "ruleset": {"type": "string", "description": "a ruleset id from config.toml", "examples": ["fide-standard"]},
        "claim": {"type": "string", "enum": list(CLAIMS)},
        "claimant": {"type": "string", "description": "white/black (chess), red/white (checkers; black = red)"},
        "record": {"type": ["string", "null"], "description": "PGN (chess) or PDN (checkers)"},
        "start_fen": {"type": ["string", "null"]},
        "fen": {"type": ["string", "null"], "description": "the position on the board now"},
        "intended_move": {"type": ["string", "null"]},
        "clock": {
            "type": ["object", "null"],
            "properties": {
                "white": CLOCK_READING,
                "black": CLOCK_READING,
                "red": CLOCK_READING,
                "flagged": {"type": "array", "items": {"type": "string"}, "description": "first to fall first"},
            },
        },
        "time_control": {"type": ["string", "null"], "examples": ["40/5400+30:1800+30", "G/30;d5"]},
        "alleged_illegal_ply": {"type": ["integer", "null"], "minimum": 1},
        "language": {"type": ["string", "null"]},
        "event": {"type": "string", "description": "the event's short name (adjudicator events list); "
                  "default: the install's default event"},
        "meta": {
            "type": "object",
            "description": "optional: where the game stands in the event (kept with the case, searchable)",
            "properties": {k: {"type": "string"} for k in ("event", "round", "board", "first_player", "second_player")},
        },
    },
}

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

ERROR: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "field": {"type": ["string", "null"], "description": "the input field at fault"},
            },
        }
    },
}


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def openapi() -> dict[str, Any]:
    """The document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "The arbiter's assistant",
            "version": "1",
            "description": "Case in, ruling out: the contract of shared/contract.md over HTTP.",
        },
        "paths": {
            "/api/v1/rulings": {
                "post": {
                    "summary": "Rule on a case",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Case"}}},
                    },
                    "responses": {
                        "201": {
                            "description": "the ruling, stored",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ruling"}}},
                        },
                        "400": _error("the body is not a JSON object"),
                        "413": _error("the body is too large"),
                        "422": _error("the case breaks the contract (the field is named)"),
                        "503": _error("the analysis failed or took longer than the API waits"),
                    },
                }
            },
            "/api/v1/rulings/{id}": {
                "get": {
                    "summary": "A stored ruling",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                    "responses": {
                        "200": {
                            "description": "the ruling as it was given",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ruling"}}},
                        },
                        "404": _error("no such ruling"),
                    },
                }
            },
        },
        "components": {"schemas": {"Case": CASE, "Ruling": RULING, "Error": ERROR}},
    }
