"""bench/entry_model.py's split-row model (issue 37, item 4): how many places of the entry board's
candidate row the TD looks at before he finds the written move, or knows it is not there; and the
destination-first model: the destination's tap, then a look and the origin's tap when several moves end there."""

from __future__ import annotations

import pytest

from bench.entry_model import (
    arrows_seconds,
    destination_lines,
    destination_seconds,
    destination_taps,
    first_place_then_destination,
    split_row_places,
    split_row_seconds,
)

QE2, RF1, BB5, NE5, NG5, PA3, PD3 = ((1, "e2", "d1", ""), (2, "f1", "h1", ""), (3, "b5", "c4", ""),
                                     (4, "e5", "f3", ""), (4, "g5", "f3", ""), (5, "a3", "a2", ""),
                                     (5, "d3", "d2", ""))
ROW = [PD3, QE2, RF1, BB5, NE5, NG5, PA3]
"""d3 first (the likeliest), then queen, rook, bishop, the knight's two moves, a pawn's."""


def test_the_likeliest_move_is_found_at_the_first_place() -> None:
    assert split_row_places(ROW, PD3, 8) == (1, True)


def test_groups_of_other_pieces_cost_one_place_each() -> None:
    """Ng5: place 1, then the queen's, rook's and bishop's groups passed (one place each), then the
    knight's two moves."""
    assert split_row_places(ROW, NG5, 8) == (1 + 3 + 2, True)


def test_an_ordered_group_ends_the_search_at_the_square_beyond_the_move() -> None:
    nf5 = (4, "f5", "e3", "")
    assert split_row_places(ROW, nf5, 8) == (1 + 3 + 2, False), "Ne5, then Ng5: f5 would stand between"
    king = (0, "g1", "e1", "")
    assert split_row_places(ROW, king, 8) == (2, False), "the queen's group comes after the king's"
    assert split_row_places(ROW, (5, "h4", "h2", ""), 8) == (1 + 5, False), "the pawns' group to its end"


def test_only_the_shown_places_count() -> None:
    assert split_row_places(ROW, PA3, 3) == (3, False)
    assert split_row_seconds(1, True, 2) == 0.15 + 0.5
    assert split_row_seconds(3, False, 3) == 3 * 0.15 + 3 * 0.5


def test_a_destination_one_legal_move_ends_on_costs_one_tap() -> None:
    assert destination_taps(1, False) == 1
    assert destination_seconds(1, False) == 0.5


def test_a_destination_several_moves_end_on_costs_a_look_at_the_marks_and_the_origins_tap() -> None:
    assert destination_taps(2, False) == 2
    assert destination_seconds(3, False) == pytest.approx(0.5 + 0.15 + 0.5)
    assert destination_taps(2, True) == 3, "a promotion not offered still asks for its piece"
    assert destination_seconds(1, True) == 1.0


def test_a_played_move_has_an_origin() -> None:
    with pytest.raises(ValueError, match="origins"):
        destination_seconds(0, False)


def test_the_row_first_place_then_the_destination() -> None:
    """The TD looks at place 1 whatever happens; the move there costs its tap, else the destination's taps."""
    assert first_place_then_destination(0, 3, False) == 0.15 + 0.5
    assert first_place_then_destination(4, 1, False) == 0.15 + 0.5
    assert first_place_then_destination(None, 2, False) == pytest.approx(0.15 + 0.5 + 0.15 + 0.5)


def test_the_destination_lines_compare_with_the_board() -> None:
    """Two plies: one at place 1 with two origins, one not offered with one origin; the board: 1 s a ply."""
    lines = destination_lines([0, None], [2, 1], [False, False], [2, 2])
    assert "in 50.0% of plies" in lines[0] and "1.500 taps a ply, 0.825 s a ply: 17.5% faster" in lines[0]
    assert "1.000 taps a ply, 0.650 s a ply: 35.0% faster" in lines[1]


def test_arrows_cost_their_looks_then_one_tap_or_the_piece_first_on_another_arrows_square() -> None:
    """The move an arrow: the looks and its destination's tap; another piece's arrow on the move's square:
    the piece, then the square; else destination first."""
    assert arrows_seconds(2, False, 3, False, looks=1) == pytest.approx(0.15 + 0.5)
    assert arrows_seconds(3, True, 1, False, looks=3) == pytest.approx(3 * 0.15 + 2 * 0.5)
    assert arrows_seconds(None, False, 2, False, looks=1) == pytest.approx(0.15 + 0.5 + 0.15 + 0.5)
    lines = destination_lines([0, None], [2, 1], [False, False], [2, 2], arrow_squares=[False, True])
    assert "1 look at them a ply: 0.900 s a ply: 10.0% faster" in lines[2]
    assert "3 looks at them a ply: 1.200 s a ply: 20.0% slower" in lines[3]
