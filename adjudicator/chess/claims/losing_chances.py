"""``insufficient-losing-chances``: a quickplay-finish draw claim (rules README §1.6, §2.3, §5.1).

The ruleset's ``ilc.mode`` names the procedure in force:

* ``none``: no such claim exists. US Chess baseline 14H (no ILC claim in sudden death);
  FIDE without Guidelines III announced (III.2.1).
* ``variation-14h``: US Chess Variation 14H. The claimant is on move with 2 minutes or
  less in sudden death without a properly set delay or increment clock (14H1). The TD
  declares a draw (14H2c), places a delay clock with the claimant's remaining time halved
  to the nearest second (14H2a), reserves the decision when no delay clock is at hand, or
  denies a clearly incorrect claim (14H2d, with the event's deduction, if any).
* ``guidelines-iii``: FIDE Guidelines III (announced; standard or rapid without
  increment, never blitz, III.2). III.4: a player on move with under 2 minutes asks for a
  5 s increment for both; granted, the opponent gets 2 minutes. III.5: a claim that the
  opponent cannot win by normal means: draw (III.5.1), postpone (III.5.2, the opponent
  may get 2 minutes) or reject (III.5.3, the opponent gets 2 minutes).
* ``clear-draw-appeal``: Sabah Active 30. A rejected appeal costs the claimant 5 minutes,
  never leaving him below 2 minutes.

"Cannot lose by normal means" is the arbiter's judgement. The case may give the TD's own
finding (``td_finding``: clear | unclear | incorrect); without it the ruling recommends one
from the claimant's side (dead position, tablebases, engine score, material and fortress
signs) and says that it is a recommendation.

A game already over is checked first (:mod:`.over`): a dead position, checkmate,
stalemate, fivefold or 75 moves before the claim ended the game, and that is the ruling
(the ply where it ended and the proof), whatever the procedure or the clocks.

Proven beats recommended: where a proof decides (the opponent cannot mate at all, a dead
position, checkmate, stalemate, the 75-move counter, the tablebases), the finding is not a
judgement and the claim is ruled on it, citing the proof in the evidence: a tablebase draw
or a dead position upholds the claim (the opponent "cannot win by normal means", III.5,
has "insufficient losing chances", 14H, a "clear draw", Sabah), a tablebase loss for the
claimant rejects it with the procedure's clock change (III.5.3: +2:00 to the opponent;
14H2d: the event's deduction; Sabah: -5:00 to the claimant, never below 2:00). The arbiter
can still rule otherwise: ``td_finding`` always takes precedence.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import chess

from adjudicator.chess.assessment import side_can_mate
from adjudicator.chess.claims import over
from adjudicator.chess.claims.penalties import format_clock, format_duration
from adjudicator.chess.normal_means import Finding, judge, material_signs
from adjudicator.chess.positions import JudgedPosition, judged_position
from adjudicator.clocks import hms as clock_text
from adjudicator.clocks.notation import parse_time_control
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Adjustment, Ruling, Verdict, win_for
from adjudicator.services import Services

CLAIM = "insufficient-losing-chances"


@dataclass(frozen=True)
class TimeControl:
    """What the ILC rules need to know of a time control."""

    has_increment: bool
    has_delay: bool
    is_sudden_death: bool
    text: str | None

    @property
    def has_delay_or_increment(self) -> bool:
        return self.has_increment or self.has_delay


def read_time_control(text: str | None) -> TimeControl:
    """What the ILC rules need of a time control (PGN or US notation; ``adjudicator.clocks`` reads it).

    No time control given: taken as sudden death without delay or increment (the ruling shows it).
    """
    if not text or not text.strip():
        return TimeControl(False, False, True, None)
    control = parse_time_control(text.strip())
    return TimeControl(control.has_increment, control.has_delay, control.is_sudden_death, text.strip())


def rule(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    """Rule on an insufficient-losing-chances (or quickplay-finish) claim under the event's procedure.

    A game already over (a dead position, mate, stalemate, 9.6; :mod:`.over`) is the ruling
    whatever the procedure, the clocks or the claimant's time.
    """
    if case.claimant is None:
        raise ContractError("missing_field", "claimant is required: the side making the claim", "claimant")
    position = _position(case)
    game = None
    if position is not None:
        until = None if position.reinstated is None else position.reinstated.number - 1
        game = over.check(CLAIM, case, ruleset, services, position.replay, position.board, until=until)
        if game.is_over:
            return game.ruling(lead=position.notes())
    ruling = _by_mode(case, ruleset, services)
    return ruling if game is None else game.finish(ruling)


def _by_mode(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    mode = ruleset.ilc.mode
    if mode == "none":
        return _not_available(ruleset)
    if mode == "variation-14h":
        return _variation_14h(case, ruleset, services)
    if mode == "guidelines-iii":
        return _guidelines_iii(case, ruleset, services)
    return _clear_draw_appeal(case, ruleset, services)


def _given(value: int | None) -> int:
    """An option of the ruleset's ``ilc.mode`` (:class:`adjudicator.rulebook.chess.Ilc` requires it for the mode)."""
    if value is None:
        raise AssertionError("an ilc option required by its mode is checked when the rulesets are read")
    return value


