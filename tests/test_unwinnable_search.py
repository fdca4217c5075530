"""The helpmate search's own machinery must agree with python-chess move for move.

The search generates moves with its own generator and computes the key of the
position after a move without playing it; a difference from the rules would
let it miss a helpmate (or prove a false "unwinnable"), so both are checked
against python-chess along random games from varied starts.
"""

from __future__ import annotations

import random

import chess

from engines.chess.unwinnable.movegen import legal_moves
from engines.chess.unwinnable.positions import child_key, in_check, position_key, set_board

STARTS = (
    chess.STARTING_FEN,
    "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",  # castling both ways
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",  # en passant
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",  # promotions for both sides
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",  # a pinned pawn
    "8/8/1k6/p1p1p1p1/PpPpPpPp/1P1P1P1P/4B3/3K4 b - - 0 1",
    "3N4/8/8/8/4n1kp/8/8/4K3 b - - 0 1",
)


def random_positions(count: int, seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board(rng.choice(STARTS))
        for _ in range(rng.randint(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


def test_fast_generator_gives_python_chess_moves_in_order() -> None:
    for board in random_positions(1500, seed=1):
        assert legal_moves(board) == list(board.generate_legal_moves()), board.fen()


def test_key_after_a_move_is_the_key_of_the_position_reached() -> None:
    for board in random_positions(400, seed=2):
        key = position_key(board)
        for move in board.legal_moves:
            kind = board.piece_type_at(move.from_square)
            assert kind is not None
            predicted = child_key(key, move, kind)
            board.push(move)
            assert predicted == position_key(board), (board.fen(), move.uci())
            assert in_check(predicted) == board.is_check()
            board.pop()


def test_stepping_by_key_gives_the_board_the_move_gives() -> None:
    """The search steps to a child by its key instead of playing the move: same pieces, same moves."""
    for board in random_positions(300, seed=3):
        key = position_key(board)
        for move in list(board.legal_moves):
            kind = board.piece_type_at(move.from_square)
            assert kind is not None
            stepped = board.copy(stack=False)
            set_board(stepped, child_key(key, move, kind))
            board.push(move)
            assert stepped.board_fen() == board.board_fen(), (board.fen(), move.uci())
            assert (stepped.turn, stepped.ep_square, stepped.castling_rights) == (
                board.turn, board.ep_square, board.clean_castling_rights())
            assert legal_moves(stepped) == list(board.generate_legal_moves()), (board.fen(), move.uci())
            board.pop()


def test_both_move_orders_search_the_same_moves() -> None:
    """The two orders of the search (by kind, rewarded first) differ in order only: same moves, same
    classification, so a proof by an exhausted pass means the same in both."""
    import time

    from engines.chess.unwinnable.helpmate import HelpmateSearch

    for board in random_positions(200, seed=4):
        if board.is_game_over():
            continue
        for winner in (chess.WHITE, chess.BLACK):
            nodes = []
            for by_kind in (True, False):
                search = HelpmateSearch(board, winner, 10**6, time.process_time() + 60, by_kind=by_kind)
                node = search._expand(False)
                assert node is not None
                nodes.append(sorted((entry[1].uci(), entry[0]) for entry in node.children))
            assert nodes[0] == nodes[1], board.fen()
            assert [m for m, _ in nodes[0]] == sorted(m.uci() for m in board.legal_moves)
