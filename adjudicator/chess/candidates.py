"""Candidate moves for entering a record from a scoresheet: the likeliest next moves, best first.

The TD reads a human move off a paper scoresheet; the entry board offers a few moves as
large buttons so that the written move is usually one tap (issue 21). The order:

1. moves that return to an earlier position of the record (FIDE 9.2.3's identity: same
   side to move, pieces, castling rights, a legal e.p. capture): a TD entering a
   repetition is reading exactly those; the position seen most often first, then the
   most recent;
2. an opening book's moves, by weight (when a book is given);
3. the engine's first choice, then a recapture on the square just taken on (the heuristic's first:
   the least valuable piece taking), then the engine's other principal variations, best first
   (MultiPV at a small node budget): players recapture more often than a few-node engine ranks it
   (issue 37, measured);
4. the rest by a cheap heuristic: a recapture on the square just taken on, then
   captures of the most valuable piece by the least valuable one, then checks.

The entry board lays the candidates out as a *split row* (:func:`row_order`, issue 37 item 4): the
likeliest move first, then the others in a fixed order, by piece (king and castling, queen, rook,
bishop, knight, pawn) and then by the square the move goes to (file, then rank), so that the TD
looks for a written "Nf3" among the knight's moves and knows where it would be.

Which of these predicts human moves best at what cost was measured, not guessed:
``bench/entry.py`` prints the share of real plies found in the first 1, 3 and 6 candidates
and the taps per ply. Nothing here starts a process or reads a file: the book's and the
engine's moves are handed in (``engines.chess.entry``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import chess

from adjudicator.chess.replay import RepetitionKey, repetition_key

Source = Literal["repetition", "book", "engine", "heuristic"]

SHOWN = 8
"""Candidates the entry board shows (two rows of four buttons on a phone); the bench's tap model counts
a move among them as one tap."""

_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


@dataclass(frozen=True)
class Candidate:
    """One move offered to the TD, and why it is offered."""

    move: chess.Move
    san: str
    source: Source

    def to_json(self) -> dict[str, str]:
        return {"uci": self.move.uci(), "san": self.san, "source": self.source}


def returning_moves(board: chess.Board, earlier: Iterable[RepetitionKey]) -> list[chess.Move]:
    """The legal moves after which a position of ``earlier`` stands again: the most often seen
    position first, then the most recent (``earlier`` in the record's order, oldest first)."""
    counts: dict[RepetitionKey, int] = {}
    last: dict[RepetitionKey, int] = {}
    for index, key in enumerate(earlier):
        counts[key] = counts.get(key, 0) + 1
        last[key] = index
    if not counts:
        return []
    found: list[tuple[int, int, str, chess.Move]] = []
    for move in board.legal_moves:
        if board.is_zeroing(move):
            continue  # a capture or a pawn move never returns to an earlier position
        board.push(move)
        key = repetition_key(board)
        board.pop()
        if key in counts:
            found.append((-counts[key], -last[key], move.uci(), move))
    found.sort(key=lambda item: item[:3])
    return [move for *_, move in found]


def heuristic_moves(board: chess.Board, last_move: chess.Move | None = None) -> list[chess.Move]:
    """Every legal move in a cheap order of likeliness: a recapture on the square just taken on,
    captures (most valuable victim, least valuable attacker), checks, then the rest (UCI order)."""
    recapture_square = last_move.to_square if last_move is not None else None

    def score(move: chess.Move) -> tuple[float, str]:
        value = 0.0
        if board.is_capture(move):
            victim = board.piece_type_at(move.to_square) or chess.PAWN  # en passant: a pawn
            attacker = board.piece_type_at(move.from_square) or chess.PAWN
            value += 3 + _VALUE[victim] - _VALUE[attacker] / 10
            if move.to_square == recapture_square:
                value += 10
        if move.promotion == chess.QUEEN:
            value += 8
        if board.gives_check(move):
            value += 2
        return (-value, move.uci())

    return sorted(board.legal_moves, key=score)


def recaptures(board: chess.Board, last_move: chess.Move | None) -> list[chess.Move]:
    """The captures on the square the last move went to, in the heuristic's order (the least valuable
    piece taking first, the king counted least); none without a last move."""
    if last_move is None:
        return []
    return [move for move in heuristic_moves(board, last_move)
            if move.to_square == last_move.to_square and board.is_capture(move)]


def rank(
    board: chess.Board,
    earlier: Sequence[RepetitionKey] = (),
    book: Sequence[chess.Move] = (),
    engine: Sequence[chess.Move] = (),
    last_move: chess.Move | None = None,
    count: int = SHOWN,
) -> tuple[Candidate, ...]:
    """The first ``count`` candidates in the order of the module's docstring; moves that are not
    legal in ``board`` (a stale book entry, say) are left out, and so is a capture of the king: after an
    illegal move that left a king in check (entered for an illegal-move claim, FIDE 7.5.1), the other side
    may take it in python-chess's generator, but that is no move a player can make or a scoresheet hold."""
    legal = {move for move in board.legal_moves if board.piece_type_at(move.to_square) != chess.KING}
    chosen: list[Candidate] = []
    taken: set[chess.Move] = set()
    groups: tuple[tuple[Source, Iterable[chess.Move]], ...] = (
        ("repetition", returning_moves(board, earlier)),
        ("book", book),
        ("engine", engine[:1]),
        ("heuristic", recaptures(board, last_move)[:1]),
        ("engine", engine[1:]),
        ("heuristic", heuristic_moves(board, last_move)),
    )
    for source, moves in groups:
        for move in moves:
            if len(chosen) >= count:
                return tuple(chosen)
            if move in legal and move not in taken:
                taken.add(move)
                chosen.append(Candidate(move, board.san(move), source))
    return tuple(chosen)


PIECE_ORDER = "KQRBNP"
"""The split row's order of pieces (:func:`row_order`): the order of SAN's piece letters, pawns last."""


def row_key(san: str, uci: str) -> tuple[int, str, str, str]:
    """A candidate's place in the split row's fixed part: its piece (from the SAN's first letter; castling is
    the king's), the square it goes to (file, then rank: "c3" before "d2"), the square it comes from, the
    promotion piece."""
    letter = "K" if san.startswith("O") else san[0] if san[:1] in PIECE_ORDER[:-1] else "P"
    return (PIECE_ORDER.index(letter), uci[2:4], uci[:2], uci[4:])


def row_order(candidates: Sequence[Candidate], first: int = 1) -> tuple[Candidate, ...]:
    """The candidates as the entry board lays them out (issue 37, item 4): the ``first`` likeliest where the
    ranking put them, then the rest by :func:`row_key`. The page does the same
    (``web/static/chess-candidates.js``, ``rowOrder``); the server's answer stays best first."""
    head, rest = tuple(candidates[:first]), candidates[first:]
    return head + tuple(sorted(rest, key=lambda c: row_key(c.san, c.move.uci())))


def earlier_keys(fens: Iterable[str]) -> list[RepetitionKey]:
    """The repetition keys of positions given as FENs; a FEN that is no position is skipped (it is
    no position of the record, so nothing can return to it)."""
    keys: list[RepetitionKey] = []
    for fen in fens:
        try:
            keys.append(repetition_key(chess.Board(fen)))
        except ValueError:
            continue
    return keys
