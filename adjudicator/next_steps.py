"""What the arbiter does now, for a ruling whose claim gave no instruction (issue 22).

Every ruling tells the arbiter the next step (the contract's ``instructions``). A claim module
gives its own where the rules ask for something particular (reinstate a position, place a
delay clock, watch the game); where it gives none, the step follows from the verdict and
the result alone:

- a result: the game is over: stop the clocks, write the result on both scoresheets, both
  players sign them (FIDE 8.7 asks both signatures);
- no result, the claim rejected or upheld: play continues from the position on the board,
  the clocks restarted with the clock adjustments the ruling lists.

The words never change the ruling: the verdict, the result and the adjustments stand as given.
"""

from __future__ import annotations

import dataclasses

from adjudicator.contract import SIDES, Case
from adjudicator.ruling import Ruling, Verdict

RESULT_WORDS = {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½"}


def steps(ruling: Ruling, game: str) -> tuple[str, ...]:
    """The arbiter's next steps from the verdict and the result (none for a deferred or adjudicated
    ruling without a result: its claim says what to do)."""
    first, second = SIDES["checkers" if game == "checkers" else "chess"]
    result = ruling.result
    if result is not None:
        written = RESULT_WORDS.get(result, result)
        if result == "1/2-1/2":
            outcome = f"The game is drawn ({written})."
        else:
            outcome = f"{(first if result == '1-0' else second).capitalize()} wins ({written})."
        return (f"{outcome} Stop the clocks; both players write the result on their scoresheets and sign them.",)
    if ruling.verdict in (Verdict.UPHELD, Verdict.REJECTED):
        clocks = " with the clock adjustments above" if ruling.adjustments else ""
        return (f"Play continues from the position on the board: restart the clocks{clocks}.",)
    return ()


def with_steps(ruling: Ruling, case: Case) -> Ruling:
    """``ruling``, with :func:`steps` as its instructions when its claim gave none."""
    if ruling.instructions:
        return ruling
    found = steps(ruling, case.game)
    return dataclasses.replace(ruling, instructions=found) if found else ruling
