"""Move tokens as players write them: languages, figurines, and the usual deviations.

FIDE Laws, Appendix C.3: each piece is indicated by an abbreviation, and "players
are free to use the first letter of the name which is commonly used in their
country". This module turns a written token into a :class:`Notation`: the parts of
a move in English letters (piece, origin hints, destination, promotion), or a
castling side. It knows nothing of the position; :mod:`adjudicator.chess.san` finds the
move on the board.

Accepted deviations: ``0-0`` / ``O-O`` / ``o-o``; long algebraic (``Ng1-f3``,
``Ng1xf3``, ``g1f3``); ``:`` or ``×`` for captures; missing or wrong ``+``/``#``;
``e8Q`` / ``e8=Q`` / ``e8(Q)`` / ``e8/Q``; lower-case piece letters; figurines;
``e.p.``; annotation glyphs; and the piece letters of the languages below.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import chess

LANGUAGES: Mapping[str, Mapping[str, int]] = {
    "en": {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN},
    "de": {"K": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "L": chess.BISHOP, "S": chess.KNIGHT, "B": chess.PAWN},
    "fr": {"R": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "F": chess.BISHOP, "C": chess.KNIGHT, "P": chess.PAWN},
    "es": {"R": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "A": chess.BISHOP, "C": chess.KNIGHT, "P": chess.PAWN},
    "it": {"R": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "A": chess.BISHOP, "C": chess.KNIGHT, "P": chess.PAWN},
    "nl": {"K": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "L": chess.BISHOP, "P": chess.KNIGHT},
    # Russian: Кр (король), Ф (ферзь), Л (ладья), С (слон), К (конь); transliterated Kr F L S K.
    "ru": {"Kr": chess.KING, "F": chess.QUEEN, "L": chess.ROOK, "S": chess.BISHOP, "K": chess.KNIGHT, "P": chess.PAWN},
    "pt": {"R": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "B": chess.BISHOP, "C": chess.KNIGHT, "P": chess.PAWN},
    "pl": {"K": chess.KING, "H": chess.QUEEN, "W": chess.ROOK, "G": chess.BISHOP, "S": chess.KNIGHT, "P": chess.PAWN},
    "cs": {"K": chess.KING, "D": chess.QUEEN, "V": chess.ROOK, "S": chess.BISHOP, "J": chess.KNIGHT, "P": chess.PAWN},
    "hu": {"K": chess.KING, "V": chess.QUEEN, "B": chess.ROOK, "F": chess.BISHOP, "H": chess.KNIGHT, "G": chess.PAWN},
}
"""Piece letters per language (FIDE C.3). ``es`` and ``it`` share their letters; Swedish, Danish and
Norwegian records use the German letters."""

LANGUAGE_NAMES: Mapping[str, str] = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch",
    "ru": "Russian (transliterated)", "pt": "Portuguese", "pl": "Polish", "cs": "Czech and Slovak",
    "hu": "Hungarian",
}

_FIGURINES = {
    "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
    "♚": "K", "♛": "Q", "♜": "R", "♝": "B", "♞": "N", "♟": "P",
}
_CYRILLIC = {
    "Кр": "Kr", "КР": "Kr", "Ф": "F", "Л": "L", "С": "S", "К": "K", "П": "P",
    # letters that look like Latin file letters and the capture sign
    "а": "a", "с": "c", "е": "e", "х": "x", "в": "b",
}
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", ":": "x", "×": "x", "О": "O", "о": "o"})
_TRAILING = re.compile(r"(?:\+/-|-/\+|\+/=|=/\+|=/∞|∞/=|\+-|-\+|[+#!?†‡□⊕∞=±∓⩲⩱]|e\.?p\.?|ch)+$")
"""Check marks, annotation glyphs and assessments written onto a move (``e4+/-``, ``Nf3!?``, ``exd6e.p.``)."""
_CASTLE = re.compile(r"^[O0o](?:-?[O0o]){1,2}$")
_MOVE = re.compile(
    r"^(?P<piece>Kr|[A-Z])?(?P<ff>[a-h])?(?P<fr>[1-8])?(?P<sep>[-x])?(?P<to>[a-h][1-8])"
    r"(?:[=/]?\(?(?P<promo>[A-Za-z])\)?)?$"
)
_MOVE_LIKE = re.compile(r"(?:Kr|[A-Za-z])?[a-h]?[1-8]?[x-]?[a-h]?[1-8]?(?:[=/]?\(?[A-Za-z]\)?)?")
_NULL = frozenset({"--", "Z0", "0000", "@@@@", "null"})


class NotationError(ValueError):
    """A token that is not a move in any accepted notation."""


@dataclass(frozen=True)
class Notation:
    """The parts of a written move, piece letters already in English."""

    token: str
    """As written."""
    castle: str | None = None
    """``"O-O"`` or ``"O-O-O"`` for castling."""
    piece: int | None = None
    """The piece type named (None: not named, i.e. a pawn unless the origin says otherwise)."""
    from_file: int | None = None
    from_rank: int | None = None
    to_square: int | None = None
    promotion: int | None = None
    is_capture: bool = False
    is_null: bool = False
    piece_from_lower_case: bool = False
    """The piece letter was written in lower case (``nf3``, ``bb5``)."""

    @property
    def english(self) -> str:
        """The token in English letters (for comparing with SAN)."""
        if self.is_null:
            return "--"
        if self.castle:
            return self.castle
        parts = []
        if self.piece not in (None, chess.PAWN):
            parts.append(chess.piece_symbol(self.piece).upper())
        if self.from_file is not None:
            parts.append(chess.FILE_NAMES[self.from_file])
        if self.from_rank is not None:
            parts.append(chess.RANK_NAMES[self.from_rank])
        if self.is_capture:
            parts.append("x")
        if self.to_square is not None:
            parts.append(chess.SQUARE_NAMES[self.to_square])
        if self.promotion:
            parts.append("=" + chess.piece_symbol(self.promotion).upper())
        return "".join(parts)


def clean(token: str) -> str:
    """The token without annotation glyphs and check marks, with figurines and dashes made plain."""
    text = token
    for cyr, lat in _CYRILLIC.items():
        if cyr in text:
            text = text.replace(cyr, lat)
    if text.startswith("Kp") and len(text) > 2 and text[2] in "abcdefghx":
        text = "Kr" + text[2:]  # Кр typed with a Latin p
    text = text.translate(_DASHES)
    text = "".join(_FIGURINES.get(ch, ch) for ch in text)
    previous = None
    while previous != text:
        previous = text
        text = _TRAILING.sub("", text)
    return text


def is_move_like(token: str) -> bool:
    """Whether a word is meant as a move (and so must be read or reported), not a glyph or a word."""
    text = clean(token)
    if not text:
        return False
    if text in _NULL or _CASTLE.match(text):
        return True
    return bool(_MOVE_LIKE.fullmatch(text)) and any(ch.isdigit() or ch == "x" for ch in text)


def _piece(letter: str, table: Mapping[str, int]) -> int | None:
    return table.get(letter)


def parse(token: str, language: str = "en") -> list[Notation]:
    """The readings of ``token`` in ``language``, most likely first (may be empty).

    Several readings arise from lower-case letters: ``bc4`` is a pawn on the b-file
    or a bishop; ``c3`` in French is a pawn move, ``cc3`` may be a knight (cavalier).
    """
    table = LANGUAGES.get(language, LANGUAGES["en"])
    text = clean(token)
    if text in _NULL:
        return [Notation(token, is_null=True)]
    if _CASTLE.match(text):
        count = sum(1 for ch in text if ch in "O0o")
        return [Notation(token, castle="O-O" if count == 2 else "O-O-O")]
    readings: list[Notation] = []
    candidates = [text]
    # A lower-case piece letter: read the upper-case letter as a second interpretation.
    if text and text[0].islower():
        upper = text[0].upper() + text[1:]
        if upper[0] in table or (upper[:2] == "Kr" and "Kr" in table):
            candidates.append(upper)
    for number, text_i in enumerate(candidates):
        match = _MOVE.match(text_i)
        if not match:
            continue
        letter = match.group("piece")
        piece: int | None = None
        if letter is not None:
            piece = _piece(letter, table)
            if piece is None:
                continue
        promo_letter = match.group("promo")
        promotion: int | None = None
        if promo_letter is not None:
            promotion = _piece(promo_letter.upper(), table)
            if promotion is None and language != "en":
                promotion = _piece(promo_letter.upper(), LANGUAGES["en"])
            if promotion in (None, chess.PAWN, chess.KING):
                continue
        ff, fr = match.group("ff"), match.group("fr")
        readings.append(
            Notation(
                token,
                piece=piece,
                from_file=None if ff is None else chess.FILE_NAMES.index(ff),
                from_rank=None if fr is None else chess.RANK_NAMES.index(fr),
                to_square=chess.parse_square(match.group("to")),
                promotion=promotion,
                is_capture=match.group("sep") == "x",
                piece_from_lower_case=number > 0,
            )
        )
    return readings


def letters_used(tokens: Iterable[str]) -> set[str]:
    """The piece letters a record uses (upper-case first letters; ``Kr`` for the Russian king)."""
    found: set[str] = set()
    for token in tokens:
        text = clean(token)
        if not text or _CASTLE.match(text):
            continue
        if text.startswith("Kr"):
            found.add("Kr")
        elif text[0].isupper() and text[0] not in "OZ":
            found.add(text[0])
        match = re.search(r"[1-8](?:=|\(|/)?([A-Z])\)?$", text)
        if match:
            found.add(match.group(1))
    return found
