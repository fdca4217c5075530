"""One module per claim. Each exposes ``rule(case, ruleset, services) -> Ruling``.

:data:`HANDLERS` maps (game, claim id) to the module that rules on it.
"""

from __future__ import annotations

HANDLERS: dict[tuple[str, str], str] = {
    ("chess", "threefold-repetition"): "adjudicator.claims.repetition",
    ("chess", "fifty-move"): "adjudicator.claims.move_rule",
    ("chess", "illegal-move"): "adjudicator.claims.illegal_move",
    ("chess", "flag"): "adjudicator.claims.flag",
    ("chess", "insufficient-losing-chances"): "adjudicator.claims.losing_chances",
    ("chess", "unfinished-game"): "adjudicator.claims.unfinished",
    ("checkers", "threefold-repetition"): "adjudicator.checkers.claims.repetition",
    ("checkers", "forty-move"): "adjudicator.checkers.claims.move_rule",
    ("checkers", "illegal-move"): "adjudicator.checkers.claims.illegal_move",
    ("checkers", "flag"): "adjudicator.checkers.claims.flag",
    ("checkers", "unfinished-game"): "adjudicator.checkers.claims.unfinished",
}
