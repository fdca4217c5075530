"""The chess claims by contract id: one function per claim, imported normally.

Each claim module's ``rule(case, ruleset, services) -> Ruling`` decides one claim;
:func:`adjudicator.rule.rule` looks it up here (checkers: :mod:`adjudicator.checkers.claims.table`).
The table is not in the package's ``__init__``: modules outside the package
(``adjudicator.clocks.game_end``) import parts of it, and the package must stay light.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.chess.claims import flag, illegal_move, losing_chances, move_rule, repetition, unfinished
from adjudicator.contract import Case
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Ruling
from adjudicator.services import Services

ChessClaim = Callable[[Case, ChessRuleset, Services], Ruling]

CLAIMS: dict[str, ChessClaim] = {
    "threefold-repetition": repetition.rule,
    "fifty-move": move_rule.rule,
    "illegal-move": illegal_move.rule,
    "flag": flag.rule,
    "insufficient-losing-chances": losing_chances.rule,
    "unfinished-game": unfinished.rule,
}
"""The chess claims by contract id."""
