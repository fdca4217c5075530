"""The opponent's scoresheet on the entry board (issue 37, item 5), on a 390x844 touch phone in Debian's Chromium.

The TD enters the claimant's scoresheet by taps, switches the board to the opponent's scoresheet and enters it
by the same taps. As the TD reaches the first ply where the two differ, the page says so (the ply, both moves as
written) while every answer of the server is held: it waits for nothing. The server's comparison (the details
under the record, adjudicator.scoresheets) then names the same ply and the same two moves, a switch back shows
the claimant's game again, and the claim is ruled on the scoresheet confirmed. Rule stays on the screen."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from tests.web.conftest import ARTIFACTS, PHONE
from tests.web.phone_support import check_page
from tests.web.test_move_entry_browser import open_entry, record_moves, shown_ply, tap_move
from tests.web.test_scoresheets_browser import rule_on

pytestmark = pytest.mark.browser

LINE = "[data-sheet-compare]"
SERVER = "#scoresheet-compare .compare-result"
CHIPS = "[data-chips] button"
CLAIMANT = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]  # the position a third time: threefold
OPPONENT = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nc6", "Ng1", "Ne5"]  # differs at ply 6 (3...Nc6), no threefold
IN_VIEW = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0 }"""


def chess_text(sans: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {s}" if i % 2 == 0 else s for i, s in enumerate(sans))


def enter_chess(page: Any, sans: list[str], after: Any = None) -> None:
    """Each move by taps (its candidate button or the piece and its square), then ``after(ply)``."""
    board = chess.Board()
    for ply, san in enumerate(sans, start=1):
        move = board.parse_san(san)
        tap_move(page, board, move, False)
        board.push(move)
        shown_ply(page, ply)
        if after:
            after(ply)


class Held:
    """Every answer of the server to ``/claims/...`` held back until :meth:`release` (a request the page makes
    later goes on at once)."""

    def __init__(self, page: Any) -> None:
        self.routes: list[Any] = []
        self.holding = True
        page.route("**/claims/**", self.hold)

    def hold(self, route: Any) -> None:
        if self.holding:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.routes:
            route.continue_()


def line(page: Any) -> tuple[str | None, str]:
    """The page's comparison: (the first difference, or None), its words."""
    return page.get_attribute(LINE, "data-first-difference"), page.inner_text(LINE)


def test_the_opponents_chess_scoresheet_entered_by_taps_shows_the_first_difference_at_once(
        live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    phone.check('input[name="claimant"][value="white"]', force=True)
    enter_chess(phone, CLAIMANT)
    assert record_moves(phone.input_value("#f-record")) == CLAIMANT
    assert not phone.locator(LINE).is_visible(), "no comparison while the opponent's scoresheet is empty"
    phone.locator('[data-sheet-switch] [data-sheet="opponent"]').tap()
    shown_ply(phone, 0)
    phone.wait_for_selector('[data-chess-entry][aria-busy="false"]', state="attached")
    assert phone.get_attribute('[data-sheet-switch] [data-sheet="opponent"]', "aria-pressed") == "true"
    assert line(phone) == (None, "Opponent's sheet: enter its moves (the claimant's has 8 plies).")

    held = Held(phone)  # the server answers nothing while the opponent's sheet is entered
    seen: dict[int, tuple[str | None, str]] = {}

    def compared(ply: int) -> None:  # the page compares as the move is written, before the board is drawn
        seen[ply] = line(phone)
        assert phone.evaluate(IN_VIEW, "#claim-submit"), f"ply {ply}: Rule is on the screen"
        if ply == 6:
            assert phone.evaluate(IN_VIEW, LINE), "the first difference is on the screen as it is reached"
            assert phone.locator(f"{CHIPS}.is-differs").get_attribute("data-ply") == "6", "its chip is marked"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(path=str(ARTIFACTS / "opponent-sheet-chess-difference.png"))

    enter_chess(phone, OPPONENT, compared)
    assert seen[5] == (None, "Opponent's sheet: agrees with the claimant's up to ply 5 (of 8).")
    difference = (
        "6", "Ply 6 differs: the claimant's sheet has 3...Nf6, the opponent's 3...Nc6.")
    assert seen[6] == difference and seen[7] == difference and seen[8] == difference, seen
    assert held.routes, "the page asked the server (for candidates, for its comparison): no answer came"
    assert record_moves(phone.input_value("#f-opponent_record")) == OPPONENT
    assert record_moves(phone.input_value("#f-record")) == CLAIMANT, "the claimant's scoresheet is untouched"
    held.release()

    # the server's comparison, the authority, agrees with the page: the same ply, the same two moves
    server = ("They agree up to ply 5; at ply 6 the claimant's scoresheet has 3...Nf6 (legal), the opponent's "
              "3...Nc6 (legal).")
    phone.wait_for_function("([sel, said]) => document.querySelector(sel)?.textContent.trim() === said",
                            arg=[SERVER, server])
    assert phone.get_attribute(SERVER, "data-first-difference") == "6"
    check_page(phone, live_server, "opponent-sheet-chess")

    phone.locator('[data-sheet-switch] [data-sheet="claimant"]').tap()  # back: the claimant's game, at once
    shown_ply(phone, 8)
    assert line(phone) == difference
    assert phone.locator(f"{CHIPS}.is-differs").get_attribute("data-ply") == "6", "on the claimant's chips too"
    rule_on(phone, "claimant")
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "upheld", "ruled on the claimant's scoresheet: the third time"
    assert phone.inner_text("#ruled-on") == "The claim was ruled on the claimant's scoresheet."
    assert phone.viewport_size == PHONE


CHECKERS_CLAIMANT = ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"]
CHECKERS_OPPONENT = ["11-15", "23-19", "8-11", "22-18", "15x22", "25x18"]  # differs at ply 4 (22-18)


def enter_checkers(page: Any, moves: list[str], after: Any = None) -> None:
    """Each move by two taps on the board (the piece, then its square), then ``after(ply)``."""
    for ply, move in enumerate(moves, start=1):
        start, end = move.replace("x", "-").split("-")
        page.locator(f'[data-move-entry="checkers"] [data-square="{start}"]').tap()
        page.locator(f'[data-move-entry="checkers"] [data-square="{end}"]').tap()
        page.wait_for_selector(f'[data-checkers-entry] [data-chips] [data-ply="{ply}"][aria-current="step"]',
                               state="attached")
        if after:
            after(ply)


def test_the_opponents_checkers_scoresheet_entered_by_taps_shows_the_first_difference_at_once(
        live_server: str, phone: Any) -> None:
    phone.goto(f"{live_server}/claims/new?game=checkers&claim=threefold-repetition")
    phone.wait_for_selector("[data-checkers-entry][data-ready='1']")
    phone.check('input[name="claimant"][value="red"]', force=True)
    enter_checkers(phone, CHECKERS_CLAIMANT)
    assert phone.input_value("#f-record") == "1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13"
    phone.locator('[data-sheet-switch] [data-sheet="opponent"]').tap()
    phone.wait_for_selector('[data-checkers-entry] [data-chips] [data-ply="0"][aria-current="step"]', state="attached")
    assert line(phone) == (None, "Opponent's sheet: enter its moves (the claimant's has 6 plies).")

    held = Held(phone)  # the server answers nothing while the opponent's sheet is entered
    seen: dict[int, tuple[str | None, str]] = {}

    def compared(ply: int) -> None:
        seen[ply] = line(phone)
        assert phone.evaluate(IN_VIEW, "#claim-submit"), f"ply {ply}: Rule is on the screen"
        if ply == 4:
            assert phone.evaluate(IN_VIEW, LINE), "the first difference is on the screen as it is reached"
            assert phone.locator(f"{CHIPS}.is-differs").get_attribute("data-ply") == "4", "its chip is marked"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(path=str(ARTIFACTS / "opponent-sheet-checkers-difference.png"))

    with phone.expect_request(lambda r: r.url.endswith("/claims/form")):  # the server's comparison, after a pause
        enter_checkers(phone, CHECKERS_OPPONENT, compared)
    assert seen[3] == (None, "Opponent's sheet: agrees with the claimant's up to ply 3 (of 6).")
    difference = ("4", "Ply 4 differs: the claimant's sheet has White's 22-17, the opponent's 22-18.")
    assert seen[4] == difference and seen[6] == difference, seen
    assert phone.input_value("#f-opponent_record") == "1. 11-15 23-19 2. 8-11 22-18 3. 15x22 25x18"
    held.release()

    # the server's comparison, the authority, agrees with the page (its answer on the last move: an earlier
    # pause may have asked about fewer moves)
    server = ("They agree up to ply 3; at ply 4 the claimant's scoresheet has White's 22-17 (legal), the "
              "opponent's White's 22-18 (legal).")
    phone.wait_for_function("([sel, said]) => document.querySelector(sel)?.textContent.trim() === said",
                            arg=[SERVER, server])
    assert phone.get_attribute(SERVER, "data-first-difference") == "4"
    phone.locator('[data-sheet-switch] [data-sheet="claimant"]').tap()
    phone.wait_for_selector('[data-checkers-entry] [data-chips] [data-ply="6"][aria-current="step"]', state="attached")
    assert phone.locator("[data-checkers-entry] [data-chips] button").count() == 7, "the claimant's six moves again"
    assert line(phone) == difference
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#ruled-on") == "The claim was ruled on the claimant's scoresheet."


def test_without_javascript_both_scoresheets_are_typed_compared_and_ruled_on(live_server: str, browser: Any) -> None:
    """No board, no switch: the two fields are the form's, compared by the server (its Compare button)."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/claims/new?claim=threefold-repetition")
        assert not page.locator("[data-sheet-switch]").is_visible() and not page.locator(LINE).is_visible()
        page.check('input[name="claimant"][value="white"]', force=True)
        page.fill("#f-record", chess_text(CLAIMANT))
        page.locator("details.scoresheets > summary").click()
        page.fill("#f-opponent_record", chess_text(OPPONENT))
        page.click("button:has-text('Compare the scoresheets')")
        page.wait_for_selector(f"{SERVER}[data-first-difference='6']")
        assert page.input_value("#f-opponent_record") == chess_text(OPPONENT)
        page.check('input[name="ruled_on"][value="opponent"]', force=True)
        page.click("#claim-submit")
        page.wait_for_selector("#verdict")
        assert page.inner_text("#verdict").lower() == "rejected", "the opponent's scoresheet: no third occurrence"
        assert page.inner_text("#ruled-on") == "The claim was ruled on the opponent's scoresheet."
    finally:
        context.close()


def test_a_pasted_opponents_scoresheet_is_played_on_the_board_after_the_switch(live_server: str, phone: Any) -> None:
    """Both sheets typed or pasted: the comparison is in the page at once; the switch plays the opponent's on the
    board, whose takeback and taps change that sheet only."""
    open_entry(phone, live_server)
    phone.fill("#f-record", chess_text(CLAIMANT))
    shown_ply(phone, 8)
    phone.locator("details.scoresheets > summary").click()
    phone.fill("#f-opponent_record", chess_text(OPPONENT))
    phone.wait_for_selector(f"{LINE}[data-first-difference='6']")
    assert line(phone)[1] == "Ply 6 differs: the claimant's sheet has 3...Nf6, the opponent's 3...Nc6."
    phone.locator('[data-sheet-switch] [data-sheet="opponent"]').tap()
    phone.wait_for_selector('[data-chess-entry][aria-busy="false"] [data-move-entry][data-ply="8"]', state="attached")
    phone.wait_for_selector(f"{CHIPS}.is-differs[data-ply='6']", state="attached")
    for ply in (7, 6, 5):  # back to before the difference: the two agree so far
        phone.locator("[data-chess-entry] [data-takeback]").tap()
        shown_ply(phone, ply)
    assert line(phone) == (None, "Opponent's sheet: agrees with the claimant's up to ply 5 (of 8).")
    assert record_moves(phone.input_value("#f-opponent_record")) == OPPONENT[:5]
    assert record_moves(phone.input_value("#f-record")) == CLAIMANT
    enter_chess_from(phone, OPPONENT[:5], ["Nf6"])  # the claimant's move this time: still the same
    assert line(phone) == (None, "Opponent's sheet: agrees with the claimant's up to ply 6 (of 8).")


def enter_chess_from(page: Any, played: list[str], sans: list[str]) -> None:
    board = chess.Board()
    for san in played:
        board.push_san(san)
    for san in sans:
        move = board.parse_san(san)
        tap_move(page, board, move, False)
        board.push(move)
        shown_ply(page, len(board.move_stack))
