"""``adjudicator build-db --pieces N``: build the checkers endgame database (win/loss/draw, 2 bits a position).

Writes to the folder ``[checkers] database`` of ``config.toml`` (default
``data/checkers-db/``, gitignored), or ``--folder``. Piece counts already built
there are kept and reused. Progress goes to standard error, a JSON summary to
standard output. Up to 4 pieces takes a few seconds; 5 pieces (145 M indices)
well under a minute with the compiled kernel (a few minutes without), well under 1 GB
(``--workers 2`` solves independent slices in two processes). 6 pieces (2.56 G
indices) need the compiled kernel (``engines/checkers/compiled.py``): slice by slice,
about 1.2 GB a worker process at most, about 0.5 GB on disk.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from adjudicator.contract import ContractError
from web.cli import emit
from web.config import load_config, resolve_path

MAX_PIECES = 6
"""Seven pieces (35 G positions) is out of reach for this builder."""


def register(sub: Any) -> None:
    parser = sub.add_parser("build-db", help="build the checkers endgame database")
    parser.add_argument("--pieces", type=int, default=4, help=f"largest number of pieces (2-{MAX_PIECES}; default 4)")
    parser.add_argument("--folder", help="where to write (default: [checkers] database in config.toml)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes solving independent slices side by side (default 1)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild piece counts already present")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.add_argument("--verify", action="store_true", help="then check every value against its successors'")
    parser.set_defaults(func=run)


def database_folder(config: dict[str, Any]) -> Path:
    section = config.get("checkers", {})
    return resolve_path(config, str(section.get("database", "data/checkers-db")))


def _verify(db: Any, folder: Path, workers: int, log: Any) -> dict[str, Any]:
    """Every position against its successors: with the compiled kernel where built, else with NumPy (<= 5)."""
    from engines.checkers import compiled  # deferred on purpose: NumPy and the kernel, for this command only

    whole = db.whole_pieces
    if not compiled.COMPILED:
        from engines.checkers.verify import verify  # deferred on purpose: only without the compiled kernel

        report = verify(db.solved, whole)
        return {"positions": report.positions, "consistent": report.is_consistent, "examples": report.examples}
    checked = compiled.check_solved(db.solved, whole, log)
    for pieces in range(whole + 1, db.max_pieces + 1):
        checked.merge(compiled.check_six(folder, db.solved, log, workers, pieces))
    return {"positions": checked.positions, "consistent": checked.is_consistent, "examples": checked.examples,
            "bad_values": checked.bad_values, "bad_distances": checked.bad_distances}


def run(args: argparse.Namespace) -> int:
    from engines.checkers.compiled import KernelMissing  # deferred on purpose: every command's module loads on each run
    from engines.checkers.database import DatabaseError, EndgameDatabase, build_database  # deferred on purpose

    if not 2 <= args.pieces <= MAX_PIECES:
        raise ContractError("invalid_field", f"--pieces must be between 2 and {MAX_PIECES}", "pieces")
    if not 1 <= args.workers <= 64:
        raise ContractError("invalid_field", "--workers must be between 1 and 64", "workers")
    folder = Path(args.folder) if args.folder else database_folder(load_config())
    started = time.perf_counter()

    def log(message: str) -> None:
        if not args.quiet:
            sys.stderr.write(f"[{time.perf_counter() - started:7.1f} s] {message}\n")
            sys.stderr.flush()

    try:
        manifest = build_database(folder, args.pieces, log, rebuild=args.rebuild, workers=args.workers)
        db = EndgameDatabase.open(folder)
    except KernelMissing as exc:
        raise ContractError("kernel_missing", str(exc), "pieces") from None
    except (DatabaseError, OSError) as exc:
        raise ContractError("database_error", f"cannot build the database in {folder}: {exc}", "folder") from None
    summary: dict[str, Any] = {
        "folder": str(folder),
        "pieces": db.max_pieces,
        "seconds": round(time.perf_counter() - started, 1),
        "files": manifest.get("pieces", {}),
        "bytes": sum(int(v.get("bytes", 0)) for v in manifest.get("pieces", {}).values()),
    }
    if args.verify:
        log("consistency pass")
        summary["verify"] = _verify(db, folder, args.workers, log)
    emit(summary)
    return 0 if not args.verify or summary["verify"]["consistent"] else 1