def _not_available(ruleset: ChessRuleset) -> Ruling:
    if ruleset.authority == "US Chess":
        refs: tuple[str, ...] = (ruleset.ref("14H"),)
        why = ("Under this event's rules (baseline 14H) no insufficient-losing-chances claim is allowed in "
               "sudden death.")
        also = "Variation 14H need not be announced in advance, but this event's configured policy is the baseline."
    else:
        refs = (ruleset.ref("Guidelines III.2.1"),)
        why = "Guidelines III are not in force in this event, so there is no claim that the opponent cannot win."
        also = "Play on; a draw may still be offered or agreed (9.1)."
    return Ruling(CLAIM, Verdict.REJECTED, None, refs, (why, also),
                  instructions=("The claim is not available: play continues, no clock change.",),
                  evidence={"ilc_mode": "none"})


def finding_for(case: Case, ruleset: ChessRuleset, services: Services, claimant: chess.Color) -> Finding | None:
    """The TD's finding if the case gives it, else the app's recommendation (None: no position to judge)."""
    given = case.facts.td_finding
    position = _position(case)
    board = None if position is None else position.board
    notes = () if position is None else position.notes()
    if given is not None:
        reasons = [*notes, f"The arbiter finds the claim {given}."]
        evidence: dict[str, Any] = {"td_finding": given}
        if board is not None:
            evidence["fen"] = board.fen()
            evidence["signs"] = material_signs(board, claimant)
        return Finding(given, True, 1.0, tuple(reasons), evidence)
    if board is None:
        return None
    finding = judge(board, claimant, ruleset, services)
    return dataclasses.replace(finding, reasons=(*notes, *finding.reasons)) if notes else finding


def _position(case: Case) -> JudgedPosition | None:
    """The position judged (a record ending in an impossible position: the one 7.5.1 reinstates)."""
    if not (case.record or case.fen or case.start_fen):
        return None
    return judged_position(case)


def _board(case: Case) -> chess.Board | None:
    position = _position(case)
    return None if position is None else position.board



# ---------------------------------------------------------------- shared preconditions


def _color(side: str) -> chess.Color:
    return chess.WHITE if side == "white" else chess.BLACK


def _remaining(case: Case, side: str) -> float:
    seconds = case.clock.seconds(side) if case.clock else None
    if seconds is None:
        raise ContractError("missing_field", f"clock.{side} is required: the claimant's remaining time decides "
                            "whether the claim may be made", f"clock.{side}")
    return seconds


def _inadmissible(ruleset: ChessRuleset, refs: tuple[str, ...], why: str, evidence: dict[str, Any]) -> Ruling:
    return Ruling(CLAIM, Verdict.REJECTED, None, refs, (why, "The claim cannot be made here: play continues."),
                  instructions=("No clock change; the claim counts only as a draw offer the opponent may accept.",),
                  evidence=evidence)


def _on_move_problem(case: Case, claimant: str) -> str | None:
    board = _board(case)
    if board is not None and board.turn != _color(claimant):
        return f"{claimant.capitalize()} is not on move; only the player on move may claim."
    return None


def _unjudged(refs: tuple[str, ...], evidence: dict[str, Any]) -> Ruling:
    return Ruling(CLAIM, Verdict.DEFERRED, None, refs,
                  ("Neither the arbiter's finding nor the position was given, so the claim "
                   "cannot be judged yet.",),
                  instructions=("Give the position (fen or record) for analysis, or the arbiter's finding.",),
                  evidence=evidence, confidence=0.0)


