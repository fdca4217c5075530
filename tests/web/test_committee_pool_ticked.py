"""The new committee case (issue 35): when the event's committee pool is exactly the number of members the
ruleset's committee needs, they are ticked already (no taps to choose the only possible committee); with a
larger pool nobody is ticked for the TD, and a TD's own choice sent back is kept."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, make_app
from events_support import add_event, assign
from flask import Flask

PASSWORD = "password-xxxx"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "tina", "td", password=PASSWORD)
    add_event(app, "masters", ruleset="acf-master-division")  # a committee of 3 (config.toml)
    assign(app, "masters", "tina", "td")
    for name in ("m1", "m2", "m3", "m4"):
        add_user(app, name, "committee", password=PASSWORD)
    for name in ("m1", "m2", "m3"):
        assign(app, "masters", name, "committee")
    yield app
    app.extensions["adjudicator"].shutdown()


def ticked(page: str) -> list[str]:
    return re.findall(r'name="members" value="([^"]+)" checked', page)


def login(app: Flask) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"name": "tina", "password": PASSWORD}).status_code == 303
    return client


def test_a_pool_of_exactly_the_committee_is_ticked(app: Flask) -> None:
    page = login(app).get("/committee/cases/new?event=masters&game=checkers").get_data(as_text=True)
    assert ticked(page) == ["m1", "m2", "m3"]


def test_a_larger_pool_is_the_td_s_to_choose_from(app: Flask) -> None:
    assign(app, "masters", "m4", "committee")
    page = login(app).get("/committee/cases/new?event=masters&game=checkers").get_data(as_text=True)
    assert ticked(page) == [] and 'value="m4"' in page
