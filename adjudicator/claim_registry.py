"""Every claim, named once: its contract id, the words the claim form shows, the facts the form
asks for, and whether the claimant must be known (issue 24).

The contract's claim list (:data:`adjudicator.contract.CLAIMS`), the form's choices and labels
(:mod:`web.claims.forms`) and the required facts (:mod:`adjudicator.requirements`) are read from
here; which games have the claim is their claim tables' (:func:`adjudicator.rule.claim_ids`).
tests/test_claim_registry.py fails when a claim is missing from any of them.

A leaf module: the contract imports it, so it imports nothing of the domain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Claimant = Literal["always", "when-it-matters", "not-asked"]
"""``always``: the claimant's own chances are what is judged (Guidelines III.5, US 14H); ``when-it-matters``:
a draw claim by a player (FIDE 9.2, 9.3; US 14C, 14F), ruled once the claimant is known or shown not to
matter (:func:`adjudicator.requirements.examine`); ``not-asked``: the claim names its side otherwise."""

FACT_GROUPS = ("position", "intended_move", "clocks", "flagged", "time_control", "finding", "alleged_illegal_ply",
               "previous_illegal_moves")
"""The groups of fields the claim form may ask for (``web/templates/claims/form.html`` shows each group)."""


@dataclass(frozen=True)
class Claim:
    """One claim of the contract."""

    id: str
    label: str
    """The claim form's words for it."""
    needs: tuple[str, ...]
    """The groups of fields the form shows for it (:data:`FACT_GROUPS`)."""
    claimant: Claimant
    form_place: int
    """Its place in the form's list (the order a TD reads them; the contract lists them in its own)."""


REGISTRY: tuple[Claim, ...] = (
    Claim("threefold-repetition", "Threefold repetition", ("position", "intended_move"), "when-it-matters", 0),
    Claim("fifty-move", "Fifty-move rule", ("position", "intended_move"), "when-it-matters", 1),
    Claim("forty-move", "Forty-move rule", ("position", "intended_move"), "when-it-matters", 2),
    Claim("flag", "Flag fall", ("position", "clocks", "flagged", "time_control"), "not-asked", 3),
    Claim("insufficient-losing-chances", "Insufficient losing chances",
          ("position", "clocks", "time_control", "finding"), "always", 4),
    Claim("unfinished-game", "Unfinished game (adjudication)", ("position", "clocks", "time_control"),
          "not-asked", 6),
    Claim("illegal-move", "Illegal move",
          ("position", "alleged_illegal_ply", "previous_illegal_moves", "clocks", "time_control"), "not-asked", 5),
)
"""Every claim, in the contract's order."""

BY_ID: dict[str, Claim] = {claim.id: claim for claim in REGISTRY}
IN_FORM_ORDER: tuple[Claim, ...] = tuple(sorted(REGISTRY, key=lambda claim: claim.form_place))
