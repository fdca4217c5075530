"""Reading and checking a collection: processor seconds against pgn-extract and python-chess, workers, memory.

    python bench/check_games.py [--games 3000] [--kind corpus|mix] [--broker-games 200000] [--broker-rounds 3]
                                [--memory-games 100000] [--no-reading] [--no-broker] [--no-memory]
    python bench/check_games.py --games 40 --broker-games 2000 --memory-games 80   # a smoke run (a minute)
    python bench/check_games.py --games 1000 --no-reading --no-memory   # the broker's workers alone

One run, one file (built in the run from a seeded generator: ``--kind corpus``, the
default, is ``bench/make_corpus.py``'s collection, as issue 26 measured it: long random
games, clocks, NAGs, variations, German letters; ``--kind mix`` is this file's mix of
clean games, losses on time, fivefold repetitions, 75-move sequences, dead positions and
checkmates). It prints:

1. the processor seconds (user + system, of the command and every process it waited for,
   interpreter start included) of ``adjudicator check-games --workers 1``, ``adjudicator
   replay``, pgn-extract (``/usr/games/pgn-extract -s``: reads and validates every move)
   and python-chess's reader (``chess.pgn.read_game`` over the file), each with its ratio to
   pgn-extract's (issue 40's goal: check-games at or under it; issue 26's was within 3x), and the same
   for check-games and replay with the compiled reader turned off (:data:`LENIENT_ONLY`: the lenient
   reader alone, as before issue 26); the fast ones (under 2 s) run :data:`ROUNDS` times, one tool after
   the other each time, and their median is printed, with the lowest and highest, and how many of
   check-games' runs were at or under pgn-extract's run beside it;
2. check-games with 1 and then 2 workers on the broker, in ``--broker-rounds`` rounds (3: one worker then two
   each round; the machine's speed drifts by a fifth over minutes, so a ratio is read within a round and the
   medians are printed) (a redis-server on a free port,
   ``adjudicator worker`` processes started and ready before the command and warmed by a check
   of the file once through (a cold worker's first games are slower), a throw-away
   SQLite database) on ``--broker-games`` games (the file repeated; 200,000 by default,
   18-23 s of one worker's work here, so that the command's own start-up weighs little): for
   each run the wall seconds and games per second; the processor seconds of the command
   (the process that reads the file, sends the parts and prints the lines; its start-up
   measured apart on a one-game file), of redis-server and of each worker; when the first
   worker became busy (the command's start-up and first part), when the last stopped, and
   how long each worker was busy in between (running or waiting for a CPU, sampled every
   50 ms from /proc/<pid>/task/*/schedstat: a worker waiting for a CPU is not idle); then
   the 2-to-1 ratio (issue 26's goal: at least 1.8) by the wall clock, whole and from the
   first worker busy to the end (the command's start-up left out), and by the processor
   seconds of the slowest process (a core for each: load-independent); the workers' processor seconds with
   two against one (the same games: how much two busy cores slow each other here); and the machine's own
   ceiling: ``check-games --workers 1`` without the broker on all those games, then two of them
   side by side on half each (no coordination at all; with the pair's processor seconds against the one's), as
   many times, the broker's wall-clock ratio read
   against its median (two CPU-bound processes side by side run slower here than one alone); and a model of
   N workers on N cores (:func:`_model`: the start-up and tail serial, the processor seconds shared) at the
   bench's size and on five times the games, for issue 40's 4-core goal;
3. the peak memory (RSS and PSS summed over all the processes, sampled every 20 ms from
   /proc) of check-games (1 and 2 local workers) and of replay on the first 1,000 games and
   on ``--memory-games`` games (the file repeated), and of the 2-worker broker check
   (command, workers and redis-server) on those; the run's config raises ``[collections]``
   ``max_inflated_bytes`` and ``max_games`` so that the file is not refused;
4. how many games the compiled reader left to the lenient reader, by reason
   (``adjudicator.chess.bulk.check.FALLBACK_REASONS``, and games it did not lex at all).

The machine may be shared: each run also prints the seconds its processes spent on a CPU
and waiting for one (/proc/<pid>/schedstat): a large wait means other programs held the
cores, and the figures are not to be trusted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

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
            if _plays(board, cycle):
                return cycle
    return None


def _plays(board: chess.Board, moves: list[chess.Move]) -> bool:
    """Whether ``moves`` are legal one after the other from ``board``."""
    trial = board.copy(stack=False)
    for move in moves:
        if move not in trial.legal_moves:
            return False
        trial.push(move)
    return True


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


def collection(games: int, seed: int = SEED) -> Iterator[str]:
    """The text of each game of the seeded collection (:data:`SEED`: the figures' collection)."""
    rng = random.Random(seed)
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    for n in range(1, games + 1):
        yield rng.choice(kinds)(rng, n)


def build(path: Path, games: int, seed: int = SEED) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.writelines(collection(games, seed))


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


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return next((int(line.split()[1]) * 1024 for line in rollup if line.startswith("Pss:")), 0)
    except (FileNotFoundError, ProcessLookupError, PermissionError):
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
    lines: int
    peak_rss: int
    peak_pss: int
    processor: float
    """User + system seconds of the command and every process it waited for (getrusage of children)."""
    on_cpu: float
    """Seconds the command's processes ran on a CPU, summed (schedstat, sampled)."""
    waiting: float
    """Seconds they were ready to run but waited for a CPU (other programs on the machine)."""
    last: str = ""

    def cpu_text(self) -> str:
        return f"on a CPU {self.on_cpu:.1f} s, waiting for one {self.waiting:.1f} s"


LENIENT_ONLY = ("import adjudicator.chess.bulk as b; b.COMPILED = False; from web.cli import entry; "
                "raise SystemExit(entry())")
"""``python -m adjudicator`` with the compiled reader turned off: the lenient reader alone."""


def adjudicator(*args: str, lenient: bool = False) -> list[str]:
    head = ["-c", LENIENT_ONLY] if lenient else ["-m", "adjudicator"]
    return [sys.executable, *head, *args]


def _printed(out: IO[str], err: IO[str]) -> tuple[int, str, str]:
    """What a command wrote to its output files: the lines, the last one, and its errors."""
    out.seek(0)
    count, last = 0, ""
    for line in out:
        count += 1
        last = line
    err.seek(0)
    return count, last, err.read()


def run(command: list[str], env: dict[str, str] | None = None, watch: bool = True,
        others: Callable[[], list[int]] | None = None) -> Run:
    """One run of a command: time, lines printed, peak RSS and PSS of its process tree (and of ``others``'
    processes), processor seconds, CPU wait. What it prints goes to a file, read once it has ended (as
    pgn-extract's goes to /dev/null: a reader of a pipe here would cost the command wake-ups, a lot at this
    size, that a user's ``> out.jsonl`` does not)."""
    peak = peak_pss = 0
    sched: dict[int, tuple[int, int]] = {}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as err, \
            subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, env=env) as proc:
        done = threading.Event()

        def sample() -> None:
            nonlocal peak, peak_pss
            while not done.is_set():
                pids = _tree(proc.pid)
                every = pids + (others() if others is not None else [])
                peak = max(peak, sum(_rss(pid) for pid in every))
                peak_pss = max(peak_pss, sum(_pss(pid) for pid in every))
                for pid in pids:
                    stat = _schedstat(pid)
                    if stat is not None:
                        sched[pid] = stat
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        if watch:
            sampler.start()
        proc.wait()
        done.set()
        if watch:
            sampler.join()
        seconds = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        count, last, errors = _printed(out, err)
    if proc.returncode not in (0, 2) or (proc.returncode == 2 and not count):
        raise SystemExit(f"{' '.join(command[:4])} failed ({proc.returncode}): {errors[-2000:]}")
    processor = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    on_cpu = sum(s[0] for s in sched.values()) / 1e9
    waiting = sum(s[1] for s in sched.values()) / 1e9
    return Run(seconds, count, peak, peak_pss, processor, on_cpu, waiting, last)


