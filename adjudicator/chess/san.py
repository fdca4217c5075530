"""Finding a written move on the board: legally, as physically played, or not at all.

A record is evidence of what happened at the board, so the reader keeps moves that
were illegal as played (FIDE 7.5; US Chess 11): it works out which piece went where
and why the move was illegal, and the replay goes on from the position as played.
A token that cannot be read as any move gets the legal moves it most likely was.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

import chess

from adjudicator.chess.notation import LANGUAGES, Notation, clean, parse

_NAMES = {
    chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
    chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king",
}


@dataclass(frozen=True)
class Reading:
    """What a token turned out to be in a position."""

    token: str
    move: chess.Move | None
    """The move as physically made; None when the token could not be read."""
    is_legal: bool
    reason: str | None = None
    """Why the move was illegal (or why the token could not be read)."""
    candidates: tuple[str, ...] = ()
    """For an unreadable token: the legal moves (SAN) it most likely was."""
    irregularity: str | None = None
    """``illegal``, ``unreplaced-promotion`` (7.5.2) or ``no-move`` (7.5.3, the clock pressed without a move)."""

    @property
    def is_readable(self) -> bool:
        return self.move is not None


def piece_name(piece_type: int) -> str:
    return _NAMES[piece_type]


def _fits(board: chess.Board, move: chess.Move, note: Notation) -> bool:
    if note.to_square is None:
        return False
    if move.to_square != note.to_square and not (
        board.is_castling(move) and _castle_target(board, move) == note.to_square
    ):
        return False
    if note.from_file is not None and chess.square_file(move.from_square) != note.from_file:
        return False
    if note.from_rank is not None and chess.square_rank(move.from_square) != note.from_rank:
        return False
    piece = board.piece_type_at(move.from_square)
    wanted = note.piece
    if wanted is None and not (note.from_file is not None and note.from_rank is not None):
        wanted = chess.PAWN
    if wanted is not None and piece != wanted:
        return False
    return move.promotion == note.promotion or (note.promotion is None and move.promotion is None)


def _castle_target(board: chess.Board, move: chess.Move) -> int:
    """The king's destination of a castling move (python-chess may encode it as king-takes-rook)."""
    rank = chess.square_rank(move.from_square)
    return chess.square(6 if board.is_kingside_castling(move) else 2, rank)


def _castle_move(board: chess.Board, side: str, moves: Iterable[chess.Move]) -> chess.Move | None:
    for move in moves:
        if board.is_castling(move) and (board.is_kingside_castling(move) == (side == "O-O")):
            return move
    return None


def _why_illegal(board: chess.Board, move: chess.Move) -> str:
    """Why a pseudo-legal move is illegal (it exposes the mover's king)."""
    piece = board.piece_type_at(move.from_square)
    if board.is_castling(move):
        return "castles out of, through or into check"
    if board.is_check():
        return "does not get the king out of check"
    if piece == chess.KING:
        return "moves the king into check"
    return "leaves the king in check"


def _illegal_castling(board: chess.Board, side: str) -> chess.Move | None:
    """The castling as physically played when it was illegal; None when it cannot be done at all."""
    color = board.turn
    rank = 0 if color == chess.WHITE else 7
    king_from = chess.square(4, rank)
    rook_from = chess.square(7 if side == "O-O" else 0, rank)
    if board.piece_at(king_from) != chess.Piece(chess.KING, color):
        return None
    if board.piece_at(rook_from) != chess.Piece(chess.ROOK, color):
        return None
    between = chess.SquareSet(chess.between(king_from, rook_from))
    if between & board.occupied:
        return None
    return chess.Move(king_from, chess.square(6 if side == "O-O" else 2, rank))


def _castling_reason(board: chess.Board, side: str) -> str:
    color = board.turn
    rank = 0 if color == chess.WHITE else 7
    rook_from = chess.square(7 if side == "O-O" else 0, rank)
    if not board.castling_rights & chess.BB_SQUARES[rook_from]:
        return "castles although the king or that rook has already moved"
    if board.is_check():
        return "castles out of check"
    king_from = chess.square(4, rank)
    step = 1 if side == "O-O" else -1
    if board.is_attacked_by(not color, king_from + step):
        return "castles through a square attacked by the opponent"
    return "castles into check"


def _geometry_ok(board: chess.Board, square: int, piece: int, target: int, color: bool) -> bool:
    """Whether the piece moves that way on an empty board (the path may be blocked)."""
    if piece == chess.PAWN:
        return False
    empty = chess.Board(None)
    empty.set_piece_at(square, chess.Piece(piece, color))
    return bool(empty.attacks_mask(square) & chess.BB_SQUARES[target])


