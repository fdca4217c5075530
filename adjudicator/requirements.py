"""The facts a claim needs before it can be ruled on at all: one check for every way in.

A slip at the board (no flag ticked on a flag claim, no claimant on a draw claim) must
not become a permanent ruling: :func:`examine` runs before a ruling is made or stored,
on the claim form, the JSON API and the command line alike, and each problem names the
field to fix. These checks are about what was *entered*; whether the claim is right is
the claim's own rule.

- The case must follow the contract (:func:`adjudicator.contract.parse_case`), under a
  ruleset of its game that has the claim (:func:`adjudicator.rule.check`).
- A draw claim by a player (threefold repetition, the fifty- and forty-move rules,
  insufficient losing chances) needs the claimant: FIDE 9.2, 9.3, US Chess 14C and 14F
  and Guidelines III are claims *by a player*, and who claims decides whose move may be
  written down (9.2.1), who may claim at all (only the player having the move) and who
  gets the time penalty of a wrong claim (9.5.3). The claimant may be left out only where
  the ruling is the same whoever claims: the game had already ended without a claim
  (checkmate, stalemate, the fifth occurrence and 75 moves, FIDE 9.6; US Chess 14K), or a
  count that stands for both sides (the cases of ``cases.md`` where "nobody claims", P09,
  P10, P11 and P35). That is decided by ruling the case for each side without keeping
  either ruling. An insufficient-losing-chances claim (Guidelines III.5, US 14H) always
  names its claimant: whose chances are judged is the claim.
- A flag claim must say whose flag is down (FIDE 6.9, US Chess 13C, ACF 1.20):
  ``clock.flagged`` given and empty says "no flag is down", which is a slip on the form,
  not a claim. Left out, the clocks that read 0 say it (the contract's rule, unchanged),
  and clocks with time on both sides are a wrong claim: rejected, play continues.
- A time control given with a claim that reads one (flag, insufficient losing chances,
  illegal move, unfinished game: :data:`adjudicator.claim_registry.REGISTRY`) must be one
  :func:`adjudicator.clocks.notation.parse_time_control` reads: ``invalid_time_control`` on
  ``time_control`` otherwise, the same refusal for every claim (:func:`time_control_errors`).
  Only what is entered is refused: a case stored before this check still opens, and an
  unfinished game's committee referral carries its control as it was stored.
- A position entered alone (``fen`` with no record) must be one a game can reach:
  chess :func:`adjudicator.chess.positions.legal_position`, checkers
  :func:`adjudicator.checkers.replay.parse_position` (at most 12 pieces a side, no
  uncrowned man on its crowning row) and not an empty board, whatever the claim. (A side
  with no pieces, or none that can move, is a game that is over, and is ruled so.) The board editors ask for the
  same check while the TD sets the position up (:func:`position_errors`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.claim_registry import ASKED_BY_NAME, BY_ID, REGISTRY
from adjudicator.clocks.notation import parse_time_control
from adjudicator.contract import Case, ContractError, parse_case
from adjudicator.rulesets import RulesetBook, RulesetError
from adjudicator.services import Services

CLAIMANT_NEEDED: frozenset[str] = frozenset(c.id for c in REGISTRY if c.claimant != "not-asked")
"""Claims a player makes: ruled on only once the claimant is known (or shown not to matter)."""

CLAIMANT_ALWAYS: frozenset[str] = frozenset(c.id for c in REGISTRY if c.claimant == "always")
"""Claims whose claimant is always needed: the claimant's own chances are what is judged."""


