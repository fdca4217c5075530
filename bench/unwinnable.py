"""Agreement and per-query time of the unwinnability analysis over the public set.

Usage: ``python bench/unwinnable.py [TSV] [--slow N]`` (default: the public
set ``tests/data/unwinnable-public.tsv``). One process, one core; prints agreement with the
reference verdicts, the helpmate replay check, and median / p90 / max time per
query. Timing includes everything the analyser does for a query (not process
start-up), like the reference's own figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines.unwinnable import UnwinnabilityAnalyser, replays_to_mate  # noqa: E402

TEST_DATA = ROOT / "tests" / "data"  # public data copied into the repository (tests/data/README.md)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tsv", nargs="?", default=str(TEST_DATA / "unwinnable-public.tsv"))
    parser.add_argument("--slow", type=int, default=10, help="list the N slowest queries")
    parser.add_argument("--profile", action="store_true", help="cProfile the whole run")
    args = parser.parse_args()

    rows = []
    with open(args.tsv, encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            fen, color, expected = line.rstrip("\n").split("\t")
            rows.append((fen, color == "white", {"true": True, "false": False}[expected]))

    analyser = UnwinnabilityAnalyser()
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    times: list[tuple[float, str, str, str]] = []
    agree = 0
    bad_mates = 0
    undecided = 0
    methods: dict[str, int] = {}
    cpu: list[float] = []
    total_nodes = 0
    for fen, color, expected in rows:
        board = chess.Board(fen)
        start = time.perf_counter()
        cpu_start = time.process_time()
        found = analyser.search(board, color)
        cpu.append(time.process_time() - cpu_start)
        elapsed = time.perf_counter() - start
        total_nodes += found.nodes
        name = "white" if color else "black"
        times.append((elapsed, fen, name, f"{found.method} nodes={found.nodes}"))
        methods[found.method] = methods.get(found.method, 0) + 1
        if found.unwinnable is None:
            undecided += 1
        if found.unwinnable == expected:
            agree += 1
        else:
            print(f"DISAGREE {fen} {name}: expected {expected}, got {found.unwinnable} ({found.method})")
        proven = found.helpmate is not None and replays_to_mate(board, found.helpmate, color)
        if found.unwinnable is False and not proven:
            bad_mates += 1
            print(f"BAD HELPMATE {fen} {name}: {found.helpmate}")
    if profiler is not None:
        import pstats

        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)

    print(f"queries {len(rows)}  agreement {agree}/{len(rows)} ({100.0 * agree / len(rows):.1f}%)  "
          f"undecided {undecided}  bad helpmates {bad_mates}  search nodes {total_nodes}")
    for label, values in (("wall", [t[0] for t in times]), ("cpu", cpu)):
        seconds = sorted(values)
        p90 = seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]
        print(f"{label} time per query: median {1000 * statistics.median(seconds):.2f} ms  p90 {1000 * p90:.2f} ms  "
              f"max {1000 * seconds[-1]:.1f} ms  total {sum(seconds):.2f} s")
    try:
        load = os.getloadavg()
        print(f"load average during the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores "
              "(shared machine: wall times are noisy; cpu time is this process's own)")
    except OSError:
        pass
    print("methods: " + ", ".join(f"{k} {v}" for k, v in sorted(methods.items())))
    for elapsed, fen, name, info in sorted(times, reverse=True)[: args.slow]:
        print(f"  {1000 * elapsed:8.1f} ms  {fen} {name}  {info}")
    return 0 if agree == len(rows) and bad_mates == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
