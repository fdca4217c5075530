"""The ruling page and sheet say who reported an illegal move (issue 34, class 6): when the claimant made
the move complained of, the header does not read "claimed by" him as if it were the opponent's claim."""

from __future__ import annotations

from flask import Flask, render_template

from tests.web.test_ruling_sheet import _ruling
from web.rulings.views import context_for, load


def test_the_offenders_own_report_is_not_shown_as_his_claim(app: Flask) -> None:
    own = _ruling(app, claimant="white", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")  # White's own 3.Nc3
    page = app.test_client().get(f"/rulings/{own}").get_data(as_text=True)
    assert "reported by White, who made the move: not the opponent's claim" in page
    assert "claimed by White" not in page
    assert "White reported White&#39;s own illegal move: this is not Black&#39;s claim." in page
    with app.test_request_context():
        ruling, case = load(own)
        sheet = render_template("rulings/sheet.html", **context_for(ruling, case))
    assert "<th>Reported by</th><td>White, who made the move" in sheet
    claimed = _ruling(app, claimant="black", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")
    assert "claimed by Black" in app.test_client().get(f"/rulings/{claimed}").get_data(as_text=True)