def python_chess_reader(path: Path) -> list[str]:
    """python-chess's reader over the file, every move played (its own SAN parser), one line: the games read."""
    code = ("import sys, chess.pgn\n"
            "n = 0\n"
            "with open(sys.argv[1], encoding='utf-8') as f:\n"
            "    while chess.pgn.read_game(f) is not None:\n"
            "        n += 1\n"
            "print(n)\n")
    return [sys.executable, "-c", code, str(path)]


ROUNDS = 7
"""Runs of each fast reader (a first run under :data:`FAST` seconds) in section 1, one tool after the other each
round: the median is printed (a shared machine's processor seconds vary by 10% from run to run)."""
FAST = 2.0


def reading(path: Path, games: int) -> None:
    """Section 1: processor seconds of each reader on the same file, with their ratios to pgn-extract."""
    pgn_extract = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
    commands: list[tuple[str, list[str]]] = []
    for name, command in (
        ("pgn-extract -s (C)", [pgn_extract, "-s", "-o", os.devnull, str(path)]),
        ("check-games --workers 1", adjudicator("check-games", str(path), "--workers", "1")),
        ("replay", adjudicator("replay", str(path))),
        ("python-chess read_game", python_chess_reader(path)),
        ("check-games, lenient reader only", adjudicator("check-games", str(path), "--workers", "1", lenient=True)),
        ("replay, lenient reader only", adjudicator("replay", str(path), lenient=True)),
    ):
        if not os.access(command[0], os.X_OK):
            print(f"{name}: not installed ({command[0]}: .ci/install installs Debian's pgn-extract)")
            continue
        commands.append((name, command))
    runs: dict[str, list[Run]] = {name: [run(command)] for name, command in commands}
    fast = [(name, command) for name, command in commands if runs[name][0].processor < FAST]
    for _round in range(ROUNDS - 1):  # the fast ones again, one after the other each round
        for name, command in fast:
            runs[name].append(run(command))
    median = {name: statistics.median(done.processor for done in found) for name, found in runs.items()}
    base_name = commands[0][0] if commands and commands[0][0].startswith("pgn-extract") else None
    base = median[base_name] if base_name else None
    print(f"\n1. processor seconds on {games:,} games (user + system, interpreter start included; the fast ones "
          f"the median of {ROUNDS} runs, one tool after the other each run, lowest and highest in brackets):")
    for name, found in runs.items():
        ratio = f"{median[name] / base:6.2f}x pgn-extract" if base else ""
        spread = (f"  [{min(d.processor for d in found):.2f}-{max(d.processor for d in found):.2f}]"
                  if len(found) > 1 else "")
        print(f"   {name:34} {median[name]:8.2f} s  {games / max(median[name], 1e-9):8.0f} games/s  {ratio}"
              f"{spread}  ({found[-1].cpu_text()})")
    check = "check-games --workers 1"
    if base_name and base and check in runs:
        each = [mine.processor / theirs.processor for mine, theirs in zip(runs[check], runs[base_name], strict=False)]
        print(f"   goal (issue 40): check-games at or under pgn-extract's processor time: {median[check] / base:.2f}x "
              f"the median; run by run {min(each):.2f}x to {max(each):.2f}x, "
              f"{sum(ratio <= 1 for ratio in each)} of {len(each)} runs at or under")


