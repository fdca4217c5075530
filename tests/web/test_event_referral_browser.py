"""Issue 22, items 7 and 10, on a 390x844 touch phone in Debian's Chromium:

- an admin creates an event from the web (name, dates, ruleset, visibility, closed), staffs it (a TD, an
  organiser) and issues a token; the organiser staffs the committee; the TD then rules a claim in it, with the
  event's ruleset preselected;
- a TD taps "Refer to the committee" on an unfinished-game ruling and the committee's form has the players,
  clubs, clocks and the position on its board editor (chess and checkers) without a key pressed; the case
  opens with them.

No page or submit may report a Content-Security-Policy violation or a page error (the ``phone_as`` fixture
of test_verdict_in_view_browser, which fails the test on one). Screenshots: tests/artifacts/event-web-*.png
and referral-*.png."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from committee_support import add_user, bearer, make_app
from events_support import add_event, assign
from werkzeug.serving import make_server

from tests.web.conftest import PHONE, shot
from tests.web.phone_support import choose
from tests.web.test_verdict_in_view_browser import CSP_LISTENER, PASSWORD, screen, settle, to_the_bottom_and_submit
from web.audit import now
from web.tables.events import Event
from web.tables.pairings import Pairing

pytestmark = pytest.mark.browser

RECORD = ('[Round "3"]\n[WhiteClub "Rooks"]\n\n'
          "1. e4 {[%clk 0:59:50]} e5 {[%clk 0:59:40]} 2. Nf3 {[%clk 0:59:00]} Nc6 {[%clk 0:58:30]} *")
CHECKERS_FEN = "B:W21,22,23,K30:B9,10,11"


@dataclass
class Site:
    base: str
    chess_ruling: int
    checkers_ruling: int
    violations: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("eventweb"), mp, WTF_CSRF_ENABLED=True)
    add_user(app, "ada", "admin", password=PASSWORD)
    tina = add_user(app, "tina", "td", password=PASSWORD)
    add_user(app, "olive", "td", password=PASSWORD)
    for name, club in (("m1", "Knights"), ("m2", None), ("m3", None)):
        add_user(app, name, "committee", club=club, password=PASSWORD)
    add_event(app, "spring")
    assign(app, "spring", "tina", "td")
    for member in ("m1", "m2", "m3"):
        assign(app, "spring", member, "committee")
    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug="spring").one()
        session.add(Pairing(event_id=event.id, round=3, board=7, white="Alice Alpha", black="Bob Beta",
                            imported_at=now()))
        session.commit()
    client = app.test_client()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    try:
        rulings = []
        for body in ({"game": "chess", "ruleset": "fide-standard", "record": RECORD, "meta": {"board": "7"},
                      "clock": {"white": "0:59:00", "black": "0:58:30"}, "time_control": "5400"},
                     {"game": "checkers", "ruleset": "acf-master-division", "fen": CHECKERS_FEN,
                      "meta": {"round": "2", "board": "1", "first_player": "Ann Red", "second_player": "Walt White"},
                      "clock": {"red": "0:03:10", "white": "0:01:40"}}):
            response = client.post("/api/v1/rulings", headers=bearer(tina),
                                   json={"event": "spring", "claim": "unfinished-game", **body})
            assert response.status_code == 201, response.json
            rulings.append(response.json["id"])
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield Site(f"http://127.0.0.1:{server.server_port}", *rulings)
    finally:
        server.shutdown()
        app.extensions["adjudicator"].shutdown()
        mp.undo()


@pytest.fixture
def phone_as(browser: Any, site: Site) -> Iterator[Any]:
    """Pages on the phone, logged in; no CSP violation or page error may be reported by the test's end."""
    contexts: list[Any] = []
    seen: list[str] = []

    def login(name: str) -> Any:
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
        context.add_init_script(CSP_LISTENER)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda message: seen.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text or "CSP violation" in message.text else None)
        page.on("pageerror", lambda error: seen.append(f"{page.url}: {error}"))
        page.goto(f"{site.base}/login")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(lambda url: "/login" not in url)
        return page

    yield login
    for context in contexts:
        context.close()
    assert seen == [], f"Content-Security-Policy violations or page errors: {seen}"


def _add_staff(page: Any, user: str, role: str) -> None:
    page.select_option("#s-user", user)
    page.select_option("#s-role", role)
    page.locator("#add-staff-button").tap()
    page.wait_for_selector(f"#staff-list li.person:has-text('{user}')")
    settle(page)


