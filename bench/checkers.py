"""Checkers figures: replay speed, perft, endgame-database build time and size, search speed.

    python3 bench/checkers.py            # replay, perft(8), <=4-piece build, search
    python3 bench/checkers.py --five     # also build the 5-piece database (tens of minutes)
    python3 bench/checkers.py --proofs   # the proof search on the 5-piece forced-jump set and the published set
    python3 bench/checkers.py --proofs --database DIR   # ... with a database already built in DIR
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
from engines.checkers.proof import prove  # noqa: E402
from engines.checkers.published import PUBLISHED  # noqa: E402
from engines.checkers.search import Searcher  # noqa: E402
from engines.checkers.sets import forced_jump_set  # noqa: E402


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
              f"CPU (target <= 10 min), peak memory {_peak_mb():,.0f} MB (target <= 2 GB); {size5 / 1e6:.1f} MB on "
              f"disk, of which win/loss/draw {wld5 / 1e6:.1f} MB (load average {os.getloadavg()[0]:.1f})")
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


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_proofs(folder: Path, budget: int) -> None:
    """Proof rate, time and nodes on both sets, at the default budget; wrong results counted against the truth."""
    db = EndgameDatabase.open(folder)
    print(f"proof search, budget {budget:,} positions, database <= {db.max_pieces} pieces "
          f"(load average {os.getloadavg()[0]:.1f})")
    known = [(k.position, k.value, "forced jump") for k in forced_jump_set(db, per_value=200, seed=14)]
    published = [(Position.from_fen(fen), result, name) for name, fen, result, _ in PUBLISHED]
    for title, items in (("5-piece forced-jump set", known), ("published positions", published)):
        proven = wrong = nodes = 0
        seconds = 0.0
        per_value: dict[str, list[int]] = {}
        for position, expected, name in items:
            proof = prove(position, db, budget)
            nodes += proof.nodes
            seconds += proof.seconds
            counts = per_value.setdefault(expected, [0, 0])
            counts[1] += 1
            if proof.value is not None:
                proven += 1
                counts[0] += 1
                wrong += proof.value != expected
            if title == "published positions":
                print(f"    {name}: expected {expected}, {proof.value or 'not proven (' + str(proof.reason) + ')'}, "
                      f"{proof.nodes:,} nodes, {proof.seconds:.1f} s, proof size {proof.size}", flush=True)
        rates = ", ".join(f"{v} {c[0]}/{c[1]}" for v, c in sorted(per_value.items()))
        print(f"  {title}: {proven}/{len(items)} proven ({rates}), {wrong} wrong; "
              f"{seconds / len(items):.2f} s and {nodes / len(items):,.0f} nodes a position "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--five", action="store_true", help="also build the 5-piece database")
    parser.add_argument("--compare", action="store_true", help="also time pydraughts on the same game")
    parser.add_argument("--proofs", action="store_true", help="only the proof-search sets")
    parser.add_argument("--database", type=Path, help="a database folder already built (with --proofs)")
    parser.add_argument("--budget", type=int, default=200_000, help="proof budget (default: the ruleset's)")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.proofs:
        bench_proofs(args.database or ROOT / "data" / "checkers-db", args.budget)
        return
    bench_replay(args.compare)
    bench_perft()
    folder = bench_database(args.five)
    bench_search(folder)
    bench_proofs(folder, args.budget)


if __name__ == "__main__":
    main()
