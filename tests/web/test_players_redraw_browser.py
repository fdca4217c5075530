"""A name the TD types is never wiped by a late redraw (phone walk-through, 390x844, Debian's Chromium).

Round and board redraw the players (``POST /claims/form`` fills them from the event's pairings). The
server here holds that redraw until the TD has typed the White player's name, so the name is typed
while the answer is on its way: the name survives the swap and goes into the ruling and its case.
A field nobody touched still takes the pairing's name."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, request
from sqlalchemy import select

from tests.web.conftest import make_app, serve
from tests.web.phone_support import choose, set_up_position
from web.audit import now
from web.tables.events import DEFAULT_SLUG, Event
from web.tables.pairings import Pairing
from web.tables.rulings import CaseRow

pytestmark = pytest.mark.browser

HOLD_LIMIT = 30.0
"""Seconds a held redraw waits at most for the test to let it go."""


class SlowRedraw:
    """The app, with the redraws that carry a board (``POST /claims/form``) held until the test lets them go
    (:attr:`go`, set unless a test clears it): the answer is late by as long as the test needs, whatever the
    machine's load; counts the redraws answered."""

    def __init__(self, app: Flask) -> None:
        self.answered = 0
        self.sent_first_players: list[str | None] = []
        self.lock = threading.Lock()
        self.go = threading.Event()
        self.go.set()

        @app.before_request
        def _hold() -> None:
            if request.method == "POST" and request.path == "/claims/form" and request.form.get("board"):
                self.sent_first_players.append(request.form.get("first_player"))
                self.go.wait(HOLD_LIMIT)
                with self.lock:
                    self.answered += 1

        @app.after_request
        def _number(response: Any) -> Any:
            if request.method == "POST" and request.path == "/claims/form" and request.form.get("board"):
                response.headers["X-Redraw-Number"] = str(self.answered)  # the page's swap reports it (SETTLED)
            return response


@pytest.fixture
def slow_site(tmp_path: Path) -> Iterator[tuple[str, Flask, SlowRedraw]]:
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    with app.extensions["db_sessions"]() as session:
        event = session.scalars(select(Event).filter_by(slug=DEFAULT_SLUG)).one()
        session.add(Pairing(event_id=event.id, round=3, board=8, white="Carla Chess", black="Dan Draughts",
                            imported_at=now()))
        session.commit()
    slow = SlowRedraw(app)
    for base in serve(app):
        yield base, app, slow


def flag_form(page: Any, base: str) -> None:
    page.goto(f"{base}/claims/new")
    choose(page, "#f-claim", "flag")
    set_up_position(page)
    page.fill("#f-fen", "4k3/8/8/8/8/8/8/4K2R b K - 0 1")
    page.check('input[name="claimant"][value="white"]', force=True)
    page.fill("#f-clock_white", "0:01:10")
    page.fill("#f-clock_black", "0:00:00")
    page.locator("#game-details summary").tap()
    page.evaluate(SETTLED)


SETTLED = """() => document.addEventListener("htmx:afterSettle", (event) => {
    const number = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Redraw-Number");
    if (number) (window.redrawsSettled = window.redrawsSettled || []).push(Number(number));
})"""
"""Records on the page the number of each held redraw whose answer htmx has swapped in and settled."""


def wait_answered(slow: SlowRedraw | HeldClaimRedraw, count: int, page: Any) -> None:
    """Wait until the ``count``-th held redraw was answered and its answer swapped into the page (the
    deadline only bounds a hang)."""
    page.wait_for_function("(count) => (window.redrawsSettled || []).includes(count)", arg=count,
                           timeout=HOLD_LIMIT * 1000)
    assert slow.answered >= count


