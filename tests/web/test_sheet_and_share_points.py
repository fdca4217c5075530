"""The smaller points of issue 35 on a ruling: the printed sheet says who is to move and, once an appeal to
the appeals committee is filed, what became of it (no "yes / no" left for the pen); a player on a share link
is not offered "Edit and claim again"."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest
from committee_support import add_user, make_app
from events_support import add_event, assign
from flask import Flask

THREEFOLD = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
             "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3"}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "tina", "td", password="td-password")
    add_user(app, "april", "appeals", password="appeals-password")
    yield app
    app.extensions["adjudicator"].shutdown()


def login(app: Flask, name: str, password: str) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": password}).status_code == 303
    return client


def sheet_text(app: Flask, ruling_id: int) -> str:
    response = app.test_client().get(f"/rulings/{ruling_id}/sheet.pdf")
    assert response.status_code == 200
    return " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(response.data)).pages)


def test_the_sheet_says_who_is_to_move_and_what_became_of_the_appeal(app: Flask) -> None:
    given = app.test_client().post("/api/v1/rulings", json=THREEFOLD)
    assert given.status_code == 201, given.get_json()
    ruling_id = given.get_json()["id"]
    before = sheet_text(app, ruling_id)
    assert "Black to move" in before, "after 5. Nf3 Black is to move"
    assert "Appeal to the appeals committee lodged: yes / no" in before
    filed = login(app, "tina", "td-password").post(
        "/appeals/", data={"subject": f"ruling:{ruling_id}", "grounds": "Black says the position differed"})
    assert filed.status_code == 303
    appeal_id = filed.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    lodged = sheet_text(app, ruling_id)
    assert f"Appeal #{appeal_id} to the appeals committee lodged" in lodged and "not decided yet" in lodged
    assert "yes / no" not in lodged
    decided = login(app, "april", "appeals-password").post(
        f"/appeals/{appeal_id}/decision", data={"outcome": "upheld", "reasons": "The record is clear."})
    assert decided.status_code == 303
    after = sheet_text(app, ruling_id)
    assert f"Appeal #{appeal_id} to the appeals committee: upheld" in after
    assert "yes / no" not in after and "not decided yet" not in after


def test_a_player_on_a_share_link_is_not_offered_edit_and_claim_again(app: Flask) -> None:
    add_event(app, "club", private=True, ruleset="fide-standard")
    assign(app, "club", "tina", "td")
    tina = login(app, "tina", "td-password")
    ruled = tina.post("/claims", data={**THREEFOLD, "event_slug": "club", "ruleset_event": "club"})
    assert ruled.status_code == 303
    page = tina.get(ruled.headers["Location"]).get_data(as_text=True)
    assert "Edit and claim again" in page, "the event's TD edits and claims again"
    found = re.search(r'id="share-url" value="([^"]+)"', page)
    assert found is not None
    player = app.test_client()
    opened = player.get(found.group(1), follow_redirects=True)
    assert opened.status_code == 200 and 'id="verdict"' in opened.get_data(as_text=True)
    assert "Edit and claim again" not in opened.get_data(as_text=True)
