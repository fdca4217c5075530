"""The adjudication committee: who may sit on a case, and what the votes decide.

At the end of a round, unfinished games go to a committee (ACF Master Division
local rules, rules reference 3.5 and 5.6: a committee of three expert players, a
computer may be consulted once the position is verified, **a win needs a unanimous
vote, anything less gives a draw**). Other events configure the vote rule in the
ruleset's ``[committee]`` table::

    [rulesets.<id>.committee]
    vote_rule = "unanimous-for-win"   # or "majority"
    members = 3
    article = "Master Division local rules: adjudication"

Everything here is pure: votes in, a :class:`Decision` out, with its reasons and
rule references.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from adjudicator.rulesets import Ruleset
from adjudicator.ruling import Result

RESULTS: tuple[Result, ...] = ("1-0", "1/2-1/2", "0-1")
"""What a member may vote: first mover wins, draw, second mover wins."""

DRAW: Result = "1/2-1/2"


class CommitteeError(ValueError):
    """Votes that cannot be counted (wrong number, a member twice, an unknown result)."""


class VoteRule(enum.StrEnum):
    """How a committee's votes become a result."""

    UNANIMOUS_FOR_WIN = "unanimous-for-win"
    """A win only when every member votes for it; anything less is a draw (ACF Master Division)."""
    MAJORITY = "majority"
    """The result more than half the members voted for; without such a majority, a draw."""


@dataclass(frozen=True)
class CommitteeRules:
    """A ruleset's committee: its size, its vote rule, and the article it rests on."""

    vote_rule: VoteRule
    members: int
    rule_ref: str

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset) -> CommitteeRules:
        """The ruleset's ``[committee]`` table (:class:`adjudicator.rulebook.common.Committee`)."""
        committee = ruleset.committee
        return cls(
            vote_rule=VoteRule(committee.vote_rule),
            members=committee.members,
            rule_ref=ruleset.ref(committee.article),
        )

    def describe(self) -> str:
        """The vote rule in an arbiter's words (used in reasons)."""
        if self.vote_rule is VoteRule.UNANIMOUS_FOR_WIN:
            return f"{self.rule_ref}: a win needs a unanimous vote, anything less is a draw"
        return f"{self.rule_ref}: the result is what a majority votes for, otherwise a draw"


@dataclass(frozen=True)
class Vote:
    """One member's vote on an unfinished game."""

    member: str
    result: Result
    comment: str = ""


@dataclass(frozen=True)
class Decision:
    """What the committee decided, with the count and the rule it was decided by."""

    result: Result
    vote_rule: VoteRule
    tally: Mapping[str, int]
    """Votes per result, every result listed (``{"1-0": 2, "1/2-1/2": 1, "0-1": 0}``)."""
    reasons: tuple[str, ...]
    rule_refs: tuple[str, ...]
    votes: tuple[Vote, ...] = field(default=())

    @property
    def is_unanimous(self) -> bool:
        return sum(1 for count in self.tally.values() if count) == 1

    def to_json(self) -> dict[str, object]:
        return {
            "result": self.result,
            "vote_rule": self.vote_rule.value,
            "tally": dict(self.tally),
            "is_unanimous": self.is_unanimous,
            "reasons": list(self.reasons),
            "rule_refs": list(self.rule_refs),
        }


def _check(votes: Sequence[Vote], rules: CommitteeRules) -> None:
    members = [vote.member for vote in votes]
    twice = sorted({m for m in members if members.count(m) > 1})
    if twice:
        raise CommitteeError(f"{', '.join(twice)} voted more than once")
    for vote in votes:
        if vote.result not in RESULTS:
            raise CommitteeError(f"{vote.member} voted {vote.result!r}; a vote is one of {', '.join(RESULTS)}")
    if len(votes) != rules.members:
        raise CommitteeError(f"{len(votes)} votes cast; the committee has {rules.members} members")


def _spoken(result: Result) -> str:
    return {"1-0": "a win for the first player (1-0)", "0-1": "a win for the second player (0-1)"}.get(
        result, "a draw (1/2-1/2)"
    )


def decide(votes: Sequence[Vote], rules: CommitteeRules) -> Decision:
    """Count a complete set of votes under the ruleset's vote rule.

    ACF Master Division local rules (rules reference 3.5): a win needs a unanimous
    vote; a split vote, whichever way it leans, gives a draw. Under ``majority``
    the result with more than half the votes stands; without one, a draw.

    :raises CommitteeError: not every member has voted, someone voted twice, or a
        vote is not a result.
    """
    _check(votes, rules)
    counts = Counter(vote.result for vote in votes)
    tally: dict[Result, int] = {result: counts.get(result, 0) for result in RESULTS}
    count_text = ", ".join(f"{tally[r]} for {r}" for r in RESULTS if tally[r])
    reasons = [f"The committee of {rules.members} voted: {count_text}."]
    leader, leading = max(tally.items(), key=lambda item: item[1])
    if rules.vote_rule is VoteRule.UNANIMOUS_FOR_WIN:
        wins = [r for r in RESULTS if r != DRAW and tally[r] == rules.members]
        if wins:
            result: Result = wins[0]
            reasons.append(f"The vote for {_spoken(result)} is unanimous, as a win requires.")
        else:
            result = DRAW
            if tally["1-0"] or tally["0-1"]:
                reasons.append("No win had a unanimous vote, so the game is drawn.")
            else:
                reasons.append("Every member voted for a draw.")
    else:
        if leading * 2 > rules.members:
            result = leader
            reasons.append(f"A majority ({leading} of {rules.members}) voted for {_spoken(result)}.")
        else:
            result = DRAW
            reasons.append("No result had a majority, so the game is drawn.")
    reasons.append(rules.describe() + ".")
    return Decision(
        result=result,
        vote_rule=rules.vote_rule,
        tally={str(r): n for r, n in tally.items()},
        reasons=tuple(reasons),
        rule_refs=(rules.rule_ref,),
        votes=tuple(votes),
    )


@dataclass(frozen=True)
class Affiliation:
    """Who a person is for conflict purposes: name, club and team (either may be unknown)."""

    name: str
    club: str | None = None
    team: str | None = None


@dataclass(frozen=True)
class Conflict:
    """Why a member may not sit on a game."""

    member: str
    reason: str


def _same(a: str | None, b: str | None) -> bool:
    return bool(a and b and a.strip().casefold() == b.strip().casefold())


def conflicts(member: Affiliation, players: Sequence[Affiliation]) -> tuple[Conflict, ...]:
    """The reasons ``member`` may not adjudicate a game between ``players``.

    A member may not sit on their own game, nor on a game of a player from their
    club or team (the event lists each member's club and team).
    """
    found: list[Conflict] = []
    for player in players:
        if _same(member.name, player.name):
            found.append(Conflict(member.name, f"{member.name} is a player in this game"))
        elif _same(member.club, player.club):
            found.append(Conflict(member.name, f"{member.name} is in the same club ({member.club}) as {player.name}"))
        elif _same(member.team, player.team):
            found.append(Conflict(member.name, f"{member.name} is on the same team ({member.team}) as {player.name}"))
    return tuple(found)


def is_complete(votes_cast: int, rules: CommitteeRules) -> bool:
    """Whether every member has voted (votes stay hidden until then)."""
    return votes_cast >= rules.members


__all__ = [
    "RESULTS",
    "Affiliation",
    "CommitteeError",
    "CommitteeRules",
    "Conflict",
    "Decision",
    "Vote",
    "VoteRule",
    "conflicts",
    "decide",
    "is_complete",
]
