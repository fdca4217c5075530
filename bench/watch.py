"""The arbiter's watch on a generated 200-board round written move by move (issue 36, item 4).

Usage: ``python bench/watch.py [--boards 200] [--seconds 60] [--interval 2] [--moves-per-second 7]
[--analysis helpmate|material] [--layout round|boards]``.

A writer process plays random legal games (every tenth board shuffles its knights and gets half the moves,
so repetitions come within a minute) and rewrites the export in place as DGT LiveChess does: ``round``: one
``games.pgn`` for the whole round (every move rewrites the file; the watch re-reads only the games whose text
changed), ``boards``: ``game-N.pgn`` per board. It logs when each ply was written. This process polls the
folder every ``--interval`` seconds as ``adjudicator watch`` does (:class:`web.watch.source.Source`,
:class:`adjudicator.watch.Watcher`) and prints:

- CPU seconds per poll (this process only: reading, splitting, replaying the changed games, dead-position
  analysis), the first poll (every game new) apart, median and max;
- alert latency: from the write of the ply that raised an alert to the alert, median and max (the poll
  interval bounds it from below: on average half an interval).

Figures depend on the machine's load; the script says the load average at the start and the end.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.rulesets import RulesetBook  # noqa: E402
from adjudicator.watch import Watcher, WatchState  # noqa: E402
from web.commands.watch import mate_oracle  # noqa: E402
from web.watch.source import Source  # noqa: E402

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def _game_text(board: int, sans: list[str], clocks: list[int]) -> str:
    body: list[str] = []
    for i, (san, left) in enumerate(zip(sans, clocks, strict=True)):
        if i % 2 == 0:
            body.append(f"{i // 2 + 1}.")
        body.append(f"{san} {{[%clk {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}]}}")
    return (f'[Event "Bench Open"]\n[Site "Hall"]\n[Round "5.{board}"]\n[White "White {board}"]\n'
            f'[Black "Black {board}"]\n[Result "*"]\n[ePGN "0.1;DGT LiveChess/2.2.5"]\n\n{" ".join([*body, "*"])}\n\n')


def writer(folder: str, boards: int, seconds: float, rate: float, layout: str, log: str, seed: int) -> None:
    """Play the round: ``rate`` moves a second over random boards, rewriting the export after each move."""
    rng = random.Random(seed)
    games = [chess.Board() for _ in range(boards)]
    sans: list[list[str]] = [[] for _ in range(boards)]
    clocks: list[list[int]] = [[] for _ in range(boards)]
    out = Path(folder)
    written: list[tuple[int, int, float]] = []

    def write(board: int) -> None:
        if layout == "boards":
            (out / f"game-{board + 1}.pgn").write_text(_game_text(board + 1, sans[board], clocks[board]))
        else:
            text = "".join(_game_text(b + 1, sans[b], clocks[b]) for b in range(boards))
            (out / "games.pgn").write_text(text)

    for b in range(boards):
        if layout == "boards":
            write(b)
    if layout != "boards":
        write(0)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        # half the moves go to the shuffling boards (every tenth), so repetitions come within a short run
        b = rng.randrange(0, boards, 10) if rng.random() < 0.5 else rng.randrange(boards)
        board = games[b]
        if b % 10 == 0 and len(sans[b]) < 40:
            san = SHUFFLE[len(sans[b]) % 4]
            move = board.parse_san(san)
        else:
            moves = list(board.legal_moves)
            if not moves or board.is_game_over(claim_draw=False):
                continue
            move = rng.choice(moves)
            san = board.san(move)
        board.push(move)
        sans[b].append(san)
        clocks[b].append(max(0, 5400 - 20 * len(sans[b])))
        write(b)
        written.append((b + 1, len(sans[b]), time.time()))
        time.sleep(1.0 / rate)
    Path(log).write_text(json.dumps(written))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--moves-per-second", type=float, default=7.0)
    parser.add_argument("--analysis", choices=("helpmate", "material"), default="helpmate")
    parser.add_argument("--layout", choices=("round", "boards"), default="round")
    parser.add_argument("--ruleset", default="fide-standard")
    args = parser.parse_args()
    with open(ROOT / "config.toml", "rb") as handle:
        book = RulesetBook.from_config(tomllib.load(handle))
    folder = tempfile.mkdtemp(prefix="watch-bench-")
    log = os.path.join(folder, "written.json")
    os.makedirs(os.path.join(folder, "round-5"))
    export = os.path.join(folder, "round-5")
    load_start = os.getloadavg()
    process = multiprocessing.Process(
        target=writer, args=(export, args.boards, args.seconds, args.moves_per_second, args.layout, log, 36))
    process.start()
    watcher = Watcher(book.chess(args.ruleset), mate_oracle(args.analysis))
    source = Source(export)
    state = WatchState()
    cpu: list[float] = []
    alerts_at: dict[tuple[int, int], float] = {}
    kinds: dict[str, int] = {}
    time.sleep(0.5)
    deadline = time.monotonic() + args.seconds + args.interval
    while time.monotonic() < deadline:
        started, cpu_started = time.monotonic(), time.process_time()
        alerts, state = watcher.watch(source.read(), state)
        cpu.append(time.process_time() - cpu_started)
        now = time.time()
        for alert in alerts:
            if not alert.withdrawn and alert.board is not None:
                alerts_at.setdefault((alert.board, alert.ply), now)
                kinds[alert.kind] = kinds.get(alert.kind, 0) + 1
        time.sleep(max(0.0, args.interval - (time.monotonic() - started)))
    process.join()
    written = {(b, p): t for b, p, t in json.loads(Path(log).read_text())}
    latency = [alerts_at[key] - written[key] for key in alerts_at if key in written]
    polls = cpu[1:] or cpu
    print(f"boards {args.boards}, layout {args.layout}, {len(written)} plies written in {args.seconds:g} s, "
          f"{len(cpu)} polls every {args.interval:g} s, analysis {args.analysis}")
    print(f"CPU per poll: first (every game new) {cpu[0] * 1000:.0f} ms; then median "
          f"{statistics.median(polls) * 1000:.1f} ms, max {max(polls) * 1000:.1f} ms")
    if latency:
        print(f"alert latency ({len(latency)} alerts): median {statistics.median(latency):.2f} s, "
              f"max {max(latency):.2f} s")
    print(f"alerts by kind: {json.dumps(kinds, sort_keys=True)}")
    print(f"load average (1 min) at start {load_start[0]:.2f}, at end {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
