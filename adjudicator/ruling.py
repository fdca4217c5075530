"""Rulings as values: what the arbiter is told, with its reasons, articles and evidence.

The JSON shape is the contract's "Ruling (output)" (``shared/contract.md``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from adjudicator.evidence import Evidence

Result = Literal["1-0", "0-1", "1/2-1/2"]
"""A game result, first mover's score first (White in chess, Red in checkers)."""


class Verdict(enum.StrEnum):
    """What became of the claim."""

    UPHELD = "upheld"
    """The claim is right."""
    REJECTED = "rejected"
    """The claim is wrong (or not admissible)."""
    DEFERRED = "deferred"
    """The arbiter must watch, place a delay clock, or refer it to the committee."""
    ADJUDICATED = "adjudicated"
    """An unfinished game was given a result (or a recommendation)."""


@dataclass(frozen=True)
class Adjustment:
    """A clock change the arbiter must make: positive adds time, negative removes it."""

    side: str
    seconds: float
    reason: str

    def to_json(self) -> dict[str, Any]:
        seconds: float | int = int(self.seconds) if float(self.seconds).is_integer() else self.seconds
        return {"side": self.side, "seconds": seconds, "reason": self.reason}


@dataclass(frozen=True)
class Ruling:
    """A decision on one case, carrying its reasons, rule references and evidence."""

    claim: str
    verdict: Verdict
    result: Result | None
    rule_refs: tuple[str, ...]
    reasons: tuple[str, ...]
    adjustments: tuple[Adjustment, ...] = ()
    instructions: tuple[str, ...] = ()
    evidence: Mapping[str, Any] = field(default_factory=dict)
    """Given as the claim module's mapping; kept as typed :class:`~adjudicator.evidence.Evidence` (:attr:`shown`)."""
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.evidence, Evidence):
            object.__setattr__(self, "evidence", Evidence.read(self.evidence))

    @property
    def shown(self) -> Evidence:
        """The evidence, typed: what a page draws (:mod:`adjudicator.evidence`)."""
        assert isinstance(self.evidence, Evidence)
        return self.evidence

    @property
    def is_upheld(self) -> bool:
        return self.verdict is Verdict.UPHELD

    def to_json(self) -> dict[str, Any]:
        """The contract's ruling object (JSON-ready)."""
        return {
            "claim": self.claim,
            "verdict": self.verdict.value,
            "result": self.result,
            "adjustments": [a.to_json() for a in self.adjustments],
            "instructions": list(self.instructions),
            "rule_refs": list(self.rule_refs),
            "reasons": list(self.reasons),
            "evidence": self.shown.to_json(),
            "confidence": self.confidence,
        }


def win_for(side: str, first_mover: str) -> Result:
    """The result string for a win by ``side`` (first mover's score first)."""
    return "1-0" if side == first_mover else "0-1"


def unique(items: Sequence[str]) -> tuple[str, ...]:
    """Items in first-seen order without repeats (for rule references)."""
    return tuple(dict.fromkeys(items))
