"""Checkers figures: replay speed, perft, endgame-database build time and size, search speed.

    python3 bench/checkers.py            # replay, perft(8), <=4-piece build, search
    python3 bench/checkers.py --five     # also build the 5-piece database (tens of minutes)
    python3 bench/checkers.py --compare  # also replay the same game with pydraughts

Figures are wall-clock on whatever else the machine is doing; run twice and read the better.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TEST_DATA = ROOT / "tests" / "data"  # public data copied into the repository (tests/data/README.md)

from adjudicator.checkers.board import START, Position, perft, perft_by_layers  # noqa: E402
from adjudicator.checkers.pdn import read_game, split_games  # noqa: E402
from adjudicator.checkers.replay import replay_checkers  # noqa: E402
from engines.checkers.database import EndgameDatabase, build_database  # noqa: E402
from engines.checkers.search import Searcher  # noqa: E402


def _game_of(plies: int) -> str:
    text = (TEST_DATA / "checkers" / "acf_archive_sample500.pdn").read_text()
    for game in split_games(text):
        tokens = read_game(game).moves
        if len(tokens) >= plies:
            return " ".join(t.text for t in tokens[:plies])
    raise SystemExit(f"no game of {plies} plies in the sample")


def bench_replay(compare: bool) -> None:
    record = _game_of(120)
    runs = []
    cpu = time.process_time()
    for _ in range(20):
        started = time.perf_counter()
        replay = replay_checkers(record)
        runs.append(time.perf_counter() - started)
    cpu_each = (time.process_time() - cpu) / 20
    assert len(replay.plies) == 120 and not replay.illegal
    print(f"replay of a 120-ply game: best {min(runs) * 1000:.1f} ms, median {sorted(runs)[10] * 1000:.1f} ms wall, "
          f"{cpu_each * 1000:.1f} ms CPU (target <= 50 ms)")
    text = (TEST_DATA / "checkers" / "tinsley.pdn").read_text()
    started = time.perf_counter()
    from adjudicator.checkers.replay import replay_pdn

    games = replay_pdn(text)
    seconds = time.perf_counter() - started
    plies = sum(len(g.plies) for g in games)
    print(f"tinsley.pdn: {len(games)} games, {plies} plies read and replayed in {seconds:.2f} s "
          f"({seconds / plies * 1e6:.0f} us a ply)")
    if compare:
        import draughts

        moves = record.split()
        started = time.perf_counter()
        board = draughts.Board(variant="english")
        for token in moves:
            squares = [int(x) for x in token.replace("x", "-").split("-")]
            legal = [m for m in board.legal_moves() if m.pdn_move.replace("x", "-").split("-")[0] == str(squares[0])
                     and m.pdn_move.replace("x", "-").split("-")[-1] == str(squares[-1])]
            board.push(legal[0])
        print(f"pydraughts, same game: {(time.perf_counter() - started) * 1000:.0f} ms")


def bench_perft() -> None:
    started = time.perf_counter()
    cpu = time.process_time()
    nodes = perft(START, 8)
    seconds = time.perf_counter() - started
    print(f"perft(8) = {nodes:,} in {seconds:.2f} s wall, {time.process_time() - cpu:.2f} s CPU "
          f"({nodes / seconds / 1e3:.0f} k leaves/s wall, path by path)")
    started = time.perf_counter()
    nodes = perft_by_layers(START, 10)
    print(f"perft(10) = {nodes:,} in {time.perf_counter() - started:.2f} s (layer by layer, transpositions merged)")


def bench_database(five: bool) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="checkers-db-"))
    started = time.perf_counter()
    cpu = time.process_time()
    manifest = build_database(folder, 4)
    seconds = time.perf_counter() - started
    size = sum(int(v["bytes"]) for v in manifest["pieces"].values())
    wld = sum(int(v.get("wld_bytes", 0)) for v in manifest["pieces"].values())
    positions = 6_408_836
    print(f"database <= 4 pieces: built in {seconds:.1f} s wall, {time.process_time() - cpu:.1f} s CPU "
          f"(target <= 60 s); {size / 1e6:.2f} MB on disk for {positions:,} positions: win/loss/draw "
          f"{wld / 1e6:.2f} MB ({wld * 8 / positions:.2f} bits a position), the rest distances for lines")
    if five:
        started = time.perf_counter()
        cpu = time.process_time()
        manifest = build_database(folder, 5, lambda m: print("   ", m, flush=True))
        seconds = time.perf_counter() - started
        size5 = int(manifest["pieces"]["5"]["bytes"])
        wld5 = int(manifest["pieces"]["5"].get("wld_bytes", 0))
        print(f"database 5 pieces: built in {seconds / 60:.1f} min wall, {(time.process_time() - cpu) / 60:.1f} min "
              f"CPU (target <= 60 min); {size5 / 1e6:.1f} MB on disk, of which win/loss/draw {wld5 / 1e6:.1f} MB")
    return folder


def bench_search(folder: Path) -> None:
    db = EndgameDatabase.open(folder)
    total_nodes = 0
    total_seconds = 0.0
    cpu = time.process_time()
    for fen in ("B:W21-32:B1-12", "W:WK28,K27,19:BK32,12,11", "B:W18,22,23,K30:B6,9,K26,K27", "B:W14,K32:BK10,K1,K5"):
        result = Searcher(db, max_nodes=30_000).search(Position.from_fen(fen))
        total_nodes += result.nodes
        total_seconds += result.seconds
        print(f"  {fen}: depth {result.depth}, {result.nodes} nodes, {result.nps:,.0f} nodes/s, "
              f"{result.database_hits} database hits, score {result.score}")
    cpu_seconds = time.process_time() - cpu
    print(f"search: {total_nodes / total_seconds:,.0f} nodes/s wall, {total_nodes / cpu_seconds:,.0f} nodes/s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--five", action="store_true", help="also build the 5-piece database")
    parser.add_argument("--compare", action="store_true", help="also time pydraughts on the same game")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    bench_replay(args.compare)
    bench_perft()
    folder = bench_database(args.five)
    bench_search(folder)


if __name__ == "__main__":
    main()
