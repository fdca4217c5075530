"""Three members on three devices (three browser contexts, real Chromium): blind votes, live count, the decision."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from werkzeug.serving import make_server

from tests.parts import missing

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    missing(f"Chromium ({CHROMIUM})", "Debian package chromium (.ci/install)", module=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

MEMBERS = ("m1", "m2", "m3")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[int]]]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("browser"), mp, COMMITTEE_POLL_SECONDS=0.5, WTF_CSRF_ENABLED=True)
    td = add_user(app, "tina", "td")
    for name in MEMBERS:
        add_user(app, name, "committee", password=f"{name}-password")
    client = app.test_client()
    cases = [client.post("/api/v1/committee-cases", json=checkers_case(list(MEMBERS)), headers=bearer(td)).json["id"]
             for _ in range(2)]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", cases
    server.shutdown()
    app.extensions["adjudicator"].shutdown()
    mp.undo()


def member_pages(browser: Browser, base: str, case_id: int) -> list[Page]:
    pages = []
    for name in MEMBERS:
        page = browser.new_context().new_page()
        page.goto(f"{base}/login")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", f"{name}-password")
        page.click("button[type=submit]")
        expect(page).to_have_url(re.compile(r"/committee/$"))  # logged in (the form may be htmx-boosted)
        page.goto(f"{base}/committee/cases/{case_id}")
        expect(page.locator("#tally .count")).to_have_text("0 of 3 votes cast")
        pages.append(page)
    return pages


def cast(page: Page, result: str, comment: str) -> None:
    page.check(f"input[name=result][value='{result}']")
    page.fill("textarea[name=comment]", comment)
    page.check("input[name=position_verified]")
    page.click("#vote button[type=submit]")
    expect(page.locator("#vote")).to_have_count(0)


def expect_blind_count(pages: list[Page], count: int) -> None:
    for page in pages:  # every screen, including the ones nobody reloaded, shows the count and nothing else
        expect(page.locator("#tally .count")).to_have_text(f"{count} of 3 votes cast")
        expect(page.locator("#tally table.votes")).to_have_count(0)
        expect(page.locator("#tally [data-result]")).to_have_count(0)


def test_a_two_to_one_vote_for_a_win_gives_a_draw(browser: Browser, site: tuple[str, list[int]]) -> None:
    base, cases = site
    pages = member_pages(browser, base, cases[0])
    cast(pages[0], "1-0", "Red's extra man wins")
    expect_blind_count(pages, 1)
    assert "Red's extra man wins" not in pages[1].content()
    cast(pages[1], "1-0", "agree")
    expect_blind_count(pages, 2)
    cast(pages[2], "1/2-1/2", "White reaches the double corner")
    for page in pages:
        expect(page.locator("#tally [data-result]")).to_have_text("1/2-1/2")
        expect(page.locator("#tally table.votes tr")).to_have_count(4)  # header + three votes, revealed together
        expect(page.locator("#tally")).to_contain_text("a win needs a unanimous vote")
        expect(page.locator("#tally")).to_contain_text("White reaches the double corner")
        expect(page.locator("#tally")).not_to_have_attribute("hx-trigger", "every 0.5s")  # polling stopped
    for page in pages:
        page.context.close()


def test_a_unanimous_vote_gives_the_win(browser: Browser, site: tuple[str, list[int]]) -> None:
    base, cases = site
    pages = member_pages(browser, base, cases[1])
    for page in pages:
        cast(page, "1-0", "verified the winning line on a board")
    for page in pages:
        expect(page.locator("#tally [data-result]")).to_have_text("1-0")
    pages[0].click("#tally a.exports")  # the record with the ruling, and the TRF codes
    expect(pages[0].locator("#exports")).to_contain_text("TRF code 1 for Red, 0 for White")
    for page in pages:
        page.context.close()