def _recommended(f: Finding) -> tuple[str, ...]:
    if f.by_td:
        return f.reasons
    if f.proven:
        return (*f.reasons, f"This finding ({f.value}) is proven ({f.evidence.get('method', 'rules')}), so the claim "
                "is ruled on it; the arbiter may still find otherwise.")
    return (*f.reasons, f"This finding ({f.value}) is the app's recommendation; the arbiter decides.")


def _decides(f: Finding) -> bool:
    """Whether the finding decides the claim: the arbiter's own, or a proof (not an engine's judgement)."""
    return f.by_td or f.proven


def _ruled_on(finding: Finding, ruling: Ruling) -> Ruling:
    """``ruling`` where the finding decides it; else the arbiter's decision, with ``ruling`` as the recommendation.

    "Cannot lose by normal means" (III.5), "insufficient losing chances" (14H) and a "clear
    draw" (Sabah) are the arbiter's judgement: an engine's score recommends, it does not prove.
    """
    if _decides(finding):
        return ruling
    finding_word = {"clear": "accept the claim (the finding: clear)", "incorrect": "reject it (the finding: incorrect)"}
    recommendation = {
        "verdict": ruling.verdict.value, "result": ruling.result,
        "adjustments": [a.to_json() for a in ruling.adjustments],
    }
    return dataclasses.replace(
        ruling, verdict=Verdict.DEFERRED, result=None, adjustments=(),
        reasons=(*ruling.reasons[:-1], f"Recommended, not proven: {ruling.reasons[-1]}"),
        instructions=(f"The arbiter decides: the app recommends to {finding_word[finding.value]}. "
                      "Give your finding (clear, unclear or incorrect) to rule.",),
        evidence={**ruling.evidence, "recommendation": recommendation},
    )


# ---------------------------------------------------------------- US Chess Variation 14H


def _variation_14h(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    claimant = case.claimant or "white"
    opponent = case.opponent(claimant)
    at_most, delay = _given(ruleset.ilc.at_most_seconds), _given(ruleset.ilc.delay_seconds)
    remaining = _remaining(case, claimant)
    tc = read_time_control(case.time_control)
    evidence: dict[str, Any] = {"ilc_mode": "variation-14h", "claimant_seconds": remaining,
                                "time_control": tc.text}
    if tc.has_delay_or_increment:
        return _inadmissible(ruleset, (ruleset.ref("Variation 14H1"),),
                             f"The time control {tc.text} has a delay or increment clock; 14H does not apply.",
                             evidence)
    if not tc.is_sudden_death:
        return _inadmissible(ruleset, (ruleset.ref("Variation 14H1"),),
                             f"The time control {tc.text} is not a sudden-death control.", evidence)
    if remaining > at_most:
        return _inadmissible(ruleset, (ruleset.ref("Variation 14H1"),),
                             f"{claimant.capitalize()} has {clock_text(remaining)}, more than the "
                             f"{clock_text(at_most)} allowed for the claim.", evidence)
    problem = _on_move_problem(case, claimant)
    if problem:
        return _inadmissible(ruleset, (ruleset.ref("Variation 14H1"),), problem, evidence)
    finding = finding_for(case, ruleset, services, _color(claimant))
    if finding is None:
        return _unjudged((ruleset.ref("Variation 14H2"),), evidence)
    evidence.update(finding.evidence, finding=finding.value, finding_by="td" if finding.by_td else "app")
    reasons = _recommended(finding)
    if finding.value == "clear":
        return _ruled_on(finding, Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", (ruleset.ref("Variation 14H2c"),),
                                         (*reasons, "The claim is clearly correct: the game is drawn."),
                                         evidence=evidence, confidence=finding.confidence))
    if finding.value == "incorrect":
        deduction = min(float(ruleset.ilc.clearly_incorrect_deduction_seconds), remaining)
        adjustments = (
            (Adjustment(claimant, -deduction, f"clearly incorrect claim: up to {clock_text(deduction)} deducted "
                        "(event rule)"),) if deduction > 0 else ())
        told = (f" {clock_text(deduction)} is deducted from {claimant.capitalize()}'s clock: "
                f"{clock_text(remaining)} becomes {clock_text(remaining - deduction)}." if deduction else "")
        return _ruled_on(finding, Ruling(
            CLAIM, Verdict.REJECTED, None, (ruleset.ref("Variation 14H2d"),),
            (*reasons, "The claim is clearly incorrect and is denied." + told),
            adjustments=adjustments,
            instructions=("Play continues; the claim stands as a draw offer the opponent may accept.",),
            evidence=evidence, confidence=finding.confidence))
    available = case.facts.delay_clock_available
    if available is None:
        available = ruleset.ilc.delay_clock_available
    evidence["delay_clock_available"] = available
    if not available:
        return Ruling(CLAIM, Verdict.DEFERRED, None, (ruleset.ref("Variation 14H2"),),
                      (*reasons, "The claim is unclear and no delay clock is available: the TD may rule now or "
                       "reserve the decision and watch the rest of the game."),
                      instructions=("Watch the game; rule later (or now) on whether the claimant has insufficient "
                                    "losing chances.",),
                      evidence=evidence, confidence=finding.confidence)
    halved = float(int(remaining / 2 + 0.5))  # half, rounded to the nearest second
    opp = case.clock.seconds(opponent) if case.clock else None
    unchanged = f", {opponent.capitalize()} unchanged" + (f" at {clock_text(opp)}" if opp is not None else "")
    return Ruling(
        CLAIM, Verdict.DEFERRED, None, (ruleset.ref("Variation 14H2a"),),
        (*reasons, f"The claim is unclear and a delay clock is available: {claimant.capitalize()} gets half of "
         f"{clock_text(remaining)}, {clock_text(halved)}{unchanged}."),
        adjustments=(Adjustment(claimant, halved - remaining, "14H2a: half the remaining time on the delay clock"),),
        instructions=(f"Place a clock with {delay} s delay: {claimant.capitalize()} {clock_text(halved)}{unchanged}.",
                      "Once the claimant's clock is started the claim stands as a draw offer (14B3); play continues."),
        evidence={**evidence, "delay_seconds": delay, "claimant_new_seconds": halved},
        confidence=finding.confidence,
    )


