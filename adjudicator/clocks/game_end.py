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

Deadness is monotone along a game (a position reachable from a dead one is dead),
so the first dead position is found by bisection: a few helpmate searches, not one
per ply.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.replay import Replay
from adjudicator.rulesets import Ruleset
from adjudicator.ruling import Result
from adjudicator.services import MateOracle, MateSearch


@dataclass(frozen=True)
class GameEnd:
    """What ended the game, and when."""

    kind: str
    """``checkmate``, ``stalemate``, ``dead-position``, ``fivefold-repetition``, ``seventy-five-moves``."""
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
        return all(self.search(board, color).unwinnable is True for color in (chess.WHITE, chess.BLACK))


def game_end(
    replay: Replay | None, board: chess.Board, ruleset: Ruleset, deadness: Deadness, side_names: tuple[str, str]
) -> GameEnd | None:
    """The earliest way the game ended before now, if any."""
    boards, legal = _positions(replay, board)
    ends = [e for e in (_mate_or_stalemate(boards, legal, ruleset, side_names),
                        _dead(boards, legal, ruleset, deadness),
                        _fivefold(boards, ruleset),
                        _seventy_five(boards, ruleset)) if e is not None]
    if not ends:
        return None
    order = {"checkmate": 0, "stalemate": 1, "dead-position": 2, "seventy-five-moves": 3, "fivefold-repetition": 4}
    mandatory = [e for e in ends if e.is_mandatory]
    pool = mandatory or ends
    return min(pool, key=lambda e: (e.ply, order[e.kind]))


def _positions(replay: Replay | None, board: chess.Board) -> tuple[list[chess.Board], list[bool]]:
    if replay is None:
        return [board], [True]
    boards = [replay.start_board] + [chess.Board(p.fen_after) for p in replay.plies]
    return boards, [True] + [p.is_legal for p in replay.plies]


def _where(ply: int, boards: list[chess.Board]) -> str:
    if len(boards) == 1:
        return "on the board"
    return "at the start of the record" if ply == 0 else f"after ply {ply} of the record"


def _mate_or_stalemate(
    boards: list[chess.Board], legal: list[bool], ruleset: Ruleset, names: tuple[str, str]
) -> GameEnd | None:
    for ply, board in enumerate(boards):
        if not legal[ply]:
            continue
        if board.is_checkmate():
            winner = names[0] if board.turn == chess.BLACK else names[1]
            result: Result = "1-0" if board.turn == chess.BLACK else "0-1"
            return GameEnd("checkmate", ply, result, (ruleset.ref("5.1.1"), ruleset.ref("6.8")),
                           f"{winner.capitalize()} checkmated {_where(ply, boards)}; the game ended there.")
        if board.is_stalemate():
            return GameEnd("stalemate", ply, "1/2-1/2", (ruleset.ref("5.2.1"), ruleset.ref("6.8")),
                           f"The position {_where(ply, boards)} is stalemate; the game ended there.")
    return None


def _dead(boards: list[chess.Board], legal: list[bool], ruleset: Ruleset, deadness: Deadness) -> GameEnd | None:
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
    article = ruleset.ref("5.2.2") if deadness.mode == "helpmate" else ruleset.ref("14D")
    how = ("neither player can checkmate by any series of legal moves" if deadness.mode == "helpmate"
           else "the material left cannot checkmate")
    return GameEnd("dead-position", ply, "1/2-1/2", (article,),
                   f"The position {_where(ply, boards)} is dead: {how}; the game was drawn then.",
                   evidence={"dead_ply": ply, "fen": boards[ply].fen(), "method": deadness.method})


def _fivefold(boards: list[chess.Board], ruleset: Ruleset) -> GameEnd | None:
    mode = ruleset.get_choice("repetition.automatic", ("mandatory", "discretionary", "none"), "none")
    needed = ruleset.get_int("repetition.automatic_occurrences", 5)
    if mode == "none" or len(boards) < needed:
        return None
    seen: Counter[str] = Counter()
    plies: dict[str, list[int]] = {}
    for ply, board in enumerate(boards):
        key = " ".join(board.fen().split()[:4])
        seen[key] += 1
        plies.setdefault(key, []).append(ply)
        if seen[key] >= needed:
            article = ruleset.ref("9.6.1") if mode == "mandatory" else ruleset.ref("14K")
            verb = "the game was drawn then" if mode == "mandatory" else "the TD may declare the game drawn"
            return GameEnd("fivefold-repetition", ply, "1/2-1/2", (article,),
                           f"The position {_where(ply, boards)} occurred for the {needed}th time (plies "
                           f"{', '.join(map(str, plies[key]))}); {verb}.",
                           is_mandatory=mode == "mandatory", evidence={"occurrences": plies[key]})
    return None


def _seventy_five(boards: list[chess.Board], ruleset: Ruleset) -> GameEnd | None:
    mode = ruleset.get_choice("move_rule.automatic", ("mandatory", "discretionary", "none"), "none")
    moves = ruleset.get_int("move_rule.automatic_moves", 75)
    if mode == "none":
        return None
    for ply, board in enumerate(boards):
        if board.halfmove_clock >= 2 * moves and not board.is_checkmate():
            article = ruleset.ref("9.6.2") if mode == "mandatory" else ruleset.ref("14K")
            verb = "the game was drawn then" if mode == "mandatory" else "the TD may declare the game drawn"
            return GameEnd("seventy-five-moves", ply, "1/2-1/2", (article,),
                           f"{moves} moves by each player without a capture or pawn move were completed "
                           f"{_where(ply, boards)}; {verb}.",
                           is_mandatory=mode == "mandatory", evidence={"halfmove_clock": board.halfmove_clock})
    return None

