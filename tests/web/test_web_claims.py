"""The claim form: only the fields a claim needs, errors that name the field and keep
what was typed, quick claims answered at once, engine claims handed to a job."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

RECORD = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"


def form(**fields: str) -> dict[str, str]:
    data = {"game": "chess", "ruleset": "fide-standard", "claimant": "white"}
    data.update(fields)
    return data


def test_the_form_shows_only_what_the_claim_needs(client: FlaskClient) -> None:
    threefold = client.post("/claims/form", data=form(claim="threefold-repetition")).get_data(as_text=True)
    assert 'name="record"' in threefold and 'name="intended_move"' in threefold
    assert 'name="clock_white"' not in threefold and 'name="flagged"' not in threefold
    flag = client.post("/claims/form", data=form(claim="flag")).get_data(as_text=True)
    assert 'name="clock_white"' in flag and 'name="clock_black"' in flag and 'name="flagged"' in flag
    assert 'name="intended_move"' not in flag


def test_checkers_has_red_and_white_and_the_forty_move_rule(client: FlaskClient) -> None:
    page = client.post("/claims/form", data=form(game="checkers", claim="flag")).get_data(as_text=True)
    assert 'name="clock_red"' in page and 'name="clock_white"' in page
    assert 'value="forty-move"' in page and 'value="fifty-move"' not in page
    assert 'value="acf"' in page and 'value="fide-standard"' not in page


def test_htmx_redraw_answers_with_the_form_fragment(client: FlaskClient) -> None:
    response = client.post("/claims/form", data=form(claim="flag"), headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert text.lstrip().startswith("<form") and "<html" not in text


def test_a_bad_clock_names_the_field_and_keeps_what_was_typed(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post(
        "/claims", data=form(claim="flag", record=RECORD, clock_white="0:75:00", clock_black="0:00:00", flagged="black")
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert re.search(r'id="clock_white-error">[^<]*0:75:00', text), "the error is on the White field"
    assert 'value="0:75:00"' in text, "the typed clock is kept"
    assert RECORD in text, "the pasted record is kept"


def test_a_missing_position_is_an_error_on_the_record(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post("/claims", data=form(claim=stand_ins["quick"]))
    assert response.status_code == 422
    assert 'id="record-error"' in response.get_data(as_text=True)


def test_a_quick_claim_goes_straight_to_its_ruling(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post("/claims", data=form(claim=stand_ins["quick"], record=RECORD, round="3", board="7"))
    assert response.status_code == 303
    assert re.fullmatch(r"/rulings/\d+", response.headers["Location"])
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "upheld" in page and "½–½" in page
    assert "FIDE 9.2.2" in page and "just appeared for at least the third time" in page
    assert "Round 3" in page and "Board 7" in page


def test_the_session_remembers_the_event_rules(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    client.post("/claims", data=form(claim=stand_ins["quick"], record=RECORD, ruleset="fide-rapid", round="4"))
    page = client.get("/claims/new").get_data(as_text=True)
    assert re.search(r'value="fide-rapid"\s+title="[^"]*"\s+selected', page)
    assert 'value="4"' in page


def test_an_engine_claim_becomes_a_job(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post("/claims", data=form(claim=stand_ins["slow"], record=RECORD))
    assert response.status_code == 303
    assert re.fullmatch(r"/cases/\d+", response.headers["Location"])
    progress = client.get(response.headers["Location"], headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<progress" in progress and 'hx-trigger="every' in progress and "Cancel" in progress


def test_an_uploaded_record_is_read(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    from io import BytesIO

    data = form(claim=stand_ins["quick"])
    data["record_file"] = (BytesIO(RECORD.encode()), "game.pgn")  # type: ignore[assignment]
    response = client.post("/claims", data=data, content_type="multipart/form-data")
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "4... Ng8" in page


def test_the_checkers_board_sets_up_a_position_square_by_square(client: FlaskClient) -> None:
    data = form(game="checkers", ruleset="acf", claim="forty-move", claimant="red")
    page = client.post("/claims/form", data={**data, "place": "clear"}).get_data(as_text=True)
    assert 'value="W:W:B"' not in page and 'value="B:W:B"' in page
    fen = "B:W:B"
    for square, piece in (("14", "R"), ("23", "W"), ("32", "w")):
        page = client.post(
            "/claims/form", data={**data, "fen": fen, "place": square, "checkers_piece": piece}
        ).get_data(as_text=True)
        fen = re.search(r'name="fen" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert fen == "B:WK23,32:BK14"
    assert 'aria-label="square 14: red king"' in page
    page = client.post("/claims/form", data={**data, "fen": fen, "checkers_turn": "white"}).get_data(as_text=True)
    assert 'value="W:WK23,32:BK14"' in page
    page = client.post("/claims/form", data={**data, "fen": fen, "place": "14", "checkers_piece": "R"}).get_data(
        as_text=True
    )
    assert 'value="B:WK23,32:B"' in page, "tapping the same piece again takes it off"


def test_edit_and_claim_again_fills_the_form_from_the_stored_case(
    client: FlaskClient, stand_ins: dict[str, str]
) -> None:
    response = client.post(
        "/claims", data=form(claim=stand_ins["quick"], record=RECORD, board="9", intended_move="Nf3")
    )
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    again = re.search(r'href="(/claims/new\?from=\d+)"', page).group(1)  # type: ignore[union-attr]
    filled = client.get(again).get_data(as_text=True)
    assert RECORD in filled and 'value="Nf3"' in filled and 'value="9"' in filled
    assert re.search(r'value="threefold-repetition"\s+selected', filled)
