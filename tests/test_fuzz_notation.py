"""Random legal games written every accepted way read back to python-chess's own positions."""

from __future__ import annotations

import random

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.chess.replay import repetition_key, replay_chess

FIGURINES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘"}
GERMAN = {"K": "K", "Q": "D", "R": "T", "B": "L", "N": "S"}
RUSSIAN = {"K": "Кр", "Q": "Ф", "R": "Л", "B": "С", "N": "К"}


def random_game(seed: int, plies: int) -> chess.Board:
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def written(board: chess.Board, style: str) -> str:
    replay = chess.Board()
    out = []
    for move in board.move_stack:
        if replay.turn == chess.WHITE:
            out.append(f"{replay.fullmove_number}.")
        san = replay.san(move)
        piece = replay.piece_type_at(move.from_square)
        if style == "long" and not replay.is_castling(move):
            letter = "" if piece == chess.PAWN else chess.piece_symbol(piece).upper()  # type: ignore[arg-type]
            sep = "x" if replay.is_capture(move) else "-"
            promo = chess.piece_symbol(move.promotion).upper() if move.promotion else ""
            san = f"{letter}{chess.square_name(move.from_square)}{sep}{chess.square_name(move.to_square)}{promo}"
        elif style == "figurine" and san[0] in FIGURINES:
            san = FIGURINES[san[0]] + san[1:]
        elif style == "german":
            san = (GERMAN.get(san[0], san[0]) + san[1:]) if san[0] in GERMAN else san
            san = san.replace("=Q", "=D").replace("=R", "=T").replace("=B", "=L").replace("=N", "=S")
        elif style == "russian" and san[0] in RUSSIAN:
            san = RUSSIAN[san[0]] + san[1:]
        elif style == "castle-zero":
            san = san.replace("O-O", "0-0").rstrip("+#")
        out.append(san)
        replay.push(move)
    return " ".join(out)


STYLES = ["san", "long", "figurine", "german", "russian", "castle-zero"]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 120), st.sampled_from(STYLES))
def test_every_style_replays_to_python_chess_positions(seed: int, plies: int, style: str) -> None:
    board = random_game(seed, plies)
    replay = replay_chess(written(board, style))
    assert not replay.illegal and not replay.unreadable
    assert len(replay.plies) == len(board.move_stack)
    check = chess.Board()
    for ply, move in zip(replay.plies, board.move_stack, strict=True):
        check.push(move)
        assert ply.key == repetition_key(check)
        assert ply.counter == check.halfmove_clock
    assert replay.final_board.fen() == board.fen()
