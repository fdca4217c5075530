"""The fast FEN reader (adjudicator/chess/fen.py): the very board ``chess.Board(fen)`` builds, or its error.

Batches of dead-position questions (FIDE 5.2.2, 6.9) read thousands of FENs; the fast
reader must never read one differently: same pieces, side to move, castling rights,
e.p. square, counters and empty move stack, and the same error for a bad FEN.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.chess.fen import read_fen
from tests.conftest import TEST_DATA


def assert_same_reading(fen: str) -> None:
    try:
        expected = chess.Board(fen)
    except ValueError as exc:
        with pytest.raises(ValueError) as raised:
            read_fen(fen)
        assert str(raised.value) == str(exc)
        return
    board = read_fen(fen)
    assert vars(board) == vars(expected), fen
    assert board.fen() == expected.fen() and board == expected


def test_every_fen_of_the_public_and_real_sets_is_read_as_python_chess_reads_it() -> None:
    public = (TEST_DATA / "unwinnable-public.tsv").read_text(encoding="utf-8").splitlines()[1:]
    real = (TEST_DATA / "lichess-real-1000.txt").read_text(encoding="utf-8").splitlines()
    fens = [line.split("\t")[0] for line in public] + [" ".join(line.split()[:4]) for line in real]
    assert len(fens) > 1000
    for fen in fens:
        assert_same_reading(fen)


@pytest.mark.parametrize("fen", [
    chess.STARTING_FEN,
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",  # four fields
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7",  # five fields
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 0",  # full-move 0 is read as 1
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",  # rights without rooks: python-chess's own reading
    "1r2k1r1/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1",  # rooks not in the corners
    "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",  # Shredder letters: handed to python-chess
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "8/8/8/8/8/8/8/K6k w - e4 0 1",  # an e.p. square off ranks 3 and 6
    "8/8/8/8/8/8/8/K6k w - - 0 1 extra",
    "8/8/8/8/8/8/8/K6k x - - 0 1",
    "8/8/8/8/8/8/8/K6k w - - -1 1",
    "8/8/8/8/8/8/8/K6k w - - +1 1",
    "8/8/8/8/8/8/8/K6k w - - \u0663 1",  # a digit that is not ASCII
    "8/8/8/8/8/8/8/K6k w - z9 0 1",
    "8/8/8/8/8/8/8/K6k w KX - 0 1",
    "44/8/8/8/8/8/8/K6k w - - 0 1",  # two digits in a row
    "9/8/8/8/8/8/8/K6k w - - 0 1",
    "8/8/8/8/8/8/8/8/K6k w - - 0 1",  # nine ranks
    "8/8/8/8/8/8/8/K5k w - - 0 1",  # a short rank
    "8/8/8/8/8/8/8/K7k w - - 0 1",  # a long rank
    "8/8/8/8/8/8/8/K6kp w - - 0 1",
    "Q~7/8/8/8/8/8/8/K6k w - - 0 1",  # a promoted piece (Crazyhouse mark)
    "8/8/8/8/8/8/8/K6x w - - 0 1",
    "8/8/8/8/8/8/8/K60k w - - 0 1",
    "",
    "8/8/8/8/8/8/8/K6k",
    "8/8/8/8/8/8/8/K6k b",
])
def test_odd_and_bad_fens_are_read_or_refused_as_python_chess_does(fen: str) -> None:
    assert_same_reading(fen)


def test_positions_along_random_games_are_read_as_python_chess_reads_them() -> None:
    rng = random.Random(40)
    for _ in range(20):
        board = chess.Board()
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            assert_same_reading(board.fen())


@settings(max_examples=300)
@given(st.text(alphabet="pnbrqkPNBRQK12345678/ wb-KQkqacdeh369~0", max_size=60))
def test_any_text_is_read_or_refused_as_python_chess_does(text: str) -> None:
    assert_same_reading(text)
