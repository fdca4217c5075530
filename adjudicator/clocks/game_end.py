"""Did the game end before the flag fell? Then the flag changes nothing.

A result reached before the flag is noticed stands (FIDE 6.8). The game ends by
itself, with no claim, on:

- checkmate (5.1.1) or stalemate (5.2.1), provided the move was legal;
- a dead position (5.2.2): neither side can mate by any series of legal moves
  (the helpmate test through ``services.mate``; US Chess 14D: the listed material
  endings, ruleset key ``flag.dead_position = "material"``);
- the fifth occurrence of a position (9.6.1) or 75 moves each without a capture or
  pawn move (9.6.2; a mate on that move wins). The Arbiters' Manual: both still
  draw if a flag fell afterwards. Under US Chess 14K the TD *may* declare these
  draws (``automatic = "discretionary"``): they are reported, not imposed.
  For a record these come from :mod:`adjudicator.chess.claims.automatic`; for a position
  alone, from the position (its move counter).

Deadness is monotone along a game (a position reachable from a dead one is dead),
so the first dead position is found by bisection: a few helpmate searches, not one
per ply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.chess.claims.automatic import Ending, describe, endings
from adjudicator.chess.replay import Replay
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Result
from adjudicator.services import MateOracle, MateSearch


@dataclass(frozen=True)
class GameEnd:
    """What ended the game, and when."""

    kind: str
    """``checkmate``, ``stalemate``, ``dead-position``, ``fivefold``, ``seventy-five-moves``."""
    ply: int
    """0: the start position (or the position given); n: after the record's n-th move."""
    result: Result
    articles: tuple[str, ...]
    reason: str
    is_mandatory: bool = True
    """False: the TD may declare it (US 14K); the flag ruling then goes on."""
    evidence: dict[str, Any] = field(default_factory=dict)
    confidence: float = 1.0


class Deadness:
    """Dead-position test with a cache: helpmate analysis when available, else material."""

    def __init__(self, mode: str, mate: MateOracle | None) -> None:
        self.configured = mode
        self.mode = mode if mate is not None else "material"
        self.mate = mate
        self.searches: dict[tuple[str, bool], MateSearch] = {}

    @property
    def method(self) -> str:
        return "helpmate search" if self.mode == "helpmate" else "material"

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch:
        key = (board.fen(), color)
        if key not in self.searches:
            assert self.mate is not None
            self.searches[key] = self.mate.search(board, color)
        return self.searches[key]

    def is_dead(self, board: chess.Board) -> bool:
        """Sound: True only when neither side can mate (undecided counts as alive)."""
        if board.is_insufficient_material():
            return True
        if self.mode != "helpmate":
            return False
        # a side already searched goes first: one winnable side settles it
        colors = sorted((chess.WHITE, chess.BLACK), key=lambda c: (board.fen(), c) not in self.searches)
        return all(self.search(board, color).unwinnable is True for color in colors)


def game_end(
    replay: Replay | None, board: chess.Board, ruleset: ChessRuleset, deadness: Deadness, side_names: tuple[str, str]
) -> GameEnd | None:
    """The earliest way the game ended before now (or, failing that, the first the TD may declare)."""
    if replay is not None:
        found = [_from_ending(replay, e) for e in endings(replay, ruleset)]
        boards = [replay.board_after(i) for i in range(len(replay.plies) + 1)]
        legal = [True] + [p.is_legal for p in replay.plies]
    else:
        found = _on_board(board, ruleset, side_names)
        boards, legal = [board], [True]
    dead = _dead(boards, legal, ruleset, deadness)
    if dead is not None:
        found.append(dead)
    order = {"checkmate": 0, "stalemate": 1, "dead-position": 2, "seventy-five-moves": 3, "fivefold": 4}
    mandatory = [e for e in found if e.is_mandatory]
    pool = mandatory or found
    return min(pool, key=lambda e: (e.ply, order.get(e.kind, 9))) if pool else None


def _from_ending(replay: Replay, ending: Ending) -> GameEnd:
    evidence: dict[str, Any] = {}
    if ending.occurrences:
        evidence["occurrences"] = list(ending.occurrences)
    if ending.kind == "seventy-five-moves":
        evidence["counter"] = ending.counter
    return GameEnd(
        ending.kind,
        ending.ply,
        ending.result,
        (ending.article,),
        describe(replay, ending),
        ending.is_mandatory,
        evidence,
    )


def _on_board(board: chess.Board, ruleset: ChessRuleset, names: tuple[str, str]) -> list[GameEnd]:
    """The same endings for a position given without its record (a FEN)."""
    us = ruleset.is_a("uschess")
    if board.is_checkmate():
        winner = names[0] if board.turn == chess.BLACK else names[1]
        result: Result = "1-0" if board.turn == chess.BLACK else "0-1"
        article = ruleset.ref("12A") if us else ruleset.ref("5.1.1")
        return [GameEnd("checkmate", 0, result, (article,), f"{winner.capitalize()} has checkmated; the game is over.")]
    if board.is_stalemate():
        article = ruleset.ref("14A") if us else ruleset.ref("5.2.1")
        return [GameEnd("stalemate", 0, "1/2-1/2", (article,), "The position on the board is stalemate.")]
    mode = ruleset.move_rule.automatic
    moves = ruleset.move_rule.automatic_moves
    if mode != "none" and board.halfmove_clock >= 2 * moves:
        verb = "which ended the game in a draw" if mode == "mandatory" else "which lets the TD declare a draw"
        article = ruleset.ref("14K") if us else ruleset.ref("9.6.2")
        return [
            GameEnd(
                "seventy-five-moves",
                0,
                "1/2-1/2",
                (article,),
                f"The position shows {board.halfmove_clock} half-moves without a capture or pawn move "
                f"({moves} moves by each player), {verb}.",
                mode == "mandatory",
                {"counter": board.halfmove_clock},
            )
        ]
    return []


def _where(ply: int, boards: list[chess.Board]) -> str:
    if len(boards) == 1:
        return "on the board"
    return "at the start of the record" if ply == 0 else f"after ply {ply} of the record"


def _dead(boards: list[chess.Board], legal: list[bool], ruleset: ChessRuleset, deadness: Deadness) -> GameEnd | None:
    last = len(boards) - 1
    if not deadness.is_dead(boards[last]):
        return None
    low, high = 0, last  # boards[high] is dead; find the first dead one
    while low < high:
        middle = (low + high) // 2
        if deadness.is_dead(boards[middle]):
            high = middle
        else:
            low = middle + 1
    ply = high
    while ply < last and not legal[ply]:
        ply += 1  # 5.2.2: the move producing the dead position must be legal
    article = ruleset.ref("14D") if deadness.configured == "material" else ruleset.ref("5.2.2")
    how = (
        "neither player can checkmate by any series of legal moves"
        if deadness.mode == "helpmate"
        else "the material left cannot checkmate"
    )
    return GameEnd(
        "dead-position",
        ply,
        "1/2-1/2",
        (article,),
        f"The position {_where(ply, boards)} is dead: {how}; the game was drawn then.",
        evidence={"dead_ply": ply, "fen": boards[ply].fen(), "method": deadness.method},
    )
