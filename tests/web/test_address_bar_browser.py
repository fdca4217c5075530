"""One URL per resource, in the address bar too (phone walk-through, 390x844, Debian's Chromium): a form
posted on one page that shows another resource (an appeal filed from a committee case, a vote) lands on
that resource's own URL (a 303 to it, which htmx's boosted form follows and pushes), and a refused form
(an appeal's decision, a claim) is drawn on its page's URL, not the URL posted to (``HX-Replace-Url``,
:func:`web.htmx.shown_at`), so a refresh or a shared link opens what was shown."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from werkzeug.serving import make_server

from tests.web.phone_support import log_in, phone_page, refused_flag_claim

pytestmark = pytest.mark.browser

PASSWORD = "password-xxxx"


@dataclass
class Site:
    base: str
    decided: int
    voting: int


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("address"), mp, WTF_CSRF_ENABLED=True)
    td = add_user(app, "tina", "td", password=PASSWORD)
    members = {name: add_user(app, name, "committee", password=PASSWORD) for name in ("m1", "m2", "m3")}
    add_user(app, "april", "appeals", password=PASSWORD)
    client = app.test_client()
    decided = client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
    for name in ("m1", "m2", "m3"):
        client.post(f"/api/v1/committee-cases/{decided}/votes", json={"result": "1-0", "comment": ""},
                    headers=bearer(members[name]))
    voting = client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(f"http://127.0.0.1:{server.server_port}", decided, voting)
    server.shutdown()
    app.extensions["adjudicator"].shutdown()
    mp.undo()


@pytest.fixture
def phone_as(browser: Any, site: Site) -> Iterator[Any]:
    contexts: list[Any] = []

    def login(name: str) -> Any:
        page = phone_page(browser)
        contexts.append(page.context)
        log_in(page, site.base, name, PASSWORD)
        return page

    yield login
    for context in contexts:
        context.close()


def test_an_appeal_filed_from_a_committee_case_lands_on_the_appeals_url(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/committee/cases/{site.decided}")
    page.fill("#a-grounds", "Red says the win is clear")
    page.locator("#appeal button[type=submit]").tap()
    page.wait_for_selector("h1:has-text('Appeal #')")
    heading = page.inner_text("h1")
    appeal = re.search(r"Appeal #(\d+)", heading)
    assert appeal is not None, heading
    assert page.url == f"{site.base}/appeals/{appeal.group(1)}", "the address bar names the appeal shown"
    page.reload()
    assert f"Appeal #{appeal.group(1)}" in page.inner_text("h1"), "a refresh opens the same appeal"


def test_a_refused_appeal_decision_stays_on_the_appeals_url(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/committee/cases/{site.decided}")
    if page.locator("#a-grounds").count():
        page.fill("#a-grounds", "Red says the win is clear")
        page.locator("#appeal button[type=submit]").tap()
        page.wait_for_selector("h1:has-text('Appeal #')")
    else:
        page.locator("#appeals a").first.click()
        page.wait_for_selector("h1:has-text('Appeal #')")
    shown = page.url
    april = phone_as("april")
    april.goto(shown)
    april.check("input[name=outcome][value=overturned]", force=True)
    april.fill("#d-reasons", "The position never occurred three times.")
    april.locator("#decision button[type=submit]").tap()
    april.wait_for_selector("#d-new_result-error")
    assert april.url == shown, "a refused decision is drawn on the appeal's own URL"
    april.reload()
    assert "Appeal #" in april.inner_text("h1")


def test_a_refused_claim_is_drawn_on_the_forms_url(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    refused_flag_claim(page, site.base)
    assert page.url == f"{site.base}/claims/new", "not /claims, which a refresh could not open"


def test_a_vote_cast_lands_on_the_cases_url(site: Site, phone_as: Any) -> None:
    page = phone_as("m1")
    page.goto(f"{site.base}/committee/cases/{site.voting}")
    page.check("#verify-box", force=True)
    page.wait_for_selector("#vote input[name=position_verified]:checked", state="attached")
    page.check("input[name=result][value='1-0']", force=True)
    page.locator("#vote button[type=submit]").tap()
    page.wait_for_selector("#voted")
    assert page.url.split("#")[0] == f"{site.base}/committee/cases/{site.voting}"
