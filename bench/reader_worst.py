"""The lenient record reader on hostile texts: seconds to split each at three sizes, and how they grow.

A reader rule that looks back or ahead from every character of a line can make one uploaded file hold a
worker for hours (a review of the reading rules found three such rules, mended: the broken-tag rule's line
facts, the swallowed-game pattern in comments, the repeated-tag test). Each text is built at 20k, 40k and 80k
characters and split by :func:`adjudicator.chess.movetext.split_games`; a linear reader takes about twice the
time for twice the text, a quadratic one four times. Figures only: no threshold.

    python3 bench/reader_worst.py [--sizes 20000 40000 80000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from adjudicator.chess.movetext import split_games

TEXTS: dict[str, Callable[[int], str]] = {
    "broken tag pairs on one line, then a result": lambda n: '[a "b" 1. ' * (n // 10) + "*\n",
    "broken tag pairs on one line, no result": lambda n: '[a "b' * (n // 5) + "\n",
    "a comment holding '{' and line breaks": lambda n: "1. e4 { { " + "\n" * n + "}",
    "a comment never closed, line breaks": lambda n: "1. e4 { " + "\n" * n,
    "one header of distinct tags": lambda n: "".join(f'[T{i} "v"]\n' for i in range(n // 10)) + "\n1. e4 *\n",
    "one header of tags apart by blank lines":
        lambda n: "".join(f'[T{i} "v"]\n\n' for i in range(n // 11)) + "1. e4 *\n",
    "a variation never closed, blank lines": lambda n: "1. e4 (1. d4 " + "\n\n2. c4 " * (n // 8) + "*",
    "'{' alone, many times": lambda n: "1. e4 " + "{" * n,
    "'[' alone, many times": lambda n: "[" * n,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=3, default=[20_000, 40_000, 80_000])
    args = parser.parse_args()
    sizes: list[int] = args.sizes
    print(f"{'text':45s} " + " ".join(f"{size:>9,}" for size in sizes) + "   growth (last / first)")
    for name, make in TEXTS.items():
        seconds: list[float] = []
        for size in sizes:
            text = make(size)
            started = time.perf_counter()
            for _game in split_games(text):
                pass
            seconds.append(time.perf_counter() - started)
        growth = seconds[-1] / max(seconds[0], 1e-9)
        print(f"{name:45s} " + " ".join(f"{s:8.3f}s" for s in seconds) + f"   {growth:5.1f}x "
              f"(linear: {sizes[-1] / sizes[0]:.0f}x)")


if __name__ == "__main__":
    main()
