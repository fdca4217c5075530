"""Which illegal move an illegal-move ruling is about, and who reported it (FIDE 7.5.1, A.5.2; US Chess 11A, 11B, 11D).

- **The first irregularity decides** (FIDE 7.5.1: "the position immediately before the
  irregularity shall be reinstated"; US Chess 11A: the position "before the illegal move").
  When the record holds an earlier illegal move than the one the claimant names, that earlier
  move is the irregularity: the position before it is reinstated, whatever ply was alleged,
  and the ruling says so. An illegal move that can no longer be corrected stands with the
  moves after it (A.5.2 after the opponent's reply; US 11B earlier than either player's last
  ten moves); the irregularity is then the first illegal move that still can be corrected.
- **Who reported it** (``illegal_move.claim_by_offender``): when the claimant made the move
  complained of, the report is not the opponent's claim. ``arbiter-acts`` (FIDE standard
  7.5.1, "if during a game it is found"; supervised rapid and blitz, A.4, B.2): the arbiter
  corrects and penalises it as any illegal move. ``reinstate-no-bonus`` (US Chess 11A, 11D):
  reinstated, but the opponent's 2 minutes follow the opponent's own claim. ``not-a-claim``
  (A.5.2: only the opponent may claim, the arbiter acts on what he observes): nothing is
  corrected or awarded unless the arbiter saw it himself (case field ``arbiter_observed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.chess.replay import Ply, Replay
from adjudicator.contract import Case, ContractError
from adjudicator.irregularities import choose
from adjudicator.rulesets import ChessRuleset


def refs(ruleset: ChessRuleset, *articles: str) -> list[str]:
    return [ruleset.ref(a) for a in articles]


def reinstating_article(ruleset: ChessRuleset) -> str:
    """The article that reinstates the position before an illegal move: FIDE 7.5.1, US Chess 11A."""
    return ruleset.ref("11A" if ruleset.is_a("uschess") else "7.5.1")


def window(ruleset: ChessRuleset, replay: Replay, ply: int) -> tuple[bool, str, list[str]]:
    """Whether the illegal ply can still be corrected, why, and the articles."""
    kind = ruleset.illegal_move.correction_window
    after = len(replay.plies) - ply
    if kind == "game":
        return True, "An illegal move can be corrected at any time during the game.", refs(ruleset, "7.5.1")
    if kind == "before-reply":
        articles = refs(ruleset, "7.5.1", "A.5.2")
        if after == 0:
            return True, "The opponent has not yet made the next move, so the arbiter acts.", articles
        return False, (
            f"The opponent has moved since (ply {ply + 1}), so the illegal move stands; after the opponent's "
            f"next move it can be corrected only by agreement of the players."
        ), articles
    moves = ruleset.illegal_move.correction_window_moves
    if after < 2 * moves:
        return True, f"It is among either player's last {moves} moves, so the position is reinstated.", refs(
            ruleset, "11A"
        )
    return False, (
        f"It was found {after} plies later, earlier than either player's last {moves} moves, so the illegal move "
        f"and all later moves stand."
    ), refs(ruleset, "11B")


@dataclass(frozen=True)
class Irregularity:
    """The illegal move ruled on, the one alleged, and what the ruling must say about the choice."""

    ply: Ply | None
    """The first illegal move that can still be corrected; else the first illegal one (it stands); None: none."""
    alleged: Ply | None
    anchor: Ply | None = None
    """The move the claim was about: the one named, else the claimant's opponent's illegal move."""
    reasons: tuple[str, ...] = ()
    rule_refs: tuple[str, ...] = ()
    stood: tuple[int, ...] = ()
    """Earlier illegal plies that stand (outside the correction window)."""


def find(case: Case, replay: Replay, ruleset: ChessRuleset) -> Irregularity:
    """The irregularity: the first illegal move of the record that can still be corrected.

    The move at ``alleged_illegal_ply`` counts as illegal when the case says it was made with two
    hands (7.5.4). A legal alleged move with no illegal move anywhere is ruled on as alleged (rejected).

    :raises ContractError: ``alleged_illegal_ply`` beyond the record.
    """
    alleged: Ply | None = None
    if case.alleged_illegal_ply is not None:
        if case.alleged_illegal_ply > len(replay.plies):
            raise ContractError(
                "invalid_field",
                f"alleged_illegal_ply is {case.alleged_illegal_ply}, but the record has {len(replay.plies)} plies",
                "alleged_illegal_ply",
            )
        alleged = replay.plies[case.alleged_illegal_ply - 1]
    two_hands = alleged.number if alleged is not None and case.facts.two_hands else None

    def is_illegal(p: Ply) -> bool:
        return not p.is_legal or p.number == two_hands

    choice = choose(replay.plies, is_illegal, lambda p: window(ruleset, replay, p.number)[0],
                    case.alleged_illegal_ply, case.claimant)
    ply = choice.ply
    if ply is None or not is_illegal(ply):
        return Irregularity(ply, alleged, choice.anchor)
    stood = tuple(p.number for p in choice.stood)
    reasons: list[str] = []
    if stood:
        listed = ", ".join(f"{replay.label(n)} (ply {n})" for n in stood)
        reasons.append(f"The earlier illegal move(s) {listed} can no longer be corrected and stand.")
    if alleged is not None and alleged.number != ply.number:
        named = f"{replay.label(alleged.number)} (ply {alleged.number})"
        first = f"{replay.label(ply.number)} (ply {ply.number})"
        if alleged.number > ply.number:
            state = "was illegal too" if is_illegal(alleged) else "was legal as played"
            reasons.append(
                f"The claim names {named}, which {state}, but {first} came before it and was already illegal: "
                f"the first irregularity decides, so the position before {first} is reinstated and {named} is "
                f"cancelled with the moves after it."
            )
        else:
            state = "stands (it can no longer be corrected)" if is_illegal(alleged) else "was legal"
            reasons.append(f"The claim names {named}, which {state}; the irregularity found is {first}.")
        return Irregularity(ply, alleged, choice.anchor, tuple(reasons), (reinstating_article(ruleset),), stood)
    return Irregularity(ply, alleged, choice.anchor, tuple(reasons), (), stood)


@dataclass(frozen=True)
class Report:
    """Who reported the illegal move, and what the ruleset makes of it."""

    claimant: str
    offender: str
    mode: str
    """``claim`` (the opponent's claim), or the ruleset's ``claim_by_offender`` when the claimant is the offender;
    ``arbiter-observed`` when the arbiter saw it himself under ``not-a-claim``."""
    reason: str | None = None
    rule_refs: tuple[str, ...] = ()

    @property
    def corrects(self) -> bool:
        """Whether the move is corrected (the position reinstated)."""
        return self.mode != "not-a-claim"

    @property
    def awards_bonus(self) -> bool:
        """Whether the opponent gets the time the rules give on a claim or the arbiter's action."""
        return self.mode in ("claim", "arbiter-acts", "arbiter-observed")


def report(case: Case, ruleset: ChessRuleset, offender: str, anchor: Ply | None = None) -> Report:
    """The report of ``offender``'s illegal move as the ruleset reads it (module docstring).

    ``anchor``: the move the claim was about. When the claimant complained of the opponent's move and the
    first irregularity found is the claimant's own, the move is found while checking a claim: it is corrected
    (and penalised, unless the ruleset gives the bonus only on the opponent's claim).
    """
    claimant = case.claimant or case.opponent(offender)
    if claimant != offender:
        return Report(claimant, offender, "claim")
    side, other = offender.capitalize(), case.opponent(offender).capitalize()
    mode = ruleset.illegal_move.claim_by_offender
    if anchor is not None and anchor.side != claimant:
        found = "reinstate-no-bonus" if mode == "reinstate-no-bonus" else "arbiter-acts"
        return Report(claimant, offender, found, (
            f"{side} claimed that {other}'s move was illegal, but {side}'s own illegal move came first and is "
            f"found in checking the claim: the first irregularity decides ({reinstating_article(ruleset)})."
        ))
    own = f"{side} reported {side}'s own illegal move: this is not {other}'s claim"
    us = ruleset.is_a("uschess")
    acting = ruleset.ref("11A" if us else "A.5.2")
    if mode == "not-a-claim" and case.facts.arbiter_observed:
        return Report(claimant, offender, "arbiter-observed",
                      f"{own}, but the arbiter observed the illegal move himself and acts on it ({acting}).")
    if mode == "not-a-claim":
        return Report(claimant, offender, mode, (
            f"{own}. Only {other} may claim an illegal move; the arbiter acts only on an illegal move he "
            f"observes himself ({acting})."
        ))
    if mode == "reinstate-no-bonus":
        return Report(claimant, offender, mode, (
            f"{own}. The position is reinstated whoever finds the illegal move ({reinstating_article(ruleset)}), "
            f"but the opponent's time bonus follows the opponent's own claim, so none is added"
            + (f" ({ruleset.ref('11D')}; the TD may still penalise, {ruleset.ref('1C2b')})." if us else ".")
        ), tuple(refs(ruleset, "11D", "1C2b")) if us else ())
    return Report(claimant, offender, mode, (
        f"{own}. The arbiter acts on an illegal move found during the game whoever points it out "
        f"({reinstating_article(ruleset)}), and penalises the player who made it."
    ))