def test_an_event_is_created_and_staffed_from_the_web_and_a_td_rules_in_it(site: Site, phone_as: Any) -> None:
    page = phone_as("ada")
    page.goto(f"{site.base}/admin/events/")
    page.fill("#e-slug", "autumn")
    page.fill("#e-name", "Autumn Rapid")
    page.fill("#e-starts", "2026-10-03")
    page.fill("#e-ends", "2026-10-04")
    page.select_option("#e-ruleset", "fide-rapid")
    page.check('input[name="visibility"][value="private"]', force=True)
    shot(page, "event-web-new")
    to_the_bottom_and_submit(page, "#create-event")
    page.wait_for_url(f"{site.base}/admin/events/autumn")
    settle(page)
    assert page.input_value("#e-name") == "Autumn Rapid" and page.input_value("#e-ruleset") == "fide-rapid"
    _add_staff(page, "tina", "td")
    _add_staff(page, "olive", "organiser")
    page.select_option("#t-user", "tina")
    page.locator("#issue-token-button").tap()
    page.wait_for_selector("#new-token")
    assert len(page.input_value("#new-token")) > 20
    revoke = page.locator("#token-list summary").first.bounding_box()  # it asks once (issue 35)
    assert revoke is not None and revoke["height"] < 60, "Revoke on one line"
    screen(page, "event-web-staffed")
    shot(page, "event-web-staffed")

    organiser = phone_as("olive")  # the organiser staffs the committee pool; no organiser to appoint
    organiser.goto(f"{site.base}/admin/events/autumn")
    assert organiser.locator("#s-role option[value=organiser]").count() == 0
    _add_staff(organiser, "m2", "committee")
    shot(organiser, "event-web-organiser")

    td = phone_as("tina")
    td.goto(f"{site.base}/claims/new")
    choose(td, "#f-event_slug", "autumn")
    td.wait_for_function("() => document.querySelector('#f-ruleset').value === 'fide-rapid'")
    td.check('input[name="claimant"][value="white"]', force=True)
    td.fill("#f-record", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *")
    to_the_bottom_and_submit(td)
    td.wait_for_selector("#verdict")
    settle(td)
    screen(td, "event-web-td-ruled")
    assert "Autumn Rapid" in td.inner_text("#event-name") and "fide-rapid" in td.inner_text("section.verdict")


def test_a_ruling_referred_to_the_committee_carries_its_players_clocks_and_position(site: Site,
                                                                                      phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/rulings/{site.chess_ruling}")
    page.locator("#refer").tap()
    page.wait_for_selector("#referred")
    page.wait_for_selector("[data-board-editor][data-ready='2']")
    settle(page)
    screen(page, "referral-chess-form")
    shot(page, "referral-chess-form")
    values = {name: page.input_value(f"#c-{name}") for name in ("white_name", "white_club", "black_name",
                                                                "clock_white", "clock_black", "round", "board")}
    assert values == {"white_name": "Alice Alpha", "white_club": "Rooks", "black_name": "Bob Beta",
                      "clock_white": "0:59:00", "clock_black": "0:58:30", "round": "3", "board": "7"}
    assert page.input_value("#c-fen").startswith("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w")
    pieces = page.locator("[data-board-editor] [data-board] .piece, [data-board-editor] [data-board] use").count()
    assert pieces >= 32, f"the board editor shows the record's end ({pieces} pieces drawn)"
    for name in ("m1", "m2", "m3"):
        page.check(f"input[name=members][value={name}]")
    to_the_bottom_and_submit(page, "#open-case")
    page.wait_for_url(lambda url: "/committee/cases/" in url and "/new" not in url)
    settle(page)
    text = page.inner_text("main")
    assert "Alice Alpha" in text and "Bob Beta" in text
    screen(page, "referral-chess-case")
    page.goto(f"{site.base}/rulings/{site.chess_ruling}")
    assert page.locator("#referred-case").count() == 1


def test_a_checkers_referral_draws_its_position_on_the_checkers_editor(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/rulings/{site.checkers_ruling}")
    page.locator("#refer").tap()
    page.wait_for_selector("#checkers-editor")
    settle(page)
    screen(page, "referral-checkers-form")
    shot(page, "referral-checkers-form")
    assert page.input_value("#c-fen") == CHECKERS_FEN
    assert page.input_value("#c-red_name") == "Ann Red" and page.input_value("#c-clock_white") == "0:01:40"
    drawn = page.eval_on_selector_all("#checkers-editor [data-square][data-piece]:not([data-piece=''])",
                                      "(es) => es.map((e) => e.dataset.square + e.dataset.piece).sort()")
    assert sorted(drawn) == sorted(["21w", "22w", "23w", "30W", "9r", "10r", "11r"])
    page.locator("#checkers-editor [data-square='14']").tap()  # a red man on 14, in the page
    assert page.input_value("#c-fen") == "B:W21,22,23,K30:B9,10,11,14"
