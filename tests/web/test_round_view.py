"""The event's live Round view and the watch behind it (issue 36, item 3; web/watch/).

A round folder on disk is the event's broadcast. Opening the Round view starts the watch; the alerts it finds
are stored and shown (act alerts first, "Do not call" apart); an acknowledgement is stored with its user and
time, once; a restarted app raises no alert twice and keeps the acknowledgement; one process at a time holds an
event's lease; an alert opens the claim form filled from the live game; only the event's TDs see the view.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask.testing import FlaskClient

from tests.watch_round import SHUFFLE, game_file, pgn
from tests.web.committee_support import add_user
from tests.web.conftest import make_app
from tests.web.events_support import add_event, assign
from web.db import Base
from web.tables.events import Event
from web.tables.watch import WatchAck, WatchAlert, WatchGame
from web.watch.store import take_lease

PASSWORD = "password-xxxx"
WAIT = 60.0
FLAG = pgn(["e4", "c5", "Nf3", "d6", "Bc4", "Nf6"], 3, "Elif", "Femi", clocks=[600, 590, 300, 580, 0, 570])


def write_round(folder: Path, plies: int) -> None:
    for name, text in ((game_file(1), pgn(SHUFFLE[:plies], 1, "Anna", "Boris")), (game_file(3), FLAG)):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def set_broadcast(app: Flask, slug: str, source: str) -> None:
    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug=slug).one()
        event.broadcast = source
        session.commit()


def login(app: Flask, name: str) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def until(check: Callable[[], bool]) -> None:
    """Wait for a state (never a fixed sleep), failing after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, "the state never came"
        time.sleep(0.05)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    found = tmp_path / "export"
    write_round(found, 16)
    return found


def round_app(tmp_path: Path, folder: Path, ruleset: str = "sabah-active30") -> Flask:
    app = make_app(tmp_path, WATCH_INTERVAL=0.1, WATCH_LEASE_SECONDS=0.5)
    with app.extensions["db_sessions"]() as session:
        if session.query(Event).filter_by(slug="open").one_or_none() is None:
            session.commit()
            add_event(app, "open", ruleset=ruleset)
            set_broadcast(app, "open", str(folder))
            add_user(app, "tina", "td", password=PASSWORD)
            assign(app, "open", "tina", "td")
    return app


@pytest.fixture
def app(tmp_path: Path, folder: Path) -> Iterator[Flask]:
    found = round_app(tmp_path, folder)
    yield found
    found.extensions["round_watch"].stop()


def fragment(client: FlaskClient) -> str:
    return client.get("/events/open/round", headers={"HX-Request": "true"}).get_data(as_text=True)


def test_the_round_view_shows_the_alerts_and_stores_an_acknowledgement(app: Flask) -> None:
    td = login(app, "tina")
    page = td.get("/events/open/round").get_data(as_text=True)
    assert 'hx-trigger="every 2s"' in page
    until(lambda: "Fivefold repetition" in fragment(td))
    shown = fragment(td)
    assert shown.index("Act now") < shown.index("Do not call")  # act first; the flag is not to be called
    assert shown.index("Fivefold repetition") < shown.index("Flag down")
    assert "Sabah Active 30 local rules v.5" in shown
    boards = shown[shown.index('id="boards-title"'):]
    board_1 = boards[boards.index('id="board-1"'):boards.index("</tr>", boards.index('id="board-1"'))]
    board_3 = boards[boards.index('id="board-3"'):boards.index("</tr>", boards.index('id="board-3"'))]
    assert "Fivefold repetition: over, the arbiter acts" in board_1, "9.6.1 ended it: not 'in play'"
    assert "in play" in board_3, "a flag the arbiter may not call (Sabah v.5) leaves the game in play"
    with app.extensions["db_sessions"]() as session:
        alert = session.query(WatchAlert).filter_by(kind="fivefold").one()
        assert (alert.board, alert.action, alert.ply) == (1, "act", 16)
        alert_id = alert.id
    before = time.time()
    answer = td.post(f"/events/open/round/alerts/{alert_id}/ack")
    assert answer.status_code == 303
    with app.extensions["db_sessions"]() as session:
        ack = session.query(WatchAck).filter_by(alert_id=alert_id).one()
        assert ack.user.name == "tina" and before <= ack.acknowledged_at <= time.time()
    assert "Acknowledged by tina" in fragment(td)
    assert td.post(f"/events/open/round/alerts/{alert_id}/ack", headers={"HX-Request": "true"}).status_code == 409


