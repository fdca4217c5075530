"""Stand-in claims for the failures a real claim cannot be made to show on demand (issue 41).

Real claims and the real engine rule everywhere else (``stand_ins["quick"]`` is the real
threefold-repetition claim). What is left here stands for a failure only:

- :class:`SlowClaim` stands for an analysis that outlasts the user's patience (a search that runs
  to its time limit): it reports progress through ``services.progress`` the way engine work does, so
  the progress bar and cancelling can be tested on a state the test holds, never on the clock.
- :class:`BrokenClaim` stands for a crash inside a claim module (a bug): the page must say the
  analysis failed, never show a traceback.
"""

from __future__ import annotations

import threading
import time

from adjudicator.contract import Case
from adjudicator.rulesets import Ruleset
from adjudicator.ruling import Ruling, Verdict
from adjudicator.services import Services

SLOW_STEPS = 40
SLOW_STEP_SECONDS = 0.05

HOLD = threading.Event()
"""Cleared by a test to hold the slow claim after its first progress report until the test sets it
again: the job is then running, with a known figure on its bar, for as long as the test looks."""
HOLD.set()
HOLD_BOUND_SECONDS = 120
"""Only bounds a hang: a held claim goes on after this long even when its test never released it."""


class SlowClaim:
    """Stands for a search that runs to its time limit (the failure a user cancels or waits out): works
    through 40 steps, reporting progress (``depth k, k,000 of 40,000 nodes``) before each; after the
    first report it waits for :data:`HOLD`; it stops when the progress call raises (a cancel)."""

    @staticmethod
    def rule(case: Case, ruleset: Ruleset, services: Services) -> Ruling:
        for step in range(SLOW_STEPS):
            if services.progress is not None:
                services.progress(step / SLOW_STEPS, f"depth {step}, {step * 1000:,} of {SLOW_STEPS * 1000:,} nodes, "
                                                     f"White +0.30; best line 1. e4 e5 2. Nf3")
            if step == 1:
                HOLD.wait(HOLD_BOUND_SECONDS)
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
    """Stands for a crash inside a claim module (a bug): raises as such a bug would."""

    @staticmethod
    def rule(case: Case, ruleset: Ruleset, services: Services) -> Ruling:
        raise RuntimeError("a bug in a claim module")
