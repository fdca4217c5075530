"""The game as played, typed, for a page to step through: each move as numbered, the position after it,
whether it was legal, and the clock the record gives after it.

Read leniently (every token a move, a known non-move, or an unreadable token kept in its place: the
guide's first principle), in the language and with the readings the ruling used (FIDE C.3; the TD's
choice, ``docs/reading-records.md``). A ruling points at plies (:mod:`adjudicator.evidence`); this gives
the positions those plies are. No I/O.

The game is read once, right after the ruling (:func:`played_case`, the same reading the ruling page used to
redo each time it was drawn), and kept with the ruling as JSON (:meth:`PlayedGame.to_json`; the web app keeps it
beside the ruling, not in the contract's ruling object), so a page draws the positions the ruling established.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import chess

from adjudicator.case_facts import Facts
from adjudicator.checkers.replay import replay_checkers
from adjudicator.chess.replay import replay_chess


class StoredGameError(ValueError):
    """A kept game's JSON is not the shape :meth:`PlayedGame.to_json` writes."""


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

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"start_fen", "moves": [{ply, label, fen, move, is_illegal, clock}], "readings": [...]}``."""
        return {"start_fen": self.start_fen, "moves": [asdict(m) for m in self.moves],
                "readings": [asdict(r) for r in self.readings]}

    @classmethod
    def from_json(cls, data: object) -> PlayedGame:
        """The game :meth:`to_json` wrote, typed again.

        :raises StoredGameError: anything else.
        """
        try:
            if not isinstance(data, Mapping):
                raise StoredGameError("not a kept game: not an object")
            moves = tuple(_move(m) for m in data["moves"])
            readings = tuple(_note(r) for r in data.get("readings") or ())
            return cls(_of(data["start_fen"], str), moves, readings)
        except (KeyError, TypeError) as exc:
            raise StoredGameError(f"not a kept game: {exc!r}") from exc


def _of(value: object, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    """``value`` if it is a ``kind`` (or None, when ``optional``)."""
    if (value is None and optional) or isinstance(value, kind):
        return value
    raise StoredGameError(f"not a kept game: {value!r} is not {kind}")


def _move(data: Mapping[str, Any]) -> PlayedMove:
    clock = _of(data.get("clock"), (int, float), optional=True)
    return PlayedMove(_of(data["ply"], int), _of(data["label"], str), _of(data["fen"], str),
                      _of(data["move"], str, optional=True), _of(data.get("is_illegal", False), bool),
                      None if clock is None else float(clock))


def _note(data: Mapping[str, Any]) -> ReadingNote:
    return ReadingNote(_of(data["ply"], int), _of(data["label"], str), _of(data["token"], str),
                       _of(data["kind"], str), _of(data["text"], str))


def played_case(case: Mapping[str, Any], language: str | None = None) -> PlayedGame | None:
    """The case's record as its ruling read it: in the ruling's ``language`` (else the case's), with the
    readings the case states (the TD's choice, ``docs/reading-records.md``); None: no record to read.

    :raises ContractError: a record that cannot be read at all.
    """
    game, record = case.get("game") or "chess", case.get("record")
    if game not in ("chess", "checkers") or not isinstance(record, str) or not record.strip():
        return None
    if game == "checkers":
        return played_checkers(record, case.get("start_fen"))
    stated = Facts({"readings": case.get("readings")}).readings
    return played_chess(record, case.get("start_fen"), language or case.get("language"), stated)


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