class MissingFactError(ContractError):
    """A fact the claim needs was not entered (``missing_field``, naming it)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__("missing_field", message, field)


class CaseRefused(ContractError):
    """A case refused before any ruling: the first problem is the error, ``problems`` lists them all."""

    def __init__(self, problems: Sequence[ContractError]) -> None:
        first = problems[0]
        super().__init__(first.code, first.message, first.field)
        self.problems = tuple(problems)

    def to_json(self) -> dict[str, Any]:
        """``{"error": first}``, and ``"errors": [every problem]`` when there is more than one."""
        body = super().to_json()
        if len(self.problems) > 1:
            body["errors"] = [p.to_json()["error"] for p in self.problems]
        return body


def missing_facts(data: Mapping[str, Any]) -> list[MissingFactError]:
    """The required facts a case (as the contract spells it) plainly lacks, without ruling; in form order.

    A draw claim's claimant is asked for here only when it is always needed; :func:`examine`
    decides the others.
    """
    claim = _text(data.get("claim"))
    missing: list[MissingFactError] = []
    if claim in CLAIMANT_ALWAYS and not data.get("claimant"):
        missing.append(MissingFactError("say who makes the claim", "claimant"))
    needed = BY_ID.get(claim or "")
    for name in needed.needs if needed is not None else ():
        fact = ASKED_BY_NAME.get(name)
        if fact is not None and fact.required and data.get(name) in (None, ""):
            missing.append(MissingFactError(fact.required, name))  # declared once (claim_registry.ASKED_FACTS)
    if claim == "flag":
        clock = data.get("clock")
        if isinstance(clock, Mapping) and "flagged" in clock and not clock.get("flagged"):
            missing.append(MissingFactError("tick whose flag is down (both: in the order they fell)", "clock.flagged"))
    return missing


def _text(value: object) -> str | None:
    """A field that should be a string, when it is one (any other value is the contract's error)."""
    return value if isinstance(value, str) else None


def time_control_errors(data: Mapping[str, Any]) -> list[ContractError]:
    """A ``time_control`` no one can read, given with a claim that reads one, as ``invalid_time_control``.

    Read by :func:`adjudicator.clocks.notation.parse_time_control`, the reader of the flag,
    insufficient-losing-chances and illegal-move claims; a blank control is left to the claim
    (as none given, or the claim's own refusal).
    """
    claim = BY_ID.get(_text(data.get("claim")) or "")
    text = data.get("time_control")
    if claim is None or "time_control" not in claim.needs or not isinstance(text, str) or not text.strip():
        return []
    try:
        parse_time_control(text, "time_control")
    except ContractError as exc:
        return [exc]
    return []


def position_errors(data: Mapping[str, Any]) -> list[ContractError]:
    """A position entered alone (no record) that no game reaches, as ``invalid_fen`` on ``fen``.

    Chess: :func:`adjudicator.chess.positions.legal_position`; checkers:
    :func:`adjudicator.checkers.replay.parse_position`: the checks the claims make, so the
    board editors' live warnings and the refusal on submitting are one rule.
    """
    fen = data.get("fen")
    game = _text(data.get("game", "chess"))
    if game not in ("chess", "checkers") or not isinstance(fen, str) or not fen.strip() or data.get("record"):
        return []
    try:
        if game == "chess":
            from adjudicator.chess.positions import legal_position

            legal_position(fen, "fen")
        else:
            from adjudicator.checkers.replay import parse_position

            position = parse_position(fen, "fen")
            if not position.red | position.white:
                return [ContractError("invalid_fen", "fen is not a checkers position: there are no pieces on the "
                                      "board (leave it empty to rule on the record)", "fen")]
    except ContractError as exc:
        return [exc]
    return []


def examine(
    data: object, book: RulesetBook, services: Services | None = None
) -> tuple[Case | None, list[ContractError]]:
    """The case and every reason it cannot be ruled on (none: it can), found before any ruling is kept.

    In the order the form shows them: the contract's error, the ruleset's, the missing facts,
    the position, then the claimant where the ruling turns on it (see the module docstring).
    """
    problems: list[ContractError] = []
    case: Case | None = None
    try:
        case = parse_case(data)
    except ContractError as exc:
        problems.append(exc)
    if not isinstance(data, Mapping):
        return None, problems
    if case is not None:
        from adjudicator.rule import check

        try:
            check(case, book)
        except ContractError as exc:
            problems.append(exc)
    fields = {p.field for p in problems}
    problems.extend(m for m in missing_facts(data) if m.field not in fields)
    if "time_control" not in fields:
        problems.extend(time_control_errors(data))
    if "fen" not in fields:
        problems.extend(position_errors(data))
    asks = _text(data.get("claim")) in CLAIMANT_NEEDED - CLAIMANT_ALWAYS and data.get("claimant") is None
    if asks and not fields & {"claim", "claimant"}:
        if problems or case is None:  # only a ruling could tell it does not matter: ask for it with the rest
            problems.append(MissingFactError("say who makes the claim", "claimant"))
        else:
            problems.extend(_claimant_problems(case, book, services))
    return case, problems


def refusals(data: object, book: RulesetBook, services: Services | None = None) -> list[ContractError]:
    """Every reason the case cannot be ruled on (:func:`examine`); empty when it can."""
    return examine(data, book, services)[1]


def checked_case(data: object, book: RulesetBook, services: Services | None = None) -> Case:
    """The case, ready to rule on.

    :raises CaseRefused: naming the first problem's field, with every problem listed.
    """
    case, problems = examine(data, book, services)
    if problems:
        raise CaseRefused(problems)
    assert case is not None
    return case


def _claimant_problems(case: Case, book: RulesetBook, services: Services | None) -> list[ContractError]:
    """Whether the ruling turns on who claims: the case ruled for each side, neither ruling kept."""
    from adjudicator.rule import rule

    if _ended_without_claim(case, book):
        return []
    decisions = []
    for side in case.sides:
        try:
            ruling = rule(dataclasses.replace(case, claimant=side), book, services)
        except ContractError as exc:  # no ruling whoever claims: that error, and the claimant it will need
            return [exc, MissingFactError("say who makes the claim", "claimant")]
        except RulesetError as exc:  # the event's rules are misconfigured: the ruling would say the same
            return [exc.as_contract_error()]
        decisions.append((ruling.verdict, ruling.result, ruling.adjustments, ruling.instructions))
    if decisions[0] == decisions[1]:
        return []
    return [MissingFactError("say who makes the claim: the ruling depends on who claims", "claimant")]


def _ended_without_claim(case: Case, book: RulesetBook) -> bool:
    """Whether the chess record (or the position alone) reached an ending the arbiter acts on unasked:
    checkmate, stalemate, the fifth occurrence or 75 moves (FIDE 9.6), or where US Chess 14K lets the TD
    declare the draw. Nobody needs to claim it (P09, P10, P11, P35)."""
    if case.game != "chess":
        return False
    from adjudicator.chess.claims.automatic import endings
    from adjudicator.chess.readings import case_language
    from adjudicator.chess.replay import replay_chess, replay_for_case

    try:
        ruleset = book.chess(case.ruleset)
        if case.record:
            replay = replay_for_case(case_language(case, ruleset))
        elif case.fen or case.start_fen:
            replay = replay_chess("", case.fen or case.start_fen)
        else:
            return False
    except ContractError:  # a record that cannot be read, or not a chess ruleset: the ruling says why
        return False
    return bool(endings(replay, ruleset))
