"""``adjudicator check-games`` throughput with 1 and 2 workers, and its memory from 1,000 to 100,000 games.

    python bench/check_games.py [--games N]

Builds a collection of N (default 10,000) games in the run, from a seeded random
generator: clean games (random legal play, resigned), losses on time in won positions
(the winner can mate: the result stands) and in unwinnable ones (the winner has a bare
king or a lone knight or bishop against a major piece: FIDE 6.9, a draw), fivefold
repetitions and 75-move sequences the result ignores, dead positions played on, and
checkmates. It runs the real command (a subprocess, as a user would) and prints:

- games per second with ``--workers 1`` and ``--workers 2``, and their ratio;
- the peak resident memory (RSS summed over the command and its worker processes,
  sampled every 20 ms from /proc) on the first 1,000 games and on 100,000 games (the
  collection repeated), both with 2 workers.

The machine is shared with other developers' tests: figures are noisy. Each run also
prints the seconds its processes spent on a CPU and the seconds they were ready to run
but waited for one (/proc/<pid>/schedstat): the same CPU seconds with 1 and 2 workers
and a large wait mean the work divides but other programs held the cores.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
SEED = 20_261_201


def _headers(n: int, result: str, fen: str | None = None, termination: str | None = None) -> str:
    tags = [f'[Event "bench {n}"]', f'[Round "{n % 11 + 1}"]', f'[White "Player {n % 97}"]',
            f'[Black "Player {n % 89}"]', f'[Result "{result}"]']
    if termination:
        tags.append(f'[Termination "{termination}"]')
    if fen:
        tags.append(f'[FEN "{fen}"]')
    return "\n".join(tags) + "\n\n"


def _movetext(board: chess.Board, moves: list[chess.Move], clocks: dict[int, str] | None = None) -> str:
    """SAN with move numbers (and ``[%clk]`` comments at the given plies) from ``board``."""
    out: list[str] = []
    work = board.copy(stack=False)
    for ply, move in enumerate(moves, start=1):
        if work.turn == chess.WHITE:
            out.append(f"{work.fullmove_number}.")
        elif ply == 1:
            out.append(f"{work.fullmove_number}...")
        out.append(work.san(move))
        if clocks and ply in clocks:
            out.append(f"{{[%clk {clocks[ply]}]}}")
        work.push(move)
    return " ".join(out)


def _random_line(rng: random.Random, board: chess.Board, plies: int, quiet: bool = False) -> list[chess.Move]:
    """Random legal moves (no captures or pawn moves when ``quiet``), stopping early at the end of the game."""
    work = board.copy(stack=False)
    line: list[chess.Move] = []
    for _ in range(plies):
        moves = list(work.legal_moves)
        if quiet:
            moves = [m for m in moves if not work.is_capture(m) and work.piece_type_at(m.from_square) != chess.PAWN]
        rng.shuffle(moves)
        move = next((m for m in moves if not _ends(work, m)), None)
        if move is None:
            break
        line.append(move)
        work.push(move)
    return line


def _ends(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    over = board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()
    board.pop()
    return over


def clean(rng: random.Random, n: int) -> str:
    board = chess.Board()
    line = _random_line(rng, board, rng.randint(30, 70))
    result = rng.choice(("1-0", "0-1", "1/2-1/2"))
    return _headers(n, result) + _movetext(board, line) + f" {result}\n\n"


def mate(rng: random.Random, n: int) -> str:
    board = chess.Board()
    prefix = [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")]
    return _headers(n, "1-0") + _movetext(board, prefix) + " 1-0\n\n"


def _timeout(rng: random.Random, n: int, fen: str, loser_white: bool) -> str:
    board = chess.Board(fen)
    line = _random_line(rng, board, rng.randint(4, 12), quiet=True)
    loser_plies = [i for i in range(1, len(line) + 1) if ((i % 2 == 1) == (board.turn == chess.WHITE)) == loser_white]
    result = "0-1" if loser_white else "1-0"
    clocks = {ply: "0:00:00" if ply == loser_plies[-1] else f"0:00:{rng.randint(10, 59)}" for ply in loser_plies}
    termination = "Time forfeit" if rng.random() < 0.5 else None
    return _headers(n, result, fen, termination) + _movetext(board, line, clocks) + f" {result}\n\n"


def timeout_won(rng: random.Random, n: int) -> str:
    """White (a bare king) flags against K+Q+P: Black can mate, the loss stands."""
    fen = rng.choice(("8/8/4k3/8/3q4/8/5p2/1K6 w - - 0 40", "6k1/5ppp/8/8/8/8/r7/6K1 w - - 0 40"))
    return _timeout(rng, n, fen, True)


def timeout_unwinnable(rng: random.Random, n: int) -> str:
    """White flags, but Black has a bare king, or a lone minor piece against a major one: 6.9, a draw."""
    fen = rng.choice((
        "8/8/4k3/8/8/8/3Q4/1K6 w - - 0 50", "8/4k3/8/8/8/2R5/8/2K5 w - - 0 50", "8/8/4k3/8/8/8/1Q1n4/1K6 w - - 0 50",
    ))
    return _timeout(rng, n, fen, True)


def _pushed(board: chess.Board, move: chess.Move) -> bool:
    """Play ``move`` if it is legal; whether it was."""
    if move not in board.legal_moves:
        return False
    board.push(move)
    return True


def _knight_cycle(board: chess.Board) -> list[chess.Move] | None:
    """Four quiet knight moves (out and back, for each side) that bring the position back, if any."""
    def quiet_knight(b: chess.Board) -> list[chess.Move]:
        return [m for m in b.legal_moves if b.piece_type_at(m.from_square) == chess.KNIGHT and not b.is_capture(m)]

    for first in quiet_knight(board):
        work = board.copy(stack=False)
        work.push(first)
        for reply in quiet_knight(work):
            cycle = [first, reply, chess.Move(first.to_square, first.from_square),
                     chess.Move(reply.to_square, reply.from_square)]
            trial = board.copy(stack=False)
            if all(_pushed(trial, move) for move in cycle):
                return cycle
    return None


def fivefold(rng: random.Random, n: int) -> str:
    """A knight shuffle that repeats the position five times, then more moves and a decisive result."""
    board = chess.Board()
    prefix = _random_line(rng, board, rng.randint(2, 10), quiet=True)
    cycle = _knight_cycle(_after(board, prefix))
    if cycle is None:
        return clean(rng, n)
    line = prefix + cycle * 4 + _random_line(rng, _after(board, prefix + cycle * 4), 4, quiet=True)
    return _headers(n, "1-0") + _movetext(board, line) + " 1-0\n\n"


def _after(board: chess.Board, moves: list[chess.Move]) -> chess.Board:
    work = board.copy(stack=False)
    for move in moves:
        work.push(move)
    return work


def seventy_five(rng: random.Random, n: int) -> str:
    counter = rng.randint(120, 146)
    fen = rng.choice(("8/8/4k3/8/8/8/1R6/K7 w - - {c} 90", "8/5k2/8/8/3B4/8/1N6/K7 w - - {c} 90")).format(c=counter)
    board = chess.Board(fen)
    line = _random_line(rng, board, 150 - counter + rng.randint(1, 6), quiet=True)
    return _headers(n, "1-0", fen) + _movetext(board, line) + " 1-0\n\n"


def dead(rng: random.Random, n: int) -> str:
    """A capture leaves K+B v K (or K+N v K) and the players go on: 5.2.2, a draw at the capture."""
    fen = rng.choice(("8/8/8/4k3/8/8/3r4/K1B5 w - - 0 1", "8/8/8/4k3/8/2r5/8/KN6 w - - 0 1"))
    board = chess.Board(fen)
    capture = next(m for m in board.legal_moves if board.is_capture(m))
    line = [capture, *_random_line(rng, _after(board, [capture]), rng.randint(2, 10))]
    return _headers(n, "1-0", fen) + _movetext(board, line) + " 1-0\n\n"


MIX: tuple[tuple[Callable[[random.Random, int], str], int], ...] = (
    (clean, 40), (mate, 5), (timeout_won, 12), (timeout_unwinnable, 12), (fivefold, 11), (seventy_five, 10),
    (dead, 10),
)


def build(path: Path, games: int) -> None:
    rng = random.Random(SEED)
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    with path.open("w", encoding="utf-8") as out:
        for n in range(1, games + 1):
            out.write(rng.choice(kinds)(rng, n))


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (Linux /proc)."""
    found, stack = [pid], [pid]
    while stack:
        current = stack.pop()
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    kids = [int(c) for c in children.read().split()]
                found += kids
                stack += kids
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next((int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:")), 0)
    except (FileNotFoundError, ProcessLookupError):
        return 0


def _schedstat(pid: int) -> tuple[int, int] | None:
    """(nanoseconds on a CPU, nanoseconds runnable but waiting for one) of ``pid``."""
    try:
        with open(f"/proc/{pid}/schedstat") as stat:
            on_cpu, waiting, _ = (int(x) for x in stat.read().split())
            return on_cpu, waiting
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None


@dataclass
class Run:
    seconds: float
    games: int
    peak_rss: int
    on_cpu: float
    """Seconds the command's processes ran on a CPU, summed."""
    waiting: float
    """Seconds they were ready to run but waited for a CPU (other programs on the machine)."""

    def cpu_text(self) -> str:
        return f"on a CPU {self.on_cpu:.1f} s, waiting for one {self.waiting:.1f} s"


def run(path: Path, workers: int) -> Run:
    """One run of the command: time, games checked, peak RSS of the process tree, CPU time and CPU wait."""
    command = [sys.executable, "-m", "adjudicator", "check-games", str(path), "--workers", str(workers)]
    peak = 0
    sched: dict[int, tuple[int, int]] = {}
    started = time.monotonic()
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                pids = _tree(proc.pid)
                peak = max(peak, sum(_rss(pid) for pid in pids))
                for pid in pids:
                    stat = _schedstat(pid)
                    if stat is not None:
                        sched[pid] = stat
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        assert proc.stdout is not None
        count = 0
        last = ""
        for line in proc.stdout:
            count += 1
            last = line
        proc.wait()
        done.set()
        sampler.join()
        if proc.returncode != 0:
            assert proc.stderr is not None
            raise SystemExit(f"check-games failed ({proc.returncode}): {proc.stderr.read()[-2000:]}")
    seconds = time.monotonic() - started
    assert '"summary"' in last, last
    on_cpu = sum(s[0] for s in sched.values()) / 1e9
    waiting = sum(s[1] for s in sched.values()) / 1e9
    return Run(seconds, count - 1, peak, on_cpu, waiting)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--memory-games", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "collection.pgn"
        t0 = time.monotonic()
        build(base, args.games)
        text = base.read_text(encoding="utf-8")
        print(f"built {args.games} games ({len(text) / 1e6:.1f} MB) in {time.monotonic() - t0:.1f} s")
        print(f"machine: {os.cpu_count()} cores, load average at start {os.getloadavg()[0]:.2f}")
        rates = {}
        for workers in (1, 2):
            done = run(base, workers)
            assert done.games == args.games, (done.games, args.games)
            rates[workers] = done.games / done.seconds
            print(f"workers={workers}: {done.games} games in {done.seconds:.1f} s = {rates[workers]:.0f} games/s "
                  f"({done.cpu_text()}; load average {os.getloadavg()[0]:.2f})")
        print(f"ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f} (target >= 1.8)")
        small = Path(folder) / "first-1000.pgn"
        games_text = text.split('[Event "bench ')
        small.write_text("".join('[Event "bench ' + g for g in games_text[1:1001]), encoding="utf-8")
        big = Path(folder) / "repeated.pgn"
        with big.open("w", encoding="utf-8") as out:
            for _ in range(max(1, args.memory_games // args.games)):
                out.write(text)
        peaks, counts = [], []
        for path in (small, big):
            done = run(path, 2)
            peaks.append(done.peak_rss)
            counts.append(done.games)
            print(f"peak RSS at {done.games:,} games (2 workers, all processes): {done.peak_rss / 2**20:.1f} MB "
                  f"({done.games / done.seconds:.0f} games/s, {done.cpu_text()}; "
                  f"load average {os.getloadavg()[0]:.2f})")
        low, high = peaks
        growth = (high - low) / 2**20
        print(f"memory growth from {counts[0]:,} to {counts[1]:,} games: {growth:+.1f} MB (target within 50 MB)")


if __name__ == "__main__":
    main()
