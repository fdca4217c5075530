"""The claim form on a 390x844 phone in Debian's Chromium: an error sits next to its field with
the focus on it, a slip (no flag ticked) is refused before any ruling exists, and the TD's
own finding rules an ILC claim. Screenshots: tests/artifacts/form-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import shot
from tests.web.phone_support import check_page, choose, set_up_position

pytestmark = pytest.mark.browser


def open_form(page: Any, base: str, claim: str) -> None:
    page.goto(f"{base}/claims/new")
    choose(page, "#f-claim", claim)


def flag_claim(page: Any, base: str, black: str) -> None:
    open_form(page, base, "flag")
    set_up_position(page)
    page.fill("#f-fen", "4k3/8/8/8/8/8/8/4K2R b K - 0 1")
    page.check('input[name="claimant"][value="white"]', force=True)
    page.fill("#f-clock_white", "0:01:10")
    page.fill("#f-clock_black", black)


def test_a_bad_black_clock_shows_next_to_the_black_field_with_the_focus_on_it(live_server: str, phone: Any) -> None:
    flag_claim(phone, live_server, "5:7x")
    phone.check('input[name="flagged"][value="black"]')
    phone.click("#claim-submit")
    phone.wait_for_selector("#clock_black-error")
    assert phone.evaluate("() => document.activeElement.id") == "f-clock_black"
    error = phone.locator("#clock_black-error").bounding_box()
    field = phone.locator("#f-clock_black").bounding_box()
    assert error is not None and field is not None
    assert 0 <= error["y"] - (field["y"] + field["height"]) < 40 and abs(error["x"] - field["x"]) < 20, "under it"
    assert 0 <= field["y"] <= 844 - field["height"], "the field is on screen"
    assert "5:7x" in phone.inner_text("#clock_black-error")
    assert phone.input_value("#f-clock_black") == "5:7x"
    shot(phone, "form-black-clock-error")
    check_page(phone, live_server, "form-black-clock-error-axe")


def test_a_flag_claim_with_no_flag_is_refused_before_a_ruling_exists(live_server: str, phone: Any) -> None:
    flag_claim(phone, live_server, "0:00:20")  # no clock at 0 either: nothing says whose flag is down
    phone.click("#claim-submit")
    phone.wait_for_selector("#flagged-error")
    assert "/rulings/" not in phone.url
    assert phone.evaluate("() => document.activeElement.name") == "flagged"
    phone.goto(f"{live_server}/history")
    assert "No rulings yet" in phone.inner_text("main"), "nothing was stored"
    flag_claim(phone, live_server, "0:00:00")
    phone.check('input[name="flagged"][value="black"]')
    phone.click("#claim-submit")
    phone.wait_for_url(re.compile(r"/rulings/\d+"))
    assert phone.inner_text("#result") == "1–0"


def test_the_td_s_finding_on_the_form_changes_the_ilc_ruling(live_server: str, phone: Any) -> None:
    verdicts = {}
    for finding in ("clear", "incorrect"):
        phone.goto(f"{live_server}/claims/new")
        choose(phone, "#f-ruleset", "fide-standard-guidelines-iii")  # the rules that have the claim
        phone.wait_for_selector('#f-claim option[value="insufficient-losing-chances"]', state="attached")
        choose(phone, "#f-claim", "insufficient-losing-chances")
        set_up_position(phone)
        phone.fill("#f-fen", "8/8/8/4k3/8/8/3NK3/7r b - - 0 60")  # K+R v K+N: K+N v K alone would be dead (5.2.2)
        phone.check('input[name="claimant"][value="black"]', force=True)
        phone.fill("#f-clock_white", "0:05:00")
        phone.fill("#f-clock_black", "0:01:30")
        phone.fill("#f-time_control", "5400")
        phone.select_option("#f-td_finding", finding)
        shot(phone, f"form-ilc-{finding}")
        phone.click("#claim-submit")
        phone.wait_for_url(re.compile(r"/rulings/\d+"))
        verdicts[finding] = phone.inner_text("#verdict").lower()
    assert verdicts == {"clear": "upheld", "incorrect": "rejected"}


PICK_ON_ARRIVAL = """() => {
  // the moment the redraw asked by the first pick lands, before anything else runs, the TD picks again
  let done = false
  document.addEventListener("htmx:afterSwap", () => {
    const select = document.getElementById("f-claim")
    if (done || !select || select.value !== "flag") return
    done = true
    queueMicrotask(() => { select.value = "illegal-move"; select.dispatchEvent(new Event("change", {bubbles: true})) })
  })
}"""


def test_a_claim_picked_the_moment_the_form_is_redrawn_is_not_lost(live_server: str, phone: Any) -> None:
    """A redrawn form is live the moment it is drawn: the claim picked on it then is sent and redraws the form.
    With htmx's default 20 ms settle delay the new select was not yet bound and the pick was lost (the claim
    shown was not the claim the form held: the failure CI saw under load)."""
    phone.goto(f"{live_server}/claims/new")
    phone.evaluate(PICK_ON_ARRIVAL)
    def second_pick(response: Any) -> bool:
        return response.url.endswith("/claims/form") and "illegal-move" in (response.request.post_data or "")

    with phone.expect_response(second_pick):
        phone.select_option("#f-claim", "flag")
    phone.wait_for_selector('#f-claim option[value="illegal-move"][selected]', state="attached")
    assert phone.locator("#f-alleged_illegal_ply").count() == 1, "the illegal-move claim's own field is drawn"
