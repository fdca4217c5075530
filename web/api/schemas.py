"""The schemas of the API document (:mod:`web.api.openapi`): what the server takes and gives.

Each request schema states every structural rule the server keeps (types, enums, lengths, patterns,
number ranges, keys without NUL), so that data the document allows is never refused for its shape
and data it refuses always is (schemathesis's ``--checks all``, ``tests/web/test_web_openapi.py``).
"""

from __future__ import annotations

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
