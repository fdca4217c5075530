"""The helpmate kernel and its certificates (FIDE 6.9, 5.2.2): engines/chess/unwinnable/kernel.py, certificate.py.

A certificate says "winnable", so it must be a series of legal moves ending in
checkmate by the right side. The kernel has its own board and move generator
(no python-chess), so each of its parts is checked against python-chess here:
the generator (perft and move lists), the replay check (on good and spoilt lines),
and every certificate of the public set and of real positions (replayed by
python-chess). The compiled kernel and the same file run as plain Python must give
the same lines, and the analysis must give the same verdicts with and without it.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import chess
import pytest

from engines.chess.unwinnable import UnwinnabilityAnalyser, replays_to_mate
from engines.chess.unwinnable.certificate import (
    COMPILED,
    deep_certificate,
    find_certificate,
    kernel_position,
    legal_move_count,
    quick_certificate,
    uci,
)
from engines.chess.unwinnable.certificate import kernel as loaded_kernel
from tests.conftest import TEST_DATA
from tests.parts import missing

KERNEL_SOURCE = Path(loaded_kernel.__file__).with_name("kernel.py")

PERFT = [  # well-known perft positions: castling, en passant, promotions, pins, checks
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8902),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890),
]


def pure_kernel() -> ModuleType:
    """kernel.py loaded from its source as plain Python, even where the compiled module is installed."""
    spec = importlib.util.spec_from_file_location("engines.chess.unwinnable._kernel_as_python", KERNEL_SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(kernel: ModuleType, board: chess.Board) -> None:
    position = kernel_position(board)
    assert position is not None
    kernel.load(*position)


def kernel_moves(kernel: ModuleType, board: chess.Board) -> list[str]:
    load(kernel, board)
    return [uci(m) for m in kernel.legal_moves()]


def real_boards(count: int) -> list[chess.Board]:
    lines = (TEST_DATA / "lichess-real-1000.txt").read_text(encoding="utf-8").splitlines()[:count]
    return [chess.Board(" ".join(line.split()[:4])) for line in lines]


def public_rows() -> list[tuple[chess.Board, chess.Color, bool]]:
    rows = []
    for line in (TEST_DATA / "unwinnable-public.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        fen, colour, expected = line.split("\t")
        rows.append((chess.Board(fen), colour == "white", expected == "true"))
    return rows


@pytest.mark.parametrize(("fen", "depth", "leaves"), PERFT)
def test_the_kernel_generates_exactly_the_legal_moves(fen: str, depth: int, leaves: int) -> None:
    board = chess.Board(fen)
    load(loaded_kernel, board)
    assert loaded_kernel.perft(depth) == leaves
    assert sorted(kernel_moves(loaded_kernel, board)) == sorted(m.uci() for m in board.legal_moves)


def test_the_kernel_moves_match_python_chess_along_random_games() -> None:
    rng = random.Random(15)
    checked = 0
    for board in real_boards(40) + [chess.Board()]:
        for _ in range(30):
            expected = sorted(m.uci() for m in board.legal_moves)
            assert sorted(kernel_moves(loaded_kernel, board)) == expected, board.fen()
            checked += 1
            if not expected:
                break
            board.push(rng.choice(list(board.legal_moves)))
    assert checked > 600


def test_every_certificate_on_the_public_set_replays_with_python_chess() -> None:
    found = 0
    rows = public_rows() if COMPILED else public_rows()[::10]  # as plain Python the kernel is slow
    for board, winner, unwinnable in rows:
        certificate = find_certificate(board, winner, 400_000 if COMPILED else 2_000)
        if certificate.line is None:
            continue
        found += 1
        assert not unwinnable, (board.fen(), winner, "a certificate for an unwinnable row")
        assert replays_to_mate(board, certificate.line, winner), (board.fen(), winner, certificate.line)
    if COMPILED:
        assert found >= 140  # nearly all of the set's 150 winnable rows


def test_every_certificate_on_real_positions_replays_with_python_chess() -> None:
    boards = real_boards(300 if COMPILED else 20)
    found = 0
    for board in boards:
        for winner in (not board.turn, board.turn):
            certificate = find_certificate(board, winner, 100_000 if COMPILED else 3_000)
            if certificate.line is not None:
                found += 1
                assert replays_to_mate(board, certificate.line, winner), (board.fen(), winner, certificate.line)
    assert found >= len(boards)  # at least one side of most real positions can be shown to mate


def spoilt(line: list[int], rng: random.Random) -> tuple[list[int], bool]:
    """The line with one change, and whether every move still carries the flags its generator gave it:
    cut short, a move dropped or repeated (flags kept), or one move's squares or flags altered."""
    spoiled = list(line)
    at = rng.randrange(len(spoiled))
    change = rng.randrange(6)
    if change == 0:
        return spoiled[:at], True
    if change == 1:
        del spoiled[at]
        return spoiled, True
    if change == 2:
        spoiled.insert(at, spoiled[at])
        return spoiled, True
    if change == 3:
        spoiled[at] = (spoiled[at] & ~0xFC0) | (rng.randrange(64) << 6)
    elif change == 4:
        spoiled[at] = (spoiled[at] & ~0x3F) | rng.randrange(64)
    else:
        spoiled[at] ^= rng.choice((1 << 12, 5 << 12, 1 << 15, 2 << 15, 4 << 15))
    return spoiled, False