# ---------------------------------------------------------------- FIDE Guidelines III


def _guidelines_iii(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    claimant = case.claimant or "white"
    opponent = case.opponent(claimant)
    below = _given(ruleset.ilc.below_seconds)
    bonus = float(_given(ruleset.ilc.opponent_bonus_seconds))
    remaining = _remaining(case, claimant)
    tc = read_time_control(case.time_control)
    request = case.facts.request
    postponed = case.facts.postponed
    evidence: dict[str, Any] = {"ilc_mode": "guidelines-iii", "request": request, "claimant_seconds": remaining,
                                "time_control": tc.text}
    article = "Guidelines III.4" if request == "increment" else "Guidelines III.5"
    if ruleset.period == "blitz":
        return _inadmissible(ruleset, (ruleset.ref("Guidelines III.2.2"),),
                             "Guidelines III never apply to blitz.", evidence)
    if tc.has_increment:
        return _inadmissible(ruleset, (ruleset.ref("Guidelines III.2.2"),),
                             f"The time control {tc.text} has an increment; Guidelines III apply only without one.",
                             evidence)
    if postponed:
        return _after_postponement(case, ruleset, services, claimant, evidence)
    if not remaining < below:
        return _inadmissible(ruleset, (ruleset.ref(article),),
                             f"{claimant.capitalize()} has {clock_text(remaining)}; the request needs under "
                             f"{clock_text(below)}.", evidence)
    if case.clock is not None and case.clock.has_flag_down(claimant):
        return _inadmissible(ruleset, (ruleset.ref(article),),
                             f"{claimant.capitalize()}'s flag has already fallen; the claim comes too late.", evidence)
    problem = _on_move_problem(case, claimant)
    if problem:
        return _inadmissible(ruleset, (ruleset.ref(article),), problem, evidence)
    opp = case.clock.seconds(opponent) if case.clock else None
    opp_after = f" ({clock_text(opp + bonus)})" if opp is not None else ""
    if request == "increment" and case.facts.delay_clock_available is not False:
        if case.facts.opponent_accepts_draw:
            return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", (ruleset.ref("Guidelines III.4"), ruleset.ref("9.1.2")),
                          ("The request counts as a draw offer, and the opponent accepted it.",), evidence=evidence)
        if not case.facts.arbiter_agrees:
            return Ruling(CLAIM, Verdict.REJECTED, None, (ruleset.ref("Guidelines III.4"),),
                          ("The arbiter does not agree to the request; play continues without increment.",),
                          instructions=(f"{claimant.capitalize()} may still claim under III.5.",), evidence=evidence)
        inc = _given(ruleset.ilc.increment_seconds)
        return Ruling(
            CLAIM, Verdict.UPHELD, None, (ruleset.ref("Guidelines III.4"),),
            (f"{claimant.capitalize()}, on move with {clock_text(remaining)}, asked for an increment; the opponent "
             f"declined the implied draw offer and the arbiter agrees: {inc} s increment for both players, and "
             f"{opponent.capitalize()} gets {clock_text(bonus)} more{opp_after}.",),
            adjustments=(Adjustment(opponent, bonus, "III.4: increment granted, the opponent gets 2 minutes"),),
            instructions=(f"Set the clocks with a {inc} s increment per move for both players.",
                          f"Add {clock_text(bonus)} to {opponent.capitalize()}'s clock{opp_after}; play continues."),
            evidence={**evidence, "increment_seconds": inc},
        )
    finding = finding_for(case, ruleset, services, _color(claimant))
    if finding is None:
        return _unjudged((ruleset.ref("Guidelines III.5"),), evidence)
    evidence.update(finding.evidence, finding=finding.value, finding_by="td" if finding.by_td else "app")
    reasons = _recommended(finding)
    if finding.value == "clear":
        return _ruled_on(finding, Ruling(
            CLAIM, Verdict.UPHELD, "1/2-1/2", (ruleset.ref("Guidelines III.5.1"),),
            (*reasons, f"{opponent.capitalize()} cannot win by normal means: the game is drawn."),
            evidence=evidence, confidence=finding.confidence))
    if finding.value == "incorrect":
        return _ruled_on(finding, Ruling(
            CLAIM, Verdict.REJECTED, None, (ruleset.ref("Guidelines III.5.3"),),
            (*reasons, f"The claim is rejected; {opponent.capitalize()} gets {clock_text(bonus)} more{opp_after}."),
            adjustments=(Adjustment(opponent, bonus, "III.5.3: claim rejected"),),
            instructions=("Play continues.",), evidence=evidence, confidence=finding.confidence))
    policy = ruleset.ilc.postpone_bonus
    give = policy == "always" or (policy == "arbiter" and case.facts.opponent_bonus)
    may = "" if give or policy == "never" else (
        f" The arbiter may give {opponent.capitalize()} {clock_text(bonus)} more.")
    return Ruling(
        CLAIM, Verdict.DEFERRED, None, (ruleset.ref("Guidelines III.5.2"),),
        (*reasons, "The arbiter postpones the decision: play continues, preferably with the arbiter present." + may),
        adjustments=(Adjustment(opponent, bonus, "III.5.2: decision postponed"),) if give else (),
        instructions=("Watch the game. If a flag falls, rule on the claim then: a draw if the opponent cannot win "
                      "by normal means or was not making sufficient attempts to (III.5.2).",),
        evidence=evidence, confidence=finding.confidence,
    )


