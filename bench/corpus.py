"""How much of a public PGN collection the lenient reader replays without error.

    python bench/corpus.py [DIR_OR_FILE ...]

Default corpus: ``$ADJUDICATOR_PGN_CORPUS``, else a ``corpus`` folder beside the
project (or beside its parent, for git worktrees). A game counts as replayed when
it reads to its end with no unreadable token and no error; moves read as illegal
are counted separately (in master games they would be misreadings). Where
python-chess also reads the game without errors, the final positions are compared.
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections import Counter
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.chess.movetext import split_games  # noqa: E402
from adjudicator.chess.replay import UnsupportedVariant, replay_game  # noqa: E402
from adjudicator.contract import ContractError  # noqa: E402


def corpus_paths(args: list[str]) -> list[Path]:
    roots = [Path(a) for a in args]
    if not roots:
        env = os.environ.get("ADJUDICATOR_PGN_CORPUS")
        candidates = [Path(env)] if env else [ROOT / "corpus", ROOT.parent / "corpus", ROOT.parent.parent / "corpus"]
        roots = [c for c in candidates if c.exists()][:1]
    files: list[Path] = []
    for root in roots:
        files.extend(sorted(root.rglob("*.pgn")) if root.is_dir() else [root])
    return files


def python_chess_fen(text: str) -> str | None:
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None or game.errors:
        return None
    return game.end().board().fen()


def main(argv: list[str]) -> int:
    compare = "--no-compare" not in argv
    files = corpus_paths([a for a in argv if not a.startswith("--")])
    if not files:
        print("no corpus found: set ADJUDICATOR_PGN_CORPUS or pass a folder of .pgn files")
        return 1
    stats: Counter[str] = Counter()
    failures: list[str] = []
    plies = 0
    started = time.perf_counter()
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for game in split_games(text):
            if not game.moves and game.result is None:
                continue
            try:
                replay = replay_game(game)
            except UnsupportedVariant:
                stats["variant"] += 1
                continue
            except ContractError as exc:
                stats["games"] += 1
                stats["error"] += 1
                failures.append(f"{path.name} game {stats['games']}: {exc.message}")
                continue
            stats["games"] += 1
            plies += len(replay.plies)
            if replay.unreadable:
                stats["unreadable"] += 1
                bad = replay.unreadable[0]
                failures.append(f"{path.name} game {stats['games']}: ply {bad.ply} {bad.token!r} unreadable")
                continue
            stats["replayed"] += 1
            if replay.illegal:
                stats["with_illegal"] += 1
            if compare:
                end = text.find("[Event ", game.offset + 1)
                theirs = python_chess_fen(text[game.offset:end if end > 0 else None])
                if theirs is not None:
                    stats["python_chess_read"] += 1
                    if theirs.split()[:4] == replay.final_board.fen().split()[:4]:
                        stats["same_final_position"] += 1
    elapsed = time.perf_counter() - started
    games = stats["games"]
    print(f"corpus: {len(files)} files, {games} chess games ({stats['variant']} games of other variants left out), "
          f"{plies} plies")
    print(f"replayed without error: {stats['replayed']} ({100 * stats['replayed'] / max(games, 1):.3f}%)")
    print(f"  unreadable token: {stats['unreadable']}, record error: {stats['error']}, "
          f"read with an illegal move: {stats['with_illegal']}")
    if compare:
        print(f"  python-chess read {stats['python_chess_read']} without errors; same final position in "
              f"{stats['same_final_position']}")
    print(f"time: {elapsed:.1f} s (including the python-chess comparison)" if compare else f"time: {elapsed:.1f} s")
    for line in failures[:20]:
        print("  -", line)
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except BrokenPipeError:
        raise SystemExit(0) from None