def test_the_kernel_replay_check_agrees_with_python_chess_on_good_and_spoilt_lines() -> None:
    rng = random.Random(6)
    compared = rejected = 0
    for board in real_boards(120):
        winner = not board.turn
        load(loaded_kernel, board)
        line, _ = loaded_kernel.helpmate(int(winner), 50_000)
        if line is None:
            continue
        for candidate, flags_kept in [(line, True)] + [spoilt(line, rng) for _ in range(8)]:
            load(loaded_kernel, board)
            ours = loaded_kernel.replays_to_mate(candidate, int(winner))
            try:
                theirs = replays_to_mate(board, [uci(m) for m in candidate], winner)
            except chess.InvalidMoveError:  # from and to squares the same: no move at all
                theirs = False
            # never a line python-chess refuses; the same verdict wherever the flags are the generator's
            # (an altered flag can spell a move that UCI, which has no flags, still reads as legal)
            assert ours == theirs if flags_kept else not ours or theirs, (board.fen(), candidate)
            compared += 1
            rejected += not ours
    assert compared > 500 and rejected > 300


def test_the_compiled_kernel_and_its_source_as_python_find_the_same_lines() -> None:
    if not COMPILED:
        missing("the compiled helpmate kernel", "setup.py builds it with the C compiler (pip install -e .)")
    python = pure_kernel()
    assert not python.COMPILED
    cases = [(board, not board.turn) for board in real_boards(12)]
    cases += [(board, winner) for board, winner, _ in public_rows()[:40]]
    for board, winner in cases:
        results = []
        for kernel in (loaded_kernel, python):
            load(kernel, board)
            results.append(kernel.helpmate(int(winner), 3_000))
        assert results[0] == results[1], board.fen()


def test_the_kernel_as_plain_python_generates_the_legal_moves() -> None:
    python = pure_kernel()
    for fen, depth, leaves in PERFT[:3]:
        load(python, chess.Board(fen))
        assert python.perft(depth) == leaves


def test_the_verdicts_are_the_same_with_and_without_the_kernel() -> None:
    if not COMPILED:
        missing("the compiled helpmate kernel", "setup.py builds it with the C compiler (pip install -e .)")
    with_kernel = UnwinnabilityAnalyser(use_kernel=True)
    without = UnwinnabilityAnalyser(use_kernel=False)
    rows = public_rows()
    for board, winner, unwinnable in rows[::4]:
        a = with_kernel.search(board, winner)
        b = without.search(board, winner)
        assert a.unwinnable == b.unwinnable == unwinnable, (board.fen(), winner, a.method, b.method)
        if a.unwinnable is False:
            assert a.helpmate is not None and replays_to_mate(board, a.helpmate, winner)


def test_a_forced_prefix_is_part_of_the_certificate() -> None:
    # Black's only move is Kh8-g8 (g7 and h7 are covered); the certificate starts after it
    board = chess.Board("7k/8/5QK1/8/8/8/8/8 b - - 0 1")
    assert [m.uci() for m in board.legal_moves] == ["h8g8"]
    found = UnwinnabilityAnalyser(use_kernel=True).search(board, chess.WHITE)
    assert found.method == "certificate" and found.helpmate is not None
    assert found.helpmate[0] == "h8g8"
    assert replays_to_mate(board, found.helpmate, chess.WHITE)


def test_a_chess960_position_gets_no_certificate_but_still_an_answer() -> None:
    board = chess.Board("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", chess960=True)
    assert kernel_position(board) is None
    assert find_certificate(board, chess.WHITE, 1000).line is None
    found = UnwinnabilityAnalyser().search(board, chess.WHITE)
    assert found.unwinnable is False
    assert found.helpmate is not None and replays_to_mate(board, found.helpmate, chess.WHITE)


