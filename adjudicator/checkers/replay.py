"""Replaying an American checkers record as played, ply by ply.

Records are read leniently (see :mod:`adjudicator.checkers.pdn`) and ruled strictly:

* a move is matched by its squares, whatever the separator: ``10x14`` is read as
  the quiet move 10-14 when no jump is possible; a jump may be written with every
  landing square (``24x15x6``) or only its ends (``24x6``);
* a move that was played although illegal (a jump not taken, a man moved or
  jumping backwards, an incomplete multi-jump, a jump going on after the man was
  crowned) is kept as physically played and listed with the reason, as in chess;
  a man that reached the king row on the way is a king (crowning ends the move,
  ACF Standard Laws; README 3.1), wherever the player put it down;
* a move that cannot be made on the board at all (no piece of the side to move
  on its first square, or its last square occupied) is listed as illegal too, and
  the replay stops there, since what was physically done is unknown;
* a move split by spacing (``5x 14``, as in a real Ontario Checkers Association
  record) is read joined when that is the only legal reading: what follows the first
  token is no move by itself, the first is no legal move as written, and joined they
  make a legal move; a note names the ply;
* a token that is not a move at all (a square outside 1-32, a lone square, a word,
  a move to its own square, or a shortened jump that fits two different captures)
  is *unreadable*: the replay stops there, ``plies`` counts the moves before it,
  and the entry names its ply, the token as written, why, and the moves the writer
  may have meant.

Per ply the replay keeps the repetition key (pieces, kings, side to move) and the
forty-move counter: plies since the last capture or man move (WCDF 2008 harmonised
rules, adopted by the ACF national rules; README 3.2).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator.checkers.ballots import three_move
from adjudicator.checkers.board import START, FenError, Position
from adjudicator.checkers.pdn import RESULTS, MoveToken, PdnGame, join_split, read_game, split_games
from adjudicator.checkers.played import RED_CROWN, WHITE_CROWN, Move, physical, play_token, push_as_played
from adjudicator.chess.numbering import NumberingGap, gaps_in
from adjudicator.contract import ContractError, quoted

MAX_PLIES = 20_000
"""More plies than any game can have (the 40-move rule ends a game long before), as in chess's replay."""


class CheckersRecordError(ContractError):
    """A checkers record (or its start position) that cannot be read at all."""

    def __init__(self, message: str, field: str = "record", code: str = "unreadable_record") -> None:
        super().__init__(code, message, field)


def parse_position(fen: str, field: str = "fen") -> Position:
    """A PDN FEN from a case field.

    :raises CheckersRecordError: (code ``invalid_fen``) naming the field.
    """
    try:
        position = Position.from_fen(fen)
    except FenError as exc:
        raise CheckersRecordError(f"{field} is not a checkers position: {exc}", field, "invalid_fen") from None
    # a man that reaches the far row is crowned at once (Standard Laws): an uncrowned one there is no position
    for side, men, row in (("Red", position.red & ~position.kings, RED_CROWN), ("White",
                           position.white & ~position.kings, WHITE_CROWN)):
        stranded = [sq for sq in row if men >> (sq - 1) & 1]
        if stranded:
            raise CheckersRecordError(
                f"{field} is not a checkers position: {side} has a man on square {stranded[0]}, its crowning "
                f"row; a man there is a king (write K{stranded[0]})", field, "invalid_fen",
            )
    return position


@dataclass(frozen=True)
class Ply:
    """One move of the record, as played."""

    number: int
    """1 = the record's first move."""
    token: str
    """The move as written."""
    move: Move
    """The move as physically made (for an illegal move: the squares as written)."""
    is_legal: bool
    reason: str | None
    """Why the move was illegal, in an arbiter's words."""
    before: Position
    after: Position
    is_man_move: bool
    counter: int
    """Plies since the last capture or man move, after this ply (the forty-move count)."""
    comment: str | None = None
    is_made: bool = True
    """False for a move that could not be made on the board (the replay stopped there)."""

    @property
    def side(self) -> str:
        """The side that made the move: ``red`` or ``white``."""
        return "red" if self.before.red_to_move else "white"

    @property
    def is_capture(self) -> bool:
        return self.move.is_capture

    @property
    def resets_count(self) -> bool:
        """A capture or a man move: the forty-move count starts again."""
        return self.move.is_capture or self.is_man_move

    @property
    def label(self) -> str:
        """``31. 12-16`` for Red's 31st move, ``31... 22-17`` for White's (from the record's start)."""
        return f"ply {self.number} ({self.side} {self.token})"


@dataclass(frozen=True)
class Unreadable:
    """A token that cannot be read as any move; the replay stopped there."""

    ply: int
    """The ply the token stands at: the number of moves before it, plus one."""
    token: str
    """The token as written (without a move number glued to it)."""
    candidates: tuple[str, ...]
    """The legal moves the writer may have meant."""
    reason: str = "it cannot be read as a move"

    def to_json(self) -> dict[str, Any]:
        shown = quoted(self.token)
        return {"ply": self.ply, "token": shown, "candidates": list(self.candidates), "reason": self.reason}


