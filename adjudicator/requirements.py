"""The facts a claim needs before it can be ruled on at all.

A slip at the board (no flag ticked on a flag claim, no claimant on a draw claim) must
not become a permanent ruling: these checks run before a ruling is made or stored, and
each names the field to fix. They are about what was *entered*; whether the claim is
right is the claim's own rule.

- A draw claim by a player (threefold repetition, the fifty- and forty-move rules,
  insufficient losing chances) needs the claimant: FIDE 9.2, 9.3 and Guidelines III are
  claims *by a player*, and who claims decides whose move may be written down and who
  gets the time penalty of a wrong claim.
- A flag claim needs to say whose flag is down (FIDE 6.9, US Chess 13C, ACF 1.20):
  ``clock.flagged`` given and empty says "no flag is down", which is a slip on the form,
  not a claim.
- A chess position entered alone (``fen`` with no record) must be one a legal game can
  reach, whatever the claim: :func:`adjudicator.positions.legal_position`, the check every
  entry point shares (and the board editor asks for while the TD sets the position up).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.contract import ContractError

CLAIMANT_NEEDED: frozenset[str] = frozenset({
    "threefold-repetition", "fifty-move", "forty-move", "insufficient-losing-chances",
})
"""Claims a player makes: ruled on only once the claimant is known."""


class MissingFactError(ContractError):
    """A fact the claim needs was not entered (``missing_field``, naming it)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__("missing_field", message, field)


def missing_facts(data: Mapping[str, Any]) -> list[MissingFactError]:
    """Every required fact missing from a case (as the JSON contract spells it), in form order."""
    claim = data.get("claim")
    missing: list[MissingFactError] = []
    if claim in CLAIMANT_NEEDED and not data.get("claimant"):
        missing.append(MissingFactError("say who makes the claim", "claimant"))
    if claim == "flag":
        clock = data.get("clock")
        if isinstance(clock, Mapping) and "flagged" in clock and not clock.get("flagged"):
            missing.append(MissingFactError("tick whose flag is down (both: in the order they fell)", "clock.flagged"))
    return missing


def position_errors(data: Mapping[str, Any]) -> list[ContractError]:
    """A chess position entered alone (no record) that no legal game reaches, as ``invalid_fen`` on ``fen``.

    The same check as :func:`adjudicator.positions.legal_position` (every entry point's), so the
    board editor's live warning and the refusal on submitting are one rule.
    """
    fen = data.get("fen")
    if data.get("game", "chess") != "chess" or not isinstance(fen, str) or not fen.strip() or data.get("record"):
        return []
    from adjudicator.positions import legal_position

    try:
        legal_position(fen, "fen")
    except ContractError as exc:
        return [exc]
    return []