# -- the broker ------------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _wait(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {seconds:.0f} s waiting for {what}")
        time.sleep(0.1)


def _config(folder: Path) -> Path:
    """config.toml with absolute data paths and a throw-away SQLite database shared by the workers."""
    text = (ROOT / "config.toml").read_text(encoding="utf-8")
    for name in ("syzygy", "gaviota", "checkers-db"):
        text = text.replace(f'"data/{name}"', json.dumps(str(ROOT / "data" / name)))
    text, count = re.subn(r'^url = "sqlite:///instance/adjudicator.db"', f'url = "sqlite:///{folder / "bench.db"}"',
                          text, count=1, flags=re.MULTILINE)
    if count != 1:
        raise SystemExit("config.toml's [database] url line changed: bench/check_games.py cannot set its own")
    for key, value in (("max_inflated_bytes", 10**12), ("max_games", 10**9)):  # the memory run's 100,000 games
        text, count = re.subn(rf"^{key} = \S+", f"{key} = {value}", text, count=1, flags=re.MULTILINE)
        if count != 1:
            raise SystemExit(f"config.toml has no [collections] {key} line: bench/check_games.py cannot raise it")
    path = folder / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _cpu_seconds(pid: int) -> float:
    """User + system seconds of a live process and its waited-for children (/proc/<pid>/stat; a worker's pool
    processes are counted by the caller, :func:`_tree`)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _ready(log: Path) -> Callable[[], bool]:
    return lambda: "ready." in log.read_text(errors="replace")


def _worker_seconds(workers: list[subprocess.Popen[bytes]]) -> list[float]:
    """Processor seconds so far of each worker (its process tree: Celery's threads are in its one process)."""
    return [sum(_cpu_seconds(pid) for pid in _tree(w.pid)) for w in workers]


def _repeated(text: str, games: int, target: int, path: Path) -> int:
    """``text`` (``games`` games) written to ``path`` as often as it takes to hold ``target`` games; how many."""
    times = max(1, -(-target // games))
    with path.open("w", encoding="utf-8") as out:
        for _ in range(times):
            out.write(text)
    return times * games


BROKER_GAMES = 200_000
"""The broker's runs: 18-23 s of one worker's work here (about 30 s when it was chosen), so that the command's
start-up (0.6-0.7 s: its imports, the database and the broker; 1.2 s then) weighs little in the wall-clock
ratio."""
SAMPLE_SECONDS = 0.05
BUSY = 0.5
"""A worker is busy in a sample where it ran, or waited for a CPU, at least this share of it."""


def _threads_sched(pid: int) -> tuple[int, int]:
    """(nanoseconds on a CPU, nanoseconds waiting for one) of all ``pid``'s threads (live ones: /proc/<pid>/task)."""
    on = wait = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except (FileNotFoundError, ProcessLookupError):
        return 0, 0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                ran, waited, _ = (int(x) for x in stat.read().split())
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
        on += ran
        wait += waited
    return on, wait


@dataclass
class Timeline:
    """One broker run: the wall seconds, and each process's seconds on a CPU and waiting for one, sampled every
    :data:`SAMPLE_SECONDS` from /proc/<pid>/task/*/schedstat (``times`` from the command's start)."""

    seconds: float
    lines: int
    last: str
    times: list[float]
    on_cpu: dict[str, list[float]]
    waited: dict[str, list[float]]
    command_total: float
    """The command's own processor seconds, interpreter start included (getrusage once it ended)."""

    def used(self, name: str) -> float:
        values = self.on_cpu[name]
        return values[-1] - values[0] if values else 0.0

    def waiting(self, name: str) -> float:
        values = self.waited[name]
        return values[-1] - values[0] if values else 0.0

    def busy(self, name: str) -> list[tuple[float, float]]:
        """The spans (from, to) in which ``name`` ran or waited for a CPU at least :data:`BUSY` of the time."""
        spans: list[tuple[float, float]] = []
        ran, waited = self.on_cpu[name], self.waited[name]
        for i in range(1, len(self.times)):
            step = self.times[i] - self.times[i - 1]
            if step > 0 and (ran[i] - ran[i - 1]) + (waited[i] - waited[i - 1]) >= BUSY * step:
                if spans and spans[-1][1] >= self.times[i - 1] - 1e-9:
                    spans[-1] = (spans[-1][0], self.times[i])
                else:
                    spans.append((self.times[i - 1], self.times[i]))
        return spans


def timed(command: list[str], env: dict[str, str], processes: dict[str, Callable[[], list[int]]]) -> Timeline:
    """Run ``command`` once and sample the seconds on a CPU and waiting for one of it and of ``processes`` (name:
    its pids) as it runs (nothing else: no memory sampled, so the bench itself takes little of the machine)."""
    names = ["check-games", *processes]
    times: list[float] = []
    on_cpu: dict[str, list[float]] = {name: [] for name in names}
    waited: dict[str, list[float]] = {name: [] for name in names}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as err, \
            subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, env=env) as proc:  # as run() does
        done = threading.Event()
        pids = {"check-games": lambda: _tree(proc.pid), **processes}

        def sample() -> None:
            while not done.is_set():
                now = time.monotonic() - started
                for name in names:
                    found = [_threads_sched(pid) for pid in pids[name]()]
                    on_cpu[name].append(sum(f[0] for f in found) / 1e9)
                    waited[name].append(sum(f[1] for f in found) / 1e9)
                times.append(now)
                time.sleep(SAMPLE_SECONDS)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        proc.wait()
        seconds = time.monotonic() - started
        done.set()
        sampler.join()
        count, last, errors = _printed(out, err)
    # the command's last sample may miss its end: its processor seconds are taken whole from getrusage
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])} failed ({proc.returncode}): {errors[-2000:]}")
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timeline(seconds, count, last, times, on_cpu, waited, total)


