"""The board editor's live check (GET /claims/position) is the check a submitted position gets:
on a set of positions its answer and the claim form's refusal on the fen field agree word for word."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

POSITIONS = [
    ("4k3/8/8/8/8/8/8/4K2R b K - 0 1", None),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", None),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3", None),
    ("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", None),  # castling rights that cannot be: ignored, as the server does
    ("8/8/8/8/8/8/8/K7 w - - 0 1", "Black has no king"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a pawn stands on the first or last rank"),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "the side not to move is in check"),
    ("kk6/8/8/8/8/8/8/4K3 w - - 0 1", "a side has more than one king"),
    ("4k3/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1", "White has more than 8 pawns"),
    ("not a fen", "fen is not a position"),
]


def _form_error(client: FlaskClient, fen: str, claim: str) -> str | None:
    data = {"game": "chess", "ruleset": "fide-standard", "claim": claim, "claimant": "white", "fen": fen,
            "clock.white": "0:01:00", "clock.black": "0:00:00", "flagged": "black"}
    page = client.post("/claims", data=data).get_data(as_text=True)
    found = re.search(r'id="fen-error"[^>]*>(.*?)</', page, re.S)
    return html.unescape(found.group(1).strip()) if found else None


@pytest.mark.parametrize(("fen", "problem"), POSITIONS)
def test_the_live_check_and_the_form_agree(client: FlaskClient, fen: str, problem: str | None) -> None:
    answer = client.get("/claims/position", query_string={"fen": fen}).get_json()
    assert answer["is_legal"] is (problem is None)
    for claim in ("flag", "fifty-move"):  # every claim on a position alone, not only those that search it
        refused = _form_error(client, fen, claim)
        if problem is None:
            assert refused is None and answer["message"] is None
        else:
            assert problem in answer["message"]
            assert refused == answer["message"], claim


def test_no_position_is_neither_legal_nor_illegal(client: FlaskClient) -> None:
    assert client.get("/claims/position?fen=").get_json() == {"fen": "", "is_legal": None, "message": None}


def test_a_position_after_a_record_is_not_refused_for_the_illegal_move_it_shows(client: FlaskClient) -> None:
    """With a record the fen is the board now, which an illegal move may have made impossible (7.5.1)."""
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move", "claimant": "black",
            "record": "1. e4 e5 2. Ke3", "fen": "rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq - 1 2"}
    response = client.post("/claims", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]


CHECKERS = [
    ("B:W21,22,23:B1,2,3", None),
    ("W:W:B9", None),  # White, to move, has no pieces: a game that is over, ruled so, not refused
    ("B:W1-13:B20", "White has 13 pieces; a side has at most 12"),
    ("B:W21:B30", "Red has a man on square 30, its crowning row"),
    ("W:W3:B12", "White has a man on square 3, its crowning row"),
    ("B:W:B", "there are no pieces on the board"),
    ("X:W1:B2", "a checkers FEN starts with B or W"),
]


@pytest.mark.parametrize(("fen", "problem"), CHECKERS)
def test_the_checkers_live_check_the_redrawn_editor_and_the_form_agree(
    client: FlaskClient, fen: str, problem: str | None
) -> None:
    answer = client.get("/claims/position", query_string={"fen": fen, "game": "checkers"}).get_json()
    assert answer["is_legal"] is (problem is None)
    data = {"game": "checkers", "ruleset": "acf", "claim": "flag", "claimant": "red", "fen": fen,
            "clock_red": "0:01:00", "clock_white": "0:00:00", "flagged": "white"}
    response = client.post("/claims", data=data)
    page = response.get_data(as_text=True)
    redrawn = client.post("/claims/form", data=data).get_data(as_text=True)  # no JavaScript: the server says it
    status = re.search(r'<p class="position-status ([^"]*)" data-position-status role="status">([^<]*)</p>', redrawn)
    assert status is not None
    if problem is None:
        assert answer["message"] is None and response.status_code == 303
        assert status.groups() == ("is-legal", "Legal position")
        return
    assert problem in answer["message"] and response.status_code == 422
    found = re.search(r'id="fen-error"[^>]*>(.*?)</', page, re.S)
    assert found is not None and html.unescape(found.group(1).strip()) == answer["message"]
    assert status.group(1) == "is-illegal" and problem in html.unescape(status.group(2))
    assert fen not in html.unescape(status.group(2)), "the editor's words leave out the FEN it shows"
