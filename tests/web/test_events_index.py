"""``/events``: a user finds the events they serve, and every link there opens for them
(a TD's pairings and game checks); an outsider sees none of it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from committee_support import make_app
from events_support import PASSWORD, World, build_world
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    monkeypatch = pytest.MonkeyPatch()
    app: Flask = make_app(Path(tmp_path_factory.mktemp("events-index")), monkeypatch)
    yield build_world(app)
    app.extensions["adjudicator"].shutdown()
    monkeypatch.undo()


def logged_in(world: World, name: str) -> FlaskClient:
    client = world.app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def events_page(client: FlaskClient) -> tuple[list[str], list[str]]:
    page = client.get("/events")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    return re.findall(r'<p class="muted">([a-z0-9-]+) ·', text), re.findall(r'href="(/events/[^"]+)"', text)


@pytest.mark.parametrize(("name", "slugs", "pairings"), [
    ("tpub", ["default", "pub"], ["default", "pub"]),
    ("tpriv", ["default", "priv"], ["default", "priv"]),
    ("m4", ["default", "priv"], []),  # on priv's committee pool: no TD's work
    ("april", ["default", "priv"], []),
    ("ada", ["default", "pub", "priv"], ["default", "pub", "priv"]),
])
def test_a_user_sees_the_events_they_serve_and_each_link_opens(world: World, name: str, slugs: list[str],
                                                               pairings: list[str]) -> None:
    client = logged_in(world, name)
    shown, links = events_page(client)
    assert shown == slugs
    assert sorted(link.split("/")[2] for link in links if link.endswith("/pairings")) == sorted(pairings)
    assert sorted(link.split("/")[2] for link in links if link.endswith("/checks")) == sorted(pairings)
    for link in links:
        assert client.get(link).status_code == 200, link


def test_the_events_page_is_for_logged_in_users(world: World) -> None:
    response = world.app.test_client().get("/events")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert "/events" not in world.app.test_client().get("/claims/new").get_data(as_text=True).split("<main>")[0]
