"""Checkers diagrams are the project's standard American board (issue 5): squares numbered
1-32 from Red's side, kings crowned, the last move (and a jump's path) marked."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from adjudicator.checkers.svg import board_svg
from web.boards import checkers_grid, checkers_svg

RECORD = "1. 11-15 24-20 2. 15-19 23x16 3. 12x19"
"""Red's 12x19 is the last move: a jump over 16."""


def test_the_diagram_is_the_standard_board() -> None:
    fen = "B:W18,K23:B1,5"
    assert checkers_svg(fen, size=400) == board_svg(fen, size=400)
    svg = checkers_svg(fen)
    assert 'class="checkers-board"' in svg and 'class="crown"' in svg  # White's king on 23 is crowned
    assert all(f'class="square-number">{n}</text>' in svg for n in range(1, 33))


def test_the_last_jump_is_marked_along_its_path() -> None:
    svg = checkers_svg("W:W20,21,22,24:B1,2,19", last_move="12x19")
    assert 'class="move-path"' in svg
    marked = set(re.findall(r'class="last-move" data-square="(\d+)"', svg))
    assert marked == {"12", "19"}


def test_a_loosely_written_fen_is_drawn_and_nonsense_is_not() -> None:
    assert 'class="checkers-board"' in checkers_svg('[FEN "W:W18,K23:BK1,5"]')
    assert checkers_svg("nonsense") == ""


def test_the_editor_grid_uses_the_diagrams_squares() -> None:
    rows = checkers_grid("B:W21:B1")
    assert rows[0][1] == (1, "r") and rows[0][0] == (None, None)  # square 1 top left, on a dark square
    assert rows[5][0] == (21, "w") and rows[7][6] == (32, None)


def test_the_ruling_page_draws_the_checkers_game_on_the_standard_board(client: FlaskClient) -> None:
    case = {"game": "checkers", "ruleset": "acf", "claim": "forty-move", "claimant": "white", "record": RECORD}
    response = client.post("/api/v1/rulings", json=case)
    assert response.status_code == 201, response.get_data(as_text=True)
    ruling_id = response.get_json()["id"]
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert 'class="checkers-board"' in page
    assert 'class="move-path"' in page  # the last move, 12x19, drawn along its path
    sheet = client.get(f"/rulings/{ruling_id}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")


def test_chess_diagrams_colour_their_pieces_without_style_attributes() -> None:
    """The CSP refuses style attributes in a page; python-chess's pieces are coloured with them."""
    import chess
    import chess.svg

    from web.boards import chess_svg, without_style_attributes

    start = chess.Board().fen()
    assert chess.svg.board(chess.Board()).count(" style=") > 0  # the knights
    svg = chess_svg(start)
    assert " style=" not in svg
    knight = re.search(r'<g id="black-knight"[^>]*>.*?</g>', svg, re.S)
    assert knight and 'fill="#000000"' in knight.group(0) and 'stroke="#000000"' in knight.group(0)
    assert without_style_attributes('<path fill="red" style="fill:#fff; stroke:#000;"/>') == (
        '<path fill="#fff" stroke="#000"/>')  # the style won over the attribute, and still does
