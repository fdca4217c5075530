"""The Round view on the arbiter's phone (390x844, Debian's Chromium): a move that makes a fivefold reaches
the view by itself (htmx polling), stands out as "Act now" and makes the phone vibrate; one tap acknowledges
it, and the acknowledgement is stored with its user and time (issue 36)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.watch_round import SHUFFLE, game_file, pgn
from tests.web.committee_support import add_user
from tests.web.conftest import make_app, serve
from tests.web.events_support import add_event, assign
from tests.web.phone_support import check_page, log_in, phone_page
from web.tables.events import Event
from web.tables.watch import WatchAck, WatchAlert

PASSWORD = "password-xxxx"
VIBRATIONS = "window.__vibrations = []; navigator.vibrate = (p) => { window.__vibrations.push(p); return true; };"


def write_board_one(folder: Path, plies: int) -> None:
    path = folder / game_file(1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(pgn(SHUFFLE[:plies], 1, "Anna", "Boris"))


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Flask, str, Path]]:
    folder = tmp_path / "export"
    write_board_one(folder, 15)
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False, WATCH_INTERVAL=0.5)
    add_event(app, "open", ruleset="fide-standard")
    with app.extensions["db_sessions"]() as session:
        session.query(Event).filter_by(slug="open").one().broadcast = str(folder)
        session.commit()
    add_user(app, "tina", "td", password=PASSWORD)
    assign(app, "open", "tina", "td")
    for base in serve(app):
        yield app, base, folder
    app.extensions["round_watch"].stop()


def test_a_fivefold_reaches_the_phone_and_its_acknowledgement_is_stored(
    site: tuple[Flask, str, Path], browser: Any,
) -> None:
    app, base, folder = site
    page = phone_page(browser, init_script=VIBRATIONS)
    log_in(page, base, "tina", PASSWORD)
    page.goto(f"{base}/events/open/round")
    page.wait_for_selector("#board-1")  # the watch has read the round: ply 15, threefold claims only
    assert page.locator('.watch-alert[data-action="act"]').count() == 0
    write_board_one(folder, 16)  # 8...Ng8: the start position for the fifth time
    alert = page.locator('.watch-alert[data-action="act"]')
    alert.wait_for()
    assert "Act now" in alert.text_content() and "Fivefold repetition" in alert.text_content()
    assert "8...Ng8" in page.locator("#board-1").inner_text()
    page.wait_for_function("() => window.__vibrations.length > 0")
    check_page(page, base, "round-view-fivefold")
    before = time.time()
    alert.get_by_role("button", name="Acknowledge").tap()
    page.wait_for_selector('.watch-alert[data-action="act"][data-acknowledged] >> text=Acknowledged by tina')
    with app.extensions["db_sessions"]() as session:
        stored = session.query(WatchAlert).filter_by(kind="fivefold").one()
        ack = session.query(WatchAck).filter_by(alert_id=stored.id).one()
        assert ack.user.name == "tina"
        assert before <= ack.acknowledged_at <= time.time()
    page.context.close()
