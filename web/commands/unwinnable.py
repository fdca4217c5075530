"""``adjudicator unwinnable FEN --color C`` and the batch form ``adjudicator unwinnable -``.

FIDE 6.9 / 5.2.2: can ``C`` checkmate by any series of legal moves? Prints
``{"unwinnable": true|false|null, "helpmate": [uci]|null, "method": "..."}``
(plus ``color`` and ``nodes``). The batch reads lines ``FEN [white|black]``
(no colour: the side not to move, the player whose flag is still up) and prints
one result per line, flushed; a bad line gives an ``{"error": ...}`` line with
its ``line`` number and the batch goes on.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import chess

from adjudicator.contract import ContractError
from web.cli import emit, error_json

COLORS = {"white": chess.WHITE, "black": chess.BLACK}


def register(sub: Any) -> None:
    parser = sub.add_parser("unwinnable", help="can a side checkmate by any series of legal moves? (FIDE 6.9)")
    parser.add_argument("fen", nargs="+", help="the position as FEN (quoted or not), or - to read lines from stdin")
    parser.add_argument("--color", help="the side that would win: white or black (default: the side not to move)")
    parser.add_argument("--nodes", type=int, default=None, help="node budget per query")
    parser.add_argument("--time", type=float, default=None, help="time budget per query, seconds")
    parser.set_defaults(func=run)


def parse_board(fen: str) -> chess.Board:
    """The position of ``fen``, checked as ``rule`` checks it; a :class:`ContractError` naming ``fen``."""
    from adjudicator.chess.positions import legal_position  # deferred on purpose

    text = " ".join(fen.split())
    if not text:
        raise ContractError("invalid_fen", "no FEN given", "fen")
    return legal_position(text, "fen")


def parse_color(text: str | None, board: chess.Board) -> chess.Color:
    if text is None:
        return not board.turn
    color = COLORS.get(text.strip().lower())
    if color is None:
        raise ContractError("invalid_color", f"colour must be white or black, not {text!r}", "color")
    return color


def answer(analyser: Any, board: chess.Board, color: chess.Color) -> dict[str, Any]:
    found = analyser.search(board, color)
    return {
        "unwinnable": found.unwinnable,
        "helpmate": list(found.helpmate) if found.helpmate is not None else None,
        "method": found.method,
        "color": "white" if color else "black",
        "nodes": found.nodes,
    }


def parse_line(line: str) -> tuple[chess.Board, chess.Color]:
    """A batch line ``FEN [white|black]``."""
    tokens = line.split()
    color_text = None
    if tokens and tokens[-1].lower() in COLORS:
        color_text = tokens.pop()
    elif len(tokens) > 6 and not tokens[-1].isdigit():
        raise ContractError("invalid_color", f"colour must be white or black, not {tokens[-1]!r}", "color")
    board = parse_board(" ".join(tokens))
    return board, parse_color(color_text, board)


def run(args: argparse.Namespace) -> int:
    from engines.chess.unwinnable import UnwinnabilityAnalyser  # deferred on purpose

    options: dict[str, Any] = {}
    if args.nodes is not None:
        if args.nodes <= 0:
            raise ContractError("invalid_budget", "--nodes must be positive", "nodes")
        options["node_limit"] = args.nodes
    if args.time is not None:
        if not args.time > 0:
            raise ContractError("invalid_budget", "--time must be positive", "time")
        options["time_limit"] = args.time
    analyser = UnwinnabilityAnalyser(**options)
    if args.fen == ["-"]:
        if args.color is not None:
            raise ContractError("usage", "the batch form takes the colour on each line, not --color", "color")
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                board, color = parse_line(line)
                emit(answer(analyser, board, color))
            except Exception as exc:  # a bad line yields an error line; the batch goes on
                body = error_json(exc)
                body["error"]["line"] = number
                emit(body)
        return 0
    board = parse_board(" ".join(args.fen))
    emit(answer(analyser, board, parse_color(args.color, board)))
    return 0
