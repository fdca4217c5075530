"""Finding a written move on the board: legally, as physically played, or not at all.

A record is evidence of what happened at the board, so the reader keeps moves that
were illegal as played (FIDE 7.5; US Chess 11): it works out which piece went where
and why the move was illegal, and the replay goes on from the position as played.
A token that cannot be read as any move gets the legal moves it most likely was.

A token is read in its own notation only: a token with no legal reading there is an
illegal move as played (``b1e3`` with a knight on b1: the knight, not some bishop) or
unreadable. Every assumption beyond plain SAN is kept as a
:class:`~adjudicator.chess.notation.ReadingNote` on the :class:`Reading` (a capture
mark supplied, an en-passant capture written as a push, a lower-case piece letter, two
legal readings and the one replayed).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

import chess

from adjudicator.chess.as_played import NAMES as _NAMES
from adjudicator.chess.as_played import as_played, castling_reason, illegal_castling, why_illegal
from adjudicator.chess.notation import LANGUAGES, LONGEST_TOKEN, Notation, ReadingNote, clean, parse


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
    notes: tuple[ReadingNote, ...] = ()
    """What was assumed beyond plain SAN to read the token (empty for plain SAN)."""

    @property
    def is_readable(self) -> bool:
        return self.move is not None


def piece_name(piece_type: int) -> str:
    return _NAMES[piece_type]


def _fits(board: chess.Board, move: chess.Move, note: Notation) -> bool:
    if note.to_square is None:
        return False
    if move.to_square != note.to_square and not (
        board.is_castling(move) and note.to_square in (_castle_target(board, move), _castle_rook(board, move))
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


def _castle_rook(board: chess.Board, move: chess.Move) -> int:
    """The castling rook's square (``e1h1`` writes castling as the king taking it, as UCI does in Chess960)."""
    if board.chess960:
        return move.to_square
    return chess.square(7 if board.is_kingside_castling(move) else 0, chess.square_rank(move.from_square))


def _castle_move(board: chess.Board, side: str, moves: Iterable[chess.Move]) -> chess.Move | None:
    for move in moves:
        if board.is_castling(move) and (board.is_kingside_castling(move) == (side == "O-O")):
            return move
    return None


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
    destination square and a capture sign. Only the first :data:`_COMPARED` characters
    are compared, so a token of any length costs the same.
    """
    token = token[:LONGEST_TOKEN]
    notes = parse(token, language)
    text = (notes[0].english if notes else clean(token))[:_COMPARED]
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
        san = board._algebraic_without_suffix(move)  # SAN without + and # (no mate search per move)
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


_COMPARED = 16
"""Characters of a token compared with each legal move's SAN (no SAN is longer than 7 plus marks)."""


def _legal_fits(board: chess.Board, note: Notation) -> list[chess.Move]:
    """The legal moves a reading fits; a pawn move written as a bare square is the push where one fits (SAN)."""
    fits = [m for m in board.legal_moves if _fits(board, m, note)]
    if len(fits) > 1 and note.piece in (None, chess.PAWN) and note.from_file is None and not note.is_capture:
        pushes = [m for m in fits if chess.square_file(m.from_square) == chess.square_file(m.to_square)]
        if len(pushes) == 1:
            return pushes
    return fits


def _notes(board: chess.Board, note: Notation, move: chess.Move, label: str) -> tuple[ReadingNote, ...]:
    """What reading ``note`` as ``move`` (shown as ``label``) assumed beyond plain SAN."""
    token = note.token
    found = list(note.spelling)
    if note.lower_case is not None and note.piece is not None:
        found.append(ReadingNote(
            "lower-case-piece",
            f"the lower-case {note.lower_case} of {token} is read as the {_NAMES[note.piece]}'s letter: {label}",
        ))
    if note.file_repeated:
        found.append(ReadingNote("file-repeated", f"{token} writes the pawn's own file before its square: {label}"))
    if note.promotion_in_english and note.promotion is not None:
        found.append(ReadingNote(
            "promotion-letter",
            f"the promotion letter of {token} is not the record's language's; read as the English letter "
            f"for the {_NAMES[note.promotion]}: {label}",
        ))
    if note.castle is None and move and board.is_castling(move) and note.to_square == _castle_rook(board, move):
        found.append(ReadingNote(
            "castling-as-king-takes-rook", f"{token} writes the castling as the king taking its own rook: {label}"
        ))
    elif note.castle is None and not note.is_fully_placed and move:
        captures = board.is_capture(move)
        if captures and not note.is_capture:
            if board.is_en_passant(move):
                found.append(ReadingNote(
                    "en-passant-as-push",
                    f"{token} is written as a pawn move to {chess.SQUARE_NAMES[move.to_square]}; "
                    f"read as the en-passant capture {label}",
                ))
            else:
                found.append(ReadingNote(
                    "capture-mark-supplied", f"{token} is written without a capture mark; read as the capture {label}"
                ))
        elif note.is_capture and not captures:
            found.append(ReadingNote(
                "capture-mark-without-capture", f"{token} is written as a capture, but {label} takes nothing"
            ))
    return tuple(found)


