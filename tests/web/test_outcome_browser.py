"""Issue 35 on phones (390x844, real Chromium): an unfinished checkers game ruled at the board is referred to
the committee from its ruling page, voted 1-0, 1-0, ½-½ by three members under acf-master-division and
decided a draw; the ruling's banner and History then say "½–½ by the committee, case N" (never "Play on"
while the committee votes), and an appeal that overturns it to 1-0 changes them again; the audit chain
verifies."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from committee_support import add_user, bearer, make_app
from events_support import PASSWORD
from flask import Flask
from werkzeug.serving import make_server

from tests.web.phone_support import axe_violations, log_in, phone_page, scroll_width, small_targets
from tests.web.test_outcome import UNFINISHED, staff
from web.audit import verify

pytestmark = pytest.mark.browser

MEMBERS = ("m1", "m2", "m3")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Flask]]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("outcome-browser"), mp, COMMITTEE_POLL_SECONDS=0.5,
                   WTF_CSRF_ENABLED=True)
    app.config["tokens"] = {name: add_user(app, name, role, password=PASSWORD) for name, role in (
        ("tina", "td"), ("m1", "committee"), ("m2", "committee"), ("m3", "committee"), ("ada", "appeals"))}
    staff(app, "masters", "acf-master-division", {"tina": "td", "m1": "committee", "m2": "committee",
                                                  "m3": "committee", "ada": "appeals"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()
        app.extensions["adjudicator"].shutdown()
        mp.undo()


def test_the_committees_draw_then_the_appeals_win_reach_the_ruling_and_history(browser: Any,
                                                                                site: tuple[str, Flask]) -> None:
    from playwright.sync_api import expect

    base, app = site
    tokens = app.config["tokens"]
    ruled = app.test_client().post("/api/v1/rulings", headers=bearer(tokens["tina"]),
                                   json={"event": "masters", **UNFINISHED})
    assert ruled.status_code == 201, ruled.json
    ruling = ruled.json["id"]

    td = phone_page(browser)
    log_in(td, base, "tina", PASSWORD)
    td.goto(f"{base}/rulings/{ruling}")
    expect(td.locator("#result")).to_have_text("For the committee to decide")
    td.click("#refer")
    for member in MEMBERS:
        td.check(f"input[name=members][value={member}]")
    td.click("#open-case")
    td.wait_for_url(re.compile(r"/committee/cases/\d+$"))
    case = int(td.url.rsplit("/", 1)[1])
    td.goto(f"{base}/rulings/{ruling}")
    expect(td.locator("#result")).to_have_text(f"With the committee, case {case}")
    expect(td.locator(".verdict")).not_to_contain_text("Play on")

    for member, result in zip(MEMBERS, ("1-0", "1-0", "1/2-1/2"), strict=True):
        page = phone_page(browser)
        log_in(page, base, member, PASSWORD)
        page.goto(f"{base}/committee/cases/{case}")
        page.check(f"input[name=result][value='{result}']")
        page.check("input[name=position_verified]")
        page.click("#vote button[type=submit]")
        expect(page.locator("#vote")).to_have_count(0)
        page.context.close()

    td.goto(f"{base}/rulings/{ruling}")
    expect(td.locator("#result")).to_have_text("½–½")
    expect(td.locator("#decided-by")).to_contain_text(f"By the committee, case {case}")
    assert scroll_width(td) <= 390
    assert axe_violations(td, base) == []
    assert small_targets(td) == []
    td.goto(f"{base}/history")
    row = td.locator(f".ruling-row[href='/rulings/{ruling}']")
    expect(row).to_contain_text(f"½–½ by the committee, case {case}")

    api = app.test_client()
    filed = api.post("/api/v1/appeals", headers=bearer(tokens["tina"]),
                     json={"subject": f"committee-case:{case}", "grounds": "Red's extra man wins."})
    assert filed.status_code == 201, filed.json
    appeal = filed.json["id"]
    judge = phone_page(browser)
    log_in(judge, base, "ada", PASSWORD)
    judge.goto(f"{base}/appeals/{appeal}")
    judge.check("input[name=outcome][value=overturned]")
    judge.select_option("select[name=new_result]", "1-0")
    judge.fill("textarea[name=reasons]", "Red's win is clear on a board.")
    judge.click("button:has-text('Record the decision')")
    expect(judge.locator("button:has-text('Record the decision')")).to_have_count(0)
    td.goto(f"{base}/rulings/{ruling}")
    expect(td.locator("#result")).to_have_text("1–0")
    expect(td.locator("#decided-by")).to_contain_text(f"On appeal #{appeal}")
    td.goto(f"{base}/history")
    expect(td.locator(f".ruling-row[href='/rulings/{ruling}']")).to_contain_text(f"1–0 on appeal #{appeal}")
    judge.context.close()
    td.context.close()
    with app.extensions["db_sessions"]() as session:
        assert verify(session).is_intact, verify(session).to_json()
