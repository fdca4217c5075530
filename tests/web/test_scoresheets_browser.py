"""Both scoresheets on the claim form (issue 21, item 5), in Debian's Chromium on a phone: the form finds
the first ply where the claimant's and the opponent's scoresheets differ and says which reading is legal
there; the claim is ruled on the one the TD confirms; the ruling page keeps both.

Checkers: a real game, US National 1946 (the 5th game of tests/data/checkers/tinsley.pdn), to its 30th
ply, where White had to jump (17x10). Red claims White moved illegally: Red's scoresheet has a quiet move
there; White's has the jump. Chess: a threefold claim whose scoresheets differ at the last move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from adjudicator.checkers.pdn import split_games
from adjudicator.checkers.replay import replay_checkers
from tests.web.phone_support import check_page
from tests.web.test_security_browser import violations

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data" / "checkers"
COMPARE = "#scoresheet-compare .compare-result"


def rule_on(phone: Any, which: str) -> None:
    """Choose the scoresheet the claim is ruled on as a TD does, by tapping its label: Playwright waits for it and
    taps again if the comparison is redrawn under the tap (forcing a check on the hidden radio failed then)."""
    phone.locator(f'label:has(input[name="ruled_on"][value="{which}"])').click()
    expect(phone.locator(f'input[name="ruled_on"][value="{which}"]')).to_be_checked()


def as_pdn(moves: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def sheets() -> tuple[str, str, str]:
    """(Red's scoresheet, White's scoresheet, the quiet move Red's has at ply 30)."""
    game = split_games((DATA / "tinsley.pdn").read_text(encoding="utf-8", errors="replace"))[4]
    replay = replay_checkers(game)
    assert replay.tag("Event") == "US National 1946" and not replay.illegal
    moves = [str(p.move) for p in replay.plies[:30]]
    assert moves[29] == "17x10"
    quiet = str(replay.plies[29].before.quiet_moves()[0])
    return as_pdn([*moves[:29], quiet]), as_pdn(moves), quiet


def fill_claim(page: Any) -> None:
    page.check('input[name="claimant"][value="red"]', force=True)
    page.fill("#f-alleged_illegal_ply", "30")
    page.fill("#f-clock_red", "0:20:00")
    page.fill("#f-clock_white", "0:20:00")
    page.fill("#f-time_control", "G/60")


def test_the_first_difference_is_found_and_the_confirmed_scoresheet_is_ruled_on(live_server: str, phone: Any) -> None:
    red_sheet, white_sheet, quiet = sheets()
    seen = violations(phone)
    phone.goto(f"{live_server}/claims/new?game=checkers&claim=illegal-move")
    phone.wait_for_selector("[data-checkers-entry][data-ready='1']")
    phone.fill("#f-record", red_sheet)
    phone.locator("details.scoresheets > summary").click()
    with phone.expect_response(lambda r: r.url.endswith("/claims/form")):
        phone.fill("#f-opponent_record", white_sheet)
        phone.dispatch_event("#f-opponent_record", "change")
    phone.wait_for_selector(f"{COMPARE}[data-first-difference='30']")
    said = phone.inner_text(COMPARE)
    assert said == (f"They agree up to ply 29; at ply 30 the claimant's scoresheet has White's {quiet} (illegal: a "
                    "jump was compulsory (17x10)), the opponent's White's 17x10 (legal).")
    check_page(phone, live_server, "scoresheets-compared")
    phone.goto(f"{live_server}/claims/new?game=checkers&claim=illegal-move")  # afresh (axe-core marks the page)
    phone.wait_for_selector("[data-checkers-entry][data-ready='1']")
    phone.fill("#f-record", red_sheet)
    phone.locator("details.scoresheets > summary").click()
    phone.fill("#f-opponent_record", white_sheet)
    phone.dispatch_event("#f-opponent_record", "change")
    phone.wait_for_selector(f"{COMPARE}[data-first-difference='30']")
    fill_claim(phone)
    rule_on(phone, "claimant")
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "upheld", "ruled on Red's scoresheet: the quiet move, illegal"
    assert phone.inner_text("#ruled-on") == "The claim was ruled on the claimant's scoresheet."
    assert phone.inner_text("#scoresheet-difference") == said, "both kept with the case, and compared again"
    assert phone.locator("#claimant-sheet").text_content() == red_sheet
    assert phone.locator("#opponent-sheet").text_content() == white_sheet
    check_page(phone, live_server, "scoresheets-ruling")

    phone.click("text=Edit and claim again")
    phone.wait_for_selector(f"{COMPARE}[data-first-difference='30']")
    assert phone.input_value("#f-opponent_record") == white_sheet and phone.input_value("#f-record") == red_sheet
    rule_on(phone, "opponent")
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "rejected", "ruled on White's scoresheet: the jump, legal"
    assert "was legal" in phone.inner_text("main")
    assert phone.inner_text("#ruled-on") == "The claim was ruled on the opponent's scoresheet."
    assert seen == [], seen


def test_chess_scoresheets_that_differ_at_the_repetition(live_server: str, phone: Any) -> None:
    claimant = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"
    opponent = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Nh5 *"
    phone.goto(f"{live_server}/claims/new")
    phone.fill("#f-record", claimant)
    phone.locator("details.scoresheets > summary").click()
    phone.fill("#f-opponent_record", opponent)
    phone.dispatch_event("#f-opponent_record", "change")
    phone.wait_for_selector(f"{COMPARE}[data-first-difference='8']")
    assert phone.inner_text(COMPARE) == ("They agree up to ply 7; at ply 8 the claimant's scoresheet has 4...Ng8 "
                                         "(legal), the opponent's 4...Nh5 (legal).")
    phone.check('input[name="claimant"][value="white"]', force=True)
    rule_on(phone, "opponent")
    phone.fill("#f-record", claimant + " ")  # typed again: leaving the field asks for a comparison...
    phone.click("#claim-submit")  # ...which must not hold up the tap on the submit button
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "rejected", "the opponent's scoresheet has no third occurrence"


def test_a_move_entered_on_the_board_is_compared_after_a_pause(live_server: str, phone: Any) -> None:
    red_sheet, white_sheet, quiet = sheets()
    phone.goto(f"{live_server}/claims/new?game=checkers&claim=illegal-move")
    phone.wait_for_selector("[data-checkers-entry][data-ready='1']")
    phone.fill("#f-record", red_sheet)
    phone.locator("details.scoresheets > summary").click()
    phone.fill("#f-opponent_record", white_sheet)
    phone.dispatch_event("#f-opponent_record", "change")
    phone.wait_for_selector(f"{COMPARE}[data-first-difference='30']")
    phone.wait_for_function("() => document.querySelectorAll('[data-checkers-entry] [data-chips] button').length"
                            " === 31")
    phone.click("[data-checkers-entry] [data-takeback]")  # Red's sheet loses its 30th move
    phone.wait_for_function("(sel) => document.querySelector(sel)?.textContent.includes('ends after ply 29')",
                            arg=COMPARE)
    assert phone.inner_text(COMPARE) == ("They agree up to ply 29; at ply 30 the claimant's scoresheet has no move "
                                         "(it ends after ply 29), the opponent's White's 17x10 (legal).")
    phone.click('[data-checkers-entry] [data-candidate="17x10"]')  # the jump, as White's sheet has it
    phone.wait_for_selector(f"{COMPARE}.agree")
    assert phone.inner_text(COMPARE) == "The two scoresheets agree: the same 30 moves."
    assert quiet not in phone.input_value("#f-record")
