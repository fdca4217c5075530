"""Replay speed and the time to rule on a threefold claim in a 200-ply game, next to plain python-chess.

    python bench/replay.py [--runs N]

The game is built in the run (deterministic): 192 plies of a seeded random game, then
the same four-ply cycle twice, so the final position stands for the third time.
"Plain python-chess" is ``chess.pgn.read_game`` plus pushing the main line, and for
the claim ``Board.can_claim_threefold_repetition()`` on that board. The machine is
shared: figures are noisy; the best of N runs is printed.
"""

from __future__ import annotations

import io
import random
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.chess.replay import replay_chess  # noqa: E402
from adjudicator.contract import parse_case  # noqa: E402
from adjudicator.rule import rule  # noqa: E402
from adjudicator.rulesets import RulesetBook  # noqa: E402


def cycle(board: chess.Board) -> list[chess.Move] | None:
    """Four plies that bring the position back: a minor or queen move each, then back."""
    def quiet(b: chess.Board) -> list[chess.Move]:
        return [m for m in b.legal_moves if not b.is_capture(m)
                and b.piece_type_at(m.from_square) in (chess.KNIGHT, chess.BISHOP, chess.QUEEN)]

    for m1 in quiet(board):
        board.push(m1)
        for m2 in quiet(board):
            board.push(m2)
            back1 = chess.Move(m1.to_square, m1.from_square)
            if back1 in board.legal_moves:
                board.push(back1)
                back2 = chess.Move(m2.to_square, m2.from_square)
                ok = back2 in board.legal_moves
                board.pop()
                if ok:
                    board.pop()
                    board.pop()
                    return [m1, m2, back1, back2]
            board.pop()
        board.pop()
    return None


def build_game(plies: int = 200, seed: int = 2026) -> str:
    for attempt in range(100):
        rng = random.Random(seed + attempt)
        board = chess.Board()
        while len(board.move_stack) < plies - 8:
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves:
                break
            board.push(rng.choice(moves))
        if len(board.move_stack) != plies - 8 or board.is_game_over(claim_draw=False):
            continue
        loop = cycle(board)
        if loop is None:
            continue
        for move in loop * 2:
            board.push(move)
        if board.is_repetition(3) and not board.is_fivefold_repetition():
            game = chess.pgn.Game.from_board(board)
            game.headers.clear()
            return str(game.mainline_moves().accept(chess.pgn.StringExporter(headers=False)))
    raise RuntimeError("could not build the bench game")


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def python_chess_replay(text: str) -> chess.Board:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    return board


def main(argv: list[str]) -> int:
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 30
    text = build_game()
    book = RulesetBook.from_config(tomllib.loads((ROOT / "config.toml").read_text(encoding="utf-8")))
    case = parse_case({"ruleset": "fide-standard", "claim": "threefold-repetition", "record": text})
    replay = replay_chess(text)
    plies = len(replay.plies)
    ruling = rule(case, book)
    assert ruling.verdict == "upheld", ruling
    assert python_chess_replay(text).can_claim_threefold_repetition()

    ours = best_of(runs, lambda: replay_chess(text))
    theirs = best_of(runs, lambda: python_chess_replay(text))
    claim = best_of(runs, lambda: rule(case, book))
    theirs_claim = best_of(runs, lambda: python_chess_replay(text).can_claim_threefold_repetition())
    print(f"game: {plies} plies; best of {runs} runs (shared machine: noisy)")
    print(f"replay (lenient reader):  {plies / ours:10.0f} plies/s  ({ours * 1000:.2f} ms per game)")
    print(f"replay (plain python-chess): {plies / theirs:7.0f} plies/s  ({theirs * 1000:.2f} ms per game)")
    print(f"ratio: {ours / theirs:.2f}x python-chess (target: within 2x)")
    print(f"threefold claim ruling:   {claim * 1000:.2f} ms (target: under 20 ms)")
    print(f"python-chess read + can_claim_threefold_repetition: {theirs_claim * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
