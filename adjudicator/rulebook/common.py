"""What every ruleset has, whatever the game: its names, its committee, its default time control.

A ruleset is one ``[rulesets.<id>]`` table of ``config.toml`` after ``extends`` is applied
(:mod:`adjudicator.rulesets` merges, then validates with these models). Every option is a
typed field with its default and its meaning next to it; an option the model does not
know is an error naming its full key. The game's own sections are in
:mod:`adjudicator.rulebook.chess` and :mod:`adjudicator.rulebook.checkers`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from adjudicator.clocks.notation import parse_time_control
from adjudicator.contract import ContractError
from adjudicator.rulebook.options import Section, checks, option


class Committee(Section):
    """``[rulesets.<id>.committee]``: the adjudication committee of unfinished games (README 3.5)."""

    vote_rule: Literal["unanimous-for-win", "majority"] = option(
        default="majority",
        description="majority: the result more than half the members vote for, otherwise a draw; "
        "unanimous-for-win: a win only on a unanimous vote, anything less is a draw (ACF Master Division).",
    )
    members: int = option(default=3, description="Members who vote (1 to 15).")
    article: str = option(
        default="event regulations: adjudication committee",
        description='The article the committee\'s decisions cite, as `<authority> <article>`.',
    )

    @checks("members")
    @classmethod
    def _members_in_range(cls, value: int) -> int:
        if not 1 <= value <= 15:
            raise ValueError(f"must be between 1 and 15, not {value}")
        return value


class TimeControlDefault(Section):
    """``[rulesets.<id>.time_control]``: the event's time control when a case gives none."""

    default: str | None = option(
        default=None,
        description="PGN TimeControl or US notation (40/5400+30:1800+30, G/30;d5); used when neither the case "
        "nor the record's TimeControl tag gives one. Unset: no time control is assumed.",
    )

    @checks("default")
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

    title: str = option(description="The ruleset's name as pages and rulings show it.")
    game: Literal["chess", "checkers"] = option(description="The game the ruleset is for.")
    authority: str = option(
        description='Who issues the rules; every article is cited as `<authority> <article>` (FIDE 9.2.2).'
    )
    laws: str | None = option(
        default=None,
        description='The rulebook whose article numbers rulings cite, as `<laws> <article>`; unset: the '
        'authority\'s own. ICCF plays under the FIDE Laws where they apply (ICCF Playing Rules 1a): "FIDE".',
    )
    committee: Committee = option(default_factory=Committee, description="The adjudication committee.")
    time_control: TimeControlDefault = option(
        default_factory=TimeControlDefault, description="The event's time control."
    )

    _id: str = dataclasses.field(default="", init=False)
    _lineage: tuple[str, ...] = dataclasses.field(default=(), init=False)

    def adopt(self, context: Mapping[str, Any]) -> None:
        """The id and lineage the configuration gives (:func:`adjudicator.rulebook.options.build`'s context; a
        section that must be given and is not is read as empty there, so each missing option is named)."""
        object.__setattr__(self, "_id", str(context.get("id", "")))
        object.__setattr__(self, "_lineage", tuple(context.get("lineage", (self._id,))))

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