def test_a_name_typed_while_the_redraw_is_on_its_way_survives_into_the_ruling(
    slow_site: tuple[str, Flask, SlowRedraw], phone: Any
) -> None:
    base, app, slow = slow_site
    flag_form(phone, base)
    slow.go.clear()
    phone.fill("#f-round", "3")
    phone.fill("#f-board", "7")  # no pairing on board 7: the redraw answers with empty names
    phone.locator("#f-first_player").tap()  # the board's change event sends the redraw
    phone.keyboard.type("Ann")
    assert slow.answered == 0, "the name was typed before the redraw was answered"
    slow.go.set()
    wait_answered(slow, 1, phone)
    assert slow.sent_first_players == [""], "the redraw left before the name was typed"
    assert phone.input_value("#f-first_player") == "Ann", "the late redraw kept what was typed"
    assert phone.evaluate("() => document.activeElement.id") == "f-first_player", "and the caret stays there"
    phone.keyboard.type("a Smith")
    phone.locator("#f-second_player").tap()
    phone.keyboard.type("Bob")
    phone.click("#claim-submit")
    phone.wait_for_url(lambda url: "/rulings/" in url)
    assert "Anna Smith" in phone.inner_text("main")
    with app.extensions["db_sessions"]() as session:
        row = session.scalars(select(CaseRow)).one()
        assert (row.round, row.board, row.first_player, row.second_player) == ("3", "7", "Anna Smith", "Bob")


def test_fields_nobody_touched_still_take_the_pairings_names(
    slow_site: tuple[str, Flask, SlowRedraw], phone: Any
) -> None:
    base, _, slow = slow_site
    flag_form(phone, base)
    phone.fill("#f-round", "3")
    phone.fill("#f-board", "8")
    phone.locator("#f-round").tap()  # the board's change event sends the redraw
    wait_answered(slow, 1, phone)
    assert phone.input_value("#f-first_player") == "Carla Chess"
    assert phone.input_value("#f-second_player") == "Dan Draughts"


def test_without_javascript_the_typed_names_and_the_pairings_fill_on_submit(
    slow_site: tuple[str, Flask, SlowRedraw], browser: Any
) -> None:
    base, app, _ = slow_site
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{base}/claims/new?claim=flag")
        set_up_position(page)
        page.fill("#f-fen", "4k3/8/8/8/8/8/8/4K2R b K - 0 1")
        page.check('input[name="claimant"][value="white"]')
        page.fill("#f-clock_white", "0:01:10")
        page.fill("#f-clock_black", "0:00:00")
        page.locator("#game-details summary").click()
        page.fill("#f-round", "3")
        page.fill("#f-board", "8")
        page.fill("#f-first_player", "Ann")
        page.click("#claim-submit")
        page.wait_for_url(lambda url: "/rulings/" in url)
    finally:
        context.close()
    with app.extensions["db_sessions"]() as session:
        row = session.scalars(select(CaseRow)).one()
        assert (row.first_player, row.second_player) == ("Ann", None), "a name typed wins over the pairing"


class HeldClaimRedraw:
    """The app, with the redraws of the whole form (``POST /claims/form`` for a claim picked) held until the
    test lets them go (:attr:`go`): what the TD enters meanwhile is entered while the answer is on its way,
    however loaded the machine; counts the redraws answered and notes the claimant each one carried."""

    def __init__(self, app: Flask) -> None:
        self.answered = 0
        self.sent_claimants: list[str | None] = []
        self.go = threading.Event()
        self.go.set()

        @app.before_request
        def _hold() -> None:
            if request.method == "POST" and request.path == "/claims/form" and not request.form.get("board"):
                self.sent_claimants.append(request.form.get("claimant"))
                self.go.wait(HOLD_LIMIT)
                self.answered += 1

        @app.after_request
        def _number(response: Any) -> Any:
            if request.method == "POST" and request.path == "/claims/form" and not request.form.get("board"):
                response.headers["X-Redraw-Number"] = str(self.answered)
            return response


