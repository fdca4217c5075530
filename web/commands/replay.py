"""``adjudicator replay FILE --game chess|checkers [--language xx]``: one JSON object per game per line.

The shape is the contract's "Replay output". A game that cannot be read at all
gives an ``{"error": ...}`` line (with its game number) and the others go on;
the exit status is 2 when any game could not be read.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from adjudicator.contract import MAX_RECORD_CHARS, ContractError
from adjudicator.movetext import split_games
from adjudicator.notation import LANGUAGES
from adjudicator.replay import replay_game
from web.cli import emit, error_json, read_input


def register(sub: Any) -> None:
    parser = sub.add_parser("replay", help="replay a PGN/PDN record as played")
    parser.add_argument("file", help="the record, or - for standard input")
    parser.add_argument("--game", choices=("chess", "checkers"), default="chess")
    parser.add_argument("--language", help=f"piece letters of the record: {', '.join(LANGUAGES)} (default: detect)")
    parser.add_argument("--start-fen", dest="start_fen", help="start position when the record has none")
    parser.set_defaults(func=run)


def _checkers(text: str, args: argparse.Namespace) -> int:
    """PDN through the checkers package: one game per line, a bad game an error line (exit 2)."""
    try:
        module = importlib.import_module("adjudicator.checkers.replay")
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("adjudicator.checkers"):
            raise
        raise ContractError(
            "not_implemented", "replaying checkers records is not available in this build", "game"
        ) from None
    split, read, replay = (getattr(module, name, None) for name in ("split_games", "read_game", "replay_game"))
    if not (callable(split) and callable(replay)):
        raise ContractError("not_implemented", "the checkers package has no replay entry point", "game")
    if not callable(read):
        read = getattr(importlib.import_module("adjudicator.checkers.pdn"), "read_game", None)
    games = list(split(text))
    if not games:
        if args.start_fen:
            emit(module.replay_checkers("", args.start_fen).to_json())
            return 0
        raise ContractError("unreadable_record", "the file contains no game", "file")
    status = 0
    for number, game in enumerate(games, start=1):
        try:
            parsed = read(game) if callable(read) else game
            emit(replay(parsed, args.start_fen).to_json())
        except ContractError as exc:
            body = error_json(exc)
            body["error"]["game"] = number
            emit(body)
            sys.stderr.write(f"adjudicator: game {number}: {exc.message} ({exc.field})\n")
            status = 2
    return status


def run(args: argparse.Namespace) -> int:
    if args.language is not None and args.language not in LANGUAGES:
        raise ContractError(
            "invalid_field", f"--language must be one of {', '.join(LANGUAGES)}, not {args.language!r}", "language"
        )
    text = read_input(args.file, "file")
    if len(text) > 50 * MAX_RECORD_CHARS:
        raise ContractError("invalid_field", "the file is too large to replay at once", "file")
    if args.game == "checkers":
        return _checkers(text, args)
    status = 0
    count = 0
    for number, game in enumerate(split_games(text), start=1):
        count += 1
        try:
            emit(replay_game(game, args.start_fen, args.language).to_json())
        except ContractError as exc:
            body = error_json(exc)
            body["error"]["game"] = number
            emit(body)
            sys.stderr.write(f"adjudicator: game {number}: {exc.message} ({exc.field})\n")
            status = 2
    if count == 0:
        if args.start_fen:
            from adjudicator.movetext import RawGame

            emit(replay_game(RawGame(), args.start_fen, args.language).to_json())
            return 0
        raise ContractError("unreadable_record", "the file contains no game", "file")
    return status