def _after_postponement(
    case: Case, ruleset: ChessRuleset, services: Services, claimant: str, evidence: dict[str, Any]
) -> Ruling:
    """III.5.2 later: the arbiter decides, at the latest once a flag has fallen."""
    opponent = case.opponent(claimant)
    given = case.facts.td_finding
    if given is None:
        proof = finding_for(case, ruleset, services, _color(claimant))
        if proof is not None and proof.proven and proof.value == "clear":
            evidence.update(proof.evidence, finding="clear", finding_by="app", postponed=True)
            return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", (ruleset.ref("Guidelines III.5.2"),),
                          (*_recommended(proof), f"{opponent.capitalize()} cannot win by normal means: the game "
                           "is drawn."), evidence=evidence)
        raise ContractError("missing_field", "td_finding is required to decide a postponed claim: clear (the opponent "
                            "could not win by normal means or made no real attempt) or incorrect", "td_finding")
    evidence.update(td_finding=given, postponed=True)
    flag = case.clock is not None and case.clock.has_flag_down(claimant)
    if given == "clear":
        return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", (ruleset.ref("Guidelines III.5.2"),),
                      (f"The arbiter finds that {opponent.capitalize()} could not win by normal means or was not "
                       "making sufficient attempts to do so: the game is drawn.",), evidence=evidence)
    if not flag:
        return Ruling(CLAIM, Verdict.DEFERRED, None, (ruleset.ref("Guidelines III.5.2"),),
                      ("The arbiter keeps the decision open; play continues under observation.",),
                      evidence=evidence)
    board = _board(case)
    if board is not None:
        able, _method = side_can_mate(board, _color(opponent), services)
        if able is False:
            return Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", (ruleset.ref("6.9"),),
                          (f"{claimant.capitalize()}'s flag fell, but {opponent.capitalize()} cannot checkmate by any "
                           "series of legal moves: the game is drawn.",), evidence=evidence)
    return Ruling(CLAIM, Verdict.REJECTED, win_for(opponent, "white"),
                  (ruleset.ref("Guidelines III.5.2"), ruleset.ref("6.9")),
                  (f"{claimant.capitalize()}'s flag fell while {opponent.capitalize()} was making real attempts to win "
                   f"by normal means: {opponent.capitalize()} wins.",), evidence=evidence)


