"""What the claim form offers under one ruleset (issue 35): its claims, its questions, its articles and its
default time control, so the form follows the event it is entered in.

- Claims: the game's claims (:func:`web.claims.forms.claims_for`), less insufficient losing chances where
  the ruleset has no such claim (``ilc.mode = "none"``: FIDE without Guidelines III announced, III.2.1; US
  Chess baseline 14H). Offered, it would be refused only after the whole form was filled in.
- Questions of an insufficient-losing-chances claim, by ``ilc.mode``: Guidelines III asks what the player
  requests (III.4 increment or III.5 draw), the opponent's 2 minutes (III.5.2) and a postponed claim; US
  Chess Variation 14H asks the TD's finding in 14H2's three words; Sabah's clear-draw appeal ("appeal to the
  arbiter for a draw") asks whether it is a clear draw, and says what a rejected appeal costs.
- Articles: only the ruleset's own authority is cited (``<authority> <article>``): no "US Chess 14C9" on a
  FIDE or checkers form, no "FIDE C.3" on a US Chess one; none where the ruleset's authority has no such
  article.
- The claimant is not asked where no player claims (an unfinished game goes to adjudication).
- The ruleset's ``time_control.default`` fills the time control.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.rulebook.chess import ChessRuleset
from adjudicator.rulebook.common import Ruleset

ILC = "insufficient-losing-chances"
NO_CLAIMANT = frozenset({"unfinished-game"})
"""Claims no player makes: the form does not ask who claims (the committee adjudicates an unfinished game)."""

GUIDELINES_FINDINGS: dict[str, str] = {
    "": "Recommend one from the position",
    "clear": "Clear: the claimant cannot lose by normal means",
    "unclear": "Unclear: decide later (postpone)",
    "incorrect": "Incorrect: the claim is wrong",
}


@dataclass(frozen=True)
class Offer:
    """The claim form's choices, questions and citations under one ruleset."""

    ruleset: str
    game: str
    claims: tuple[str, ...]
    labels: dict[str, str] = field(default_factory=dict)
    """Each offered claim's words, where the ruleset names it otherwise than the registry."""
    time_control: str | None = None
    ilc_mode: str | None = None
    finding_legend: str = "Your finding as arbiter"
    finding_question: str = "Can the claimant lose by normal means?"
    findings: dict[str, str] = field(default_factory=dict)
    requests: dict[str, str] = field(default_factory=dict)
    """What the player may ask for (empty: nothing is asked)."""
    finding_checks: tuple[str, ...] = ()
    """The finding's yes/no questions this procedure has (``opponent_bonus``, ``postponed``)."""
    finding_note: str = ""
    """What the procedure does with the finding, in the ruleset's own words and figures."""
    language_ref: str | None = None
    scoresheets_ref: str | None = None
    illegal_count: str | None = None
    """The hint of the earlier-illegal-moves question; None: the ruleset does not count them (not asked)."""

    def asks_claimant(self, claim: str) -> bool:
        return claim not in NO_CLAIMANT


def duration(seconds: int) -> str:
    """A time in plain words: ``5 minutes``, ``1 minute``, ``90 seconds``."""
    if seconds % 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = seconds // 60
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _chess_ruleset(ruleset: Ruleset) -> ChessRuleset | None:
    return ruleset if isinstance(ruleset, ChessRuleset) else None


def offer_for(ruleset: Ruleset, game_claims: list[str], labels: dict[str, str]) -> Offer:
    """What the form offers under ``ruleset``, from the claims its game has (in the form's order)."""
    chess = _chess_ruleset(ruleset)
    mode = chess.ilc.mode if chess is not None else None
    claims = tuple(c for c in game_claims if not (c == ILC and mode in (None, "none")))
    fide = ruleset.authority == "FIDE"
    us = ruleset.authority == "US Chess"
    offer = Offer(
        ruleset=ruleset.id, game=ruleset.game, claims=claims, labels={c: labels[c] for c in claims},
        time_control=ruleset.time_control.default,
        ilc_mode=mode,
        language_ref=ruleset.ref("C.3") if fide and chess is not None else None,
        scoresheets_ref=ruleset.ref("14C9") if us else None,
        illegal_count=_illegal_count(chess) if chess is not None else None,
    )
    if mode == "guidelines-iii" and chess is not None:
        bonus = duration(chess.ilc.opponent_bonus_seconds or 0)
        return _with(offer, labels, "Insufficient losing chances (Guidelines III)",
                     finding_legend="Your finding as arbiter (Guidelines III.5)",
                     findings=GUIDELINES_FINDINGS,
                     requests={"draw": f"A draw ({ruleset.ref('Guidelines III.5')})",
                               "increment": f"A {chess.ilc.increment_seconds} s increment for both "
                                            f"({ruleset.ref('Guidelines III.4')})"},
                     finding_checks=("opponent_bonus", "postponed"),
                     finding_note=f"Give the opponent {bonus} ({ruleset.ref('Guidelines III.5.2')})")
    if mode == "variation-14h" and chess is not None:
        deduction = chess.ilc.clearly_incorrect_deduction_seconds
        return _with(offer, labels, "Insufficient losing chances (Variation 14H)",
                     finding_legend=f"Your finding as TD ({ruleset.ref('Variation 14H2')})",
                     finding_question="Does the claimant have insufficient losing chances?",
                     findings={"": "Recommend one from the position",
                               "clear": "Clearly correct: a draw (14H2c)",
                               "unclear": "Unclear: a delay clock, or reserve the decision (14H2a)",
                               "incorrect": "Clearly incorrect: denied (14H2d)"},
                     finding_note=(f"A clearly incorrect claim costs the claimant up to {duration(deduction)}."
                                   if deduction else ""))
    if mode == "clear-draw-appeal" and chess is not None:
        penalty = duration(chess.ilc.claimant_penalty_seconds or 0)
        floor = duration(chess.ilc.claimant_floor_seconds or 0)
        return _with(offer, labels, "Appeal to the arbiter for a draw (a clear draw)",
                     finding_legend=f"The appeal to the arbiter for a draw ({chess.ilc.ref})",
                     finding_question="Is the position a clear draw?",
                     findings={"": "Recommend one from the position",
                               "clear": "A clear draw: the appeal is accepted (a draw)",
                               "incorrect": "Not a clear draw: the appeal is rejected"},
                     finding_note=f"A rejected appeal costs the claimant {penalty}, never leaving less than "
                                  f"{floor}.")
    return offer


def _with(offer: Offer, labels: dict[str, str], ilc_label: str, **changes: Any) -> Offer:
    return replace(offer, labels={**labels, ILC: ilc_label}, **changes)


def _illegal_count(chess: ChessRuleset) -> str | None:
    count = chess.illegal_move.loss_on_count
    if count <= 0:
        return None
    nth = {1: "the first", 2: "the second", 3: "the third"}.get(count, f"the {count}th")
    article = chess.ref("7.5.5") if chess.authority == "FIDE" else "the event's rules"
    return f"completed and corrected before; {article}: {nth} loses"
