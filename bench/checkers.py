"""Checkers figures: replay speed, perft, endgame-database build time and size, search speed.

    python3 bench/checkers.py            # replay, perft(8), <=4-piece build, search, proofs
    python3 bench/checkers.py --five [--workers 2] [--five-folder DIR]
                                         # also build the 5-piece database (a few minutes), then the
                                         # proofs with <= 4 and with <= 5 pieces at the leaves
    python3 bench/checkers.py --proofs   # the proof search on the 5-piece forced-jump set and the published set
    python3 bench/checkers.py --proofs --database DIR [--database5 DIR5]   # ... with databases already built
    python3 bench/checkers.py --six [--workers 2] [--six-folder DIR]
                                         # build the 6-piece database (the compiled kernel; about 15 min on
                                         # 2 cores) in DIR (default: scratch), with wall, CPU and peak memory of
                                         # all processes; bytes on disk; counts per slice against Chinook's table;
                                         # every position against its successors; the <= 4-piece checks; the
                                         # proofs (5-piece forced-jump set, published positions) with 6 at the
                                         # leaves; then each goal of issue 25, met or not
    python3 bench/checkers.py --six --six-folder data/checkers-db --no-build
                                         # the same with the 6-piece file already built there (build-db --pieces 6);
                                         # --skip-check leaves out the successor check (about as long as the build)

The proofs run at the ACF ruleset's budget (config.toml [rulesets.acf.adjudication] proof_nodes)
unless --budget says otherwise. Figures are wall-clock on whatever else the machine is doing,
so CPU seconds (the build's worker processes included) and the load average are printed too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TEST_DATA = ROOT / "tests" / "data"  # public data copied into the repository (tests/data/README.md)

from adjudicator.checkers.board import START, Position, perft, perft_by_layers  # noqa: E402
from adjudicator.checkers.pdn import read_game, split_games  # noqa: E402
from adjudicator.checkers.replay import replay_checkers  # noqa: E402
from adjudicator.rulesets import RulesetBook  # noqa: E402
from bench import checkers_six  # noqa: E402
from bench.measure import MemorySampler, cpu_seconds  # noqa: E402
from engines.checkers import compiled  # noqa: E402
from engines.checkers.database import (  # noqa: E402
    EndgameDatabase,
    available_pieces,
    build_database,
)
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
        import draughts  # deferred on purpose: pydraughts is a dev extra, needed by --compare only

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


def bench_database(five: bool, workers: int, keep: Path | None) -> tuple[Path, Path | None]:
    """Build <= 4 pieces in a scratch folder; with ``five``, the 5-piece database too (in ``keep`` if given)."""
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
    small_checks(EndgameDatabase.open(folder))
    if not five:
        return folder, None
    target = keep or Path(tempfile.mkdtemp(prefix="checkers-db5-"))
    target.mkdir(parents=True, exist_ok=True)
    for name in ("wld-2.npz", "wld-3.npz", "wld-4.npz", "manifest.json"):
        shutil.copyfile(folder / name, target / name)
    load_before = os.getloadavg()
    with MemorySampler() as memory:
        started = time.perf_counter()
        cpu = cpu_seconds()
        manifest = build_database(target, 5, lambda m: print("   ", m, flush=True), workers=workers)
        seconds = time.perf_counter() - started
        spent = cpu_seconds() - cpu
    entry = manifest["pieces"]["5"]
    size5, wld5 = int(entry["bytes"]), int(entry.get("wld_bytes", 0))
    print(f"database 5 pieces ({workers} worker{'s' if workers > 1 else ''}): built in {seconds / 60:.1f} min wall "
          f"({float(entry['seconds']) / 60:.1f} min solving, the rest writing the file), "
          f"{spent / 60:.1f} min CPU "
          f"(target <= 10 min); peak memory {memory.peak_pss_mb:,.0f} MB all processes together (PSS), "
          f"{memory.peak_rss_mb:,.0f} MB summing their RSS (target <= 2 GB); {size5 / 1e6:.1f} MB on disk, of which "
          f"win/loss/draw {wld5 / 1e6:.1f} MB; load average {load_before[0]:.1f} before, "
          f"{memory.mean_load:.1f} during, {os.getloadavg()[0]:.1f} after")
    return folder, target


INDEPENDENT: Final = {"win": 2_675_270, "loss": 2_004_797, "draw": 1_728_769}
"""Up to 4 pieces, Red to move: the values of the research notes' independent pure-Python solver."""