SAN_RULE = "a lower-case letter that can be a file is read as the file, as in SAN"
"""Why the first of a token's two legal readings is replayed, unless the record or the case says otherwise."""
PIECE_RULE = "SAN never writes a pawn's own file before its square, so the letter is read as the piece's"
"""Why ``bb5`` is replayed as the bishop's move first (the b-pawn naming its own file is its other reading)."""


def _chosen(
    board: chess.Board, found: list[tuple[Notation, chess.Move]], prefer: tuple[chess.Move, str] | None = None
) -> Reading:
    """The first legal reading (``prefer``'s move, with why, where it is one of them); any other legal
    reading of the token is named beside it."""
    distinct: list[tuple[Notation, chess.Move]] = []
    for note, move in found:
        if all(move != other for _, other in distinct):
            distinct.append((note, move))
    rule = SAN_RULE if distinct[0][0].lower_case is None else PIECE_RULE
    if prefer is not None:
        index = next((i for i, (_, move) in enumerate(distinct) if move == prefer[0]), None)
        if index is not None:
            distinct.insert(0, distinct.pop(index))
            rule = prefer[1]
    note, move = distinct[0]
    label = board.san(move)
    notes = _notes(board, note, move, label)
    if len(distinct) > 1:
        sans = (label, *(board.san(other) for _, other in distinct[1:]))
        lower = next((n.lower_case for n, _ in distinct if n.lower_case), None)
        why = f"the lower-case {lower} as a file or as a piece letter" if lower else "in two ways"
        notes = (*notes, ReadingNote(
            "two-readings",
            f"{note.token} reads as {' or as '.join(sans)} ({why}); {label} is replayed: {rule}",
            sans,
        ))
    return Reading(note.token, move, True, notes=notes)


def _null(note: Notation) -> Reading:
    return Reading(
        note.token, chess.Move.null(), False, "the clock was pressed without a move (7.5.3)", irregularity="no-move",
        notes=(*note.spelling, ReadingNote(
            "null-move", f"{note.token} is read as a null move: the clock pressed without a move (7.5.3)"
        )),
    )


def _read_notation(
    board: chess.Board, notes: list[Notation], lower_case: bool, prefer: tuple[chess.Move, str] | None = None
) -> Reading | None:
    """The legal reading (the first, when readings differ), a 7.5.2/7.5.3 irregularity, or ambiguous.

    A token that reads as plain SAN as written (``bxc4``: the pawn) has no lower-case reading
    in a record that writes its piece letters in upper case (``lower_case`` false)."""
    found: list[tuple[Notation, chess.Move]] = []
    ambiguous: list[chess.Move] = []
    for note in notes:
        if note.is_null:
            return _null(note)
        if note.castle:
            move = _castle_move(board, note.castle, board.legal_moves)
            if move is not None:
                found.append((note, move))
            continue
        fits = _legal_fits(board, note)
        if len(fits) == 1:
            found.append((note, fits[0]))
        elif len(fits) > 1 and not ambiguous:
            ambiguous = fits
    if found:
        written, move = found[0]
        plain = written.lower_case is None and (written.is_fully_placed or written.is_capture == board.is_capture(move))
        if plain and not lower_case:
            found = [(n, m) for n, m in found if n.lower_case is None]  # bxc4 is SAN: the pawn, nothing else
        return _chosen(board, found, prefer)
    for note in notes:
        if note.castle or note.promotion is not None or note.to_square is None:
            continue
        if chess.square_rank(note.to_square) != (7 if board.turn == chess.WHITE else 0):
            continue
        queening = Notation(
            note.token, piece=note.piece, from_file=note.from_file, from_rank=note.from_rank,
            to_square=note.to_square, promotion=chess.QUEEN,
        )
        promos = [m for m in board.legal_moves if m.promotion == chess.QUEEN and _fits(board, m, queening)]
        if len(promos) == 1:
            return Reading(
                note.token, promos[0], False,
                "a promotion without the new piece: the pawn is replaced by a queen (7.5.2)",
                irregularity="unreplaced-promotion", notes=_notes(board, note, promos[0], describe(board, promos[0])),
            )
    if ambiguous:
        sans = tuple(board.san(m) for m in ambiguous)
        return Reading(notes[0].token, None, False, "ambiguous: more than one move fits", sans)
    return None


