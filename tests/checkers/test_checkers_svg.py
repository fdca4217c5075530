"""The American diagram: numbered squares, Red at the top, kings crowned, the last move marked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from adjudicator.checkers.board import START, Position
from adjudicator.checkers.svg import board_svg, square_xy

NS = "{http://www.w3.org/2000/svg}"


def test_squares_are_numbered_one_to_thirty_two_with_the_double_corners_in_place() -> None:
    root = ET.fromstring(board_svg(START))
    numbers = [int(t.text or "0") for t in root.iter(f"{NS}text")]
    assert sorted(numbers) == list(range(1, 33))
    assert square_xy(1) == (1, 0) and square_xy(5) == (0, 1)  # Red's double corner 1/5: top left
    assert square_xy(32) == (6, 7) and square_xy(28) == (7, 6)  # White's double corner 28/32: bottom right
    assert square_xy(4) == (7, 0) and square_xy(29) == (0, 7)  # single corners


def test_red_men_stand_at_the_top_and_kings_are_crowned() -> None:
    svg = board_svg(Position.from_fen("B:WK14,22:B5,K9"))
    root = ET.fromstring(svg)
    pieces = {g.get("data-square"): g.get("class") for g in root.iter(f"{NS}g")}
    assert pieces == {"5": "piece red man", "9": "piece red king", "14": "piece white king", "22": "piece white man"}
    assert svg.count('class="crown"') == 2
    red_man = next(g for g in root.iter(f"{NS}g") if g.get("data-square") == "5")
    circle = red_man.find(f"{NS}circle")
    assert circle is not None and float(circle.get("cy", "0")) < 100  # row 2 of 8 on a 400 px board


def test_the_last_move_is_marked_along_its_jump_path() -> None:
    position = Position.from_fen("B:W19,26,27:B15")
    move = position.legal_moves()[0]
    svg = board_svg(position.push(move), last_move=move)
    assert str(move) == "15x24x31"
    assert sorted(re.findall(r'class="last-move" data-square="(\d+)"', svg)) == ["15", "24", "31"]
    assert 'class="move-path"' in svg


def test_a_fen_string_is_drawn_too_and_marked_squares_are_highlighted() -> None:
    svg = board_svg("W:WK14:B5", marked=[5, 9])
    assert sorted(re.findall(r'class="last-move" data-square="(\d+)"', svg)) == ["5", "9"]
    assert 'data-square="14"' in svg and "piece white king" in svg
