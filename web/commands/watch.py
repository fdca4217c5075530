"""``adjudicator watch SOURCE --ruleset ID [--once] [--interval S] [--analysis helpmate|material]``.

Watches a live round (issue 36; docs/watch.md): SOURCE is a folder (a DGT LiveChess export, one PGN per round or
per board, rewritten in place; checkers: PDN) or a PGN URL (asked with If-None-Match). Each copy is read against
the last (:class:`adjudicator.watch.Watcher`) and every alert raised or withdrawn is printed as one JSON line,
flushed. ``--once`` reads once and exits 0; otherwise the source is followed every ``--interval`` seconds until
stopped (Ctrl-C), backing off when it fails: a ``source-unavailable`` alert (board null) is printed once per
failure streak and withdrawn when the source answers again.

Bad input (an unknown ruleset, a folder that does not exist with ``--once``) exits 2 with ``{"error": ...}``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from adjudicator.services import MateOracle
from adjudicator.watch import Alert, Watcher, WatchState
from web.cli import emit
from web.config import load_config
from web.watch.source import Source, SourceError, backoff


def register(sub: Any) -> None:
    parser = sub.add_parser("watch", help="watch a live round: alerts as JSON lines (docs/watch.md)")
    parser.add_argument("source", help="a folder (DGT LiveChess export) or an http(s) URL of the round's PGN")
    parser.add_argument("--ruleset", required=True, help="the event's ruleset id (config.toml)")
    parser.add_argument("--once", action="store_true", help="read the source once and exit")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between reads (default 2)")
    parser.add_argument("--analysis", choices=("helpmate", "material"), default="helpmate",
                        help="dead positions by the helpmate analysis (default) or by material only")
    parser.set_defaults(func=run)


def mate_oracle(analysis: str) -> MateOracle | None:
    """The helpmate analysis of ``engines/`` (FIDE 5.2.2), or None: the material test only."""
    if analysis != "helpmate":
        return None
    try:
        from engines.chess.unwinnable import UnwinnabilityAnalyser
    except ModuleNotFoundError:
        return None
    return UnwinnabilityAnalyser()


def unavailable(location: str, problem: str) -> Alert:
    return Alert(None, None, location, (None, None), "source-unavailable", "check-board", 0, (),
                 f"The source cannot be read: {problem}. The last copy stands; it is asked again with back-off.")


def run(args: argparse.Namespace) -> int:
    config = load_config()
    book = RulesetBook.from_config(config)
    found = book[args.ruleset]
    ruleset = book.checkers(args.ruleset) if found.game == "checkers" else book.chess(args.ruleset)
    if not args.interval > 0:
        raise ContractError("invalid_field", "interval must be a positive number of seconds", "interval")
    watcher = Watcher(ruleset, mate_oracle(args.analysis) if ruleset.game == "chess" else None)
    source = Source(args.source, ruleset.game)
    state = WatchState()
    failures = 0
    down: Alert | None = None
    while True:
        try:
            files = source.read()
        except SourceError as exc:
            if args.once:
                raise ContractError("unreadable_source", f"{args.source}: {exc}", "source") from None
            failures += 1
            if down is None:
                down = unavailable(args.source, str(exc))
                emit(down.to_json())
        else:
            failures = 0
            if down is not None:
                emit(down.withdrawn_copy("The source answers again.").to_json())
                down = None
            alerts, state = watcher.watch(files, state)
            for alert in alerts:
                emit(alert.to_json())
        if args.once:
            return 0
        time.sleep(backoff(failures, args.interval))