@dataclass(frozen=True)
class Joined:
    """A move written split by spacing (``5x 14``), read joined as the only legal reading."""

    ply: int
    written: str
    """The tokens as they stood, spacing included (``5x 14``)."""
    move: str
    """The move read (``5x14``)."""

    @property
    def note(self) -> str:
        return (f"ply {self.ply}: {self.written!r} is read as {self.move}, one move split by spacing: "
                "together it is the only legal reading")


@dataclass(frozen=True)
class CheckersReplay:
    """A checkers record replayed ply by ply (the contract's "Replay output")."""

    start: Position
    plies: tuple[Ply, ...]
    tags: tuple[tuple[str, str], ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    result: str | None = None
    """The result written in the record (``1-0``, ``0-1``, ``1/2-1/2``), or None."""
    notes: tuple[str, ...] = field(default=())
    """What was odd about the record (glued text, a ballot start, quiet moves written with x, a split move)."""
    joined: tuple[Joined, ...] = ()
    """Moves written split by spacing and read joined, by ply (each also in :attr:`notes`)."""
    result_marks: tuple[tuple[int, str], ...] = ()
    """(ply, note) of each result written before the last move (:attr:`adjudicator.checkers.pdn.PdnGame.marks`;
    in :attr:`notes` too)."""
    numbering_gaps: tuple[NumberingGap, ...] = ()
    """Where the written move numbers and the order of the moves part (PDN numbers mark the sides as chess's
    do: ``12.`` the first mover's, ``12...`` the second's; :mod:`adjudicator.chess.numbering`); in
    :attr:`notes` too."""

    @property
    def final(self) -> Position:
        """The position after the last move as physically played."""
        return self.plies[-1].after if self.plies else self.start

    @property
    def counter(self) -> int:
        """Plies since the last capture or man move (0 at the record's start)."""
        return self.plies[-1].counter if self.plies else 0

    def position_after(self, ply: int) -> Position:
        """The position after ``ply`` (0 = the start)."""
        return self.plies[ply - 1].after if ply else self.start

    @property
    def illegal(self) -> tuple[Ply, ...]:
        return tuple(p for p in self.plies if not p.is_legal)

    def keys(self) -> list[tuple[int, tuple[int, int, int, bool]]]:
        """(ply, repetition key of the position after it) for the start (ply 0) and each move made."""
        return [(0, self.start.key), *((p.number, p.after.key) for p in self.plies if p.is_made)]

    def occurrences(self, key: tuple[int, int, int, bool]) -> list[int]:
        """The plies after which the position with ``key`` stood (0 = the start)."""
        return [i for i, k in self.keys() if k == key]

    def repetitions(self) -> list[tuple[Position, list[int]]]:
        """Positions that stood more than once, with the plies where they stood."""
        seen: dict[tuple[int, int, int, bool], list[int]] = {}
        positions: dict[tuple[int, int, int, bool], Position] = {}
        for i, key in self.keys():
            seen.setdefault(key, []).append(i)
            positions.setdefault(key, self.position_after(i))
        return [(positions[k], v) for k, v in seen.items() if len(v) > 1]

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None

    def to_json(self) -> dict[str, Any]:
        """The contract's replay object for ``adjudicator replay --game checkers``."""
        return {
            "plies": len(self.plies),
            "start_fen": self.start.fen(),
            "final_fen": self.final.fen(),
            "illegal": [{"ply": p.number, "move": p.token, "reason": p.reason} for p in self.illegal],
            "unreadable": [u.to_json() for u in self.unreadable],
            "repetitions": [{"fen": pos.fen(), "plies": plies} for pos, plies in self.repetitions()],
            "counter": self.counter,
            "result": self.result,
            "notes": list(self.notes),
            "numbering_gaps": [gap.to_json() for gap in self.numbering_gaps],
        }


_BALLOT = re.compile(r"(\d{1,3})")


def _ballot_start(game: PdnGame, ballot: int | None) -> tuple[Position, list[str], int]:
    """Where the record starts: its FEN tag, else a ballot position, else the standard start.

    A three-move ballot (tag ``[Ballot "ACF 34"]`` or the case's ``ballot``) whose three
    moves the record does not repeat starts the record after them.
    Returns (position, notes, number of plies already played before the record).
    """
    notes: list[str] = []
    fen = game.tag("FEN")
    if fen:
        return parse_position(fen, "record.FEN"), notes, 0
    number = ballot
    tag = game.tag("Ballot")
    if number is None and tag:
        m = _BALLOT.search(tag)
        number = int(m.group(1)) if m else None
    if number is None:
        return START, notes, 0
    try:
        chosen = three_move(number)
    except KeyError as exc:
        raise CheckersRecordError(str(exc.args[0]), "ballot") from None
    if not chosen.is_in_deck:
        notes.append(f"ACF ballot #{number} ({chosen.moves}) is barred: it is not in the 156-opening deck")
    opening = chosen.moves.split()
    written = [tok.text.replace("x", "-") for tok in game.moves[:3]]
    if [w.replace("x", "-") for w in opening] == written:
        return START, notes, 0
    notes.append(f"the record starts after ACF ballot #{number} ({chosen.moves})")
    return chosen.position(), notes, 3


def replay_game(game: PdnGame, start_fen: str | None = None, ballot: int | None = None) -> CheckersReplay:
    """Replay one read game. ``start_fen`` applies when the record has no FEN tag."""
    if len(game.moves) > MAX_PLIES:
        raise CheckersRecordError(f"the record has {len(game.moves):,} moves, more than any game can have")
    set_up = True
    if start_fen and not game.tag("FEN"):
        position: Position = parse_position(start_fen, "start_fen")
        notes: list[str] = []
    else:
        position, notes, before = _ballot_start(game, ballot)
        set_up = bool(game.tag("FEN")) or before > 0
    notes.extend(game.notes)
    start = position
    plies: list[Ply] = []
    unreadable: list[Unreadable] = []
    counter = 0
    x_quiet = 0
    tokens = game.moves
    joined: list[Joined] = []
    written: list[MoveToken] = []
    number = at = 0
    while at < len(tokens):
        number += 1
        token, used = _split_move(position, tokens, at)
        written.append(token)
        if used > 1:
            joined.append(Joined(number, " ".join(t.text for t in tokens[at:at + used]), token.text))
            notes.append(joined[-1].note)
        at += used
        move, is_legal, reason, candidates = play_token(position, token)
        if move is None:
            unreadable.append(Unreadable(number, token.text, candidates, reason or "it cannot be read as a move"))
            break
        if token.is_capture_written and not move.is_capture:
            x_quiet += 1
        is_man = position.is_man_move(move)
        playable = is_legal or physical(position, move.path) is not None
        if not playable:
            plies.append(
                Ply(number, token.text, move, False, reason, position, position, is_man, counter, token.comment, False)
            )
            notes.append(f"the replay stops at ply {number}: {token.text} cannot be made on the board")
            break
        after = push_as_played(position, move)
        counter = 0 if (move.is_capture or is_man) else counter + 1
        plies.append(Ply(number, token.text, move, is_legal, reason, position, after, is_man, counter, token.comment))
        position = after
    if x_quiet:
        notes.append(f"{x_quiet} quiet move(s) written with x were read by their squares")
    result = RESULTS.get(game.result or "")
    gaps = gaps_in([t.number for t in written], [t.text for t in written], start.red_to_move,
                   None if set_up else 1, ("red", "white"))
    notes.extend(f"ply {gap.ply}: {gap.text}" for gap in gaps)
    return CheckersReplay(start, tuple(plies), game.tags, tuple(unreadable), result, tuple(notes), tuple(joined),
                          game.marks, gaps)


def _split_move(position: Position, tokens: tuple[MoveToken, ...], at: int) -> tuple[MoveToken, int]:
    """The move at ``tokens[at]`` and how many tokens it takes: one, or a move split by spacing (``5x 14``).

    Tokens are joined only where the reading is not in doubt: what follows the first token
    is no move by itself (unreadable: ``14``, ``x14``, ``x``), the first is no legal move as
    written, and joined they make a legal move. A token that reads as a move is never joined
    to another.
    """
    first = tokens[at]
    if at + 1 == len(tokens) or tokens[at + 1].unreadable is None:
        return first, 1
    if first.unreadable is None:
        move, is_legal, _, _ = play_token(position, first)
        if move is not None and is_legal:
            return first, 1
    for used in (2, 3):
        parts = tokens[at:at + used]
        if len(parts) < used or parts[-1].unreadable is None:
            break
        whole = join_split(list(parts))
        if whole is not None:
            move, is_legal, _, _ = play_token(position, whole)
            if move is not None and is_legal:
                return whole, used
    return first, 1


def replay_checkers(text: str, start_fen: str | None = None, ballot: int | None = None) -> CheckersReplay:
    """Replay the first game of a PDN record.

    :raises CheckersRecordError: the record holds no game, or its FEN is not a position.
    """
    games = split_games(text)
    if not games:
        raise CheckersRecordError("the record contains no game")
    replay = replay_game(read_game(games[0]), start_fen, ballot)
    if len(games) > 1:  # e.g. moves written after the result
        note = f"the record holds {len(games)} games (moves after a result start a new one); the first is replayed"
        replay = dataclasses.replace(replay, notes=(*replay.notes, note))
    return replay


def replay_pdn(text: str) -> list[CheckersReplay]:
    """Replay every game of a multi-game PDN file; each value has ``to_json()`` (contract shape).

    A game whose FEN tag cannot be read raises :class:`CheckersRecordError`.
    """
    return [replay_game(read_game(game)) for game in split_games(text)]


__all__ = [
    "CheckersRecordError",
    "CheckersReplay",
    "Joined",
    "Ply",
    "Unreadable",
    "parse_position",
    "replay_checkers",
    "replay_game",
    "replay_pdn",
    "split_games",
]
