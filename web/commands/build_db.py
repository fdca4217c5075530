"""``adjudicator build-db --pieces N``: build the checkers endgame database (win/loss/draw, 2 bits a position).

Writes to the folder ``[checkers] database`` of ``config.toml`` (default
``data/checkers-db/``, gitignored), or ``--folder``. Piece counts already built
there are kept and reused. Progress goes to standard error, a JSON summary to
standard output. Up to 4 pieces takes a few seconds; 5 pieces (145 M indices)
a few minutes and well under 1 GB (``--workers 2`` solves independent slices in two
processes).
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

MAX_PIECES = 5
"""Six pieces (2.5 G positions) is out of reach for this builder."""


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


def run(args: argparse.Namespace) -> int:
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
        from engines.checkers.verify import verify  # deferred on purpose: every command's module loads on each run

        log("consistency pass")
        report = verify(db.solved, db.max_pieces)
        summary["verify"] = {
            "positions": report.positions, "consistent": report.is_consistent, "examples": report.examples,
        }
    emit(summary)
    return 0 if not args.verify or summary["verify"]["consistent"] else 1
