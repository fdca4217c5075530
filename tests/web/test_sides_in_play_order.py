"""Pages list the sides in the order the game is played: White before Black in chess, Red (the first
mover, ACF) before White in checkers, whatever order the stored players and clocks come back in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from flask import Flask

from web.sides import in_play_order

CHESS_FEN = "8/8/8/4k3/8/8/4K3/7R w - - 0 1"


def test_chess_lists_white_then_black_and_leaves_out_flagged() -> None:
    stored = {"black": "0:04:00", "flagged": ["black"], "white": "0:05:00"}
    assert in_play_order(stored, "chess") == [("White", "0:05:00"), ("Black", "0:04:00")]


def test_checkers_lists_red_first_and_reads_black_as_red() -> None:
    assert in_play_order({"white": 1, "red": 2}, "checkers") == [("Red", 2), ("White", 1)]
    assert in_play_order({"white": 1, "black": 2}, "checkers") == [("Red", 2), ("White", 1)]


def test_nothing_stored_lists_nothing() -> None:
    assert in_play_order(None, "chess") == [] and in_play_order({}, "checkers") == []


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    return make_app(tmp_path, monkeypatch)


def decided_case_and_appeal(app: Flask, case: dict[str, object]) -> tuple[str, int, int]:
    td = add_user(app, "tina", "td", password="td-password")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    client = app.test_client()
    made = client.post("/api/v1/committee-cases", json={**case, "members": list(members)}, headers=bearer(td))
    assert made.status_code == 201, made.json
    case_id = made.json["id"]
    for token in members.values():
        client.post(f"/api/v1/committee-cases/{case_id}/votes", json={"result": "1-0"}, headers=bearer(token))
    appeal = client.post("/api/v1/appeals", json={"subject": f"committee-case:{case_id}", "grounds": "a slip"},
                         headers=bearer(td))
    assert appeal.status_code == 201, appeal.json
    return td, case_id, appeal.json["id"]


def pages(app: Flask, case_id: int, appeal_id: int) -> list[str]:
    client = app.test_client()
    assert client.post("/login", data={"name": "tina", "password": "td-password"}).status_code == 303
    return [text(client.get(url).get_data(as_text=True))
            for url in (f"/committee/cases/{case_id}", f"/appeals/{appeal_id}", "/committee/")]


def test_a_chess_case_and_its_appeal_show_white_first(app: Flask) -> None:
    case = {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game", "fen": CHESS_FEN,
            "clock": {"black": "0:04:00", "white": "0:05:00"},
            "players": {"black": {"name": "Bea Black"}, "white": {"name": "Will White"}}}
    _, case_id, appeal_id = decided_case_and_appeal(app, case)
    committee, appeal, listing = pages(app, case_id, appeal_id)
    assert "Clocks: White 0:05:00, Black 0:04:00" in committee
    assert re.search(r"White Will White.*Black Bea Black", committee)
    assert "Clocks White 0:05:00, Black 0:04:00" in appeal
    assert re.search(r"White Will White.*Black Bea Black", appeal)
    assert "Will White – Bea Black" in listing


def test_a_checkers_case_and_its_appeal_show_red_first(app: Flask) -> None:
    case = checkers_case([])
    case["clock"] = {"white": "0:01:40", "red": "0:03:10"}
    case["players"] = {"white": {"name": "Walt White"}, "red": {"name": "Ann Red"}}
    case.pop("members")
    _, case_id, appeal_id = decided_case_and_appeal(app, case)
    committee, appeal, listing = pages(app, case_id, appeal_id)
    assert "Clocks: Red 0:03:10, White 0:01:40" in committee
    assert re.search(r"Red Ann Red.*White Walt White", committee)
    assert "Clocks Red 0:03:10, White 0:01:40" in appeal
    assert "Ann Red – Walt White" in listing
