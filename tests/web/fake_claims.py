"""Tiny stand-in claims for testing the web machinery (not rules): one quick, one slow.

The slow one reports progress through ``services.progress`` the way engine work
does, so cancelling and the progress bar can be tested without Stockfish.
"""

from __future__ import annotations

import time

from adjudicator.contract import Case
from adjudicator.rulesets import Ruleset
from adjudicator.ruling import Adjustment, Ruling, Verdict
from adjudicator.services import Services

SLOW_STEPS = 40
SLOW_STEP_SECONDS = 0.05


class QuickClaim:
    """Upholds every claim, pointing at plies 0, 4 and 8, and adds a minute to the opponent."""

    @staticmethod
    def rule(case: Case, ruleset: Ruleset, services: Services) -> Ruling:
        side = case.claimant or case.sides[0]
        return Ruling(
            claim=case.claim,
            verdict=Verdict.UPHELD,
            result="1/2-1/2",
            rule_refs=(ruleset.ref("9.2.2"), ruleset.ref("9.2.3")),
            reasons=("A stand-in ruling for testing the pages.",),
            adjustments=(Adjustment(case.opponent(side), 60, "stand-in adjustment"),),
            instructions=("record the result",),
            evidence={"occurrences": [0, 4, 8], "helpmate": ["f2f3", "e7e5", "g2g4", "d8h4"]},
        )


class SlowClaim:
    """Works for about two seconds, reporting progress; stops when the progress call raises."""

    @staticmethod
    def rule(case: Case, ruleset: Ruleset, services: Services) -> Ruling:
        for step in range(SLOW_STEPS):
            if services.progress is not None:
                services.progress(step / SLOW_STEPS, f"depth {step}, {step * 1000:,} of {SLOW_STEPS * 1000:,} nodes, "
                                                     f"White +0.30; best line 1. e4 e5 2. Nf3")
            time.sleep(SLOW_STEP_SECONDS)
        return Ruling(
            claim=case.claim,
            verdict=Verdict.ADJUDICATED,
            result="1-0",
            rule_refs=(ruleset.ref("6.9"),),
            reasons=("A stand-in engine ruling.",),
            evidence={"pv": ["e2e4", "e7e5", "g1f3"], "engine": "stand-in"},
            confidence=0.9,
        )


class BrokenClaim:
    @staticmethod
    def rule(case: Case, ruleset: Ruleset, services: Services) -> Ruling:
        raise RuntimeError("a bug in a claim module")
