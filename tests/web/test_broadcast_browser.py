"""The event's broadcast on the claim form (issue 21, item 4), in Debian's Chromium on a phone.

A local HTTP server (tests/web/broadcast_support.py) serves the round's PGN, and the test appends
moves to it while it runs: the form lists the round's boards with players and the last move,
sees the new moves, and one tap fills the record, ``[%clk]`` comments included, on which the claim
is ruled. Then the source goes down (the form keeps the last copy and says so), and a slow source
is read while a claim is ruled (the claim does not wait). Only the event's staff see the boards."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.broadcast_support import LOOPBACK, PgnServer, pgn_game
from tests.web.committee_support import add_user
from tests.web.conftest import PHONE, make_app, serve, shot
from tests.web.events_support import add_event, assign
from tests.web.phone_support import check_page, choose
from tests.web.test_security_browser import violations
from web.tables.events import Event

PASSWORD = "password-xxxx"
REPEAT = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"]
"""Board 1 so far; two more plies (Ng1 Ng8) bring the start position a third time."""
SETTINGS = {**LOOPBACK, "ttl_seconds": 0.5, "timeout_seconds": 2}


def round_pgn(board_one: list[str]) -> str:
    return pgn_game(1, "Alpha, Ann", "Beta, Bob", board_one) + "\n" + pgn_game(2, "Gamma, Gil", "Delta, Dan",
                                                                                ["d4", "d5", "c4"])


def set_broadcast(app: Flask, slug: str, source: str) -> None:
    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug=slug).one()
        event.broadcast = source
        session.commit()


@pytest.fixture
def source() -> Iterator[PgnServer]:
    server = PgnServer(round_pgn(REPEAT))
    yield server
    server.stop()


@pytest.fixture
def app_and_site(tmp_path: Path, source: PgnServer) -> Iterator[tuple[Flask, str]]:
    application = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False, BROADCAST=SETTINGS)
    add_event(application, "open")
    set_broadcast(application, "open", source.url)
    add_user(application, "tina", "td", password=PASSWORD)
    assign(application, "open", "tina", "td")
    for site in serve(application):
        yield application, site


def log_in(page: Any, site: str, name: str) -> None:
    page.goto(f"{site}/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login" not in url)


def open_form(page: Any, site: str) -> None:
    """The claim form (a threefold claim, the first chess claim) in the event ``open``."""
    page.goto(f"{site}/claims/new")
    assert page.input_value("#f-claim") == "threefold-repetition"
    choose(page, "#f-event_slug", "open")  # the panel follows the event (remembered after a claim)


def board_text(page: Any, board: int) -> str:
    return str(page.inner_text(f'#broadcast [data-broadcast-board="{board}"]'))


@pytest.mark.browser
def test_the_form_lists_the_rounds_boards_follows_new_moves_and_fills_the_record(
    app_and_site: tuple[Flask, str], source: PgnServer, phone: Any
) -> None:
    app, site = app_and_site
    seen = violations(phone)
    log_in(phone, site, "tina")
    open_form(phone, site)
    phone.wait_for_selector('#broadcast [data-broadcast-board="2"]')  # read in the background, then shown
    assert re.sub(r"\s+", " ", board_text(phone, 1)) == "Board 1 Alpha, Ann – Beta, Bob 3... Nf6"
    assert "Gamma, Gil – Delta, Dan" in board_text(phone, 2) and "2. c4" in board_text(phone, 2)
    assert "round 3" in phone.inner_text("#broadcast h3")
    check_page(phone, site, "broadcast-boards")
    open_form(phone, site)  # afresh: axe-core leaves style="" on what it looked at, which htmx would carry on
    phone.wait_for_selector('#broadcast [data-broadcast-board="2"]')

    source.write(round_pgn([*REPEAT, "Ng1", "Ng8"]))  # the game goes on while the TD looks
    phone.click("#broadcast button.refresh")
    phone.wait_for_function("() => document.querySelector('#broadcast [data-broadcast-board=\"1\"]')"
                            "?.textContent.includes('4... Ng8')")
    phone.click('#broadcast [data-broadcast-board="1"]')
    phone.wait_for_function("() => document.querySelector('#f-record').value.includes('Ng8')")
    record = phone.input_value("#f-record")
    assert "4. Ng1 {[%clk 0:56:50]} Ng8 {[%clk 0:56:45]}" in record, "the clock comments come with it"
    assert '[White "Alpha, Ann"]' in record
    phone.locator("details.card summary").click()
    assert phone.input_value("#f-first_player") == "Alpha, Ann"
    assert phone.input_value("#f-board") == "1" and phone.input_value("#f-round") == "3"
    phone.check('input[name="claimant"][value="white"]', force=True)
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "upheld", "ruled on the moves that came in meanwhile"

    source.stop()  # the source goes down
    open_form(phone, site)
    phone.wait_for_function("() => document.querySelector('#broadcast .broadcast-status')"
                            "?.textContent.includes('could not be read')")
    status = phone.inner_text("#broadcast .broadcast-status")
    assert "cannot be reached" in status and "The boards below are the copy read at" in status
    assert "4... Ng8" in board_text(phone, 1), "the last copy is kept"
    check_page(phone, site, "broadcast-down")

    slow = PgnServer(round_pgn(REPEAT))
    slow.delay = 8
    try:
        set_broadcast(app, "open", slow.url)
        open_form(phone, site)
        phone.wait_for_selector("#broadcast .broadcast-status")
        assert "Reading the broadcast" in phone.inner_text("#broadcast .broadcast-status")
        deadline = time.monotonic() + 60  # bounds a hang only: the reading starts with the form
        while not slow.asked:
            assert time.monotonic() < deadline, "the slow source is never asked"
            time.sleep(0.05)
        phone.fill("#f-record", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *")
        phone.check('input[name="claimant"][value="white"]', force=True)
        phone.click("#claim-submit")
        phone.wait_for_selector("#verdict")
        assert slow.statuses == [], "ruled while the source had not answered yet: the claim did not wait for it"
        assert phone.inner_text("#verdict").lower() == "upheld"
        open_form(phone, site)
        phone.wait_for_function("() => document.querySelector('#broadcast .broadcast-status')"
                                "?.textContent.includes('no answer within 2 s')")
    finally:
        slow.stop()
    assert seen == [], seen


def test_only_the_events_staff_see_its_broadcast(tmp_path: Path, source: PgnServer) -> None:
    app = make_app(tmp_path, BROADCAST=SETTINGS)
    add_event(app, "open")
    set_broadcast(app, "open", source.url)
    add_user(app, "tina", "td", password=PASSWORD)
    assign(app, "open", "tina", "td")
    add_user(app, "otto", "td", password=PASSWORD)  # a TD, but not of this event
    add_event(app, "other")
    assign(app, "other", "otto", "td")
    add_user(app, "mona", "committee", password=PASSWORD)
    assign(app, "open", "mona", "committee")  # the event's committee: staff

    def client(name: str | None) -> FlaskClient:
        found = app.test_client()
        if name:
            assert found.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
        return found

    app.extensions["broadcasts"].refresh(source.url)
    fragment = {"HX-Request": "true"}
    for name, sees in (("tina", True), ("mona", True), ("otto", False), (None, False)):
        found = client(name)
        deadline = time.monotonic() + 60  # bounds a hang only: the first look starts the reading
        while True:
            text = found.get("/claims/broadcast?event_slug=open&game=chess", headers=fragment).get_data(as_text=True)
            if "Alpha, Ann" in text or not sees or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert ("Alpha, Ann" in text) is sees, name
        chosen = found.post("/claims/broadcast/choose", data={"event_slug": "open", "game": "chess",
                                                              "claim": "threefold-repetition",
                                                              "broadcast_game": f"{source.url}#0"})
        assert chosen.status_code == (200 if sees else 403), name
        assert ("Alpha, Ann" in chosen.get_data(as_text=True)) is sees, name
    app.extensions["adjudicator"].shutdown()


def twelve_boards() -> str:
    """Round 1 as DGT LiveChess writes it: no ``[Board]`` tag, the board only in ``[Round "1.b"]``, the games in
    the order a text sort gives (1, 10, 11, 12, 2, ...); board b has 1 + b % 3 plies, each with its clock."""
    return "\n".join(pgn_game(b, f"White {b:02d}", f"Black {b:02d}", ["e4", "e5", "Nf3"][: 1 + b % 3], round_="1",
                              board_tag=False) for b in sorted(range(1, 13), key=str))


LISTED = """() => [...document.querySelectorAll('#broadcast [data-broadcast-board]')]
  .map((b) => [b.dataset.broadcastBoard, b.querySelector('.board-no').textContent.trim(),
               b.querySelector('.players').textContent.trim()])"""


def flag_form(page: Any, site: str) -> None:
    """The claim form of the event ``open`` for a flag claim, its broadcast's boards listed."""
    open_form(page, site)
    page.wait_for_selector('#broadcast [data-broadcast-board="12"]')  # the event's redraw is in
    choose(page, "#f-claim", "flag")
    page.wait_for_selector('#broadcast [data-broadcast-board="12"]')