def _physical(board: chess.Board, note: Notation) -> tuple[chess.Move | None, str | None, tuple[str, ...]]:
    """The move as physically made when no legal or pseudo-legal move fits, with the reason."""
    to = note.to_square
    if to is None:
        return None, None, ()
    color = board.turn
    own = board.occupied_co[color]
    if own & chess.BB_SQUARES[to]:
        return None, None, ()
    if board.kings & chess.BB_SQUARES[to]:
        return None, None, ()
    wanted = note.piece
    squares = [
        sq for sq in chess.SquareSet(own)
        if (note.from_file is None or chess.square_file(sq) == note.from_file)
        and (note.from_rank is None or chess.square_rank(sq) == note.from_rank)
    ]
    if wanted is None and not (note.from_file is not None and note.from_rank is not None):
        wanted = chess.PAWN
    if wanted is not None:
        squares = [sq for sq in squares if board.piece_type_at(sq) == wanted]
    if wanted == chess.PAWN:
        # the pawn nearest behind the target, on the named file, the target's file, or (captures) beside it
        forward = 1 if color == chess.WHITE else -1
        target_file = chess.square_file(to)
        if note.from_file is not None:
            files = {note.from_file}
        elif note.is_capture:
            files = {target_file - 1, target_file + 1}
        else:
            files = {target_file}
        behind = [
            sq for sq in squares
            if chess.square_file(sq) in files and (chess.square_rank(to) - chess.square_rank(sq)) * forward > 0
        ]
        behind.sort(key=lambda sq: abs(chess.square_rank(to) - chess.square_rank(sq)))
        squares = behind[:1]
    if len(squares) > 1:
        shaped = [sq for sq in squares if _geometry_ok(board, sq, board.piece_type_at(sq) or 0, to, color)]
        if len(shaped) == 1:
            squares = shaped
    if len(squares) != 1:
        names = tuple(
            chess.SQUARE_NAMES[sq] + chess.SQUARE_NAMES[to] for sq in squares
        )
        return None, None, names
    origin = squares[0]
    piece = board.piece_type_at(origin) or chess.PAWN
    promotion = note.promotion
    last_rank = 7 if color == chess.WHITE else 0
    if piece == chess.PAWN and chess.square_rank(to) == last_rank and promotion is None:
        promotion = chess.QUEEN
    elif piece != chess.PAWN:
        promotion = None
    move = chess.Move(origin, to, promotion)
    name = _NAMES[piece]
    if _geometry_ok(board, origin, piece, to, color):
        reason = (
            f"the {name} on {chess.SQUARE_NAMES[origin]} cannot pass the pieces "
            f"between it and {chess.SQUARE_NAMES[to]}"
        )
    else:
        reason = f"a {name} cannot move from {chess.SQUARE_NAMES[origin]} to {chess.SQUARE_NAMES[to]}"
    return move, reason, ()


def describe(board: chess.Board, move: chess.Move) -> str:
    """A move in long algebraic form as an arbiter writes it (``Bc1-d3``, ``Nf3xe5``)."""
    piece = board.piece_type_at(move.from_square)
    if piece == chess.KING and chess.square_distance(move.from_square, move.to_square) == 2 and (
        chess.square_rank(move.from_square) == chess.square_rank(move.to_square)
    ):
        return "O-O" if move.to_square > move.from_square else "O-O-O"
    letter = "" if piece in (None, chess.PAWN) else chess.piece_symbol(piece).upper()
    sep = "x" if board.piece_at(move.to_square) is not None or board.is_en_passant(move) else "-"
    promo = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return f"{letter}{chess.SQUARE_NAMES[move.from_square]}{sep}{chess.SQUARE_NAMES[move.to_square]}{promo}"


def _letters_meant(letter: str, language: str) -> set[str]:
    """The English piece letters (``""`` for a pawn) a written letter may stand for.

    The game's own language first; a letter it does not have may be any language's.
    """
    table = LANGUAGES.get(language, LANGUAGES["en"])
    pieces = {table[letter]} if letter in table else {t[letter] for t in LANGUAGES.values() if letter in t}
    return {"" if p == chess.PAWN else chess.piece_symbol(p).upper() for p in pieces}


_SQUARE = re.compile(r"[a-h][1-8]")


