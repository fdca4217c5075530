"""Rule on a case: check it against its ruleset, find its claim in its game's table, and let it decide.

The claims are plain functions, one table per game: :data:`adjudicator.chess.claims.table.CLAIMS`
(chess) and :data:`adjudicator.checkers.claims.table.CLAIMS` (checkers).
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.checkers.claims import table as checkers
from adjudicator.chess.claims import table as chess
from adjudicator.chess.readings import case_language, weigh_readings
from adjudicator.contract import Case, ContractError
from adjudicator.next_steps import with_steps
from adjudicator.record_gaps import decide as decide_read
from adjudicator.record_gaps import fill_missing, one_game, weigh_gaps
from adjudicator.rulesets import CheckersRuleset, ChessRuleset, Ruleset, RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services


def claim_ids(game: str) -> tuple[str, ...]:
    """The claims that exist in ``game`` (contract ids)."""
    return tuple(chess.CLAIMS if game == "chess" else checkers.CLAIMS if game == "checkers" else ())


def check(case: Case, book: RulesetBook) -> Ruleset:
    """The case's ruleset, once the case is known to be one the domain can rule on (nothing is ruled yet).

    :raises ContractError: unknown ruleset, a ruleset for the other game, or a claim that
        does not exist in the case's game.
    """
    ruleset = book[case.ruleset]
    if ruleset.game != case.game:
        raise ContractError(
            "invalid_field",
            f"ruleset {ruleset.id!r} is for {ruleset.game}, but the case is a {case.game} game",
            "ruleset",
        )
    if case.claim not in claim_ids(case.game):
        raise ContractError("unknown_claim", f"claim {case.claim!r} does not exist in {case.game}", "claim")
    return ruleset


def _decider(claim: str, ruleset: Ruleset, services: Services) -> Callable[[Case], Ruling]:
    if isinstance(ruleset, ChessRuleset):
        chess_rule = chess.CLAIMS[claim]
        return lambda case: chess_rule(case, ruleset, services)
    if isinstance(ruleset, CheckersRuleset):
        checkers_rule = checkers.CLAIMS[claim]
        return lambda case: checkers_rule(case, ruleset, services)
    raise TypeError(f"ruleset {ruleset.id!r} has no game's model")  # pragma: no cover - MODELS covers both


def rule(case: Case, book: RulesetBook, services: Services | None = None) -> Ruling:
    """The ruling on ``case`` under its ruleset.

    The record is read in the case's language, else the ruleset's ``record.language``;
    without either, the record's other full readings are weighed
    (:mod:`adjudicator.chess.readings`). Its move numbers are weighed too, and a record of two
    games is refused (:mod:`adjudicator.record_gaps`).

    :raises ContractError: as :func:`check`, or input the claim cannot use.
    """
    ruleset = check(case, book)
    one_game(case)  # a second game in the record is refused, naming where it starts (adjudicator.record_gaps)
    case = fill_missing(case)
    decide = _decider(case.claim, ruleset, services or Services())
    case = case_language(case, ruleset)
    refs = _record_refs(ruleset)
    ruling = weigh_readings(case, decide_read(case, decide, refs), decide)
    return with_steps(weigh_gaps(case, ruling, decide, refs, _window(ruleset)), case)


def _window(ruleset: Ruleset) -> int | None:
    """The last-moves window of an illegal-move correction in plies (US Chess 11A), else None."""
    if isinstance(ruleset, ChessRuleset) and ruleset.illegal_move.correction_window == "last-moves":
        return 2 * ruleset.illegal_move.correction_window_moves
    return None


def _record_refs(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset's article on keeping the score (FIDE 8.1.1, US Chess 15A), cited when a move is missing."""
    if isinstance(ruleset, ChessRuleset):
        return (ruleset.ref("15A" if ruleset.is_a("uschess") else "8.1.1"),)
    return ()