def test_a_restarted_app_raises_no_alert_twice_and_keeps_the_acknowledgement(
    app: Flask, tmp_path: Path, folder: Path,
) -> None:
    td = login(app, "tina")
    td.get("/events/open/round")
    until(lambda: "Fivefold repetition" in fragment(td))
    with app.extensions["db_sessions"]() as session:
        alert_id = session.query(WatchAlert).filter_by(kind="fivefold").one().id
    td.post(f"/events/open/round/alerts/{alert_id}/ack")
    app.extensions["round_watch"].stop()
    again = round_app(tmp_path, folder)
    try:
        td2 = login(again, "tina")
        (folder / game_file(3)).write_text(FLAG.replace("{[%clk 0:09:30]} *", "{[%clk 0:09:30]} 4. O-O *"))
        td2.get("/events/open/round")

        def read_again() -> bool:  # the new watch has read the round (board 3's new move is stored)
            with again.extensions["db_sessions"]() as session:
                return bool(session.query(WatchGame).filter_by(board=3, plies=7).count())

        until(read_again)
        with again.extensions["db_sessions"]() as session:
            assert session.query(WatchAlert).filter_by(kind="fivefold").count() == 1
            assert session.query(WatchAck).filter_by(alert_id=alert_id).one().user.name == "tina"
        assert "Acknowledged by tina" in fragment(td2)
    finally:
        again.extensions["round_watch"].stop()


def test_one_process_holds_the_lease(app: Flask) -> None:
    with app.extensions["db_sessions"]() as session:
        event_id = session.query(Event).filter_by(slug="open").one().id
        assert take_lease(session, event_id, "one", 10.0, now=1000.0)
        assert not take_lease(session, event_id, "two", 10.0, now=1005.0)
        assert take_lease(session, event_id, "one", 10.0, now=1005.0)  # renewed
        assert take_lease(session, event_id, "two", 10.0, now=1016.0)  # expired: taken over


def test_an_alert_opens_the_claim_form_filled_from_the_live_game(app: Flask) -> None:
    td = login(app, "tina")
    td.get("/events/open/round")
    until(lambda: "Flag down" in fragment(td))
    with app.extensions["db_sessions"]() as session:
        flag = session.query(WatchAlert).filter_by(kind="flag-down").one()
        fivefold = session.query(WatchAlert).filter_by(kind="fivefold").one()
    assert f'href="/claims/new?alert={flag.id}"' in fragment(td)
    form = td.get(f"/claims/new?alert={flag.id}").get_data(as_text=True)
    assert 'value="flag" selected' in form or 'value="flag"  selected' in form or "flag\" selected" in form
    assert "Elif" in form and "Femi" in form and "0:00:00" in form and "Bc4" in form
    form = td.get(f"/claims/new?alert={fivefold.id}").get_data(as_text=True)
    assert "Anna" in form and "Ng8" in form


def test_only_the_events_tds_see_the_round(app: Flask) -> None:
    add_user(app, "carl", "td", password=PASSWORD)
    add_user(app, "cora", "committee", password=PASSWORD)
    assign(app, "open", "cora", "committee")
    assert login(app, "carl").get("/events/open/round").status_code == 404
    assert login(app, "cora").get("/events/open/round").status_code == 403
    assert app.test_client().get("/events/open/round").status_code in (302, 303)


def test_the_watch_tables_match_their_migration(tmp_path: Path, folder: Path) -> None:
    app = round_app(tmp_path, folder)
    engine = app.extensions["db_engine"]
    metadata = sa.MetaData()
    for table in ("users", "events", "watch_alerts", "watch_acks", "watch_games", "watch_leases"):
        Base.metadata.tables[table].to_metadata(metadata)
    with engine.connect() as connection:
        def ours(name: str | None, kind: str, _parent: object) -> bool:
            return kind != "table" or name in metadata.tables

        context = MigrationContext.configure(connection, opts={"include_name": ours})
        assert compare_metadata(context, metadata) == []
