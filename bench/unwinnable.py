"""Processor time of the unwinnability analysis (FIDE 6.9, 5.2.2), beside the reference's.

Usage: ``python bench/unwinnable.py [--public TSV] [--real FILE] [--real-queries N] [--cha PATH] [--slow N]
[--no-command]``

Two batches, one process, one core:

* the public set ``tests/data/unwinnable-public.tsv`` (composed positions labelled by the
  reference analyser): agreement with the labels, the helpmate replay check, undecided rows;
* a real-position sample, ``tests/data/lichess-real-1000.txt`` (real Lichess game positions,
  tests/data/README.md): each position asked for both colours, first the side not to move
  (the one whose opponent flagged), ``--real-queries`` questions in all.

For each batch it prints the processor seconds of the whole batch and per query (median,
p90, max), ``time.process_time`` of this process: reading each FEN (``adjudicator.chess.fen``,
the command's reader) and the analysis; then the same queries through the command a user runs,
``python -m adjudicator unwinnable -``, as a child process (``getrusage``: start-up, imports,
reading, JSON out; ``--no-command`` skips it), so that it compares with CHA's process whole. The
audit (python-chess replays every helpmate to mate) runs after the batch and is timed
on its own; CHA's figures include no such audit either. With ``--cha PATH`` (a CHA binary built
from its public source by ``bench/build_cha.sh OUT_DIR``: ``OUT_DIR/cha``, a measuring instrument only,
never a dependency) the same queries go to the reference in the same run, after our batch: its processor
seconds for the batch
(``getrusage`` of the child, start-up included), its own per-query times (microseconds it
measures itself), and where the two verdicts differ (an undecided answer on either side
counts as a difference only when the other side decided and they contradict).

Building CHA (miguel-ambrona/D3-Chess over Stockfish 51deae8, GPL-3.0, built outside the
repository): ``bash bench/build_cha.sh /tmp/cha-build`` clones both from GitHub (or
``bash bench/build_cha.sh /tmp/cha-build D3_CHESS_GIT STOCKFISH_GIT`` offline) and gives
``/tmp/cha-build/cha``, then
``python3 bench/unwinnable.py --cha /tmp/cha-build/cha``.

The figures are processor time (``time.process_time`` for ours, ``getrusage`` of the child
for CHA), so a loaded machine slows both clocks little; still, compare the two tools only
within one run, one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.chess.fen import read_fen  # noqa: E402
from engines.chess.unwinnable import UnwinnabilityAnalyser, replays_to_mate  # noqa: E402
from engines.chess.unwinnable.certificate import COMPILED  # noqa: E402

TEST_DATA = ROOT / "tests" / "data"  # public data copied into the repository (tests/data/README.md)


@dataclass
class Query:
    fen: str
    color: chess.Color
    expected: bool | None  # the label, when the set has one


@dataclass
class Figures:
    seconds: list[float]
    batch: float
    verdicts: list[bool | None]


def read_public(path: str) -> list[Query]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            fen, color, expected = line.rstrip("\n").split("\t")
            rows.append(Query(fen, color == "white", {"true": True, "false": False}[expected]))
    return rows


def read_real(path: str, count: int) -> list[Query]:
    positions = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) >= 4:
                positions.append(" ".join(fields[:4]) + " 0 1")
    rows = []
    for fen in positions:
        turn = chess.Board(fen).turn
        rows.append(Query(fen, not turn, None))
    for fen in positions:
        turn = chess.Board(fen).turn
        rows.append(Query(fen, turn, None))
    return rows[:count]


def ours(queries: list[Query], slow: int, label: str) -> Figures:
    analyser = UnwinnabilityAnalyser()
    seconds: list[float] = []
    verdicts: list[bool | None] = []
    methods: dict[str, int] = {}
    agree = bad = undecided = nodes = 0
    slowest: list[tuple[float, str]] = []
    answers = []
    batch_start = time.process_time()
    for q in queries:
        board = read_fen(q.fen)  # the command's reading (adjudicator.chess.replay.parse_fen)
        start = time.process_time()
        found = analyser.search(board, q.color)
        elapsed = time.process_time() - start
        answers.append((board, found))
        seconds.append(elapsed)
        verdicts.append(found.unwinnable)
        nodes += found.nodes
        methods[found.method] = methods.get(found.method, 0) + 1
        name = "white" if q.color else "black"
        slowest.append((elapsed, f"{q.fen} {name}  {found.method} nodes={found.nodes}"))
        if found.unwinnable is None:
            undecided += 1
        if q.expected is not None:
            if found.unwinnable == q.expected:
                agree += 1
            else:
                print(f"DISAGREE {q.fen} {name}: expected {q.expected}, got {found.unwinnable} ({found.method})")
    batch = time.process_time() - batch_start
    # the audit, outside the timed batch: every helpmate replayed by python-chess
    audit_start = time.process_time()
    for q, (board, found) in zip(queries, answers, strict=True):
        replayed = found.helpmate is not None and replays_to_mate(board, found.helpmate, q.color)
        if found.unwinnable is False and not replayed:
            bad += 1
            print(f"BAD HELPMATE {q.fen} {'white' if q.color else 'black'}: {found.helpmate}")
    audit = time.process_time() - audit_start
    labelled = sum(1 for q in queries if q.expected is not None)
    agreement = f"agreement {agree}/{labelled}  " if labelled else ""
    print(f"[{label}] ours: {len(queries)} queries  {agreement}undecided {undecided}  bad helpmates {bad}  "
          f"search nodes {nodes}")
    print(f"[{label}] ours: {summary(seconds, batch)}")
    kernel = "compiled" if COMPILED else "plain Python, not used" if not analyser.use_kernel else "plain Python"
    print(f"[{label}] ours: helpmate kernel {kernel}; the audit (python-chess replays every helpmate, "
          f"outside the batch) {audit:.3f} s")
    print(f"[{label}] ours: methods " + ", ".join(f"{k} {v}" for k, v in sorted(methods.items())))
    for elapsed, info in sorted(slowest, reverse=True)[:slow]:
        print(f"    {1000 * elapsed:8.1f} ms  {info}")
    return Figures(seconds, batch, verdicts)


def cha(binary: str, queries: list[Query], label: str) -> Figures:
    """The reference on the same queries: one process, all queries on its stdin."""
    text = "".join(f"{' '.join(q.fen.split()[:4])} {'white' if q.color else 'black'}\n" for q in queries)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary], input=text, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    batch = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    seconds: list[float] = []
    verdicts: list[bool | None] = []
    for line in out.splitlines():
        words = line.split()
        first = words[0].rstrip("#") if words else ""  # "winnable#": the position is already mate
        if first not in ("winnable", "unwinnable", "undetermined"):
            continue
        verdicts.append({"winnable": False, "unwinnable": True}.get(first))
        seconds.append(int(words[words.index("time") + 1]) / 1e6)
    if len(verdicts) != len(queries):
        raise SystemExit(f"CHA answered {len(verdicts)} of {len(queries)} queries")
    undecided = sum(1 for v in verdicts if v is None)
    print(f"[{label}] CHA:  {len(queries)} queries  undecided {undecided}")
    print(f"[{label}] CHA:  {summary(seconds, batch)} (per query: CHA's own clock)")
    return Figures(seconds, batch, verdicts)


def command(queries: list[Query], label: str, verdicts: list[bool | None]) -> float:
    """Our analysis as the command a user runs (``python -m adjudicator unwinnable -``, one process,
    all queries on its stdin, as CHA gets them): processor seconds of the child (``getrusage``),
    start-up included, and of its start-up alone (the same command on empty input)."""
    text = "".join(f"{q.fen} {'white' if q.color else 'black'}\n" for q in queries)
    seconds = []
    for given in ("", text):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, "-m", "adjudicator", "unwinnable", "-"], input=given, cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    answers = [json.loads(line).get("unwinnable") for line in out.splitlines()]
    differ = sum(1 for a, b in zip(answers, verdicts, strict=True) if a != b)
    print(f"[{label}] ours as a command (python -m adjudicator unwinnable -): batch {seconds[1]:.3f} s processor "
          f"time, start-up included ({seconds[0]:.3f} s on empty input); verdicts differing from the batch above "
          f"{differ}")
    return seconds[1]


def summary(seconds: list[float], batch: float) -> str:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"batch {batch:.3f} s processor time; per query median {1000 * statistics.median(ordered):.3f} ms  "
            f"p90 {1000 * p90:.3f} ms  max {1000 * ordered[-1]:.1f} ms")


def compare(label: str, queries: list[Query], mine: Figures, theirs: Figures) -> int:
    contradictions = 0
    for q, a, b in zip(queries, mine.verdicts, theirs.verdicts, strict=True):
        if a is not None and b is not None and a != b:
            contradictions += 1
            print(f"CONTRADICTS CHA {q.fen} {'white' if q.color else 'black'}: ours {a}, CHA {b}")
    only_ours = sum(1 for a, b in zip(mine.verdicts, theirs.verdicts, strict=True) if a is not None and b is None)
    only_cha = sum(1 for a, b in zip(mine.verdicts, theirs.verdicts, strict=True) if a is None and b is not None)
    ratio = mine.batch / theirs.batch if theirs.batch else float("inf")
    print(f"[{label}] ours / CHA batch processor time: {ratio:.1f}x  contradictions {contradictions}  "
          f"decided only by us {only_ours}, only by CHA {only_cha}")
    return contradictions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--public", default=str(TEST_DATA / "unwinnable-public.tsv"))
    parser.add_argument("--real", default=str(TEST_DATA / "lichess-real-1000.txt"))
    parser.add_argument("--real-queries", type=int, default=1000, help="questions on the real sample (0: skip)")
    parser.add_argument("--cha", help="a CHA binary: run the reference on the same queries")
    parser.add_argument("--slow", type=int, default=5, help="list the N slowest queries of each batch")
    parser.add_argument("--no-command", action="store_true",
                        help="skip the command's figure (python -m adjudicator unwinnable -, start-up included)")
    args = parser.parse_args()

    failures = 0
    batches = [("public", read_public(args.public))]
    if args.real_queries:
        batches.append(("real", read_real(args.real, args.real_queries)))
    for label, queries in batches:
        mine = ours(queries, args.slow, label)
        pairs = zip(queries, mine.verdicts, strict=True)
        failures += sum(1 for q, v in pairs if q.expected is not None and v != q.expected)
        whole = None if args.no_command else command(queries, label, mine.verdicts)
        if args.cha:
            theirs = cha(args.cha, queries, label)
            failures += compare(label, queries, mine, theirs)
            if whole is not None and theirs.batch:
                print(f"[{label}] ours as a command / CHA (both start-up included): {whole / theirs.batch:.1f}x")
    load = os.getloadavg()
    print(f"load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores "
          "(shared machine; processor times are each process's own)")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