@pytest.mark.browser
def test_a_round_without_board_tags_is_numbered_from_its_round_tags_and_a_pick_fills_board_and_clocks(
        app_and_site: tuple[Flask, str], browser: Any, phone: Any) -> None:
    app, site = app_and_site
    dgt = PgnServer(twelve_boards())
    try:
        set_broadcast(app, "open", dgt.url)
        log_in(phone, site, "tina")
        flag_form(phone, site)
        listed = phone.evaluate(LISTED)
        assert listed == [[str(b), f"Board {b}", f"White {b:02d} – Black {b:02d}"] for b in range(1, 13)], \
            "each board's number and game are its [Round]'s, in number order"
        assert "round 1" in phone.inner_text("#broadcast h3")
        height = phone.locator("#broadcast").bounding_box()["height"]
        assert height <= PHONE["height"], f"the panel of 12 boards is {height} px tall"
        check_page(phone, site, "broadcast-twelve-boards")
        flag_form(phone, site)  # afresh (axe-core's style="" left aside)

        phone.fill("#f-broadcast_q", "black 07")  # by player
        phone.wait_for_function("() => document.querySelectorAll('#broadcast [data-broadcast-board]').length === 1")
        assert phone.evaluate(LISTED)[0][0] == "7"
        phone.fill("#f-broadcast_q", "11")  # by board: 11, not 1
        phone.wait_for_function("() => document.querySelector('#broadcast [data-broadcast-board]')"
                                "?.dataset.broadcastBoard === '11'")
        assert len(phone.evaluate(LISTED)) == 1
        phone.locator('#broadcast [data-broadcast-board="11"]').tap()
        phone.wait_for_function("() => document.querySelector('#f-record').value.includes('[Round \"1.11\"]')")
        assert '[White "White 11"]' in phone.input_value("#f-record")
        assert phone.input_value("#f-board") == "11" and phone.input_value("#f-round") == "1"
        # board 11: 3 plies, White's last clock after 2. Nf3, Black's after 1... e5 (broadcast_support.CLOCKS)
        assert (phone.input_value("#f-clock_white"), phone.input_value("#f-clock_black")) == ("0:58:50", "0:59:45")
        phone.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))")
        bar = phone.locator("#claim-bar").bounding_box()
        assert bar["y"] >= 0 and bar["y"] + bar["height"] <= PHONE["height"], f"the claim bar left the screen: {bar}"
        board = phone.locator('[data-move-entry="chess"]').bounding_box()
        assert board["y"] >= bar["y"] + bar["height"] - 1 and board["y"] < PHONE["height"] / 2, \
            f"the game's board is shown under the claim bar: board {board}, bar {bar}"
        shot(phone, "broadcast-picked-board-11")
    finally:
        dgt.stop()

    # without JavaScript the search is the form's, posted by its button
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        dgt = PgnServer(twelve_boards())
        set_broadcast(app, "open", dgt.url)
        app.extensions["broadcasts"].refresh(dgt.url)
        log_in(page, site, "tina")
        page.goto(f"{site}/claims/new")
        page.select_option("#f-event_slug", "open")
        page.click("noscript button, button:has-text('Show the fields')")
        page.wait_for_selector('#broadcast [data-broadcast-board="12"]')
        page.fill("#f-broadcast_q", "White 03")
        page.click("[data-broadcast-find]")
        page.wait_for_load_state()
        assert page.evaluate(LISTED) == [["3", "Board 3", "White 03 – Black 03"]]
    finally:
        dgt.stop()
        context.close()
