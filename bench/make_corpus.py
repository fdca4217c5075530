"""Write a seeded collection of games for ``bench/corpus.py`` when no real corpus is at hand.

    python bench/make_corpus.py OUT.pgn [--games 2000] [--seed 2026]

Each game is a seeded random legal game (40 to 240 plies) written the way
scoresheets and exports are: move numbers, ``[%clk]`` comments on some games,
NAGs and glyphs on some moves, a variation now and then, and one game in ten
with German piece letters (K D T L S). The same seed gives the same file, so
figures before and after a change are comparable.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import chess

_GERMAN = str.maketrans({"Q": "D", "R": "T", "B": "L", "N": "S"})


def game_text(rng: random.Random, number: int) -> str:
    board = chess.Board()
    german = number % 10 == 9
    clocks = number % 3 == 0
    parts: list[str] = []
    seconds = [5400.0, 5400.0]
    for ply in range(rng.randint(40, 240)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        san = board.san(move)
        if german:
            san = san.translate(_GERMAN)
        if board.turn == chess.WHITE:
            parts.append(f"{board.fullmove_number}.")
        elif ply == 0 or parts[-1].startswith("{") or parts[-1].startswith("("):
            parts.append(f"{board.fullmove_number}...")
        parts.append(san + ("!?" if rng.random() < 0.02 else ""))
        if rng.random() < 0.02:
            parts.append(f"${rng.randint(1, 20)}")
        if clocks:
            seconds[ply % 2] = max(0.0, seconds[ply % 2] - rng.randint(1, 60))
            s = int(seconds[ply % 2])
            parts.append(f"{{[%clk {s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}]}}")
        if rng.random() < 0.01 and len(moves) > 1:
            alternative = board.san(rng.choice([m for m in moves if m != move]))
            parts.append(f"({alternative})")
        board.push(move)
    outcome = board.outcome(claim_draw=False)
    result = outcome.result() if outcome else "*"
    tags = (
        f'[Event "Synthetic {number}"]\n[Site "?"]\n[Date "2026.12.01"]\n[Round "{number}"]\n'
        f'[White "W{number}"]\n[Black "B{number}"]\n[Result "{result}"]\n'
    )
    return f"{tags}\n{' '.join(parts)} {result}\n\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with args.out.open("w", encoding="utf-8") as out:
        for number in range(1, args.games + 1):
            out.write(game_text(rng, number))
    print(f"wrote {args.games} games to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