def test_the_kernel_closure_agrees_with_the_python_closure() -> None:
    """Both visit every reachable position (the kernel comparing positions whole, by its own move
    generator; python-chess's board and moves for the other): where both finish they must agree on
    whether a mate by W is reachable, and a mate line the kernel gives must replay with python-chess."""
    from engines.chess.unwinnable.certificate import visit_reachable
    from engines.chess.unwinnable.helpmate import HelpmateSearch

    rng = random.Random(7)
    pieces = [chess.KNIGHT, chess.BISHOP, chess.PAWN, chess.ROOK]
    compared = proofs = mates = 0
    while compared < 40:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, rng.choice([3, 4]))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:]:
            board.set_piece_at(square, chess.Piece(rng.choice(pieces), rng.choice([chess.WHITE, chess.BLACK])))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_valid():
            continue
        winner = rng.choice([chess.WHITE, chess.BLACK])
        ours = visit_reachable(board, winner, 20_000)
        visit = HelpmateSearch(board, winner, 10**8, float("inf"))
        theirs = visit.exhaust(20_000)
        if ours.mate_reachable is None or theirs is None:
            continue
        compared += 1
        assert ours.mate_reachable == theirs, (board.fen(), winner)
        if ours.mate_reachable:
            mates += 1
            assert ours.line is not None and replays_to_mate(board, ours.line, winner), (board.fen(), winner)
        else:
            proofs += 1
    assert proofs >= 5 and mates >= 1
    for fen in ("k7/8/1K6/8/8/8/8/1R6 b - - 0 1", "7k/5K2/8/8/8/8/8/6Q1 b - - 0 1", "8/8/8/8/8/3k4/8/K1Q5 w - - 0 1"):
        board = chess.Board(fen)
        ours = visit_reachable(board, chess.WHITE, 500_000)
        theirs = HelpmateSearch(board, chess.WHITE, 10**8, float("inf")).exhaust(500_000)
        assert ours.mate_reachable is True and theirs is True, fen
        assert ours.line is not None and replays_to_mate(board, ours.line, chess.WHITE)


def test_the_replay_check_refuses_a_move_whose_flags_do_not_fit_its_piece() -> None:
    # Fool's mate, then each move spoilt: a flag or promotion its piece cannot have
    board = chess.Board()
    line = [chess.Move.from_uci(m) for m in ("f2f3", "e7e5", "g2g4", "d8h4")]
    load(loaded_kernel, board)
    moves = loaded_kernel.legal_moves()
    encoded = []
    probe = board.copy()
    for move in line:
        load(loaded_kernel, probe)
        encoded.append(next(m for m in loaded_kernel.legal_moves() if uci(m) == move.uci()))
        probe.push(move)
    assert moves and encoded[1] >> 15 == 4  # e7-e5 carries the double-step flag
    load(loaded_kernel, board)
    assert loaded_kernel.replays_to_mate(encoded, int(chess.BLACK))
    for at, bad in ((3, encoded[3] | 2 << 15), (3, encoded[3] | 5 << 12), (0, encoded[0] | 1 << 15),
                    (1, encoded[1] & 0x7FFF), (2, encoded[2] | 2 << 15)):
        spoiled = list(encoded)
        spoiled[at] = bad
        load(loaded_kernel, board)
        assert not loaded_kernel.replays_to_mate(spoiled, int(chess.BLACK)), (at, bad)


def test_the_short_pass_and_the_deepening_apart_find_what_one_search_finds() -> None:
    """The analysis runs the kernel's short pass, then the blockade analysis, then the deepening:
    split so, with another search run in between, the kernel finds the same line in as many nodes."""
    rows = public_rows() if COMPILED else public_rows()[::12]
    budget = 400_000 if COMPILED else 2_000
    other = chess.Board("8/8/8/8/4k3/8/p7/K1N5 w - - 0 1")  # a helpmate the kernel finds: its board changes
    deepened = 0
    for board, winner, _ in rows:
        whole = find_certificate(board, winner, budget)
        first = quick_certificate(board, winner, budget)
        find_certificate(other, chess.WHITE, budget)
        if not first.is_final:
            deepened += 1
        split = deep_certificate(board, first)
        assert (split.line, split.nodes) == (whole.line, whole.nodes), (board.fen(), winner)
    assert deepened > 0  # some rows need the deepening


def test_the_kernel_counts_the_legal_moves_as_python_chess_does() -> None:
    """The analysis skips its forced-move step when the kernel counts two legal moves or more."""
    rng = random.Random(40)
    for board in real_boards(30) + [chess.Board(fen) for fen, _, _ in PERFT]:
        for _ in range(20):
            moves = list(board.legal_moves)
            assert legal_move_count(board) == len(moves), board.fen()
            if not moves:
                break
            board.push(rng.choice(moves))
    assert legal_move_count(chess.Board("8/8/8/8/8/8/8/k1K5 w - - 0 1", chess960=True)) is None


def test_the_transposition_table_never_carries_a_search_into_the_next() -> None:
    """The table's generations are bytes and wrap after 255 searches (the table is wiped then): a
    search for one side must never prune with what a search for the other side stored, however many
    searches ran before it."""
    board = chess.Board("8/8/3k1B2/8/8/5b2/8/K7 b - - 0 1")  # a deepening for White, another for Black
    budget = 60_000 if COMPILED else 1_500
    first = {winner: find_certificate(board, winner, budget) for winner in (chess.WHITE, chess.BLACK)}
    assert not quick_certificate(board, chess.WHITE, budget).is_final
    for _ in range(300 if COMPILED else 3):
        for winner in (chess.WHITE, chess.BLACK):
            again = find_certificate(board, winner, budget)
            assert (again.line, again.nodes) == (first[winner].line, first[winner].nodes)