def candidates(board: chess.Board, token: str, limit: int = 5, language: str = "en") -> tuple[str, ...]:
    """The legal moves a token most likely was, best first.

    Scored by likeness of the written text to each legal move's SAN, with weight on
    the same piece letter (in the game's language, else in any language's), the same
    destination square and a capture sign.
    """
    notes = parse(token, language)
    text = notes[0].english if notes else clean(token)
    squares = _SQUARE.findall(text)
    target = notes[0].to_square if notes else (chess.parse_square(squares[-1]) if squares else None)
    meant: set[str] | None = None
    texts = [text]
    if text[:1].isupper():
        meant = _letters_meant(text[:1], language) or {text[:1]}
        texts = [letter + text[1:] for letter in sorted(meant)]
    captures = "x" in text
    scored: list[tuple[float, str]] = []
    for move in board.legal_moves:
        san = board.san(move).rstrip("+#")
        score = max(difflib.SequenceMatcher(None, written, san).ratio() for written in texts)
        if target == move.to_square:
            score += 0.3
        if meant is not None:
            first = san[0] if san[0].isupper() and not san.startswith("O-") else ""
            score += 0.3 if first in meant else 0.0
        if captures == ("x" in san):
            score += 0.1
        scored.append((score, san))
    if not scored:
        return ()
    scored.sort(key=lambda item: (-item[0], item[1]))
    best = scored[0][0]
    return tuple(san for score, san in scored[:limit] if score >= best - 0.1)


def _read_notation(board: chess.Board, notes: list[Notation]) -> Reading | None:
    """Legal reading of the first notation that fits exactly one legal move."""
    ambiguous: list[chess.Move] = []
    for note in notes:
        if note.is_null:
            return Reading(
                note.token, chess.Move.null(), False, "the clock was pressed without a move (7.5.3)",
                irregularity="no-move",
            )
        if note.castle:
            move = _castle_move(board, note.castle, board.legal_moves)
            if move is not None:
                return Reading(note.token, move, True)
            continue
        fits = [m for m in board.legal_moves if _fits(board, m, note)]
        if len(fits) == 1:
            return Reading(note.token, fits[0], True)
        if not fits and note.promotion is None:
            promos = [
                m for m in board.legal_moves
                if m.promotion == chess.QUEEN and _fits(board, m, Notation(note.token, piece=note.piece,
                    from_file=note.from_file, from_rank=note.from_rank, to_square=note.to_square,
                    promotion=chess.QUEEN))
            ]
            if len(promos) == 1:
                return Reading(
                    note.token, promos[0], False,
                    "a promotion without the new piece: the pawn is replaced by a queen (7.5.2)",
                    irregularity="unreplaced-promotion",
                )
        if len(fits) > 1 and not ambiguous:
            ambiguous = fits
    if ambiguous:
        sans = tuple(board.san(m) for m in ambiguous)
        return Reading(notes[0].token, None, False, "ambiguous: more than one move fits", sans)
    return None


def _read_illegal(board: chess.Board, notes: list[Notation]) -> Reading | None:
    """The move as physically played when it was illegal."""
    for note in notes:
        if note.castle:
            move = _illegal_castling(board, note.castle)
            if move is not None:
                return Reading(note.token, move, False, _castling_reason(board, note.castle), irregularity="illegal")
            continue
        fits = [m for m in board.generate_pseudo_legal_moves() if _fits(board, m, note)]
        if len(fits) == 1:
            return Reading(note.token, fits[0], False, _why_illegal(board, fits[0]), irregularity="illegal")
    for note in notes:
        if note.castle or note.is_null:
            continue
        move, reason, _ = _physical(board, note)
        if move is not None:
            return Reading(note.token, move, False, reason, irregularity="illegal")
    return None


def read_move(board: chess.Board, token: str, language: str = "en") -> Reading:
    """Read ``token`` in the position: legal move, illegal move as played, or unreadable.

    One language only (the record's reading is chosen once, for the whole record, by
    :func:`adjudicator.chess.replay.replay_game`). English SAN goes through python-chess's own
    parser first (the fast path).
    """
    if language == "en":
        try:
            move = board.parse_san(token)
        except ValueError:
            pass
        else:
            if move:
                return Reading(token, move, True)
    notes = parse(token, language)
    reading = _read_notation(board, notes)
    if reading is not None:  # a legal move, a 7.5.2/7.5.3 irregularity, or ambiguous
        return reading
    illegal = _read_illegal(board, notes)
    if illegal is not None:
        return illegal
    why = "not a move in any accepted notation" if not notes else "no piece can make this move"
    return Reading(token, None, False, why, candidates(board, token, language=language))