def _describe(count: int, games: int, line: Timeline, start_up: float, workers: list[str]) -> dict[str, float]:
    """Print one broker run (wall, games/s, each process's processor seconds, when the workers were busy); its
    figures: ``wall``, ``busy`` (first worker busy to the last busy), ``slowest`` (the most a process used)."""
    spans = {name: line.busy(name) for name in workers}
    firsts = [s[0][0] for s in spans.values() if s]
    lasts = [s[-1][1] for s in spans.values() if s]
    first, last = (min(firsts), max(lasts)) if firsts else (0.0, line.seconds)
    used = {name: line.used(name) for name in workers}
    waits = sum(line.waiting(name) for name in ["check-games", "redis-server", *workers])
    print(f"   {count} worker{'s' if count > 1 else ' '}: wall {line.seconds:6.2f} s = {games / line.seconds:6.0f} "
          f"games/s; processor s: check-games {line.command_total:.2f} (start-up on one game {start_up:.2f}), "
          f"redis-server {line.used('redis-server'):.2f}, "
          + ", ".join(f"{name} {used[name]:.2f}" for name in workers)
          + f"; waiting for a CPU {waits:.2f} s (all of them: the machine's other load)")
    busy_text = ", ".join(f"{name} {sum(b - a for a, b in spans[name]):.2f} s" for name in workers)
    print(f"              first worker busy at {first:.2f} s (the command's start-up, first part), the last busy "
          f"until {last:.2f} s, then {line.seconds - last:.2f} s to the end; busy (running or waiting for a CPU) "
          f"in those {last - first:.2f} s: {busy_text}")
    cpu = line.command_total + line.used("redis-server") + sum(used.values())
    print(f"              all these processes: {cpu:.2f} processor s = {cpu / line.seconds:.2f} cores on average "
          f"(the machine has {os.cpu_count()})")
    return {"wall": line.seconds, "busy": max(last - first, 1e-9), "after_start": line.seconds - first,
            "slowest": max(max(line.command_total - start_up, 0.0), *used.values()), "cpu": cpu,
            "start": first, "tail": line.seconds - last, "workers_cpu": sum(used.values()),
            "command_run": max(line.command_total - start_up, 0.0), "redis": line.used("redis-server")}


