"""FIDE 6.9 on positions from real games (tests/data/lichess-real-1000.txt).

Real positions are what a collection check meets: nearly all open, so a helpmate
must be found quickly and must replay, move by move, to a mate by the right side;
and the quick screen used for collections must never call dead what the full
analysis does not.
"""

from __future__ import annotations

import chess
import pytest

from engines.chess.unwinnable import UnwinnabilityAnalyser, replays_to_mate
from engines.chess.unwinnable.screen import DeadScreen
from tests.conftest import TEST_DATA

REAL = TEST_DATA / "lichess-real-1000.txt"


def real_positions(count: int, start: int = 0) -> list[chess.Board]:
    lines = REAL.read_text(encoding="utf-8").splitlines()[start:start + count]
    return [chess.Board(" ".join(line.split()[:4])) for line in lines]


@pytest.fixture(scope="module")
def analyser() -> UnwinnabilityAnalyser:
    return UnwinnabilityAnalyser(time_limit=120.0)


def test_the_real_sample_is_present() -> None:
    assert len(REAL.read_text(encoding="utf-8").splitlines()) == 1000


def test_every_real_question_is_answered_and_every_helpmate_replays(analyser: UnwinnabilityAnalyser) -> None:
    for board in real_positions(60):
        for winner in (not board.turn, board.turn):
            found = analyser.search(board, winner)
            assert found.unwinnable is not None, (board.fen(), winner, found.method)
            if found.unwinnable is False:
                assert found.helpmate is not None
                assert replays_to_mate(board, found.helpmate, winner), (board.fen(), winner, found.helpmate)
            else:
                # the sample's dead questions: the side has too little to mate, whatever the other does
                assert found.method in ("material", "blockade", "search", "terminal"), found.method


def test_a_bare_king_in_a_real_game_cannot_mate(analyser: UnwinnabilityAnalyser) -> None:
    bare = [
        (board, color)
        for board in real_positions(1000)
        for color in (chess.WHITE, chess.BLACK)
        if board.occupied_co[color] == board.kings & board.occupied_co[color]
    ]
    assert bare, "the sample has positions with a bare king"
    for board, color in bare[:10]:
        found = analyser.search(board, color)
        assert found.unwinnable is True and found.method == "material"


def test_the_collection_screen_calls_dead_only_what_the_analysis_proves(analyser: UnwinnabilityAnalyser) -> None:
    screen = DeadScreen()
    dead = 0
    for board in real_positions(300, start=200):
        for winner in (chess.WHITE, chess.BLACK):
            quick = screen.search(board, winner)
            if quick.unwinnable is True:
                dead += 1
                assert analyser.search(board, winner).unwinnable is True, (board.fen(), winner)
            else:
                assert quick.unwinnable is None or quick.helpmate is not None
    assert dead > 0
