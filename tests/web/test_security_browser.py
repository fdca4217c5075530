"""The Content-Security-Policy in a real browser (Debian's Chromium through Playwright): the
main pages run under it with no violation reported, and the same listener does report an
inline script, so a page that breaks the policy cannot pass unnoticed."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.web.conftest import make_app
from tests.web.phone_support import choose, set_up_position
from web.tables.users import create_user

pytestmark = pytest.mark.browser

RECORD = '[Event "Club"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *'


def violations(page: Any) -> list[str]:
    """Every console message and page error about the Content Security Policy, from now on."""
    seen: list[str] = []
    page.on("console", lambda message: seen.append(f"{page.url} {message.location}: {message.text}")
            if "Content Security Policy" in message.text else None)
    page.on("pageerror", lambda error: seen.append(str(error)) if "Content Security Policy" in str(error) else None)
    return seen


def _inline_page() -> str:
    return ('<!doctype html><title>inline</title><script>document.title = "ran"</script>'
            '<button onclick="document.title = \'clicked\'">x</button>')


@pytest.fixture
def served(tmp_path: Path, stand_ins: dict[str, str]) -> Iterator[tuple[str, Flask]]:
    """The app (CSRF on) with one committee member, and a page that breaks the policy on purpose."""
    from werkzeug.serving import make_server

    application = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    application.add_url_rule("/test-only/inline", "test_inline", _inline_page)
    with application.extensions["db_sessions"]() as session:
        create_user(session, "m1", "committee", "m1-password", hash_method="pbkdf2:sha256:1000")
        session.commit()
    server = make_server("127.0.0.1", 0, application, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", application
    server.shutdown()
    application.extensions["adjudicator"].shutdown()


def test_the_listener_reports_an_inline_script_the_policy_blocks(served: tuple[str, Flask], phone: Any) -> None:
    base, _app = served
    seen = violations(phone)
    phone.goto(f"{base}/test-only/inline")  # the inline script is blocked
    phone.click("button")  # the inline handler is blocked
    deadline = time.monotonic() + 30  # polled for the two reports; the deadline only bounds a hang
    while len(seen) < 2 and time.monotonic() < deadline:
        phone.wait_for_timeout(50)
    assert phone.title() == "inline"  # neither the script nor the handler ran
    assert len(seen) >= 2, seen


def test_the_main_pages_run_with_no_policy_violation(
    served: tuple[str, Flask], phone: Any, stand_ins: dict[str, str]
) -> None:
    base, _app = served
    seen = violations(phone)
    phone.goto(f"{base}/claims/new")
    choose(phone, "#f-claim", stand_ins["quick"])  # an htmx redraw of the form
    phone.check('input[name="claimant"][value="white"]', force=True)
    phone.fill("#f-record", RECORD)
    phone.click("button[type=submit].primary")
    phone.wait_for_url(re.compile(r"/rulings/\d+"))
    phone.wait_for_selector("#verdict")
    phone.goto(f"{base}/history")
    with phone.expect_response(re.compile(r"/history\?")):
        phone.fill("#h-player", "Alpha")  # the live search (htmx, after a pause)
    phone.goto(f"{base}/login")
    phone.fill("input[name=name]", "m1")
    phone.fill("input[name=password]", "m1-password")
    phone.click("button[type=submit]")
    phone.wait_for_url(re.compile(r"/committee/$"))
    phone.goto(f"{base}/appeals/")
    phone.click("text=Log out")
    phone.wait_for_url(re.compile(r"/login"))
    phone.wait_for_load_state("networkidle")  # late htmx work (polling, swaps) would report before this
    assert seen == [], seen


def test_the_board_editor_runs_under_the_policy(served: tuple[str, Flask], phone: Any) -> None:
    base, _app = served
    seen = violations(phone)
    phone.goto(f"{base}/claims/new")
    choose(phone, "#f-claim", "flag")
    phone.wait_for_selector("[data-board-editor][data-ready='2']", state="attached")
    set_up_position(phone)
    phone.click('[data-board-editor] [data-piece="wq"]')
    phone.click('[data-board-editor] [data-board] rect[data-square="d4"]', force=True)
    expect(phone.locator("#f-fen")).to_have_value(re.compile(r"^\S*Q"))
    # the coordinates keep the size cm-chessboard gives them (through the style object, which CSP allows)
    size = phone.eval_on_selector("[data-board-editor] [data-board] text.coordinate", "e => e.style.fontSize")
    assert size.endswith("px"), size
    phone.wait_for_load_state("networkidle")  # the editor's late work would report before this
    assert seen == [], seen


def test_a_committee_case_page_runs_under_the_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, phone: Any
) -> None:
    """The case page: its diagram, the live count polling itself, a vote cast through htmx."""
    from werkzeug.serving import make_server

    from tests.web.committee_support import add_user, bearer, checkers_case
    from tests.web.committee_support import make_app as committee_app

    app = committee_app(tmp_path, monkeypatch, COMMITTEE_POLL_SECONDS=0.3, WTF_CSRF_ENABLED=True)
    td = add_user(app, "tina", "td")
    for name in ("m1", "m2", "m3"):
        add_user(app, name, "committee", password=f"{name}-password")
    case_id = app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                                     headers=bearer(td)).json["id"]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        seen = violations(phone)
        phone.goto(f"{base}/login")
        phone.fill("input[name=name]", "m1")
        phone.fill("input[name=password]", "m1-password")
        phone.click("button[type=submit]")
        phone.wait_for_url(re.compile(r"/committee/$"))
        phone.goto(f"{base}/committee/cases/{case_id}")
        with phone.expect_response(re.compile(rf"/committee/cases/{case_id}/tally")):
            pass  # the count polls itself
        phone.check("input[name=result][value='1-0']")
        phone.fill("textarea[name=comment]", "the extra man wins")
        phone.check("input[name=position_verified]")
        phone.click("#vote button[type=submit]")
        expect(phone.locator("#tally .count")).to_have_text("1 of 3 votes cast")
        with phone.expect_response(re.compile(rf"/committee/cases/{case_id}/tally")):
            pass  # the count polls itself again after the vote: its swap would report before this
        expect(phone.locator("#tally .count")).to_have_text("1 of 3 votes cast")
        assert seen == [], seen
    finally:
        server.shutdown()
        app.extensions["adjudicator"].shutdown()