# ---------------------------------------------------------------- Sabah clear-draw appeal


def _deducted(side: str, seconds: float, remaining: float) -> tuple[str, ...]:
    """The clock change the arbiter makes, in the words of the illegal-move ruling's ("0:08:00 becomes 0:03:00")."""
    if not seconds:
        return ()
    return (f"take {format_duration(seconds)} off {side.capitalize()}'s clock "
            f"({format_clock(remaining)} becomes {format_clock(remaining - seconds)})",)


def _clear_draw_appeal(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    claimant = case.claimant or "white"
    penalty = float(_given(ruleset.ilc.claimant_penalty_seconds))
    floor = float(_given(ruleset.ilc.claimant_floor_seconds))
    reading, ref = ruleset.ilc.floor_reading, ruleset.ilc.ref
    evidence: dict[str, Any] = {"ilc_mode": "clear-draw-appeal"}
    finding = finding_for(case, ruleset, services, _color(claimant))
    if finding is None:
        return _unjudged((ref,), evidence)
    evidence.update(finding.evidence, finding=finding.value, finding_by="td" if finding.by_td else "app")
    reasons = _recommended(finding)
    if finding.value == "clear":
        return _ruled_on(finding, Ruling(CLAIM, Verdict.UPHELD, "1/2-1/2", (ref,),
                                         (*reasons, "The appeal to the arbiter for a draw is accepted: a clear draw."),
                                         evidence=evidence, confidence=finding.confidence))
    remaining = _remaining(case, claimant)
    if reading == "never-below":
        deduction = min(penalty, max(0.0, remaining - floor))
    else:
        deduction = penalty if remaining - penalty >= floor else 0.0
    after = remaining - deduction
    told = (f"{claimant.capitalize()} loses {clock_text(deduction)}: {clock_text(remaining)} becomes "
            f"{clock_text(after)} (never below {clock_text(floor)})." if deduction else
            f"{claimant.capitalize()} has {clock_text(remaining)}, so no time can be deducted without going below "
            f"{clock_text(floor)}.")
    decided = _decides(finding)  # not clear: the arbiter's rejection, or a proven loss
    evidence.update(claimant_seconds=remaining, claimant_new_seconds=after)
    verdict = Verdict.REJECTED if decided else Verdict.DEFERRED
    lead = ("The appeal to the arbiter for a draw is rejected. " if decided
            else "The app does not find a clear draw; if the arbiter rejects the appeal for a draw: ")
    return Ruling(
        CLAIM, verdict, None, (ref,), (*reasons, lead + told),
        adjustments=(Adjustment(claimant, -deduction, "rejected clear-draw appeal"),)
        if deduction and decided else (),
        instructions=(*_deducted(claimant, deduction, remaining), "Play continues.") if decided else
        (f"Decide the appeal for a draw: accept (draw) or reject ({claimant.capitalize()} to "
         f"{clock_text(after)}).",),
        evidence=evidence, confidence=finding.confidence,
    )
