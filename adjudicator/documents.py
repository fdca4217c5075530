"""The contract's case and ruling as pydantic models: the shapes of ``shared/contract.md`` in code.

:class:`CaseDocument` is the "Case (input)" as it travels (JSON), :class:`RulingDocument` the "Ruling
(output)". Their JSON schemas (:func:`schemas`) are what the API document publishes
(:mod:`web.api.openapi`). Reading a case stays :func:`adjudicator.contract.parse_case`, the lenient
reader whose errors name the field (its messages are the contract's); each field here states the
structural rules that reader keeps (types, enums, lengths, ranges, no NUL), so data the schema allows
is never refused for its shape and data it refuses always is. Fields beyond the core (the per-claim
facts of :class:`adjudicator.case_facts.Facts`) are any JSON value here: each is checked by the claim
that reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import annotated_types
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue

from adjudicator.claim_registry import REGISTRY
from adjudicator.contract_text import CLOCK_TEXT as CLOCK_TEXT
from adjudicator.contract_text import MAX_RECORD_CHARS as MAX_RECORD_CHARS
from adjudicator.contract_text import Game as Game
from adjudicator.ruling import Result, Verdict

NO_NUL = "^[^\\x00]*$"
"""Every string and key the server stores: no NUL character (PostgreSQL cannot store one; the server
answers 400). Lone surrogates are refused too, but a JSON document in UTF-8 cannot carry one except as
a ``\\ud800`` escape, which no schema pattern can name."""
ONE_LINE = "^[^\\x00\\n]*$"
NOT_BLANK = "^[^\\x00]*[^\\x00\\s][^\\x00]*$"
"""Text with something besides spaces in it (and no NUL)."""
MAX_NUMBER = 2**53
"""Numbers the server takes: within ±2^53 (exact in every JSON reader); beyond, 400."""
REF = "#/components/schemas/{model}"
"""Where a schema names another: the API document's components."""
ANY_JSON = "x-any-json"
"""Marks where :data:`JSON_VALUE` goes (a reference pydantic would try to resolve among its own models);
:class:`Schema` puts the reference in."""

JSON_VALUE: dict[str, Any] = {
    "description": "any JSON value the server stores: strings and keys without NUL, numbers within ±2^53, "
                   "nested at most 32 deep",
    "anyOf": [
        {"type": "null"}, {"type": "boolean"},
        {"type": "number", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER},
        {"type": "string", "pattern": NO_NUL},
        {"type": "array", "items": {"$ref": "#/components/schemas/JsonValue"}},
        {"type": "object", "propertyNames": {"pattern": NO_NUL},
         "additionalProperties": {"$ref": "#/components/schemas/JsonValue"}},
    ],
}
"""Any JSON value (recursive: no model, a schema named ``JsonValue``)."""


def open_object(**extra: Any) -> ConfigDict:
    """A model's config for a request body: its known fields, and any others as ``JsonValue`` (the contract
    keeps fields beyond its core for the claims that read them); keys without NUL."""
    return ConfigDict(extra="allow", json_schema_extra={
        "propertyNames": {"pattern": NO_NUL}, "additionalProperties": {ANY_JSON: True}, **extra})


def Text(**constraints: Any) -> Any:
    """A string field's constraints: no NUL, and ``constraints`` (max_length, description, examples...)."""
    return Field(pattern=NO_NUL, **constraints)


Side = Annotated[Literal["white", "black", "red"],
                 Field(description="white/black (chess), red/white (checkers; black = red)")]
if TYPE_CHECKING:  # built from the registry and the enum, which a type checker cannot read
    ClaimId = str
    VerdictText = str
else:
    ClaimId = Literal[tuple(claim.id for claim in REGISTRY)]
    VerdictText = Literal[tuple(verdict.value for verdict in Verdict)]

ClockReading = Annotated[
    Annotated[float, Field(ge=0, le=360_000)] | Annotated[str, Field(pattern=CLOCK_TEXT)]
    | None,
    Field(description="seconds, or h:mm:ss (at most 100 hours)"),
]


class ClockDocument(BaseModel):
    """The clock: remaining time per side, and the flags that are down."""

    model_config = ConfigDict(extra="forbid")

    white: ClockReading = None
    black: ClockReading = None
    red: ClockReading = None
    flagged: Annotated[list[Side] | None, Field(
        max_length=2, json_schema_extra={"uniqueItems": True},
        description="first to fall first; on a flag claim, given and empty is refused (leave it out to let "
                    "clocks at 0 say whose flag is down)")] = None


