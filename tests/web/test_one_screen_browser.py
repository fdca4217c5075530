"""One screen from the board to the verdict (issue 37, item 1), on a 390x844 touch phone in Debian's Chromium.

For every claim the form offers, in chess and in checkers, a TD enters moves by taps on the entry board,
and after the last move *Rule* (the claim bar's button, with the claim and the claimant) is on the screen
without a scroll; the position editor ("or set up the position") is a mode, closed while the record is
entered. Screenshots: tests/artifacts/one-screen-*.png (the screen as the TD sees it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS, PHONE

pytestmark = pytest.mark.browser

CHESS_TAPS = [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6")]
CHECKERS_TAPS = [("11", "15"), ("23", "19"), ("8", "11"), ("22", "17")]
IN_VIEW = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: innerHeight, y: scrollY} }"""


def claims_of(page: Any, base: str, game: str) -> list[str]:
    page.goto(f"{base}/claims/new?game={game}")
    return [str(v) for v in page.eval_on_selector_all("#f-claim option", "os => os.map((o) => o.value)")]


def tap_square(page: Any, game: str, square: str) -> None:
    if game == "chess":
        page.locator(f'[data-move-entry="chess"] rect[data-square="{square}"]').tap(force=True)
    else:
        page.locator(f'[data-move-entry="checkers"] [data-square="{square}"]').tap()


def shown(page: Any, game: str, ply: int) -> None:
    if game == "chess":
        page.wait_for_selector(f'[data-move-entry="chess"][data-ply="{ply}"]', state="attached")
    else:
        page.wait_for_selector(f'[data-checkers-entry] [data-chips] [data-ply="{ply}"][aria-current="step"]',
                               state="attached")


@pytest.mark.parametrize("game", ["chess", "checkers"])
def test_after_the_last_move_rule_is_in_view_for_every_claim(live_server: str, phone: Any, game: str) -> None:
    claims = claims_of(phone, live_server, game)
    assert len(claims) >= 5, claims
    taps = CHESS_TAPS if game == "chess" else CHECKERS_TAPS
    entry = "[data-chess-entry][data-ready='2']" if game == "chess" else "[data-checkers-entry][data-ready='1']"
    for claim in claims:
        phone.goto(f"{live_server}/claims/new?game={game}&claim={claim}")
        phone.wait_for_selector(entry)
        assert phone.get_attribute("#position-setup", "open") is None, f"{claim}: the position editor is closed"
        asks_claimant = phone.locator('#claim-bar input[name="claimant"]').count() > 0  # not for an unfinished game
        if asks_claimant:
            phone.check('#claim-bar input[name="claimant"] >> nth=0', force=True)
        for ply, (start, end) in enumerate(taps, start=1):
            tap_square(phone, game, start)
            before = phone.evaluate("() => scrollY")
            tap_square(phone, game, end)
            shown(phone, game, ply)
        after = phone.evaluate("() => scrollY")
        rule = phone.evaluate(IN_VIEW, "#claim-submit")
        assert after == before, f"{game} {claim}: the page scrolled by itself after the last move"
        assert rule["top"] >= 0 and rule["bottom"] <= PHONE["height"], f"{game} {claim}: Rule is at {rule}"
        board = phone.evaluate(IN_VIEW, f'[data-move-entry="{game}"]')
        assert board["top"] < PHONE["height"] and board["bottom"] > 0, f"{game} {claim}: the board left the screen"
        if asks_claimant:
            claimant = phone.evaluate(IN_VIEW, '#claim-bar fieldset')
            assert claimant["top"] >= 0 and claimant["bottom"] <= PHONE["height"], f"{game} {claim}: the claimant"
        assert phone.get_attribute("#position-setup", "open") is None
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / f"one-screen-{game}-{claim}.png"))


TOP = """(selector) => document.querySelector(selector).getBoundingClientRect().top + scrollY"""
CHECKERS_READY = "[data-checkers-entry] [data-candidates][data-ply='{ply}'][aria-busy='false']"


def test_the_checkers_board_stays_put_when_the_candidate_row_shrinks(live_server: str, phone: Any) -> None:
    """1. 11-15 22-18: Red must jump, 15x22, the one candidate. The board does not move when the row of six
    candidates shrinks to one (issue 37: it jumped 54 px)."""
    phone.goto(f"{live_server}/claims/new?game=checkers&claim=threefold-repetition")
    phone.wait_for_selector("[data-checkers-entry][data-ready='1']")
    phone.wait_for_selector(CHECKERS_READY.format(ply=0), state="attached")
    board = '[data-move-entry="checkers"]'
    tops = [phone.evaluate(TOP, board)]
    counts = [phone.locator("[data-checkers-entry] [data-candidates] button").count()]
    for ply, (start, end) in enumerate([("11", "15"), ("22", "18")], start=1):
        tap_square(phone, "checkers", start)
        tap_square(phone, "checkers", end)
        phone.wait_for_selector(CHECKERS_READY.format(ply=ply), state="attached")
        tops.append(phone.evaluate(TOP, board))
        counts.append(phone.locator("[data-checkers-entry] [data-candidates] button").count())
    assert counts[0] >= 4 and counts[-1] == 1, counts
    assert len(set(tops)) == 1, f"the board moved: its top at {tops} with {counts} candidates"