def _read_illegal(board: chess.Board, notes: list[Notation]) -> Reading | None:
    """The move as physically played when it was illegal (in the token's own notation)."""
    for note in notes:
        if note.castle:
            move = illegal_castling(board, note.castle)
            if move is not None:
                return Reading(
                    note.token, move, False, castling_reason(board, note.castle), irregularity="illegal",
                    notes=note.spelling,
                )
            continue
        fits = [m for m in board.generate_pseudo_legal_moves() if _fits(board, m, note)]
        if len(fits) == 1:
            return Reading(
                note.token, fits[0], False, why_illegal(board, fits[0]), irregularity="illegal",
                notes=_notes(board, note, fits[0], describe(board, fits[0])),
            )
    for note in notes:
        if note.castle or note.is_null:
            continue
        move, reason, _ = as_played(board, note)
        if move is not None:
            return Reading(
                note.token, move, False, reason, irregularity="illegal",
                notes=_notes(board, note, move, describe(board, move)),
            )
    return None


_FILES = frozenset(chess.FILE_NAMES)
_PLACED = re.compile(r"[NBRQK]?[a-h][1-8]")


def _is_plain(board: chess.Board, move: chess.Move, token: str, lower_case: bool) -> bool:
    """Whether python-chess's reading of ``token`` is plain SAN, assuming nothing (the fast path's test).

    Not plain: a file letter before a file letter (``ed5``: a capture without its mark; ``bb3``,
    ``bc4``: a lower-case bishop), and a capture mark that does not match the move, unless the
    origin square is written (``d4e5``). ``bxc4`` is SAN (the pawn), unless the record writes its
    piece letters in lower case (``lower_case``): then it is read in full, for its second reading.
    """
    if token[0] in _FILES and len(token) > 2 and (token[1] in _FILES or (lower_case and token[0] == "b")):
        return False
    marked = "x" in token
    if marked != board.is_capture(move):
        return not marked and _PLACED.match(token) is not None
    return not (token[0] in _FILES and board.is_castling(move))  # e1h1: the king taking its own rook


def read_move(
    board: chess.Board, token: str, language: str = "en", *, lower_case: bool = False, suggest: bool = True,
    prefer: tuple[chess.Move, str] | None = None,
) -> Reading:
    """Read ``token`` in the position: legal move, illegal move as played, or unreadable.

    One language only (the record's reading is chosen once, for the whole record, by
    :func:`adjudicator.chess.replay.replay_game`). English SAN goes through python-chess's own
    parser first (the fast path); a token it reads with some assumption is read again here,
    to name the assumption (:attr:`Reading.notes`) or to find the token's other reading.
    ``lower_case``: the record writes no piece letter in upper case, so a lower-case letter that
    reads as a file in plain SAN (``bxc4``) may also be a piece's (both readings are shown).
    ``suggest``: name the likely moves of an unreadable token (false: only whether it reads matters).
    ``prefer``: (move, why) where the token has two legal readings and the record as a whole, or the
    case, says which is meant: that one is replayed, the other named (:mod:`adjudicator.chess.replay`).
    """
    if language == "en":
        try:
            move = board.parse_san(token)
        except ValueError:
            pass
        else:
            if move and _is_plain(board, move, token, lower_case):
                return Reading(token, move, True)
    if len(token) > LONGEST_TOKEN:
        return Reading(
            token, None, False, f"{len(token)} characters: too long to be a move",
            candidates(board, token, language=language) if suggest else (),
        )
    notes = parse(token, language)
    reading = _read_notation(board, notes, lower_case, prefer)
    if reading is not None:  # a legal move, a 7.5.2/7.5.3 irregularity, or ambiguous
        return reading
    illegal = _read_illegal(board, notes)
    if illegal is not None:
        return illegal
    why = "not a move in any accepted notation" if not notes else "no piece can make this move"
    return Reading(token, None, False, why, candidates(board, token, language=language) if suggest else ())
