"""FIDE 6.9 / 5.2.2: can a side checkmate by any series of legal moves?

The analysis must agree with the reference analyser (Ambrona's CHA) on every row
of the public set (tests/data/unwinnable-public.tsv), and every "winnable" verdict must carry a helpmate that
python-chess replays, move by move, to a checkmate given by the right side.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from engines.chess.unwinnable import (
    PositionError,
    UnwinnabilityAnalyser,
    check_position,
    is_blockade_unwinnable,
    is_material_unwinnable,
)
from tests.conftest import TEST_DATA

PUBLIC = TEST_DATA / "unwinnable-public.tsv"


def public_rows(path: Path = PUBLIC) -> list[tuple[str, str, bool]]:
    if not path.exists():
        return []
    rows = []
    with path.open(encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            fen, color, expected = line.rstrip("\n").split("\t")
            rows.append((fen, color, expected == "true"))
    return rows


ROWS = public_rows()


@pytest.fixture(scope="module")
def analyser() -> UnwinnabilityAnalyser:
    # node budget only in effect: the wall clock of a shared CI machine must not change a verdict
    return UnwinnabilityAnalyser(time_limit=120.0)


def replay_is_mate_by(board: chess.Board, helpmate: tuple[str, ...], winner: chess.Color) -> bool:
    """Plays the helpmate with python-chess: every move legal, and the loser is checkmated at the end."""
    game = board.copy()
    for uci in helpmate:
        move = chess.Move.from_uci(uci)
        if move not in game.legal_moves:
            return False
        game.push(move)
    return game.turn == (not winner) and game.is_checkmate()


def test_public_set_is_present() -> None:
    assert len(ROWS) == 242, f"expected the 242 public rows at {PUBLIC}"


@pytest.mark.parametrize(("fen", "color", "expected"), ROWS, ids=[f"{i}-{r[1]}" for i, r in enumerate(ROWS)])
def test_agrees_with_the_reference(analyser: UnwinnabilityAnalyser, fen: str, color: str, expected: bool) -> None:
    board = chess.Board(fen)
    winner = color == "white"
    found = analyser.search(board, winner)
    assert found.unwinnable is expected, found
    assert found.color == winner
    if expected:
        assert found.helpmate is None
    else:
        assert found.helpmate is not None
        assert replay_is_mate_by(board, found.helpmate, winner), found.helpmate
    assert board.fen() == chess.Board(fen).fen(), "the analysis must not change the caller's board"


# -- the rule, walked through its parts ------------------------------------------


def test_bare_king_can_never_mate(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    found = analyser.search(board, chess.BLACK)
    assert found.unwinnable is True
    assert found.method == "material"


def test_lone_knight_needs_a_loser_piece_to_block() -> None:
    # K+N against a bare king can never mate; against a pawn it can (the pawn promotes to a blocker).
    assert is_material_unwinnable(chess.Board("4k3/8/8/8/8/3N4/8/3K4 b - - 0 1"), chess.WHITE)
    assert not is_material_unwinnable(chess.Board("8/8/8/8/4k3/8/p7/K1N5 w - - 0 1"), chess.WHITE)


def test_knight_against_pawn_is_winnable_through_a_promotion(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("8/8/8/8/4k3/8/p7/K1N5 w - - 0 1")
    found = analyser.search(board, chess.WHITE)
    assert found.unwinnable is False
    assert found.helpmate is not None and replay_is_mate_by(board, found.helpmate, chess.WHITE)


def test_same_coloured_bishops_cannot_mate_but_opposite_ones_can(analyser: UnwinnabilityAnalyser) -> None:
    same = chess.Board("8/8/8/4k3/8/2b5/8/K1B5 w - - 0 1")  # c1 and c3 both dark
    opposite = chess.Board("8/8/8/4k3/8/2b5/8/KB6 w - - 0 1")
    assert analyser.search(same, chess.WHITE).unwinnable is True
    assert analyser.search(opposite, chess.WHITE).unwinnable is False


def test_stalemate_with_material_on_the_board_is_unwinnable(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("7k/8/6Q1/5K2/8/8/8/8 b - - 0 1")
    assert board.is_stalemate()
    found = analyser.search(board, chess.WHITE)
    assert found.unwinnable is True


def test_checkmate_on_the_board_is_won_with_an_empty_helpmate(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1")
    white = analyser.search(board, chess.WHITE)
    black = analyser.search(board, chess.BLACK)
    assert white.unwinnable is False and white.helpmate == ()
    assert black.unwinnable is True


def test_forced_capture_of_the_last_piece(analyser: UnwinnabilityAnalyser) -> None:
    # White's only move is Kxb2, leaving two bare kings: Black's rook cannot mate after all.
    board = chess.Board("8/8/8/8/8/8/1r6/K6k w - - 0 1")
    assert [m.uci() for m in board.legal_moves] == ["a1b2"]
    assert not board.has_insufficient_material(chess.BLACK)
    found = analyser.search(board, chess.BLACK)
    assert found.unwinnable is True
    assert found.method == "material"


def test_stalemate_by_a_protected_rook(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("8/8/8/8/8/2k5/1r6/K7 w - - 0 1")
    assert board.is_stalemate()
    assert analyser.search(board, chess.BLACK).unwinnable is True


def test_locked_pawn_wall_is_dead_though_material_remains(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("8/8/1k6/p1p1p1p1/PpPpPpPp/1P1P1P1P/4B3/3K4 b - - 0 1")
    assert not board.has_insufficient_material(chess.WHITE)
    assert is_blockade_unwinnable(board, chess.WHITE)
    dead = analyser.is_dead_position(board)
    assert dead.is_dead is True
    assert dead.white.method == "blockade"
    assert dead.rule_refs == ("FIDE 5.2.2",)
    assert dead.reasons[0].startswith("White cannot checkmate")


def test_a_wall_with_a_bishop_that_can_break_in_is_not_dead(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("8/p1p1p1k1/PpPpPp1p/1PBP1PpP/6P1/8/8/1K6 b - - 0 1")
    assert not is_blockade_unwinnable(board, chess.WHITE)
    found = analyser.search(board, chess.WHITE)
    assert found.unwinnable is False
    assert found.helpmate is not None and replay_is_mate_by(board, found.helpmate, chess.WHITE)


def test_en_passant_right_keeps_the_wall_open(analyser: UnwinnabilityAnalyser) -> None:
    # Black has just played ...d7-d5 into a locked wall: exd6 e.p. is the one way through.
    after_double_step = chess.Board("3k4/1p6/pPp1p3/P1PpPp1p/2KP1PpP/6P1/8/8 w - d6 0 1")
    no_right = chess.Board("3k4/1p6/pPp1p3/P1PpPp1p/2KP1PpP/6P1/8/8 w - - 0 1")
    assert after_double_step.has_legal_en_passant()
    assert not is_blockade_unwinnable(after_double_step, chess.WHITE)
    found = analyser.search(after_double_step, chess.WHITE)
    assert found.unwinnable is False
    assert found.helpmate is not None and replay_is_mate_by(after_double_step, found.helpmate, chess.WHITE)
    assert analyser.search(no_right, chess.WHITE).unwinnable is True


def test_dead_position_needs_both_sides(analyser: UnwinnabilityAnalyser) -> None:
    board = chess.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    dead = analyser.is_dead_position(board)
    assert dead.white.is_winnable and dead.black.unwinnable is True
    assert dead.is_dead is False


def test_a_tiny_budget_leaves_the_question_undecided() -> None:
    tight = UnwinnabilityAnalyser(node_limit=20, quick_nodes=10)
    found = tight.search(chess.Board("8/8/3k1B2/8/8/5b2/8/K7 b - - 0 1"), chess.WHITE)
    assert found.unwinnable is None
    assert found.helpmate is None
    assert found.method == "budget"


def test_a_board_that_is_no_position_is_left_to_the_arbiter(analyser: UnwinnabilityAnalyser) -> None:
    with pytest.raises(PositionError):
        check_position(chess.Board("8/8/8/8/8/8/8/R7 w - - 0 1"))
    # after an illegal move the side not to move may stand in check: no verdict, never a crash
    found = analyser.search(chess.Board("7k/8/8/8/8/8/8/4K2R w - - 0 1"), chess.WHITE)
    assert found.unwinnable is None
    assert found.method.startswith("illegal-position")


def test_blockade_proofs_survive_the_exhaustive_check() -> None:
    """Soundness: whenever the blockade analysis calls a position dead, visiting every reachable
    position (where there are few enough to visit) finds no mate either. Positions: the public
    locked structures after a few random moves, some with a king moved elsewhere."""
    import random

    from engines.chess.unwinnable.helpmate import HelpmateSearch

    rng = random.Random(20261129)
    bases = sorted({fen for fen, _, _ in ROWS if chess.Board(fen).pawns})
    proofs = 0
    for _ in range(120):
        board = chess.Board(rng.choice(bases))
        for _ in range(rng.randint(0, 6)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        board = chess.Board(board.fen())
        if rng.random() < 0.5:
            color = rng.choice([chess.WHITE, chess.BLACK])
            king = board.king(color)
            assert king is not None
            empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
            board.remove_piece_at(king)
            board.set_piece_at(rng.choice(empty), chess.Piece(chess.KING, color))
        if not board.is_valid():
            continue
        winner = rng.choice([chess.WHITE, chess.BLACK])
        if not is_blockade_unwinnable(board, winner):
            continue
        closure = HelpmateSearch(board, winner, 10**6, float("inf")).exhaust(5_000)
        assert closure is not True, f"blockade called {board.fen()} dead for {winner}, but a mate is reachable"
        proofs += closure is False
    assert proofs >= 5


def test_a_king_that_can_only_shuttle_cannot_be_approached(analyser: UnwinnabilityAnalyser) -> None:
    # White's king shuttles h3-h4 and nothing else of White can ever move. Black's king could
    # win the g2 pawn only by stepping next to those squares, which stalemates White on the
    # spot: so the pawns stay locked and White can never mate, though a pawn wall alone
    # would not prove it.
    board = chess.Board("8/8/k6p/5p1P/3b1p2/2b2PpK/6P1/8 w - - 0 1")
    assert [m.uci() for m in board.legal_moves] == ["h3h4"]
    found = analyser.search(board, chess.WHITE)
    assert found.unwinnable is True
    assert found.method == "blockade"
