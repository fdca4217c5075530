"""Adjudication accuracy and speed against tablebase truth.

Runs the ``unfinished-game`` ruling (rules, then tablebases, then Stockfish) on every
position of a TSV file (``fen<TAB>wdl<TAB>source``, wdl for the side to move: 1 win,
0 draw, -1 loss) and prints agreement with the truth and seconds per position, once
WITHOUT tablebases (the engine alone, after the rules) and once WITH them.

    python3 bench/adjudicate.py [--file TSV] [--ruleset fide-standard] [--only without|with]
    python3 bench/adjudicate.py --random 300 --seed 1 --only without   # fresh 3-4 piece positions

``--random N`` draws N legal 3-4 piece positions (every material class the tables hold)
and takes the truth from the Syzygy tables (50-move rule honoured), so the rule is
checked on positions it was never tuned on.

Timings depend on the machine's load (the project machine is shared); accuracy does not,
because the engine runs in deterministic mode (one thread, fixed nodes, cleared hash).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import chess  # noqa: E402

from adjudicator.contract import parse_case  # noqa: E402
from adjudicator.rule import rule  # noqa: E402
from adjudicator.rulesets import RulesetBook  # noqa: E402
from engines import build_services  # noqa: E402
from web.config import load_config  # noqa: E402

TEST_DATA = ROOT / "tests" / "data"  # public data copied into the repository (tests/data/README.md)


def truth_for_white(fen: str, wdl: int) -> str:
    board = chess.Board(fen)
    white = wdl if board.turn == chess.WHITE else -wdl
    return {1: "1-0", 0: "1/2-1/2", -1: "0-1"}[white]


MATERIAL = ("Q", "R", "B", "N", "P", "QQ", "QR", "QB", "QN", "QP", "RR", "RB", "RN", "RP", "BB", "BN", "BP", "NN",
            "NP", "PP", "Q/q", "Q/r", "Q/b", "Q/n", "Q/p", "R/r", "R/b", "R/n", "R/p", "B/b", "B/n", "B/p", "N/n",
            "N/p", "P/p")


def random_rows(count: int, seed: int, syzygy: Path) -> list[tuple[str, int, str]]:
    """Legal, unfinished 3-4 piece positions with their Syzygy value for the side to move."""
    import random

    import chess.syzygy

    rng = random.Random(seed)
    rows: list[tuple[str, int, str]] = []
    with chess.syzygy.open_tablebase(str(syzygy)) as tables:
        while len(rows) < count:
            white, _, black = rng.choice(MATERIAL).partition("/")
            board = chess.Board(None)
            squares = rng.sample(range(64), 2 + len(white) + len(black))
            board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
            for square, symbol in zip(squares[2:], white + black, strict=True):
                board.set_piece_at(square, chess.Piece.from_symbol(symbol))
            if rng.random() < 0.5:
                board = board.mirror()
            board.turn = rng.choice((chess.WHITE, chess.BLACK))
            board.fullmove_number = 50
            if not board.is_valid() or board.is_game_over():
                continue
            wdl = tables.probe_wdl(board)
            rows.append((board.fen(), 1 if wdl == 2 else -1 if wdl == -2 else 0, f"random:{white}v{black}"))
    return rows


def run(rows: list[tuple[str, int, str]], config: dict[str, Any], ruleset: str, tablebases: bool) -> None:
    book = RulesetBook.from_config(config)
    services = build_services(config, deterministic=True, tablebases=tablebases)
    label = "WITH tablebases" if tablebases else "WITHOUT tablebases"
    if tablebases and services.tablebase is None:
        print(f"{label}: no tables found (run .ci/install.d/20-tablebases.sh); skipped")
        return
    times: list[float] = []
    right = unclear = 0
    wrong: list[str] = []
    methods: dict[str, int] = {}
    try:
        for fen, wdl, source in rows:
            case = parse_case({"ruleset": ruleset, "claim": "unfinished-game", "fen": fen})
            started = time.perf_counter()
            ruling = rule(case, book, services)
            times.append(time.perf_counter() - started)
            method = str(ruling.evidence.get("method", "?"))
            methods[method] = methods.get(method, 0) + 1
            expected = truth_for_white(fen, wdl)
            if ruling.result == expected:
                right += 1
            elif ruling.result is None:
                unclear += 1
                wrong.append(f"  unclear  {fen}  truth {expected}  ({source})")
            else:
                wrong.append(f"  WRONG    {fen}  truth {expected}, said {ruling.result}  ({source})")
    finally:
        services.close()
    n = len(rows)
    print(f"{label}: {right}/{n} agree with the tablebase truth ({100 * right / n:.1f}%), "
          f"{unclear} unclear, {n - right - unclear} wrong")
    print(f"  seconds per position: mean {statistics.mean(times):.3f}, median {statistics.median(times):.3f}, "
          f"max {max(times):.3f}, total {sum(times):.1f}")
    print("  decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(methods.items())))
    for line in wrong:
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(TEST_DATA / "adjudication-public.tsv"))
    parser.add_argument("--ruleset", default="fide-standard")
    parser.add_argument("--only", choices=("without", "with"))
    parser.add_argument("--random", type=int, default=0, metavar="N", help="N random 3-4 piece positions instead")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    config = load_config()
    syzygy_dirs = [Path(str(config["_root"])) / str(d) for d in config.get("tablebases", {}).get("syzygy", [])]
    if (args.random or args.only != "without") and not any(any(d.glob("*.rtbw")) for d in syzygy_dirs):
        raise SystemExit("no Syzygy tables in the configured folders: run bash .ci/install.d/20-tablebases.sh")
    rows: list[tuple[str, int, str]] = []
    if args.random:
        syzygy = Path(str(config["_root"])) / str(config["tablebases"]["syzygy"][0])
        rows = random_rows(args.random, args.seed, syzygy)
        args.file = f"random positions (seed {args.seed}, truth from {syzygy})"
    else:
        with open(args.file, encoding="utf-8") as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 2 or parts[0] == "fen":
                    continue
                rows.append((parts[0], int(parts[1]), parts[2] if len(parts) > 2 else ""))
    print(f"{len(rows)} positions from {args.file}; ruleset {args.ruleset}; load average "
          f"{' '.join(f'{x:.2f}' for x in __import__('os').getloadavg())}")
    if args.only in (None, "without"):
        run(rows, config, args.ruleset, tablebases=False)
    if args.only in (None, "with"):
        run(rows, config, args.ruleset, tablebases=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
