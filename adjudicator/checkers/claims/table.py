"""The checkers claims by contract id: one function per claim, imported normally.

The table is not in the package's ``__init__``, which holds the helpers the claim modules
import (a table there would be an import circle); chess has the same shape
(:mod:`adjudicator.chess.claims.table`).
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.checkers.claims import flag, illegal_move, move_rule, repetition, unfinished
from adjudicator.contract import Case
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Ruling
from adjudicator.services import Services

CheckersClaim = Callable[[Case, CheckersRuleset, Services], Ruling]

CLAIMS: dict[str, CheckersClaim] = {
    "threefold-repetition": repetition.rule,
    "forty-move": move_rule.rule,
    "illegal-move": illegal_move.rule,
    "flag": flag.rule,
    "unfinished-game": unfinished.rule,
}
"""The checkers claims by contract id."""
