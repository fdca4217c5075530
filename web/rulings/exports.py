"""The ruling's result for the event's files (issue 35): the record with the ruling as a comment (PGN for
chess, PDN for checkers) and the TRF result codes, for the result that stands now, the ruling's outcome
(:mod:`web.outcomes`): the arbiter's ruling or finding, the committee's case N, or appeal N."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.exports import annotate_record, ruling_comment, trf_codes
from adjudicator.ruling import Result
from web.outcomes import Outcome

RESULTS: dict[str, Result] = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}


def _who(outcome: Outcome) -> tuple[str, str]:
    """Who decided, for the record's comment, and the TRF sentence's reason."""
    if outcome.decided_by == "committee":
        return f"Adjudicated by the committee (case {outcome.case})", "by adjudication"
    if outcome.decided_by == "appeal":
        return f"Decided on appeal #{outcome.appeal}", "on appeal"
    if outcome.decided_by == "finding":
        return "Ruled on the arbiter's finding", "by the arbiter's finding"
    return "Ruled by the arbiter", "by the arbiter's ruling"


def ruling_exports(case: Mapping[str, Any], game: str, outcome: Outcome, reasons: Sequence[str],
                   rule_refs: Sequence[str]) -> dict[str, Any] | None:
    """The record with the ruling and the TRF codes (None: no result stands, the game plays on or waits).

    ``reasons``: the ruling's reasons as the asker may see them (without the engine's, before the verify gate,
    :mod:`web.committee.gate`); a committee's or an appeal's decision is said in one sentence."""
    result = RESULTS.get(outcome.result or "")
    if result is None:
        return None
    who, reason = _who(outcome)
    said = list(reasons) if outcome.decided_by in ("ruling", "finding") else []
    record = case.get("record") if isinstance(case.get("record"), str) else None
    fen = case.get("fen") if isinstance(case.get("fen"), str) else None
    name = "checkers" if game == "checkers" else "chess"
    return {
        "result": result,
        "record": annotate_record(record, result, ruling_comment(result, said, rule_refs, who=who), game=name,
                                  fen=fen),
        "trf": trf_codes(result, game=name, reason=reason),
        "extension": "pdn" if name == "checkers" else "pgn",
    }