class CaseFields(BaseModel):
    """The contract's case fields, as every operation that takes a case's facts reads them."""

    model_config = open_object()

    game: Game | None = "chess"
    ruleset: Annotated[str, Text(description="a ruleset id from config.toml", examples=["fide-standard"],
                                 min_length=1, max_length=80)]
    claim: ClaimId
    claimant: Annotated[Side | None, Field(
        description="white/black (chess), red/white (checkers; black = red). Required for "
                    "insufficient-losing-chances, and for a threefold, fifty- or forty-move claim unless the ruling "
                    "is the same whoever claims (the game ended without a claim)")] = None
    record: Annotated[str | None, Text(
        description="PGN (chess) or PDN (checkers); no run of more than 1,000 characters without a space",
        max_length=MAX_RECORD_CHARS)] = None
    start_fen: Annotated[str | None, Text(max_length=200)] = None
    fen: Annotated[str | None, Text(description="the position on the board now", max_length=200)] = None
    intended_move: Annotated[str | None, Text(max_length=40)] = None
    clock: ClockDocument | None = None
    time_control: Annotated[str | None, Text(examples=["40/5400+30:1800+30", "G/30;d5"], max_length=200)] = None
    alleged_illegal_ply: Annotated[int | None, Field(ge=1, le=MAX_NUMBER)] = None
    language: Annotated[str | None, Text(max_length=10)] = None
    readings: Annotated[Annotated[dict[str, Annotated[str, Text(max_length=40)]], Field(
        max_length=1000, json_schema_extra={"propertyNames": {"pattern": NO_NUL}})] | None, Field(
        description="the TD's choice where a token of the record reads two ways: ply -> the move meant, in "
                    "English SAN or coordinates (docs/reading-records.md); keys without NUL",
        examples=[{"18": "Bxc6"}])] = None
    missing_moves: Annotated[str | None, Text(
        description="the moves a numbering gap of the record leaves out, numbered as on the scoresheet "
                    "(2... Nc6; 2... 24-20 in checkers), or none when no move is missing (docs/reading-records.md)",
        examples=["2... Nc6"], max_length=200)] = None
    event: Annotated[str | None, Text(
        description="the event's short name (adjudicator events list); default: the install's default event",
        max_length=40)] = None


MetaValue = Annotated[str, Text(max_length=200)] | Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)] | None


class CaseMeta(BaseModel):
    """Where the game stands in the event (kept with the case, searchable)."""

    model_config = open_object()

    event: MetaValue = None
    round: MetaValue = None
    board: MetaValue = None
    first_player: MetaValue = None
    second_player: MetaValue = None


class CaseDocument(CaseFields):
    """The contract's case; a case the laws' facts refuse (an unreadable record, an illegal position, a fact
    the claim needs) is 422, naming the field."""

    model_config = open_object()

    meta: Annotated[CaseMeta | None, Field(
        description="optional: where the game stands in the event (kept with the case, searchable)")] = None


class AdjustmentDocument(BaseModel):
    """A clock change the arbiter must make: positive adds time, negative removes it."""

    side: str
    seconds: float
    reason: str


class RulingDocument(BaseModel):
    """The contract's ruling (:meth:`adjudicator.ruling.Ruling.to_json`)."""

    claim: ClaimId
    verdict: VerdictText
    result: Result | None
    adjustments: list[AdjustmentDocument]
    instructions: list[str]
    rule_refs: list[str]
    reasons: list[str]
    evidence: dict[str, Any]
    confidence: Annotated[float, Field(ge=0, le=1)] = 1.0


class ErrorItem(BaseModel):
    """One error: its code, a message, and the input field at fault."""

    code: str
    message: str
    field: Annotated[str | None, Field(description="the input field at fault")] = None


class ErrorDocument(BaseModel):
    """Every error the contract gives (:meth:`adjudicator.contract.ContractError.to_json`)."""

    error: ErrorItem
    errors: Annotated[list[ErrorItem], Field(
        default_factory=list, min_length=2,
        description="a case refused for several reasons: every one, the first being `error`")]


def max_length(model: type[BaseModel], name: str) -> int:
    """The longest text ``model``'s field ``name`` takes (its ``max_length``)."""
    for constraint in model.model_fields[name].metadata:
        if isinstance(constraint, annotated_types.MaxLen):
            return constraint.max_length
    raise LookupError(f"{model.__name__}.{name} has no max_length")


class Schema(GenerateJsonSchema):
    """Pydantic's JSON schema without the titles it derives from names (a schema's name in the document
    is its title)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def generate(self, schema: Any, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        generated = super().generate(schema, mode)
        for definition in [generated, *generated.get("$defs", {}).values()]:
            definition.pop("title", None)
            if "description" in definition:  # a docstring's lines, as one
                definition["description"] = " ".join(definition["description"].split())
        return _any_json(generated)  # type: ignore[no-any-return]


def _any_json(schema: Any) -> Any:
    if isinstance(schema, dict):
        if schema.get(ANY_JSON):
            return {"$ref": REF.format(model="JsonValue")}
        return {key: _any_json(value) for key, value in schema.items()}
    if isinstance(schema, list):
        return [_any_json(value) for value in schema]
    return schema


def schemas(models: dict[str, type[BaseModel]], mode: JsonSchemaMode) -> dict[str, dict[str, Any]]:
    """The JSON schemas of ``models`` under their names in the document, with every model they name
    (``ClockDocument``...) as a schema of its own; ``mode`` is ``validation`` for what is taken,
    ``serialization`` for what is given."""
    found: dict[str, dict[str, Any]] = {}
    for name, model in models.items():
        schema = model.model_json_schema(ref_template=REF, schema_generator=Schema, mode=mode)
        found.update(schema.pop("$defs", {}))
        found[name] = schema
    return found
