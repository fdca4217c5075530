"""Both scoresheets (issue 21, item 5): the claim form's comparison and the ruling page's evidence.

The TD may give the opponent's scoresheet beside the claimant's (the record field): the form
shows the first ply where the two read different moves and what each has there
(:func:`adjudicator.scoresheets.compare_scoresheets`, the ruling's own replay), and the TD
confirms the one the claim is ruled on (``ruled_on``). The case keeps both as evidence
(``scoresheets``: ``claimant``, ``opponent``, ``ruled_on``; its ``record`` is the confirmed one),
and the ruling page shows them with the comparison. US Chess 14C9 is the background: the
claimant's scoresheet must be adequate to show the claim; the opponent's may be borrowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint

from adjudicator.scoresheets import Comparison, compare_scoresheets
from web.claims.forms import SCORESHEETS, ClaimForm

bp = Blueprint("scoresheets", __name__)


@bp.app_template_global()
def scoresheet_comparison(form: ClaimForm) -> Comparison | None:
    """The two scoresheets on the form compared (None: the opponent's is not given)."""
    opponent = form.value("opponent_record")
    if not opponent.strip():
        return None
    language = form.value("language") or None if form.game == "chess" else None
    return compare_scoresheets(form.game, form.value("record"), opponent, language=language)


@bp.app_template_global()
def case_scoresheets(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A stored case's two scoresheets, the one ruled on and their comparison (None: one scoresheet only)."""
    sheets = data.get("scoresheets")
    if not isinstance(sheets, Mapping):
        return None
    claimant, opponent = sheets.get("claimant"), sheets.get("opponent")
    if not isinstance(claimant, str) or not isinstance(opponent, str):
        return None
    record = data.get("record")
    label = sheets.get("ruled_on")
    texts = {"claimant": claimant, "opponent": opponent}
    # what was ruled on is read from the case's record, not taken from the label (an API client may send both)
    found = [label] if isinstance(label, str) and texts.get(label) == record else \
        [side for side, text in texts.items() if text == record]
    ruled_on = found[0] if found else None
    words = SCORESHEETS[ruled_on] if ruled_on else "the case's record, which is neither scoresheet as kept"
    game = "checkers" if data.get("game") == "checkers" else "chess"
    language = data.get("language") if isinstance(data.get("language"), str) and game == "chess" else None
    comparison = compare_scoresheets(game, claimant, opponent, language=language)
    return {"claimant": claimant, "opponent": opponent, "ruled_on": ruled_on, "ruled_on_words": words,
            "comparison": comparison}
