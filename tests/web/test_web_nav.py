"""The header reaches every area from a phone: New claim, History, Committee, Appeals, and
Log in, or the user's name and Log out."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, make_app


def header(page: str) -> str:
    found = re.search(r'<header class="top">(.*?)</header>', page, re.S)
    assert found is not None
    return found.group(1)


def test_the_header_links_to_every_area_and_to_log_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_app(tmp_path, monkeypatch).test_client()
    top = header(client.get("/history").get_data(as_text=True))
    for href, text in (("/claims/new", "New claim"), ("/history", "History"), ("/committee/", "Committee"),
                       ("/appeals/", "Appeals")):
        assert re.search(rf'<a href="{re.escape(href)}"[^>]*>{text}</a>', top), text
    assert 'aria-current="page">History<' in top  # where the TD is
    assert 'href="/login?next=/history"' in top and "Log out" not in top


def test_logged_in_the_header_names_the_user_and_logs_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "Tina Td", "td", password="td-password")
    client = app.test_client()
    assert client.post("/login", data={"name": "Tina Td", "password": "td-password"}).status_code == 303
    top = header(client.get("/committee/").get_data(as_text=True))
    assert "Tina Td" in top and 'action="/logout"' in top and ">Log in<" not in top
    assert client.post("/logout").status_code == 303
    assert client.get("/committee/").status_code == 302  # logged out: back to the login page


def test_on_a_phone_every_area_is_one_tap_away(live_server: str, phone: Any) -> None:
    phone.goto(f"{live_server}/claims/new")
    links = phone.locator("header nav.areas a")
    assert links.all_inner_texts() == ["New claim", "History", "Committee", "Appeals"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing runs off the screen
    for index in range(4):
        box = links.nth(index).bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    phone.locator("header nav.areas a", has_text="Appeals").click()
    phone.wait_for_url(re.compile(r"/login"))
    assert phone.locator("header a.who").inner_text() == "Log in"
