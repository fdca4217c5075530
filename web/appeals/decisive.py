"""What an appeal's re-run changes for the decision, in words first (issue 35, item 3).

The appeals committee asks: would the same analysis lead to the same decision? So the re-run is compared
on what the decision rests on: the **verdict**, the **result**, the **proven facts** (the evidence a proof
settles: how the game stands, who is favoured, what was settled), and the **score**, a difference counted
only beyond a stated tolerance (:data:`SCORE_TOLERANCE`, ``[appeals] score_tolerance`` in config.toml): a
search that ran a little further never moves its score by exactly nothing. How the analysis was run (the
engine's name, version, hash size, threads, node budget, the deterministic flag) is listed apart: a setting
that differs is a fact of the record, not a difference in the decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.evidence import ENGINE_LINE_KEYS, Evidence
from web.appeals.readable import words
from web.appeals.service import SCORE_TOLERANCE

LINES = ENGINE_LINE_KEYS
"""The engine's line: shown with the score; a different line with the same score decides nothing new."""


@dataclass(frozen=True)
class Finding:
    """One thing the decision rests on, original against re-run, in words."""

    label: str
    is_same: bool
    text: str


def tolerance(config: Mapping[str, Any] | None) -> int:
    found = (config or {}).get("appeals", {}).get("score_tolerance", SCORE_TOLERANCE)
    return int(found) if isinstance(found, int | float) and not isinstance(found, bool) else SCORE_TOLERANCE


def _evidence(ruling: Mapping[str, Any] | None) -> Evidence:
    return Evidence.read((ruling or {}).get("evidence"))


def facts_of(evidence: object) -> dict[str, Any]:
    """What the analysis found (:attr:`adjudicator.evidence.Evidence.proven_facts`) of a ruling's evidence."""
    return dict(Evidence.read(evidence).proven_facts)


def decisive(original: Mapping[str, Any] | None, rerun: Mapping[str, Any] | None,
             allowed: int = SCORE_TOLERANCE) -> list[Finding]:
    """The verdict, the result, the proven facts and the score, original against re-run, in words."""
    if original is None or rerun is None:
        return []
    found = []
    for key, label in (("verdict", "Verdict"), ("result", "Result")):
        before, after = original.get(key), rerun.get(key)
        same = before == after
        found.append(Finding(label, same, f"the same: {words(before)}" if same
                             else f"{words(before)} then, {words(after)} now"))
    facts_before, facts_after = _evidence(original).proven_facts, _evidence(rerun).proven_facts
    changed = [k for k in [*facts_before, *(k for k in facts_after if k not in facts_before)]
               if words(facts_before.get(k)) != words(facts_after.get(k))]
    found.append(Finding("Proven facts", not changed, "the same" if not changed else "; ".join(
        f"{k.replace('_', ' ')}: {words(facts_before.get(k))} then, {words(facts_after.get(k))} now"
        for k in changed)))
    before_score, after_score = _evidence(original).score, _evidence(rerun).score
    if before_score is not None or after_score is not None:
        if before_score is None or after_score is None:
            found.append(Finding("Score", False, f"{words(before_score)} then, {words(after_score)} now"))
        else:
            moved = abs(after_score - before_score)
            within = moved <= allowed
            found.append(Finding("Score", within, f"{before_score:g} then, {after_score:g} now: "
                                 f"{'within' if within else 'beyond'} the tolerance of {allowed}"))
    return found


TIMINGS = frozenset({"duration_ms"})
"""How long a run took, kept beside its settings (a ruling's record keeps its ``duration_ms`` there): a time, not
a setting, so never a difference in how the analysis was run."""


def settings_differing(original: Mapping[str, Any] | None, rerun: Mapping[str, Any] | None,
                       stored: Mapping[str, Any] | None, used: Mapping[str, Any] | None) -> list[tuple[str, str, str]]:
    """How the analysis was run, where the re-run differs from the original: (setting, then, now)."""
    found: list[tuple[str, str, str]] = []
    before, after = _evidence(original).run_settings, _evidence(rerun).run_settings
    for key in sorted((set(before) | set(after)) - TIMINGS):
        if words(before.get(key)) != words(after.get(key)):
            found.append((key.replace("_", " "), words(before.get(key)), words(after.get(key))))
    for key in sorted((set(stored or {}) | set(used or {})) - TIMINGS):
        a, b = (stored or {}).get(key), (used or {}).get(key)
        if a is not None and words(a) != words(b):
            found.append((f"settings: {key.replace('_', ' ')}", words(a), words(b)))
    return found
