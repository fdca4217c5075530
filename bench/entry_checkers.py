"""Checkers move entry (issue 21, item 2): how many taps a real game costs on the claim form's board.

Every ply of real games is offered to the page's own candidate ranking (web/static/checkers-rules.js,
run under node exactly as the browser runs it): a move that returns to an earlier position first,
then a shallow search (2 plies after the move). The bench prints

- the share of plies whose move is among the first 1, 3 and 6 candidates;
- taps per ply with the candidates (6 buttons: one tap when the move is one of them, else the
  two-tap entry) and with two taps alone (the piece and its last square; one more to choose when
  two jumps of that piece end on the same square; a forced move still takes its two taps);
- milliseconds per candidate list (node's clock; meaningless on a loaded machine);
- the rank of the move in the row and model B's seconds per ply with the row and by the board alone
  (bench/entry_model.py: 0.15 s a scanned place, ``--tap-seconds`` a tap).

The games: ``tests/data/checkers/acf_archive_sample500.pdn`` (500 real ACF-archive games, E. C. Joyce's
"Checkers Transcripts", MIT) and ``tests/data/checkers/tinsley.pdn`` (724 games of Marion Tinsley);
see tests/data/README.md. Games with an illegal or unreadable move are left out.

    python3 bench/entry_checkers.py [--games N] [--depth 2] [--file acf|tinsley|both]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.checkers.replay import replay_pdn  # noqa: E402
from bench.entry_model import TAP_SECONDS, model_lines  # noqa: E402

DATA = ROOT / "tests" / "data" / "checkers"
FILES = {"acf": DATA / "acf_archive_sample500.pdn", "tinsley": DATA / "tinsley.pdn"}
RULES = ROOT / "web" / "static" / "checkers-rules.js"

RUNNER = """
import {readFileSync} from "node:fs"
const rules = await import(process.argv[2])
const games = JSON.parse(readFileSync(0, "utf8"))
const depth = Number(process.argv[3])
const nodes = Number(process.argv[4])
const out = []
for (const game of games) {
  const seen = new Set()
  let pos = rules.fromFen(game.start)
  for (const played of game.moves) {
    seen.add(rules.toFen(pos))
    const t0 = performance.now()
    const list = rules.candidates(pos, seen, 6, depth, nodes).map(rules.moveText)
    const ms = performance.now() - t0
    const legal = rules.legalMoves(pos)
    const move = legal.find((m) => rules.moveText(m) === played)
    const sameEnds = legal.filter((m) => m.path[0] === move.path[0] && m.path.at(-1) === move.path.at(-1)).length
    out.push([list.indexOf(played), ms, sameEnds > 1 ? 3 : 2])
    pos = rules.push(pos, move)
  }
}
process.stdout.write(JSON.stringify(out))
"""


def games(names: list[str], limit: int | None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for name in names:
        replays = [r for r in replay_pdn(FILES[name].read_text(encoding="utf-8", errors="replace"))
                   if r.plies and not r.illegal and not r.unreadable]
        found += [{"start": r.start.fen(), "moves": [str(p.move) for p in r.plies]} for r in replays[:limit]]
    return found


def measure(batch: list[dict[str, Any]], depth: int, nodes: int) -> list[tuple[int, float, int]]:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise SystemExit("bench/entry_checkers.py needs node (Debian package nodejs) to run the page's ranking")
    with tempfile.TemporaryDirectory() as folder:
        rules = Path(folder) / "checkers-rules.mjs"  # node reads .mjs as a module, as the browser does
        shutil.copyfile(RULES, rules)
        runner = Path(folder) / "run.mjs"
        runner.write_text(RUNNER)
        done = subprocess.run([node, str(runner), rules.as_uri(), str(depth), str(nodes)], input=json.dumps(batch),
                              capture_output=True, text=True, check=True)
    return [(int(i), float(ms), int(two)) for i, ms, two in json.loads(done.stdout)]


def page_budget() -> int:
    """The page's node budget, as checkers-rules.js sets it."""
    found = re.search(r"export const SEARCH_NODES = (\d+)", RULES.read_text())
    return int(found.group(1)) if found else 3000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", choices=("acf", "tinsley", "both"), default="both")
    parser.add_argument("--games", type=int, default=None, help="at most this many games of each file")
    parser.add_argument("--depth", type=int, default=2, help="plies searched after each candidate (the page: 2)")
    parser.add_argument("--nodes", type=int, default=None, help="the search's budget (the page: SEARCH_NODES)")
    parser.add_argument("--tap-seconds", type=float, default=TAP_SECONDS, help="model B's seconds a tap")
    args = parser.parse_args()
    report(args.file, args.games, args.depth, args.nodes, args.tap_seconds)
    return 0


def report(file: str = "both", limit: int | None = None, depth: int = 2, nodes: int | None = None,
           tap: float = TAP_SECONDS) -> None:
    """Print the figures of the module's docstring for ``file``'s games."""
    names = ["acf", "tinsley"] if file == "both" else [file]
    for name in names:
        batch = games([name], limit)
        rows = measure(batch, depth, nodes or page_budget())
        print_rows(name, len(batch), rows, depth, nodes or page_budget(), tap)


def print_rows(name: str, count: int, rows: list[tuple[int, float, int]], depth: int, nodes: int,
               tap: float) -> None:
    """One file's figures, as printed."""
    plies = len(rows)
    within = {k: sum(1 for i, _, _ in rows if 0 <= i < k) / plies for k in (1, 3, 6)}
    with_candidates = sum(1 if 0 <= i < 6 else two for i, _, two in rows) / plies
    two_taps = sum(two for _, _, two in rows) / plies
    ms = sorted(m for _, m, _ in rows)
    print(f"{name}: {count} games, {plies} plies (search depth {depth}, at most {nodes} positions)")
    print(f"  move among the first 1 / 3 / 6 candidates: {within[1]:.1%} / {within[3]:.1%} / {within[6]:.1%}")
    print(f"  taps per ply: {with_candidates:.3f} with candidates, {two_taps:.3f} with two taps alone")
    print(f"  ms per candidate list: median {ms[len(ms) // 2]:.2f}, p95 {ms[int(len(ms) * 0.95)]:.2f}, "
          f"max {ms[-1]:.1f}")
    print("\n".join(model_lines([i if i >= 0 else None for i, _, _ in rows], [two for _, _, two in rows], 6,
                                 tap)))


if __name__ == "__main__":
    sys.exit(main())
