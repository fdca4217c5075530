"""Time added to the opponent: the incorrect-claim penalty and the illegal-move award.

One place for the clock arithmetic every claim shares, so that each ruleset's
numbers come from ``config.toml`` and each ruling says the same thing the same way.

- FIDE 9.5.3: an incorrect claim under 9.2 or 9.3 adds 2 minutes to the opponent's
  time (Appendix A.3: 1 minute in rapid, and in blitz under B.3).
- FIDE 7.5.5: the first completed illegal move adds 2 minutes (A.3: 1 minute).
- US Chess 1C2a: the standard penalty is 2 minutes, at the director's discretion
  (``penalty = "discretionary"``): the ruling says the TD *may* add it and makes
  no adjustment itself.

Use :func:`incorrect_claim` for rejected draw claims and :func:`time_award` for
anything else that adds time to one side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.clocks import hms
from adjudicator.contract import Clock
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Adjustment, unique


@dataclass(frozen=True)
class TimeAward:
    """The clock part of a ruling: adjustments, what the arbiter does, why, and the articles."""

    adjustments: tuple[Adjustment, ...] = ()
    instructions: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    rule_refs: tuple[str, ...] = ()

    @property
    def seconds(self) -> float:
        return sum(a.seconds for a in self.adjustments)


def format_clock(seconds: float) -> str:
    """``h:mm:ss`` as arbiters write clock times (``0:30:00``); tenths kept when present."""
    sign = "-" if seconds < 0 else ""
    whole = abs(seconds)
    fraction = whole - int(whole)
    tail = f".{int(round(fraction * 10)) % 10}" if fraction >= 0.05 else ""
    return f"{sign}{hms(int(whole))}{tail}"


def format_duration(seconds: float) -> str:
    """``2:00`` / ``1:00`` / ``0:30``: a penalty as arbiters say it."""
    minutes, secs = divmod(int(round(abs(seconds))), 60)
    return f"{minutes}:{secs:02d}"


def is_reduced_period(ruleset: ChessRuleset) -> bool:
    """Rapid or blitz, where FIDE Appendix A.3 halves the penalties of Articles 7 and 9."""
    return ruleset.period in ("rapid", "blitz")


def time_award(
    ruleset: ChessRuleset,
    *,
    seconds: float,
    side: str,
    clock: Clock | None,
    why: str,
    refs: Sequence[str],
    discretionary: bool = False,
) -> TimeAward:
    """Add ``seconds`` to ``side``'s clock (or say that the TD may, when ``discretionary``)."""
    if seconds <= 0:
        return TimeAward()
    label = side.capitalize()
    amount = format_duration(seconds)
    cited = ", ".join(refs)
    if discretionary:
        return TimeAward(
            instructions=(f"the TD may add {amount} to {label}'s clock ({cited})",),
            reasons=(f"{why}: the standard {amount} penalty is at the TD's discretion.",),
            rule_refs=tuple(refs),
        )
    reasons = [f"{why}: {amount} is added to {label}'s time."]
    now = clock.seconds(side) if clock is not None else None
    instructions = [f"add {amount} to {label}'s clock"]
    if now is not None:
        instructions = [f"add {amount} to {label}'s clock ({format_clock(now)} becomes {format_clock(now + seconds)})"]
    return TimeAward(
        adjustments=(Adjustment(side=side, seconds=seconds, reason=f"{why} ({cited})"),),
        instructions=tuple(instructions),
        reasons=tuple(reasons),
        rule_refs=tuple(refs),
    )


def incorrect_claim(ruleset: ChessRuleset, claimant: str, opponent: str, clock: Clock | None) -> TimeAward:
    """The penalty for an incorrect draw claim (FIDE 9.5.3 with A.3; US Chess 1C2a).

    Reads ``[rulesets.X.incorrect_claim]``: ``opponent_bonus_seconds`` and
    ``penalty = "automatic" | "discretionary"``; ``article`` overrides the cited article.
    """
    seconds = ruleset.incorrect_claim.opponent_bonus_seconds
    penalty = ruleset.incorrect_claim.penalty
    refs = _claim_refs(ruleset)
    return time_award(
        ruleset,
        seconds=seconds,
        side=opponent,
        clock=clock,
        why=f"{claimant.capitalize()}'s claim was incorrect",
        refs=refs,
        discretionary=penalty == "discretionary",
    )


def _claim_refs(ruleset: ChessRuleset) -> tuple[str, ...]:
    if ruleset.incorrect_claim.article is not None:
        return (ruleset.ref(ruleset.incorrect_claim.article),)
    if ruleset.is_a("uschess"):
        return (ruleset.ref("1C2a"),)
    refs = [ruleset.ref("9.5.3")]
    if is_reduced_period(ruleset):
        refs.append(ruleset.ref("A.3"))
    return unique(refs)
