"""Entry that does not wait for the network (issue 37, item 3), on a 390x844 touch phone in Debian's Chromium.

Every answer of the server to the claim form's questions (``/claims/...``: the candidates, a record's
reading, the form's redraws) is held back while 20 moves of a real game are entered by taps: after each
tap the next position is drawn, the move is in the record and the page's own candidates for it are on the
buttons, with no answer of the server delivered. That is the cause of "the next position ready at once at
a venue's network speed" (a 300 ms round trip), asserted without a clock. When the answers are let go, the
server's ranking replaces the page's for the position shown. The real game: lichess game #1 of
tests/data/lichess-prod500.txt (see tests/data/README.md)."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from tests.web.test_move_entry_browser import (
    BOARD,
    drawn_pieces,
    open_entry,
    pieces_of,
    real_game,
    record_moves,
    tap_move,
    when,
)

pytestmark = pytest.mark.browser
PLIES = 20


def test_twenty_moves_are_entered_while_every_answer_of_the_server_is_held(live_server: str, phone: Any) -> None:
    sans = real_game(1)[:PLIES]
    open_entry(phone, live_server)
    held: list[Any] = []
    def hold(route: Any) -> None:
        held.append(route)

    phone.route("**/claims/**", hold)
    board = chess.Board()
    local_taps = 0
    for ply, san in enumerate(sans):
        move = board.parse_san(san)
        is_candidate = when(phone, f'[data-candidates][data-local-ply="{ply}"]',
                            f"document.querySelector('[data-candidate=\"{move.uci()}\"]') !== null")
        local_taps += tap_move(phone, board, move, is_candidate) == "candidate"
        board.push(move)
        shown = when(phone, f'{BOARD}[data-ply="{ply + 1}"]',
                     "[document.querySelector('[data-candidates]').dataset.localPly,"
                     " document.querySelector('[data-candidates]').getAttribute('aria-busy'),"
                     " document.querySelectorAll('[data-candidates] button[data-candidate]:not([disabled])').length]")
        assert drawn_pieces(phone, pieces_of(board)) == pieces_of(board), f"ply {ply + 1} drawn"
        assert shown[0] == str(ply + 1) and shown[2] > 0, f"ply {ply + 1}: the page's own candidates, ready to tap"
        assert shown[1] == "true", "the server's answer is still held"
        assert all(not route.request.failure for route in held)
    assert held, "the page did ask the server (its answers were held)"
    assert record_moves(phone.input_value("#f-record")) == sans, "the record holds the 20 moves"
    assert local_taps > 0, "some moves were entered by the page's own candidates"
    print(f"\n{PLIES} plies entered with {len(held)} answers of the server held; {local_taps} by a candidate")
    for route in list(held):  # the answers go, late
        route.continue_()
    phone.unroute("**/claims/**", hold)
    phone.wait_for_selector(f'[data-candidates][data-ply="{PLIES}"][aria-busy="false"]', state="attached")