def test_a_claimant_ticked_and_a_record_pasted_while_the_claim_redraw_is_on_its_way_survive_into_the_ruling(
    tmp_path: Path, phone: Any
) -> None:
    """Picking the claim redraws the whole form; a TD who ticks the claimant and pastes the record before
    that answer arrives (a venue's slow network) keeps both: the ruling is the threefold claimed by White."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    held = HeldClaimRedraw(app)
    for base in serve(app):
        phone.goto(f"{base}/claims/new?claim=flag")
        phone.evaluate(SETTLED)
        held.go.clear()
        phone.select_option("#f-claim", "threefold-repetition")  # the redraw leaves, and is held
        phone.check('input[name="claimant"][value="white"]', force=True)
        phone.fill("#f-record", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *")
        assert held.answered == 0, "both were entered before the redraw was answered"
        held.go.set()
        wait_answered(held, 1, phone)
        assert held.sent_claimants == [None], "the redraw left before the claimant was ticked"
        assert phone.is_checked('input[name="claimant"][value="white"]'), "the late redraw kept the claimant"
        assert phone.input_value("#f-record").startswith("1. Nf3 Nf6"), "and the record"
        phone.click("#claim-submit")
        phone.wait_for_url(lambda url: "/rulings/" in url)
        verdict = phone.inner_text("main")
        assert "UPHELD" in verdict.upper() and "claimed by White" in verdict


class HeldRedraw:
    """The app, with the redraws that ``holds`` picks held until the test lets them go (:attr:`go`): a redraw
    asked later is answered first, and the held one's answer arrives last, however loaded the machine."""

    def __init__(self, app: Flask, holds: Callable[[], bool]) -> None:
        self.held = threading.Event()
        self.answered = 0
        self.go = threading.Event()

        @app.before_request
        def _hold() -> None:
            if request.method == "POST" and request.path == "/claims/form" and holds():
                self.held.set()
                self.go.wait(HOLD_LIMIT)
                self.answered += 1

    def release(self, page: Any) -> None:
        """Let the held redraw go, and wait until its answer reached the page and the page is idle."""
        self.go.set()
        deadline = time.monotonic() + HOLD_LIMIT  # bounds a hang only
        while self.answered < 1:
            assert time.monotonic() < deadline, "the held redraw was never answered"
            time.sleep(0.05)  # the poll's interval; the state, not the time, ends the wait
        page.wait_for_load_state("networkidle")


def test_a_claim_picked_again_while_its_redraw_is_on_its_way_is_the_one_shown(tmp_path: Path, phone: Any) -> None:
    """The TD picks the flag claim, then (its redraw still on the way) the fifty-move claim: the second pick
    is not dropped, the fifty-move form is shown, and the flag's late answer puts nothing back."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    slow = HeldRedraw(app, lambda: request.form.get("claim") == "flag")
    for base in serve(app):
        phone.goto(f"{base}/claims/new")
        phone.select_option("#f-claim", "flag")
        assert slow.held.wait(HOLD_LIMIT), "the flag's redraw reached the server"
        phone.select_option("#f-claim", "fifty-move")
        phone.wait_for_selector('#f-claim option[value="fifty-move"][selected]', state="attached")
        slow.release(phone)
        assert phone.input_value("#f-claim") == "fifty-move", "the later choice stands"
        assert phone.locator("#f-clock_white").count() == 0, "no flag claim's clock fields came back"


ANSWERS = """() => document.addEventListener("htmx:afterRequest", () => {
    window.answersSeen = (window.answersSeen || 0) + 1
})"""
"""Counts on the page the htmx answers received (swapped or not)."""


def test_a_ruleset_redraw_answered_while_the_claim_s_is_on_its_way_does_not_undo_the_claim(
    tmp_path: Path, phone: Any
) -> None:
    """The TD picks a ruleset, then (its redraw still on the way) the flag claim. The ruleset's answer comes
    first, while the claim's is still on its way: it is not swapped over the form (it carries the claim as it
    was), and the claim's answer, when it comes, is: the flag form with its clocks."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    ruleset = HeldRedraw(app, lambda: request.headers.get("HX-Trigger") != "f-claim")
    claim = HeldRedraw(app, lambda: request.headers.get("HX-Trigger") == "f-claim")
    for base in serve(app):
        phone.goto(f"{base}/claims/new")
        phone.evaluate(ANSWERS)
        phone.select_option("#f-ruleset", "fide-standard-guidelines-iii")  # its redraw leaves and is held
        assert ruleset.held.wait(HOLD_LIMIT), "the ruleset's redraw reached the server"
        phone.select_option("#f-claim", "flag")  # its redraw leaves too, and is held
        assert claim.held.wait(HOLD_LIMIT), "the claim's redraw reached the server"
        ruleset.go.set()  # the ruleset's answer first
        phone.wait_for_function("() => window.answersSeen >= 1")
        assert phone.input_value("#f-claim") == "flag", "the ruleset's answer did not put the claim back"
        claim.release(phone)
        assert phone.input_value("#f-claim") == "flag", "the later choice stands"
        assert phone.locator("#f-clock_white").count() == 1, "the flag claim's form came"
        assert "guidelines" in phone.input_value("#f-ruleset"), "and the ruleset picked first"
