"""An event's TRF file imported by its TD: round and board fill in the players on the claim
form, and History finds the ruling by a player's name (the TD types nothing twice)."""

from __future__ import annotations

import io
from pathlib import Path

from committee_support import add_user
from flask import Flask
from flask.testing import FlaskClient

TRF = (Path(__file__).resolve().parent.parent / "data" / "club.trf").read_bytes()
RECORD = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"


def td_client(app: Flask) -> FlaskClient:
    add_user(app, "tina", "td", password="td-password")
    client = app.test_client()
    assert client.post("/login", data={"name": "tina", "password": "td-password"}).status_code == 303
    return client


def test_only_a_td_imports_the_pairings(app: Flask, client: FlaskClient) -> None:
    assert client.get("/events/default/pairings").status_code == 404  # a stranger: not said to exist
    response = client.post("/events/default/pairings", data={"trf": (io.BytesIO(TRF), "club.trf")})
    assert response.status_code == 404
    add_user(app, "cora", "committee", password="cm-password")
    member = app.test_client()
    assert member.post("/login", data={"name": "cora", "password": "cm-password"}).status_code == 303
    assert member.get("/events/default/pairings").status_code == 403  # the event's committee: staff, not its TD


def test_a_trf_import_fills_the_players_for_round_and_board(app: Flask) -> None:
    client = td_client(app)
    page = client.post("/events/default/pairings", data={"trf": (io.BytesIO(TRF), "club.trf")})
    assert page.status_code == 200 and "4 games imported" in page.get_data(as_text=True)
    form = client.post("/claims/form", data={"game": "chess", "claim": "threefold-repetition", "round": "2",
                                             "board": "1", "event_slug": "default"}).get_data(as_text=True)
    assert 'value="Beta, Bob"' in form and 'value="Alpha, Ann"' in form
    ruled = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                                         "claimant": "white", "record": RECORD, "round": "2", "board": "1",
                                         "event_slug": "default"})
    assert ruled.status_code == 303 and "/rulings/" in ruled.headers["Location"]
    found = client.get("/history?player=Alpha").get_data(as_text=True)
    assert "Beta, Bob – Alpha, Ann" in found


def test_typed_names_win_over_the_file(app: Flask) -> None:
    client = td_client(app)
    client.post("/events/default/pairings", data={"trf": (io.BytesIO(TRF), "club.trf")})
    form = client.post("/claims/form", data={"game": "chess", "round": "2", "board": "1", "event_slug": "default",
                                             "first_player": "Someone Else"}).get_data(as_text=True)
    assert 'value="Someone Else"' in form and "Beta, Bob" not in form


def test_a_file_that_is_not_trf_is_refused_naming_why(app: Flask) -> None:
    client = td_client(app)
    response = client.post("/events/default/pairings", data={"trf": (io.BytesIO(b"hello"), "x.trf")})
    assert response.status_code == 422 and "no player lines" in response.get_data(as_text=True)
