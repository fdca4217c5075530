"""What checking a game's record finds: findings, and the check of one game (contract: "Checking a collection").

Shared by the chess check (:mod:`adjudicator.collection`) and the checkers check
(:mod:`adjudicator.checkers.collection`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.chess.numbering import NumberingGap


@dataclass(frozen=True)
class Finding:
    """One thing the laws say about a game's record or result."""

    code: str
    ply: int
    """The ply it stands at (0 = the start position; n = after the record's n-th move)."""
    article: str
    message: str
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "ply": self.ply, "article": self.article, "message": self.message}
        if self.evidence:
            body["evidence"] = dict(self.evidence)
        return body


@dataclass(frozen=True)
class GameCheck:
    """One game checked: the recorded result, the result the laws give, and why they differ."""

    headers: tuple[tuple[str, str], ...]
    recorded_result: str | None
    lawful_result: str | None
    """None: the laws' result could not be decided (within the budget, or from the record); a finding says why."""
    findings: tuple[Finding, ...] = ()

    @property
    def has_findings(self) -> bool:
        return bool(self.findings)

    def to_json(self, index: int) -> dict[str, Any]:
        """The contract's line for the ``index``-th game of the collection (1 = the first)."""
        return {
            "index": index,
            "headers": dict(self.headers),
            "recorded_result": self.recorded_result,
            "lawful_result": self.lawful_result,
            "findings": [f.to_json() for f in self.findings],
        }


def later_plies(count: int) -> str:
    """The sentence on moves recorded after the game ended (none: empty)."""
    if count <= 0:
        return ""
    return f" {count} more {'ply was' if count == 1 else 'plies were'} recorded after it; they do not count."


def numbering_gap(gap: NumberingGap, article: str) -> Finding:
    """A ``numbering-gap`` finding: the move numbers part from the order of the moves (a move not written, a
    number repeated), with both readings."""
    return Finding("numbering-gap", gap.ply, article, f"Ply {gap.ply} ({gap.token!r}): {gap.text}.",
                   {"token": gap.token, "written": gap.written, "missing": gap.to_json()["missing"]})