def ceiling(text: str, games: int, total: int, folder: Path, env: dict[str, str]) -> float:
    """The machine's own ceiling for two processes: ``check-games --workers 1`` (no broker) on the broker runs'
    games, then two such processes side by side, each on half of them; the wall-clock ratio. No coordination at
    all: what two independent processes gain here, so the broker's ratio can be read against it."""
    half = folder / "half.pgn"
    halves = _repeated(text, games, total // 2, half)
    whole = folder / "whole.pgn"
    _repeated(text, games, 2 * halves, whole)
    alone = run(adjudicator("check-games", "--workers", "1", str(whole)), env=env, watch=False)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    both = [subprocess.Popen(adjudicator("check-games", "--workers", "1", str(half)), cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
    ended = [0.0, 0.0]
    for number, process in enumerate(both):
        process.wait()
        ended[number] = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    pair = max(ended)
    pair_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ratio = alone.seconds / pair
    print(f"   the machine's ceiling (no broker, no coordination): check-games --workers 1 on {2 * halves:,} games "
          f"{alone.seconds:.2f} s; two of them side by side on {halves:,} games each {pair:.2f} s (the first done at "
          f"{min(ended):.2f} s): {ratio:.2f}x by the wall clock; the pair's processor seconds {pair_cpu:.2f} against "
          f"{alone.processor:.2f} alone ({pair_cpu / max(alone.processor, 1e-9):.2f}x: the same games, both cores "
          "busy, a start-up more)")
    return ratio


def broker(text: str, games: int, broker_games: int, folder: Path,
           memory_run: tuple[Path, int, Path, int] | None, rounds: int = 3) -> None:
    """Section 2: check-games on the broker with 1 worker, then 2 (each ``--concurrency 1``), ``rounds`` times
    one after the other (the machine's speed drifts by a fifth over minutes: a ratio is read within a round),
    timed by the wall clock and by each process's processor seconds; the machine's ceiling as many times; the
    medians, and the model of N workers on N cores from the figures measured. With ``memory_run`` (the first
    1,000 games and the large file, with their games), the 2-worker check's peak memory on each (section 3, for
    the broker)."""
    redis_server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.access(redis_server, os.X_OK):
        print("\n2. the broker: redis-server is not installed (.ci/install installs it)")
        return
    path = folder / "broker.pgn"
    total = _repeated(text, games, broker_games, path)
    base = folder / "once.pgn"
    base.write_text(text, encoding="utf-8")
    one_game = folder / "one-game.pgn"
    one_game.write_text(next(p for p in re.split(r"(?=^\[Event )", text, flags=re.MULTILINE) if p.strip()),
                        encoding="utf-8")
    port = _free_port()
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(_config(folder)), "PYTHONPATH": str(ROOT),
           "ADJUDICATOR_BROKER_URL": f"redis://127.0.0.1:{port}/0"}
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    processes: list[subprocess.Popen[bytes]] = []
    redis = subprocess.Popen([redis_server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(folder)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(redis)
    runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    print(f"\n2. check-games on the broker (redis-server, `adjudicator worker --concurrency 1` each), {total:,} games "
          f"({path.stat().st_size / 1e6:.0f} MB), each worker started before the command (its own start-up left out) "
          f"and warmed by a run of the {games:,} games once; {rounds} rounds of 1 worker then 2 (a ratio is read "
          f"within a round: the machine's speed drifts):")
    try:
        _wait(lambda: _answers(port), 15, "redis-server to answer")
        workers: list[subprocess.Popen[bytes]] = []
        for round_number in range(1, rounds + 1):
            for count in (1, 2):
                while len(workers) > count:  # the second worker of the last round stopped: one alone
                    _stop(workers.pop())
                while len(workers) < count:
                    log = folder / f"worker{len(workers) + 1}.log"
                    with log.open("wb") as handle:
                        worker = subprocess.Popen(adjudicator("worker", "--concurrency", "1"), cwd=ROOT, env=env,
                                                  stdout=subprocess.DEVNULL, stderr=handle)
                    processes.append(worker)
                    workers.append(worker)
                    _wait(_ready(log), 60, f"worker to connect ({log})")
                start_up = run(adjudicator("check-games", str(one_game)), env=env, watch=False).processor
                # a run of the file once through first: every worker has checked these games before the timed run
                run(adjudicator("check-games", str(base)), env=env, watch=False)
                named: dict[str, Callable[[], list[int]]] = {"redis-server": lambda: [redis.pid]}
                for number, worker in enumerate(workers, start=1):
                    named[f"worker {number}"] = lambda w=worker: _tree(w.pid)  # type: ignore[misc]
                load = os.getloadavg()[0]
                line = timed(adjudicator("check-games", str(path)), env, named)
                if line.lines != total + 1 or '"summary"' not in line.last:
                    raise SystemExit(f"check-games on the broker printed {line.lines} lines for {total} games")
                print(f"   round {round_number}, load average before this run {load:.2f}:")
                runs[count].append(_describe(count, total, line, start_up,
                                             [f"worker {n}" for n in range(1, count + 1)]))
        pairs = list(zip(runs[1], runs[2], strict=True))
        whole = [one["wall"] / two["wall"] for one, two in pairs]
        after = [one["after_start"] / two["after_start"] for one, two in pairs]
        slowest = [one["slowest"] / max(two["slowest"], 1e-9) for one, two in pairs]
        print(f"   ratio 2 workers / 1 worker (goal at least 1.8), round by round: by the wall clock "
              f"{_listed(whole)} (median {statistics.median(whole):.2f}); from the first worker busy to the end "
              f"(the command's start-up left out) {_listed(after)} (median {statistics.median(after):.2f}); by the "
              f"processor seconds of the slowest process (a core for each) {_listed(slowest)} "
              f"(median {statistics.median(slowest):.2f})")
        cost = [two["workers_cpu"] / max(one["workers_cpu"], 1e-9) for one, two in pairs]
        print(f"   the workers' processor seconds for the same games, 2 workers against 1, round by round: "
              f"{_listed(cost)} (1.00 where two busy cores do not slow each other; above it, every game costs that "
              "much more processor time with both cores busy, the workers' own broker work included: the ceiling's "
              "pair shows it without the broker)")
        local = {k: v for k, v in env.items() if k != "ADJUDICATOR_BROKER_URL"}
        ceilings = [ceiling(text, games, total, folder, local) for _ in range(rounds)]
        most = statistics.median(ceilings)
        print(f"   the broker's 2-worker ratio by the wall clock is {100 * statistics.median(whole) / most:.0f}% of "
              f"the machine's median ceiling {most:.2f} ({100 * statistics.median(after) / most:.0f}% with the "
              f"command's start-up left out)")
        cores = os.cpu_count() or 1
        least = statistics.median(two["cpu"] for _one, two in pairs) / cores
        print(f"   on {cores} cores the 2-worker runs' processor seconds (median) take at least {least:.1f} s: at "
              f"most {statistics.median(one['wall'] for one, _two in pairs) / least:.2f}x by the wall clock here, "
              "whatever the waits")
        _model(runs[1], runs[2], most)
        if memory_run is not None:
            small, small_games, big, memory_games = memory_run
            print("\n   3b. the 2-worker broker check (command, 2 workers, redis-server), peak memory:")
            peaks = []
            for memory_path, held in ((small, small_games), (big, memory_games)):
                done = run(adjudicator("check-games", str(memory_path)), env=env,
                           others=lambda: [pid for w in [redis, *workers] for pid in _tree(w.pid)])
                if done.lines != held + 1:
                    raise SystemExit(f"check-games on the broker printed {done.lines} lines for {held} games")
                peaks.append(done.peak_rss)
                print(f"   {held:8,} games: RSS {done.peak_rss / 2**20:.1f} MB, PSS {done.peak_pss / 2**20:.1f} MB "
                      f"({done.cpu_text()})")
            print(f"   growth: {(peaks[1] - peaks[0]) / 2**20:+.1f} MB (goal: flat, within 50 MB)")
    finally:
        for process in reversed(processes):
            _stop(process)


def _listed(values: list[float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def _model(ones: list[dict[str, float]], twos: list[dict[str, float]], most: float) -> None:
    """The wall clock of N workers on N cores from the 1-worker runs' figures (medians): the command's start-up
    (until the first worker is busy) and the tail after the last, serial; the workers' processor seconds, the
    command's after its start-up and redis-server's, shared by the N cores, each core slowed as two were here
    (the ceiling: two independent processes side by side) or not at all (an idle machine); checked against the
    2-worker runs measured."""
    start = statistics.median(one["start"] for one in ones)
    tail = statistics.median(one["tail"] for one in ones)
    work = statistics.median(one["workers_cpu"] for one in ones)
    command = statistics.median(one["command_run"] + one["redis"] for one in ones)
    alone = statistics.median(one["wall"] for one in ones)
    slowed = 2 / most
    measured = statistics.median(one["wall"] / two["wall"] for one, two in zip(ones, twos, strict=True))

    def ratio(n: int, slow: float) -> float:
        return alone / (start + tail + (work * slow + command) / n)

    print(f"   the model (from the 1-worker runs' medians: start-up {start:.2f} s and tail {tail:.2f} s serial; the "
          f"workers' {work:.2f} processor s and the command's {command:.2f} after its start-up shared by the cores): "
          f"2 workers on 2 cores {ratio(2, slowed):.2f}x with each core slowed as the ceiling shows here "
          f"({slowed:.2f}; measured {measured:.2f}x), {ratio(2, 1.0):.2f}x on an idle machine; 4 workers on 4 cores "
          f"{ratio(4, slowed):.2f}x slowed so, {ratio(4, 1.0):.2f}x idle (goal 3.5x)")
    scale = 5  # a larger collection: the same serial start-up and tail, the rest grown with the games

    def scaled(n: int, slow: float) -> float:
        return (start + tail + scale * (alone - start - tail)) / (start + tail + scale * (work * slow + command) / n)

    print(f"   the same model on {scale} times the games (the serial {start + tail:.2f} s weighs less): 2 workers "
          f"{scaled(2, slowed):.2f}x slowed, {scaled(2, 1.0):.2f}x idle; 4 workers {scaled(4, slowed):.2f}x slowed, "
          f"{scaled(4, 1.0):.2f}x idle")


# -- memory ----------------------------------------------------------------------------------------------

def memory(text: str, games: int, memory_games: int, folder: Path) -> tuple[Path, int, Path, int]:
    """Section 3: peak memory of check-games (1 and 2 local workers) and replay on 1,000 games and on
    ``memory_games`` (the limits raised by the run's config); the big file, for the broker's figure."""
    pieces = re.split(r"(?=^\[Event )", text, flags=re.MULTILINE)
    pieces = [piece for piece in pieces if piece.strip()]
    small = folder / "first-1000.pgn"
    small.write_text("".join(pieces[:1000]), encoding="utf-8")
    big = folder / "repeated.pgn"
    held = _repeated(text, games, memory_games, big)
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(_config(folder)), "PYTHONPATH": str(ROOT)}
    env.pop("ADJUDICATOR_BROKER_URL", None)
    print(f"\n3. peak memory (all processes of the command, RSS and PSS; {held:,} games: limits raised by the "
          "run's config):")
    for name, arguments in (("check-games --workers 1", ("check-games", "--workers", "1")),
                            ("check-games --workers 2", ("check-games", "--workers", "2")), ("replay", ("replay",))):
        peaks = []
        for path in (small, big):
            command, *rest = arguments
            done = run(adjudicator(command, str(path), *rest), env=env)
            if command == "check-games" and '"summary"' not in done.last:
                raise SystemExit(f"{name} on {path.name} did not finish: {done.last[:300]}")
            peaks.append(done.peak_rss)
            shown = done.lines - 1 if command == "check-games" else done.lines
            print(f"   {name:24} {shown:8,} games: RSS {done.peak_rss / 2**20:7.1f} MB, PSS "
                  f"{done.peak_pss / 2**20:7.1f} MB ({shown / done.seconds:.0f} games/s; {done.cpu_text()})")
        print(f"   {name:24} growth: {(peaks[1] - peaks[0]) / 2**20:+.1f} MB (goal: flat, within 50 MB)")
    return small, len(pieces[:1000]), big, held


# -- fallbacks -------------------------------------------------------------------------------------------

FALLBACKS = """
import json, sys
from adjudicator.chess.bulk.check import FALLBACK_REASONS
from adjudicator.collection import records
from engines.collection import fallbacks
from web.commands.check_games import lines, open_collection
from web.config import load_config
with open_collection(sys.argv[1]) as stream:
    tally = fallbacks(records(lines(stream, sys.argv[1])), "fide-standard", load_config())
print(json.dumps({"tally": tally, "reasons": FALLBACK_REASONS}))
"""
"""Section 4's count, run from the project root (bench/web.py would hide the web package here)."""


def fallbacks(path: Path) -> None:
    """Section 4: the games check-games leaves to the lenient reader, by reason."""
    done = subprocess.run([sys.executable, "-c", FALLBACKS, str(path)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    if done.returncode:
        raise SystemExit(f"counting the fallbacks failed: {done.stderr[-2000:]}")
    found = json.loads(done.stdout)
    tally: dict[str, int] = found["tally"]
    total = tally.pop("games")
    left = sum(tally.values())
    share = 100 * left / max(total, 1)
    print(f"\n4. games left to the lenient reader (fide-standard): {left:,} of {total:,} ({share:.1f}%)")
    reasons = {"not-lexed": "the compiled reader does not lex the game's text", **found["reasons"]}
    for key, count in sorted(tally.items(), key=lambda item: -item[1]):
        print(f"   {count:7,}  {key}: {reasons.get(key, key)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="games in the file (default 3,000)")
    parser.add_argument("--kind", choices=("corpus", "mix"), default="corpus",
                        help="corpus: bench/make_corpus.py's collection (issue 26's); mix: this file's")
    parser.add_argument("--broker-games", type=int, default=BROKER_GAMES,
                        help=f"games of the broker's runs (the file repeated; default {BROKER_GAMES:,})")
    parser.add_argument("--broker-rounds", type=int, default=3,
                        help="rounds of the broker's 1-worker and 2-worker runs, and of the ceiling (default 3)")
    parser.add_argument("--memory-games", type=int, default=100_000, help="games of the memory run (default 100,000)")
    parser.add_argument("--no-broker", action="store_true", help="skip the broker's workers (section 2)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory runs (section 3)")
    parser.add_argument("--no-reading", action="store_true", help="skip the readers' processor seconds (section 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "collection.pgn"
        started = time.monotonic()
        if args.kind == "corpus":
            sys.path.insert(0, str(ROOT / "bench"))
            from make_corpus import game_text  # type: ignore[import-not-found]  # bench/ is no package

            rng = random.Random(2026)
            path.write_text("".join(game_text(rng, n) for n in range(1, args.games + 1)), encoding="utf-8")
        else:
            build(path, args.games)
        text = path.read_text(encoding="utf-8")
        print(f"built {args.games:,} games ({args.kind}, {len(text) / 1e6:.1f} MB) "
              f"in {time.monotonic() - started:.1f} s")
        print(f"machine: {os.cpu_count()} cores, load average at start {os.getloadavg()[0]:.2f}")
        if not args.no_reading:
            reading(path, args.games)
        big = None if args.no_memory else memory(text, args.games, args.memory_games, folder)
        if not args.no_broker:
            broker(text, args.games, args.broker_games, folder, big, max(1, args.broker_rounds))
        fallbacks(path)


if __name__ == "__main__":
    main()
