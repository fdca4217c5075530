"""Time per flag ruling (chess and checkers), time-control reading, clock rebuilding, forced-mate search.

Usage: ``python bench/flag.py [--repeat N]``. One process, one core. Prints the median
and the worst of N runs per case; the first run of each case is included (it pays
for the tablebase file opening and the helpmate analysis' caches).
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.chess.replay import replay_chess  # noqa: E402
from adjudicator.clocks import hms, parse_time_control  # noqa: E402
from adjudicator.clocks.history import readings_from_replay, rebuild  # noqa: E402
from adjudicator.contract import parse_case  # noqa: E402
from adjudicator.rule import rule  # noqa: E402
from adjudicator.rulesets import RulesetBook  # noqa: E402
from engines import build_services  # noqa: E402
from engines.chess.forced_mate import ForcedMateSearch  # noqa: E402


def quiet_game(plies: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    board = chess.Board()
    seen = {board._transposition_key()}
    sans = []
    for _ in range(plies):
        options = []
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            if board.is_capture(move):
                continue
            board.push(move)
            if board._transposition_key() not in seen and not board.is_game_over():
                options.append(move)
            board.pop()
        move = rng.choice(options)
        sans.append(board.san(move))
        board.push(move)
        seen.add(board._transposition_key())
    return sans


def clocked(sans: list[str]) -> str:
    parts, left = [], [5400.0, 5400.0]
    for ply, san in enumerate(sans):
        left[ply % 2] -= 60 - 30
        if ply // 2 + 1 == 40:
            left[ply % 2] += 1800  # the clock adds the second period after move 40
        prefix = f"{ply // 2 + 1}. " if ply % 2 == 0 else ""
        parts.append(f"{prefix}{san} {{[%clk {hms(left[ply % 2])}] [%emt 0:01:00]}}")
    return '[TimeControl "40/5400+30:1800+30"]\n\n' + " ".join(parts) + " *"


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with (ROOT / "config.toml").open("rb") as handle:
        config = tomllib.load(handle)
    config["_root"] = str(ROOT)
    if not any((ROOT / "data" / "syzygy").glob("*.rtbw")):
        raise SystemExit("no Syzygy tables in data/syzygy: run bash .ci/install.d/20-tablebases.sh")
    config["tablebases"] = {"syzygy": [str(ROOT / "data" / "syzygy")]}
    book = RulesetBook.from_config(config)
    services = build_services(config, engine=False)
    no_tables = build_services(config, engine=False, tablebases=False)
    record = clocked(quiet_game(120))
    dead_start = "8/2b5/8/3k4/8/8/3K4/4N1B1 w - - 0 1"
    dead_moves = " ".join(
        ["1. Nf3 Bb6 2. Nd4 Bxd4"] + [f"{n}. {'Ke2 Ke4' if n % 2 else 'Kd2 Kd5'}" for n in range(3, 60)]
    )
    cases: dict[str, tuple[dict[str, Any], Any]] = {
        "P12 FIDE, helpmate search": (
            {"ruleset": "fide-standard", "fen": "8/8/8/3k4/8/2n5/6P1/6K1 w - - 0 1"},
            services,
        ),
        "P13 US 14E2, tablebase": ({"ruleset": "uschess", "fen": "8/8/8/3k4/8/2n5/6P1/6K1 w - - 0 1"}, services),
        "P13 US 14E2, search only (deferred)": (
            {"ruleset": "uschess", "fen": "8/8/8/3k4/8/2n5/6P1/6K1 w - - 0 1"},
            no_tables,
        ),
        "P15 dead position": (
            {"ruleset": "fide-standard", "fen": "8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2/8 w - - 0 1"},
            services,
        ),
        "120-ply record with [%clk]/[%emt]": ({"ruleset": "fide-standard", "record": record}, services),
        "116-ply record, dead at ply 4 (bisection)": (
            {"ruleset": "fide-standard", "record": f'[SetUp "1"]\n[FEN "{dead_start}"]\n\n{dead_moves} *'},
            services,
        ),
    }
    print(f"flag rulings, median / worst of {args.repeat} (seconds)")
    for name, (fields, svc) in cases.items():
        case = parse_case({"claim": "flag", "clock": {"white": 0, "flagged": ["white"]}, **fields})
        ruling = rule(case, book, svc)
        median, worst = timed(functools.partial(rule, case, book, svc), args.repeat)
        print(f"  {name:45s} {median:8.4f} {worst:8.4f}  -> {ruling.verdict.value} {ruling.result}")
    checkers = parse_case(
        {"game": "checkers", "ruleset": "acf-master-division", "claim": "flag", "clock": {"red": 0, "flagged": ["red"]}}
    )
    median, worst = timed(lambda: rule(checkers, book, services), args.repeat * 20)
    print(f"  {'checkers Master Division flag':45s} {median:8.4f} {worst:8.4f}")

    texts = ["40/5400+30:1800+30", "G/30;d5", "40/120, SD/30;inc30", "G/10+2 delay", "G/5 v G/4"]
    median, _ = timed(lambda: [parse_time_control(t) for t in texts], 200)
    print(f"time-control reading: {median / len(texts) * 1e6:.1f} us per control")
    replay = replay_chess(record)
    control = parse_time_control("40/5400+30:1800+30")
    median, _ = timed(lambda: rebuild(readings_from_replay(replay), control, ("white", "black")), 50)
    print(f"clock rebuild, 120 plies: {median * 1e3:.2f} ms (replay itself not included)")

    search = ForcedMateSearch(max_moves=4)
    board = chess.Board("8/8/3k4/8/1b6/8/5PP1/6K1 w - - 0 1")
    start = time.perf_counter()
    found = search.forced_win(board, chess.BLACK)
    spent = time.perf_counter() - start
    print(
        f"forced-mate search, K+B v K+2P to 4 moves: {found.nodes} nodes in {spent:.2f} s "
        f"({found.nodes / spent:,.0f} nodes/s), settled: {found.has_forced_win}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
