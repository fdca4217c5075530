"""Rule on a case: pick the ruleset and the claim's module, and let it decide."""

from __future__ import annotations

import importlib
from typing import Protocol, cast

from adjudicator.claims import HANDLERS
from adjudicator.contract import Case, ContractError
from adjudicator.readings import case_language, weigh_readings
from adjudicator.rulesets import Ruleset, RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services


class ClaimModule(Protocol):
    def rule(self, case: Case, ruleset: Ruleset, services: Services) -> Ruling: ...


def ruleset_for(case: Case, book: RulesetBook) -> Ruleset:
    """The case's ruleset, when it is one of the case's game and the claim exists in that game.

    :raises ContractError: unknown ruleset, a ruleset for the other game, or a claim that
        does not exist for this game.
    """
    ruleset = book[case.ruleset]
    if ruleset.game != case.game:
        raise ContractError(
            "invalid_field",
            f"ruleset {ruleset.id!r} is for {ruleset.game}, but the case is a {case.game} game",
            "ruleset",
        )
    if (case.game, case.claim) not in HANDLERS:
        raise ContractError("unknown_claim", f"claim {case.claim!r} does not exist in {case.game}", "claim")
    return ruleset


def rule(case: Case, book: RulesetBook, services: Services | None = None) -> Ruling:
    """The ruling on ``case`` under its ruleset.

    The record is read in the case's language, else the ruleset's ``record.language``;
    without either, the record's other full readings are weighed
    (:mod:`adjudicator.readings`).

    :raises ContractError: unknown ruleset, a ruleset for the other game, a claim
        that does not exist for this game, or input the claim cannot use.
    """
    ruleset = ruleset_for(case, book)
    path = HANDLERS[(case.game, case.claim)]
    try:
        module = cast(ClaimModule, importlib.import_module(path))
    except ModuleNotFoundError as exc:
        if exc.name is None or not (path == exc.name or path.startswith(exc.name + ".")):
            raise  # a missing dependency inside the module is a bug, not a missing claim
        raise ContractError(
            "not_implemented", f"rulings on {case.claim!r} in {case.game} are not available yet", "claim"
        ) from None
    services = services or Services()
    case = case_language(case, ruleset)
    ruling = module.rule(case, ruleset, services)
    return weigh_readings(case, ruling, lambda other: module.rule(other, ruleset, services))
