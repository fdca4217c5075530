"""Replaying a chess record as played (FIRST CUT: strict python-chess reading).

Interface kept stable for the claims: :func:`replay_chess` and :func:`board_for_case`.
The lenient reader (illegal moves kept, languages, figurines) replaces the internals.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import chess
import chess.pgn

from adjudicator.contract import Case, ContractError


class RecordError(ContractError):
    """A record that cannot be read at all; names where."""

    def __init__(self, message: str, field: str = "record") -> None:
        super().__init__("unreadable_record", message, field)


@dataclass(frozen=True)
class Ply:
    """One move of the record as played."""

    number: int
    """1 = the record's first move."""
    token: str
    """The move as written."""
    move: chess.Move | None
    """The move as physically made (None when it cannot be made at all)."""
    is_legal: bool
    reason: str | None
    """Why the move was illegal, in an arbiter's words."""
    fen_after: str
    clock: float | None = None
    """Seconds left on the mover's clock after the move (``[%clk]``)."""
    emt: float | None = None
    """Seconds the mover spent on this move (``[%emt]``)."""


@dataclass(frozen=True)
class Replay:
    """A record replayed ply by ply."""

    start_fen: str
    plies: tuple[Ply, ...]
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def start_board(self) -> chess.Board:
        return chess.Board(self.start_fen)

    @property
    def final_board(self) -> chess.Board:
        """The position after the last move as physically played."""
        return chess.Board(self.plies[-1].fen_after if self.plies else self.start_fen)

    def board_after(self, ply: int) -> chess.Board:
        """The position after ``ply`` (0 = the start position)."""
        return chess.Board(self.plies[ply - 1].fen_after if ply else self.start_fen)

    def tag(self, name: str) -> str | None:
        return dict(self.tags).get(name)


def replay_chess(text: str, start_fen: str | None = None, language: str | None = None) -> Replay:
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise RecordError("the record contains no game")
    if start_fen and "FEN" not in game.headers:
        try:
            game.setup(chess.Board(start_fen))
        except ValueError as exc:
            raise ContractError("invalid_fen", f"start_fen is not a position: {exc}", "start_fen") from None
    if game.errors:
        raise RecordError(str(game.errors[0]))
    board = game.board()
    start = board.fen()
    plies = []
    for number, node in enumerate(game.mainline(), start=1):
        token = board.san(node.move)
        board.push(node.move)
        plies.append(Ply(number, token, node.move, True, None, board.fen(), node.clock(), node.emt()))
    return Replay(start, tuple(plies), tuple(game.headers.items()))


def parse_fen(fen: str, field: str = "fen") -> chess.Board:
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise ContractError("invalid_fen", f"{field} is not a position: {exc}", field) from None
    return board


def board_for_case(case: Case) -> chess.Board:
    """The position on the board now: the record's end, else ``fen``, else ``start_fen``."""
    if case.record:
        return replay_chess(case.record, case.start_fen, case.language).final_board
    if case.fen:
        return parse_fen(case.fen)
    if case.start_fen:
        return parse_fen(case.start_fen, "start_fen")
    raise ContractError("missing_field", "give the record or the position (fen)", "record")
