"""Every page a TD, a committee member or an appeals member opens, on a 390x844 touch phone in
Debian's Chromium: it fits the screen (scrollWidth <= 390 px) and axe-core finds no WCAG 2 A/AA
violation. Screenshots of each page are saved in tests/artifacts/phone-*.png."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from werkzeug.serving import make_server

from tests.web.phone_support import check_page, choose, log_in, phone_page, refused_flag_claim, set_up_position

pytestmark = pytest.mark.browser

PASSWORD = "password-xxxx"
THREEFOLD = {
    "game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
    "record": '[White "Alpha"]\n[Black "Beta"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *',
}


@dataclass
class Site:
    base: str
    ruling: int
    decided: int
    voting: int
    appeal: int


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("phone"), mp, COMMITTEE_POLL_SECONDS=1, WTF_CSRF_ENABLED=True)
    td = add_user(app, "tina", "td", password=PASSWORD)
    members = {name: add_user(app, name, "committee", password=PASSWORD) for name in ("m1", "m2", "m3")}
    add_user(app, "april", "appeals", password=PASSWORD)
    client = app.test_client()
    ruling = client.post("/api/v1/rulings", json=THREEFOLD, headers=bearer(td))
    assert ruling.status_code == 201, ruling.json
    decided = client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
    for name, result, comment in (("m1", "1-0", "Red breaks through on the long diagonal"), ("m2", "1-0", ""),
                                  ("m3", "1/2-1/2", "White holds in the double corner")):
        client.post(f"/api/v1/committee-cases/{decided}/votes", json={"result": result, "comment": comment},
                    headers=bearer(members[name]))
    voting = client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
    appeal = client.post("/api/v1/appeals", json={"subject": f"committee-case:{decided}",
                                                 "grounds": "Red says the win is clear"}, headers=bearer(td))
    assert appeal.status_code == 201, appeal.json
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(f"http://127.0.0.1:{server.server_port}", ruling.json["id"], decided, voting, appeal.json["id"])
    server.shutdown()
    app.extensions["adjudicator"].shutdown()
    mp.undo()


@pytest.fixture
def phone_as(browser: Any, site: Site) -> Iterator[Any]:
    contexts: list[Any] = []

    def login(name: str | None) -> Any:
        page = phone_page(browser)
        contexts.append(page.context)
        if name is not None:
            log_in(page, site.base, name, PASSWORD)
        return page

    yield login
    for context in contexts:
        context.close()


def test_the_td_pages_fit_a_phone_and_pass_axe(site: Site, phone_as: Any) -> None:
    page = phone_as(None)
    page.goto(f"{site.base}/login")
    check_page(page, site.base, "phone-login")
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new")
    check_page(page, site.base, "phone-claim-chess")
    choose(page, "#f-claim", "flag")
    check_page(page, site.base, "phone-claim-flag")
    choose(page, "#f-game", "checkers")
    page.wait_for_selector("#checkers-editor", state="attached")
    check_page(page, site.base, "phone-claim-checkers")
    set_up_position(page)  # the position editor, a mode (issue 37): its page too
    check_page(page, site.base, "phone-claim-checkers-set-up")
    page.goto(f"{site.base}/rulings/{site.ruling}")
    check_page(page, site.base, "phone-ruling")
    page.goto(f"{site.base}/history")
    check_page(page, site.base, "phone-history")


def test_the_committee_pages_fit_a_phone_and_pass_axe(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/committee/")
    check_page(page, site.base, "phone-committee-cases")
    page.goto(f"{site.base}/committee/cases/new")
    check_page(page, site.base, "phone-committee-new")
    box = page.locator("input[name=members]").first.bounding_box()
    assert box is not None and box["height"] >= 24  # the label around it makes the whole row tappable
    row = page.locator("label:has(input[name=members])").first.bounding_box()
    assert row is not None and row["height"] >= 44
    page.goto(f"{site.base}/committee/cases/{site.decided}")
    check_page(page, site.base, "phone-committee-decided")
    assert page.locator("main svg").count() == 1, "the position is drawn once"
    page.click("#position nav a[aria-label='next move']")
    page.wait_for_selector("#position .ply-caption:has-text('ply 1 of')")
    assert page.locator("main svg").count() == 1, "stepping redraws that one board"
    check_page(page, site.base, "phone-committee-decided-ply1")
    member = phone_as("m1")
    member.goto(f"{site.base}/committee/cases/{site.voting}")
    check_page(member, site.base, "phone-committee-voting")


def test_the_appeal_pages_fit_a_phone_pass_axe_and_hide_the_raw_record(site: Site, phone_as: Any) -> None:
    page = phone_as("april")
    page.goto(f"{site.base}/appeals/")
    check_page(page, site.base, "phone-appeals")
    page.goto(f"{site.base}/appeals/{site.appeal}")
    page.click("#rerun button[type=submit]")
    page.wait_for_url(re.compile(rf"/appeals/{site.appeal}$"))
    check_page(page, site.base, "phone-appeal")
    visible = page.locator("main").inner_text()
    assert "{" not in visible and "\\u0027" not in visible, "raw JSON shows by default"
    assert str(Path.cwd()) not in page.content(), "a server path is shown"
    assert page.locator("#position svg").count() == 1, "a diagram of the position"
    assert "m3" in visible and "White holds in the double corner" in visible
    page.click("summary:has-text('Show the raw record')")
    assert '"fen"' in page.locator("main").inner_text()


def test_a_trf_import_fills_the_players_for_round_and_board(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/events")  # the way in: the events this TD serves
    check_page(page, site.base, "phone-events")
    page.click("a.button:has-text('Pairings')")
    page.wait_for_url(re.compile(r"/events/default/pairings$"))
    page.set_input_files("#trf", str(Path(__file__).resolve().parent.parent / "data" / "club.trf"))
    page.click("button[type=submit].primary")
    page.wait_for_selector("#imported")
    check_page(page, site.base, "phone-pairings")
    page.goto(f"{site.base}/claims/new")
    page.click("summary:has-text('Round, board')")
    page.fill("#f-round", "2")
    page.fill("#f-board", "1")
    page.press("#f-board", "Tab")
    page.wait_for_function("() => document.querySelector('#f-first_player').value === 'Beta, Bob'")
    assert page.input_value("#f-second_player") == "Alpha, Ann"
    check_page(page, site.base, "phone-claim-players-filled")


def test_a_job_a_refused_slip_and_a_missing_page_fit_a_phone_and_pass_axe(
    site: Site, phone_as: Any, stand_ins: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.web import fake_claims

    monkeypatch.setattr(fake_claims, "SLOW_STEP_SECONDS", 0.5)  # 20 s of "engine work": time to look at it
    page = phone_as("tina")
    refused_flag_claim(page, site.base)
    check_page(page, site.base, "phone-claim-refused-slip")
    page.goto(f"{site.base}/claims/new")
    choose(page, "#f-claim", stand_ins["slow"])
    set_up_position(page)
    page.fill("#f-fen", "8/8/8/4k3/8/8/4K3/7R w - - 0 1")
    page.click("#claim-submit")
    page.wait_for_url(re.compile(r"/cases/\d+$"))
    page.wait_for_function("() => document.querySelector('#job-progress')?.value > 0")
    check_page(page, site.base, "phone-job-progress")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#cancel")
    page.wait_for_selector("#job-state:has-text('Cancelled')")
    check_page(page, site.base, "phone-job-cancelled")
    missing = page.goto(f"{site.base}/rulings/999999")
    assert missing is not None and missing.status == 404
    check_page(page, site.base, "phone-not-found")


def test_the_decided_appeal_fits_a_phone_and_passes_axe(site: Site, phone_as: Any) -> None:
    page = phone_as("april")
    page.goto(f"{site.base}/appeals/{site.appeal}")
    page.check('input[name="outcome"][value="upheld"]', force=True)
    page.fill("#d-reasons", "The committee's 2-1 vote stands under the unanimity rule.")
    page.click("#decision button[type=submit]")
    page.wait_for_selector("#decision [data-outcome]")
    assert page.inner_text("#decision [data-outcome]") == "upheld"
    check_page(page, site.base, "phone-appeal-decided")
    visible = page.locator("main").inner_text()
    assert "{" not in visible, "raw JSON shows by default"
