"""What every ruleset has, whatever the game: its names, its committee, its default time control.

A ruleset is one ``[rulesets.<id>]`` table of ``config.toml`` after ``extends`` is applied
(:mod:`adjudicator.rulesets` merges, then validates with these models). Every option is a
typed field with its default and its meaning next to it; an option the model does not
know is an error naming its full key. The game's own sections are in
:mod:`adjudicator.rulebook.chess` and :mod:`adjudicator.rulebook.checkers`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from adjudicator.clocks.notation import parse_time_control
from adjudicator.contract import ContractError

FIELD_ERROR = "rulebook_field"


def field_error(field: str, problem: str) -> PydanticCustomError:
    """An error on ``field`` found by a check of several fields (the key it names is the field's)."""
    return PydanticCustomError(FIELD_ERROR, "{field}: {problem}", {"field": field, "problem": problem})


class Section(BaseModel):
    """One table of a ruleset: unknown keys are errors, values keep their TOML type (no coercion)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Committee(Section):
    """``[rulesets.<id>.committee]``: the adjudication committee of unfinished games (README 3.5)."""

    vote_rule: Literal["unanimous-for-win", "majority"] = Field(
        "majority",
        description="majority: the result more than half the members vote for, otherwise a draw; "
        "unanimous-for-win: a win only on a unanimous vote, anything less is a draw (ACF Master Division).",
    )
    members: int = Field(3, description="Members who vote (1 to 15).")
    article: str = Field(
        "event regulations: adjudication committee",
        description='The article the committee\'s decisions cite, as `<authority> <article>`.',
    )

    @field_validator("members")
    @classmethod
    def _members_in_range(cls, value: int) -> int:
        if not 1 <= value <= 15:
            raise ValueError(f"must be between 1 and 15, not {value}")
        return value


class TimeControlDefault(Section):
    """``[rulesets.<id>.time_control]``: the event's time control when a case gives none."""

    default: str | None = Field(
        None,
        description="PGN TimeControl or US notation (40/5400+30:1800+30, G/30;d5); used when neither the case "
        "nor the record's TimeControl tag gives one. Unset: no time control is assumed.",
    )

    @field_validator("default")
    @classmethod
    def _readable(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                parse_time_control(value, "default")
            except ContractError as exc:
                raise ValueError(f"is not a time control: {exc.message}") from None
        return value


class Ruleset(Section):
    """One event's rules after inheritance. :attr:`id` and :attr:`lineage` come from the configuration."""

    title: str = Field(description="The ruleset's name as pages and rulings show it.")
    game: Literal["chess", "checkers"] = Field(description="The game the ruleset is for.")
    authority: str = Field(
        description='Who issues the rules; every article is cited as `<authority> <article>` (FIDE 9.2.2).'
    )
    laws: str | None = Field(
        None,
        description='The rulebook whose article numbers rulings cite, as `<laws> <article>`; unset: the '
        'authority\'s own. ICCF plays under the FIDE Laws where they apply (ICCF Playing Rules 1a): "FIDE".',
    )
    committee: Committee = Field(default_factory=Committee, description="The adjudication committee.")
    time_control: TimeControlDefault = Field(
        default_factory=TimeControlDefault, description="The event's time control."
    )

    _id: str = PrivateAttr("")
    _lineage: tuple[str, ...] = PrivateAttr(())

    @model_validator(mode="before")
    @classmethod
    def _absent_sections_are_empty(cls, data: Any) -> Any:
        """A section that must be given and is not is read as empty, so each missing option is named."""
        if not isinstance(data, Mapping):
            return data
        absent: dict[str, dict[str, Any]] = {
            name: {} for name, field in cls.model_fields.items()
            if name not in data and field.is_required()
            and isinstance(field.annotation, type) and issubclass(field.annotation, Section)
        }
        return {**data, **absent} if absent else data

    def model_post_init(self, context: Any, /) -> None:
        if isinstance(context, dict):
            self._id = str(context.get("id", ""))
            self._lineage = tuple(context.get("lineage", (self._id,)))

    @property
    def id(self) -> str:
        """The ruleset's id: the name of its ``[rulesets.<id>]`` table."""
        return self._id

    @property
    def lineage(self) -> tuple[str, ...]:
        """This ruleset, then the one it extends, and so on up to the root."""
        return self._lineage

    def key(self, path: str) -> str:
        """The full configuration key of an option: ``rulesets.<id>.<path>``."""
        return f"rulesets.{self.id}.{path}"

    def ref(self, article: str) -> str:
        """An article as this ruleset names it: ``ref("9.2.2")`` → ``"FIDE 9.2.2"`` (the ``laws``' numbering when
        set, else the authority's; the index of each rulebook: :mod:`adjudicator.rulebook.articles`)."""
        return f"{self.laws or self.authority} {article}"

    def is_a(self, ruleset_id: str) -> bool:
        """Whether this ruleset is ``ruleset_id`` or extends it."""
        return ruleset_id in self.lineage
