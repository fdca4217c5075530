"""The models of the API document (:mod:`web.api.openapi`): what the server takes and gives. A route names
the models it takes and gives (:func:`web.api.operations.described`) and the document generates their schemas.

The case and the ruling are the domain's (:mod:`adjudicator.documents`); the committee's and the
appeals' bodies are modelled here. Each request model states every structural rule the server keeps
(types, enums, lengths, patterns, number ranges, keys without NUL), so that data the document allows is
never refused for its shape and data it refuses always is (schemathesis's ``--checks all``,
``tests/web/test_web_openapi.py``). ``tests/web/test_openapi_compat.py`` checks the document against
the one written by hand before (``tests/data/openapi-before.json``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from adjudicator.documents import (
    MAX_NUMBER,
    NOT_BLANK,
    ONE_LINE,
    CaseFields,
    RulingDocument,
    Text,
    open_object,
)
from adjudicator.ruling import Result


class Outcome(BaseModel):
    """Where a ruling stands now (:mod:`web.outcomes`): the result that stands and who decided it, with its
    time; or whom it waits for (``status: waiting``, ``result`` and ``decided_by`` null)."""

    result: Result | None
    decided_by: Annotated[Literal["ruling", "finding", "committee", "appeal"] | None, Field(
        description="the ruling itself, the arbiter's finding, the committee (its case) or an appeal")]
    at: Annotated[str | None, Field(description="when it was decided (ISO 8601, UTC)")]
    status: Literal["decided", "waiting"]
    words: Annotated[str, Field(description="the outcome in words, as History and the sheet say it")]
    case: Annotated[int | None, Field(description="the committee case that decided it, or that it waits for")
                    ] = None
    appeal: Annotated[int | None, Field(description="the appeal that decided it")] = None
    ruling: Annotated[int | None, Field(description="the ruling that gave the arbiter's finding")] = None
    waiting_for: Literal["committee", "finding"] | None = None


class StoredRuling(RulingDocument):
    """The contract's ruling as the API gives it: stored, with its id, share link and outcome. For a
    committee member who has not verified the position of the case it went to, the engine's analysis is
    taken out (``evidence: {"engine_hidden": true}``, one reason saying so)."""

    id: Annotated[int, Field(description="the stored ruling's id")]
    case_id: int
    event: Annotated[str, Field(description="the event the ruling belongs to")]
    share_url: Annotated[str, Field(description="the link that opens this ruling without a login")]
    created_at: Annotated[str, Field(json_schema_extra={"format": "date-time"})]
    outcome: Annotated[Outcome | None, Field(description="the result that stands now and who decided it")] = None


class Vote(BaseModel):
    """A committee member's vote."""

    model_config = open_object()

    result: Result
    comment: Annotated[str | None, Text(max_length=4000)] = None


RoundOrBoard = Annotated[str, Field(max_length=40, pattern=ONE_LINE)] | Annotated[
    int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)] | None
PlayerText = Annotated[str | None, Field(max_length=120, pattern=ONE_LINE)]


class PlayerParts(BaseModel):
    """A player by name, club and team."""

    model_config = open_object()

    name: PlayerText = None
    club: PlayerText = None
    team: PlayerText = None


Player = PlayerText | PlayerParts


class Players(BaseModel):
    """Per side: a name, or {name, club, team}."""

    model_config = {"extra": "forbid"}

    white: Player = None
    black: Player = None
    red: Player = None


class CommitteeCaseIn(CaseFields):
    """A case as for /api/v1/rulings (claim unfinished-game), with the members who vote; members who are
    not the event's committee, or sit on their own club's game, are 422."""

    model_config = open_object()

    claim: Literal["unfinished-game"] = "unfinished-game"
    members: Annotated[list[Annotated[str, Text(max_length=80)]], Field(
        min_length=1, max_length=9, examples=[["m1", "m2", "m3"]],
        description="the members' user names (as many as the ruleset's committee has: 3 by default)")]
    players: Annotated[Players | None, Field(description="per side: a name, or {name, club, team}")] = None
    round: RoundOrBoard = None
    board: RoundOrBoard = None


class CommitteeCase(BaseModel):
    """A committee case: status, votes cast, the votes once all are in, the result (every key always sent)."""

    id: int
    event: str
    status: Literal["voting", "decided"]
    game: Literal["chess", "checkers"]
    ruleset: str
    round: str | None
    board: str | None
    players: dict[str, Any]
    members: list[str]
    votes_cast: Annotated[int, Field(ge=0)]
    votes_required: Annotated[int, Field(ge=1)]
    votes: Annotated[list[dict[str, Any]] | None, Field(
        description="names, results and comments, once every member has voted")]
    result: Result | None
    decision: dict[str, Any] | None
    recommendation: Annotated[dict[str, Any] | None, Field(description="the engine/database ruling attached")]
    recommendation_note: str | None
    position: dict[str, Any]
    opened_at: str
    opened_by: str
    referred_ruling: Annotated[int | None, Field(description="the ruling that referred the game, if one did")]
    engine_hidden: Annotated[bool | None, Field(
        description="true for a seated member who has not verified the position: no recommendation yet")] = None


class AppealIn(BaseModel):
    """An appeal against a committee decision or a ruling."""

    model_config = open_object()

    subject: Annotated[str, Field(pattern="^(committee-case|ruling):[0-9]{1,10}$",
                                  examples=["committee-case:1", "ruling:1"],
                                  description="the id in digits 0-9; an id no row has is 404")]
    grounds: Annotated[str, Field(min_length=1, max_length=4000, pattern=NOT_BLANK)]


class AppealDecision(BaseModel):
    """The appeals committee's decision."""

    model_config = open_object()

    outcome: Literal["upheld", "overturned"]
    new_result: Annotated[Result | None, Field(
        description="required when overturned (and not the result appealed: 422)")] = None
    reasons: Annotated[str, Field(min_length=1, max_length=4000, pattern=NOT_BLANK)]


class Appeal(BaseModel):
    """An appeal, with the re-run compared and its decision (every key always sent)."""

    id: int
    event: str
    subject: str
    status: str
    filed_at: str | None
    filed_by: str | None
    grounds: str | None
    difference: Annotated[Any, Field(description="the re-run compared with the original")]
    outcome: str | None
    new_result: str | None
    reasons: str | None
    decided_by: str | None
    decided_at: str | None
