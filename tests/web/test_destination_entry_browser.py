"""Destination-first entry on the chess entry board, on a 390x844 touch phone (issue 37, item 4;
docs/one-screen.md "Destination first"): a tap on a square that holds no piece of the side to move is the
move's destination. One legal move ends there: it is played. Several do: their origins are marked, and the
next tap on one of them plays that move (the destination tapped again drops the choice). A promotion still
asks for the piece. The usual from→to taps go on working beside it."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from adjudicator.chess.replay import replay_chess
from tests.web.phone_support import check_page
from tests.web.test_move_entry_browser import (
    BOARD,
    THREEFOLD_GAME,
    drawn_pieces,
    open_entry,
    pieces_of,
    real_game,
    record_moves,
    shown_ply,
    square,
    when,
)

pytestmark = pytest.mark.browser


def test_a_tap_on_a_square_one_legal_move_ends_on_plays_that_move(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    shown_ply(phone, 0)
    square(phone, "e4").tap(force=True)  # only e2-e4 ends on e4
    shown_ply(phone, 1)
    square(phone, "e5").tap(force=True)  # only e7-e5
    shown_ply(phone, 2)
    square(phone, "g1").tap(force=True)  # one's own piece: the usual from→to move
    square(phone, "f3").tap(force=True)
    shown_ply(phone, 3)
    assert phone.input_value("#f-record") == "1. e4 e5 2. Nf3"
    played = pieces_of(replay_chess("1. e4 e5 2. Nf3").final_board)
    assert drawn_pieces(phone, played) == played


def test_a_square_two_knights_reach_marks_both_and_the_next_tap_chooses(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    record = "1. Nf3 Nf6 2. Nc3 d5 3. Nb5 d4"
    phone.fill("#f-record", record)
    shown_ply(phone, 6)
    square(phone, "d4").tap(force=True)  # the black pawn on d4: both white knights can take it
    phone.wait_for_selector(f'{BOARD}[data-choosing="d4"][data-origins="b5 f3"]', state="attached")
    assert "Nb5 or Nf3" in phone.inner_text("[data-entry-status]")
    check_page(phone, live_server, "entry-10-destination-choice")
    square(phone, "d4").tap(force=True)  # the destination again: the choice is dropped, nothing entered
    phone.wait_for_selector(f"{BOARD}:not([data-choosing])", state="attached")
    assert phone.input_value("#f-record") == record
    square(phone, "d4").tap(force=True)
    phone.wait_for_selector(f'{BOARD}[data-choosing="d4"]', state="attached")
    square(phone, "f3").tap(force=True)  # the origin chosen: its move is played
    shown_ply(phone, 7)
    assert phone.input_value("#f-record") == record + " 4. Nfxd4"
    played = pieces_of(replay_chess(record + " 4. Nfxd4").final_board)
    assert drawn_pieces(phone, played) == played and played["b5"] == "wn"
    assert phone.get_attribute(BOARD, "data-choosing") is None


def test_a_promotion_by_a_destination_tap_asks_for_the_piece(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    record = "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7"
    phone.fill("#f-record", record)
    shown_ply(phone, 8)
    square(phone, "a8").tap(force=True)  # the black rook on a8: only the b7 pawn can take it
    knight = phone.locator('.promotion-dialog-button[data-piece="wn"]')
    knight.wait_for(state="attached")
    knight.tap(force=True)
    shown_ply(phone, 9)
    assert phone.input_value("#f-record") == record + " 5. bxa8=N"
    promoted = pieces_of(replay_chess(record + " 5. bxa8=N").final_board)
    assert drawn_pieces(phone, promoted) == promoted and promoted["a8"] == "wn"


def test_a_real_game_entered_destination_first_comes_out_move_for_move(live_server: str, phone: Any) -> None:
    """The 89 plies of lichess game #337 (tests/data/lichess-prod500.txt), each by its destination's tap, then
    its origin's when the board asks (castling: the king's square): the record is the game's, and the board
    asks exactly when several legal moves end on the square."""
    sans = real_game(THREEFOLD_GAME)
    open_entry(phone, live_server)
    board = chess.Board()
    taps = 0
    for ply, san in enumerate(sans):
        move = board.parse_san(san)
        origins = sorted(chess.square_name(m.from_square) for m in board.legal_moves if m.to_square == move.to_square)
        when(phone, f'{BOARD}[data-ply="{ply}"]', "true")
        square(phone, chess.square_name(move.to_square)).tap(force=True)
        taps += 1
        if len(set(origins)) > 1:
            asked = when(phone, f"{BOARD}[data-choosing]", f"document.querySelector('{BOARD}').dataset.origins")
            assert asked == " ".join(sorted(set(origins))), (san, asked)
            square(phone, chess.square_name(move.from_square)).tap(force=True)
            taps += 1
        board.push(move)
    shown_ply(phone, len(sans))
    assert record_moves(phone.input_value("#f-record")) == sans, "the record field holds the game, move for move"
    assert drawn_pieces(phone, pieces_of(board)) == pieces_of(board)
    print(f"\n{len(sans)} plies entered destination first in {taps} taps ({taps / len(sans):.2f} a ply)")
