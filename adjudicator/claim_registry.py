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

FactKind = Literal["text", "whole-number"]


@dataclass(frozen=True)
class AskedFact:
    """A fact a claim asks for in one field, declared once: the case's field (the form's has the same name), the
    form's words, how the typed text is read, and what the TD is told when a claim that needs it lacks it.

    The claim form shows, reads and refills it (:mod:`web.claims.forms`), and :func:`adjudicator.requirements.examine`
    asks for it when it is required, from this declaration alone.
    """

    name: str
    label: str
    hint: str = ""
    examples: tuple[str, str] = ("", "")
    """The placeholder in chess, in checkers."""
    kind: FactKind = "text"
    """``whole-number``: digits are read as a number (anything else goes as typed, for the contract to refuse)."""
    required: str = ""
    """The request for it when a claim that needs it comes without it (empty: the fact is optional)."""

    def placeholder(self, game: str) -> str:
        return self.examples[1 if game == "checkers" else 0]

    @property
    def inputmode(self) -> str:
        return "numeric" if self.kind == "whole-number" else "text"

    def read(self, typed: str | None) -> str | int | None:
        """The case's value from the text typed (None: left empty)."""
        if self.kind == "whole-number" and typed and typed.isascii() and typed.isdigit() and len(typed) <= 9:
            return int(typed)
        return typed


ASKED_FACTS: tuple[AskedFact, ...] = (
    AskedFact("intended_move", "Move written but not played", "(if the claim rests on the next move)",
              ("e.g. Ng1", "e.g. 11-15")),
    AskedFact("alleged_illegal_ply", "Ply of the illegal move",
              "(1 = the first move; empty: find the first illegal move)", ("e.g. 23", "e.g. 23"), "whole-number"),
)
"""The one-field facts, in the form's order; a claim asks for one by naming it in :attr:`Claim.needs`."""
ASKED_BY_NAME: dict[str, AskedFact] = {fact.name: fact for fact in ASKED_FACTS}

FACT_GROUPS = ("position", "clocks", "flagged", "time_control", "finding", "previous_illegal_moves",
               *ASKED_BY_NAME)
"""The groups of fields the claim form may ask for (``web/templates/claims/_form.html`` shows each group; the
:data:`ASKED_FACTS` in one loop)."""


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
