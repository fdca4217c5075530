"""The game as played, typed, for a page to step through: each move as numbered, the position after it,
whether it was legal, and the clock the record gives after it.

Read leniently (every token a move, a known non-move, or an unreadable token kept in its place: the
guide's first principle), in the language and with the readings the ruling used (FIDE C.3; the TD's
choice, ``docs/reading-records.md``). A ruling points at plies (:mod:`adjudicator.evidence`); this gives
the positions those plies are. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import chess

from adjudicator.checkers.replay import replay_checkers
from adjudicator.chess.replay import replay_chess


@dataclass(frozen=True)
class PlayedMove:
    """One ply of the record."""

    ply: int
    label: str
    """As numbered: ``1. e4``, ``1... e5`` (checkers: ``1. 11-15``)."""
    fen: str
    """The position after it."""
    move: str | None
    """UCI in chess, the squares (``11-15``, ``18x11x4``) in checkers; None: no move could be read."""
    is_illegal: bool = False
    clock: float | None = None
    """The clock after it, in seconds, where the record gives one (``[%clk]``)."""


@dataclass(frozen=True)
class ReadingNote:
    """A reading of the record beyond plain SAN: where, the move as read, and what was assumed."""

    ply: int
    label: str
    """The move as read (``4. O-O``)."""
    token: str
    """As written."""
    kind: str
    text: str


@dataclass(frozen=True)
class PlayedGame:
    """The record's moves from its start position."""

    start_fen: str
    moves: tuple[PlayedMove, ...]
    readings: tuple[ReadingNote, ...] = ()

    @property
    def clocks(self) -> tuple[float | None, ...]:
        return tuple(move.clock for move in self.moves)


def played_chess(record: str, start_fen: str | None = None, language: str | None = None,
                 readings: Mapping[int, str] | None = None) -> PlayedGame:
    """A chess record, read leniently in ``language`` with the readings stated (ply -> reading).

    :raises ContractError: a record that cannot be read at all.
    """
    replay = replay_chess(record, start_fen, language, allow_unreadable=True, readings=readings)
    moves: list[PlayedMove] = []
    for number, ply in enumerate(replay.plies, start=1):
        label = replay.label(number).replace(".", ". ", 1) if ply.mover == chess.WHITE else replay.label(number)
        label = label.replace("...", "... ", 1) if ply.mover == chess.BLACK else label
        moves.append(PlayedMove(number, label, ply.fen_after, ply.move.uci() if ply.move else None, not ply.is_legal,
                                ply.clock))
    notes = tuple(
        ReadingNote(n.ply, moves[n.ply - 1].label if n.ply <= len(moves) else "", n.token, n.note.kind, n.note.text)
        for n in replay.notes
    )
    return PlayedGame(replay.start_fen, tuple(moves), notes)


def played_checkers(record: str, start_fen: str | None = None) -> PlayedGame:
    """A checkers record (PDN movetext, or the moves of a line).

    :raises ContractError: a record that cannot be read at all.
    """
    replay = replay_checkers(record, start_fen)
    moves: list[PlayedMove] = []
    first = replay.start.fen().startswith("B")
    for ply in replay.plies:
        number = (ply.number + (0 if first else 1) + 1) // 2
        is_first_mover = ply.side in ("red", "black")
        label = f"{number}. {ply.token}" if is_first_mover else f"{number}... {ply.token}"
        squares = str(ply.move) if ply.move is not None else None
        moves.append(PlayedMove(len(moves) + 1, label, ply.after.fen(), squares, not ply.is_legal))
    return PlayedGame(replay.start.fen(), tuple(moves))


def played_line(start_fen: str, moves: Sequence[str]) -> tuple[PlayedMove, ...]:
    """A chess line (SAN or UCI) from ``start_fen``, up to the first move that is not legal there."""
    try:
        board = chess.Board(start_fen)
    except ValueError:
        return ()
    played: list[PlayedMove] = []
    for number, text in enumerate(moves, start=1):
        try:
            move = chess.Move.from_uci(text)
            if move not in board.legal_moves:
                raise ValueError(text)
        except ValueError:
            try:
                move = board.parse_san(text)
            except ValueError:
                break
        san = board.san(move)
        label = f"{board.fullmove_number}. {san}" if board.turn == chess.WHITE else f"{board.fullmove_number}... {san}"
        board.push(move)
        played.append(PlayedMove(number, label, board.fen(), move.uci()))
    return tuple(played)
