"""``adjudicator replay FILE --game chess|checkers [--language xx]``: one JSON object per game per line.

The shape is the contract's "Replay output". A game that cannot be read at all
gives an ``{"error": ...}`` line (with its game number) and the others go on;
the exit status is 2 when any game could not be read.

Streams: the file is read a line at a time and each game is replayed and printed
as soon as it is complete, so memory stays flat however large the collection. Chess
games are read by the compiled bulk reader where it can (:mod:`adjudicator.chess.bulk`),
else by the lenient reader: the lines are the same. A
single game is bounded too: more than :data:`adjudicator.chess.stream.MAX_GAME_CHARS`
characters, or more plies than :data:`adjudicator.chess.replay.MAX_PLIES`, is an error
line for that game (``record_too_long``), and the next game is read.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import sys
from collections.abc import Iterator
from typing import Any

from adjudicator.chess import bulk
from adjudicator.chess.bulk.games import CleanGame, read, split_mixed
from adjudicator.chess.movetext import RawGame, split_games
from adjudicator.chess.notation import LANGUAGES
from adjudicator.chess.replay import replay_game
from adjudicator.chess.stream import MAX_GAME_CHARS, OversizedGame, stream_games
from adjudicator.contract import ContractError
from web.cli import emit, error_json

PIECE_CHARS = 1 << 16
"""Longest piece of a line read at once (a file with no line breaks is still read in pieces)."""


def register(sub: Any) -> None:
    parser = sub.add_parser("replay", help="replay a PGN/PDN record as played")
    parser.add_argument("file", help="the record, or - for standard input")
    parser.add_argument("--game", choices=("chess", "checkers"), default="chess")
    parser.add_argument("--language", help=f"piece letters of the record: {', '.join(LANGUAGES)} (default: detect)")
    parser.add_argument("--start-fen", dest="start_fen", help="start position when the record has none")
    parser.set_defaults(func=run)


@contextlib.contextmanager
def pieces_of(path: str) -> Iterator[Iterator[str]]:
    """The file (or standard input for ``-``) as pieces of lines, read as they are needed."""
    if path == "-":
        stdin = sys.stdin
        if isinstance(stdin, io.TextIOWrapper):
            stdin.reconfigure(errors="replace")
        yield iter(lambda: stdin.readline(PIECE_CHARS), "")
        return
    try:
        opened = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise ContractError("unreadable_input", f"cannot read {path}: {exc.strerror}", "file") from None
    with opened:
        yield iter(lambda: opened.readline(PIECE_CHARS), "")


def _game_error(number: int, exc: ContractError) -> int:
    body = error_json(exc)
    body["error"]["game"] = number
    emit(body)
    sys.stderr.write(f"adjudicator: game {number}: {exc.message} ({exc.field})\n")
    return 2


def _too_long(game: OversizedGame) -> ContractError:
    return ContractError(
        "record_too_long",
        f"the game has {game.chars:,} characters, more than the {game.limit:,} a game may have; it was skipped",
        "file",
    )


def _checkers(pieces: Iterator[str], args: argparse.Namespace) -> int:
    """PDN through the checkers package: one game per line, a bad game an error line (exit 2)."""
    try:
        module = importlib.import_module("adjudicator.checkers.replay")
        pdn = importlib.import_module("adjudicator.checkers.pdn")
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("adjudicator.checkers"):
            raise
        raise ContractError(
            "not_implemented", "replaying checkers records is not available in this build", "game"
        ) from None
    if args.start_fen:
        module.parse_position(args.start_fen, "start_fen")  # refused before any game is read
    status = 0
    number = 0
    for number, game in enumerate(pdn.stream_games(pieces, MAX_GAME_CHARS), start=1):
        try:
            if isinstance(game, OversizedGame):
                raise _too_long(game)
            emit(module.replay_game(pdn.read_game(game), args.start_fen).to_json())
        except ContractError as exc:
            status = _game_error(number, exc)
    if number == 0:
        if args.start_fen:
            emit(module.replay_checkers("", args.start_fen).to_json())
            return 0
        raise ContractError("unreadable_record", "the file contains no game", "file")
    return status


def _chess_games(pieces: Iterator[str], language: str | None) -> Iterator[RawGame | CleanGame | OversizedGame]:
    """The chess games of the pieces, clean ones (the compiled reader's) as :class:`CleanGame`."""
    if not bulk.COMPILED:
        return stream_games(pieces, MAX_GAME_CHARS, split=split_games)
    return stream_games(pieces, MAX_GAME_CHARS, split=lambda text: split_mixed(text, language))


def _replayed(game: RawGame | CleanGame, args: argparse.Namespace) -> dict[str, Any]:
    if isinstance(game, CleanGame):
        fast = read(game, args.start_fen, args.language)
        if fast is not None:
            return fast.to_json()
        game = game.raw()
    return replay_game(game, args.start_fen, args.language).to_json()


def run(args: argparse.Namespace) -> int:
    if args.language is not None and args.language not in LANGUAGES:
        raise ContractError(
            "invalid_field", f"--language must be one of {', '.join(LANGUAGES)}, not {args.language!r}", "language"
        )
    with pieces_of(args.file) as pieces:
        if args.game == "checkers":
            return _checkers(pieces, args)
        if args.start_fen:
            from adjudicator.chess.positions import legal_position  # deferred on purpose

            legal_position(args.start_fen, "start_fen")  # checked as rule checks it, before any game is read
        status = 0
        number = 0
        for number, game in enumerate(_chess_games(pieces, args.language), start=1):
            try:
                if isinstance(game, OversizedGame):
                    raise _too_long(game)
                emit(_replayed(game, args))
            except ContractError as exc:
                status = _game_error(number, exc)
    if number == 0:
        if args.start_fen:
            emit(replay_game(RawGame(), args.start_fen, args.language).to_json())
            return 0
        raise ContractError("unreadable_record", "the file contains no game", "file")
    return status
