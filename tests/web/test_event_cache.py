"""The event a claim is entered in is read at most ``EVENT_CACHE_SECONDS`` ago (web.events.cache):
a change made in the serving process counts at once, one made by another process within the
setting, and a new event can be ruled in as soon as it exists."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from committee_support import make_app
from events_support import QUICK_CASE, add_event
from flask import Flask

from web.tables.events import DEFAULT_EVENT_ID, Event


def claim(app: Flask, event: str | None = None) -> int:
    body = QUICK_CASE if event is None else {**QUICK_CASE, "event": event}
    return app.test_client().post("/api/v1/rulings", json=body).status_code


def test_closing_the_default_event_in_the_serving_process_refuses_anonymous_claims_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch, EVENT_CACHE_SECONDS=60.0)
    assert claim(app) == 201
    with app.extensions["db_sessions"]() as session:
        event = session.get(Event, DEFAULT_EVENT_ID)
        assert event is not None
        event.is_open = False
        session.commit()
    assert claim(app) == 401


def test_a_change_made_by_another_process_counts_within_the_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache's own clock is the test's: the closed event is still open while the snapshot is younger
    than EVENT_CACHE_SECONDS, and refused once it is that old (no wall clock, no sleep)."""
    from web.events import cache

    now = [1000.0]
    monkeypatch.setattr(cache, "time", type("Clock", (), {"monotonic": staticmethod(lambda: now[0])}))
    app = make_app(tmp_path, monkeypatch, EVENT_CACHE_SECONDS=0.5)
    assert claim(app) == 201  # the event's snapshot is read now, at 1000.0
    other = sqlite3.connect(tmp_path / "adjudicator.db")  # as a command line or another server would
    other.execute("UPDATE events SET is_open = 0 WHERE id = ?", (DEFAULT_EVENT_ID,))
    other.commit()
    other.close()
    now[0] += 0.4
    assert claim(app) == 201, "within the setting the kept snapshot is used"
    now[0] += 0.1
    assert claim(app) == 401, "once the snapshot is EVENT_CACHE_SECONDS old the change counts"


def test_an_unknown_event_is_not_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch, EVENT_CACHE_SECONDS=60.0)
    assert claim(app, "later") == 422
    add_event(app, "later")  # an event that is not open: anonymous callers need a TD's token
    assert claim(app, "later") == 401