def small_checks(db4: EndgameDatabase) -> bool:
    """The <= 4-piece checks: the counts against the independent solver's and, with the compiled kernel, every
    position against its successors. True when both hold."""
    totals = {"win": 0, "loss": 0, "draw": 0}
    for pieces in (2, 3, 4):
        for value, count in db4.counts(pieces).items():
            totals[value] += count
    checked, consistent = "", True
    if compiled.COMPILED:
        report = compiled.check_solved(db4.solved, 4)
        consistent = report.is_consistent
        checked = (f"; every position against its successors: {report.positions:,} positions, "
                   f"{report.bad_values + report.bad_distances} inconsistencies")
    print(f"  <= 4 pieces: {totals['win']:,} wins, {totals['loss']:,} losses, {totals['draw']:,} draws "
          f"({'the same as' if totals == INDEPENDENT else 'DIFFERENT from'} an independent pure-Python solver's)"
          f"{checked}", flush=True)
    return totals == INDEPENDENT and consistent


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


@dataclass(frozen=True)
class Rates:
    """A set proven with one database at the leaves."""

    title: str
    pieces: int
    positions: int
    proven: int
    wrong: int
    median: float
    longest: float

    @property
    def deferred(self) -> int:
        return self.positions - self.proven


def _proof_rates(title: str, items: list[tuple[Position, str, str]], db: EndgameDatabase, budget: int,
                 verbose: bool) -> Rates:
    """Prove every position; print the rate, wrong results, time and nodes."""
    proven = wrong = nodes = in_db = 0
    seconds = 0.0
    each: list[float] = []
    cpu = time.process_time()
    per_value: dict[str, list[int]] = {}
    for position, expected, name in items:
        proof = prove(position, db, budget)
        nodes += proof.nodes
        seconds += proof.seconds
        each.append(proof.seconds)
        in_db += proof.settled == ("in the endgame database",)
        counts = per_value.setdefault(expected, [0, 0])
        counts[1] += 1
        if proof.value is not None:
            proven += 1
            counts[0] += 1
            wrong += proof.value != expected
        if verbose:
            print(f"    {name}: expected {expected}, {proof.value or 'not proven (' + str(proof.reason) + ')'}"
                  f"{' WRONG' if proof.value not in (None, expected) else ''}, "
                  f"{proof.nodes:,} nodes, {proof.seconds:.1f} s, proof size {proof.size}", flush=True)
    rates = ", ".join(f"{v} {c[0]}/{c[1]}" for v, c in sorted(per_value.items()))
    each.sort()
    print(f"  {title}, database <= {db.max_pieces} pieces: {proven}/{len(items)} proven ({rates}; {in_db} straight "
          f"from the database), {wrong} wrong, {len(items) - proven} deferred; {seconds / len(items):.2f} s wall a "
          f"position (median {each[len(each) // 2]:.2f} s, max {each[-1]:.2f} s), "
          f"{(time.process_time() - cpu) / len(items):.2f} s CPU and {nodes / len(items):,.0f} nodes a position "
          f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    return Rates(title, db.max_pieces, len(items), proven, wrong, each[len(each) // 2], each[-1])


def bench_proofs(folder: Path, budget: int, five: Path | None, six: EndgameDatabase | None = None) -> list[Rates]:
    """Proof rate, time and nodes on both sets at the default budget, with <= 4 pieces at the leaves and, where
    the 5-piece (or 6-piece) database is built, with <= 5 (<= 6); wrong results counted against the known values."""
    dbs = [EndgameDatabase.open(folder, max_pieces=4)]
    if five is not None and available_pieces(five) >= 5:
        started = time.perf_counter()
        db5 = EndgameDatabase.open(five, max_pieces=5)
        db5.probe(Position.from_fen("B:WK14,K23:BK1,K32,K5"))  # loads the 5-piece file
        print(f"5-piece database loaded in {time.perf_counter() - started:.1f} s")
        dbs.append(db5)
    if six is not None:
        dbs.append(six)
    print(f"proof search, budget {budget:,} positions (load average {os.getloadavg()[0]:.1f})")
    known = [(k.position, k.value, "forced jump") for k in forced_jump_set(dbs[0], per_value=200, seed=14)]
    published = [(Position.from_fen(fen), result, name) for name, fen, result, _ in PUBLISHED]
    out = [_proof_rates("5-piece forced-jump set", known, db, budget, False) for db in dbs]
    rates = [_proof_rates("published positions", published, db, budget, True) for db in dbs]
    print("  published positions proven: " + ", ".join(
        f"{r.proven}/{len(published)} with <= {r.pieces} pieces at the leaves" for r in rates))
    return out + rates


def proof_goals(rates: list[Rates], budget: int) -> list[tuple[str, bool | None]]:
    """The issue's goals for the proofs: the published set with the largest database, the five-piece set with each."""
    top = max(r.pieces for r in rates)
    goals: list[tuple[str, bool | None]] = []
    for r in rates:
        if r.title == "published positions" and r.pieces == top:
            goals.append((f"published positions with <= {top} pieces at the leaves, budget {budget:,}: {r.proven} "
                          f"proven, {r.wrong} wrong, {r.deferred} deferred of {r.positions}; median {r.median:.2f} s, "
                          f"max {r.longest:.2f} s", r.proven == r.positions and r.wrong == 0))
        elif r.title != "published positions":
            goals.append((f"5-piece forced-jump set with <= {r.pieces} pieces at the leaves: {r.proven}/{r.positions} "
                          f"proven, {r.wrong} wrong", r.proven == r.positions and r.wrong == 0))
    return goals


def _default_budget() -> int:
    """The ACF ruleset's ``adjudication.proof_nodes`` in config.toml."""
    with (ROOT / "config.toml").open("rb") as handle:
        config = tomllib.load(handle)
    config["_root"] = str(ROOT)
    return RulesetBook.from_config(config).checkers("acf").adjudication.proof_nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--five", action="store_true", help="also build the 5-piece database")
    parser.add_argument("--workers", type=int, default=1, help="processes for the 5-piece build (default 1)")
    parser.add_argument("--five-folder", type=Path, help="where to build the 5-piece database (kept; default: scratch)")
    parser.add_argument("--compare", action="store_true", help="also time pydraughts on the same game")
    parser.add_argument("--proofs", action="store_true", help="only the proof-search sets")
    parser.add_argument("--database", type=Path, help="a <= 4-piece database folder already built (with --proofs)")
    parser.add_argument("--database5", type=Path, help="a folder with the 5-piece database built (with --proofs)")
    parser.add_argument("--budget", type=int, help="proof budget (default: the ACF ruleset's)")
    parser.add_argument("--six", action="store_true", help="the 6-piece database: build, check, proofs")
    parser.add_argument("--six-folder", type=Path, help="where the 6-piece database is built (kept; default: scratch)")
    parser.add_argument("--no-build", action="store_true", help="with --six: the 6-piece file is already built")
    parser.add_argument("--skip-check", action="store_true",
                        help="with --six: leave out the successor check of every position (about as long as the build)")
    args = parser.parse_args()
    budget = args.budget or _default_budget()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.six:
        data = ROOT / "data" / "checkers-db"
        folder = args.six_folder or Path(tempfile.mkdtemp(prefix="checkers-db6-"))
        db6, figures = checkers_six.bench_six(folder, data, args.workers, not args.no_build, not args.skip_check)
        small = data if available_pieces(data) >= 4 else folder
        small_ok = small_checks(EndgameDatabase.open(small, max_pieces=4))
        rates = bench_proofs(small if available_pieces(small) >= 4 else folder, budget, None, db6)
        checkers_six.print_goals([*checkers_six.build_goals(figures), *proof_goals(rates, budget),
                                  ("<= 4 pieces: the independent solver's counts, 0 inconsistencies", small_ok)])
        return
    if args.proofs:
        bench_proofs(args.database or ROOT / "data" / "checkers-db", budget, args.database5)
        return
    bench_replay(args.compare)
    bench_perft()
    folder, five = bench_database(args.five, args.workers, args.five_folder)
    bench_search(folder)
    bench_proofs(folder, budget, five)


if __name__ == "__main__":
    main()
