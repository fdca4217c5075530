"""Move tokens as players write them: languages and scripts, figurines, and the usual deviations.

FIDE Laws, Appendix C.3: each piece is indicated by an abbreviation, and "players
are free to use the first letter of the name which is commonly used in their
country". This module turns a written token into :class:`Notation` readings: the
parts of a move (piece type, origin hints, destination, promotion) or a castling
side, read in one language's letters. It knows nothing of the position;
:mod:`adjudicator.chess.san` finds the move on the board.

Read silently (they name the move completely): ``0-0`` / ``O-O`` / ``o-o``; long and
coordinate algebraic (``Ng1-f3``, ``Ng1xf3``, ``g1f3``); ICCF numeric notation (``5254`` is
e2-e4: file and rank of the origin, then of the destination, as digits 1-8; a fifth digit
names the promotion, 1 queen, 2 rook, 3 bishop, 4 knight: ``57581`` is e7-e8=Q; castling is
the king's move, ``5171``), in any ruleset and any language's record; ``:``, ``×`` or ``✕`` for captures;
missing or wrong ``+``/``#``; ``e8Q`` / ``e8=Q`` / ``e8(Q)`` / ``e8/Q`` / ``e8q``;
figurines; ``e.p.``; annotation glyphs; the piece letters of the languages below.

Read with a :class:`ReadingNote` (something was assumed or a character was read as
another): a Unicode dash or hyphen read as ``-``; a Cyrillic letter that looks like a
Latin file letter or ``x`` (``е4`` typed on a Cyrillic keyboard); a lower-case piece
letter (``nf3``, ``bb3``); a pawn's own file written before its square (``ee4``); a
promotion letter read in English in another language's record. Null moves (``--``,
``Z0``, ``0000``, ``@@@@``) are read as the clock pressed without a move (7.5.3).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import chess

K, Q, R, B, N, P = chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN

# Sources of the letter tables (piece letters; a pawn letter only where the source gives one):
# [PGN]  PGN Standard (S. J. Edwards, 1994), section 17 "Alternative chesspiece identifier letters"
#        (pawn knight bishop rook queen king): Czech P J S V D K, Danish B S L T D K, Dutch O P L T D K,
#        English P N B R Q K, Estonian P R O V L K, Finnish P R L T D K, French P C F T D R, German
#        B S L T D K, Hungarian G H F B V K, Icelandic P R B H D K, Italian P C A T D R, Norwegian
#        B S L T D K, Polish P S G W H K, Portuguese P C B T D R, Romanian P C N T D R, Spanish
#        P C A T D R, Swedish B S L T D K. (The Dutch pawn letter O is left out: O is castling's letter.)
# [ru]   Russian Кр Ф Л С К (король, ферзь, ладья, слон, конь): the Russian translation of the FIDE Laws,
#        Appendix C; the Bulgarian federation forum's list (below) gives the same Russian letters.
# [uk]   Ukrainian Кр Ф Т С К (король, ферзь, тура, слон, кінь): the Ukrainian text of the FIDE Laws,
#        appendix on algebraic notation ("Кр = король, Ф = ферзь, Т = тура, С = слон, К = кінь").
# [bg]   Bulgarian Ц Д Т О К (цар, дама, топ, офицер, кон): forum.chessbgnet.org, "Означения в шаха";
#        bg.wikipedia.org "Дама (шахмат)" ("в шахматната нотация се обозначава с буквата Д").
# [tr]   Turkish Ş V K F A (şah, vezir, kale, fil, at; no pawn letter): Turkish notation guides
#        ("Türkçe notasyonda ... Şah: Ş, Vezir: V, Kale: K, Fil: F, At: A").
# [lt]   Lithuanian K V B R Ž (karalius, valdovė, bokštas, rikis, žirgas): a64.puslapiai.lt, rules page.
# [el]   Greek Ρ Β Π Α Ι (βασιλιάς, βασίλισσα, πύργος, αξιωματικός, ίππος), files α β γ δ ε ζ η θ:
#        el.wikipedia.org "Αλγεβρική σκακιστική γραφή"; chess.gitsis.eu "Αλγεβρική σκακιστική γραφή".
_GERMAN = {"K": K, "D": Q, "T": R, "L": B, "S": N, "B": P}  # [PGN] German, Swedish, Danish, Norwegian
_RUSSIAN_KINGS = {"Кр": K, "КР": K, "Кp": K, "Kр": K}
"""The Russian and Ukrainian king, also with a Latin ``p`` or ``K`` typed for the Cyrillic one."""
LANGUAGES: Mapping[str, Mapping[str, int]] = {
    "en": {"K": K, "Q": Q, "R": R, "B": B, "N": N, "P": P},  # [PGN]
    "de": _GERMAN,  # [PGN]
    "fr": {"R": K, "D": Q, "T": R, "F": B, "C": N, "P": P},  # [PGN]
    "es": {"R": K, "D": Q, "T": R, "A": B, "C": N, "P": P},  # [PGN]
    "it": {"R": K, "D": Q, "T": R, "A": B, "C": N, "P": P},  # [PGN]
    "nl": {"K": K, "D": Q, "T": R, "L": B, "P": N},  # [PGN]
    # Russian in Cyrillic, and transliterated (Kr F L S K, Kp for Кр typed in Latin letters) [ru]
    "ru": {**_RUSSIAN_KINGS, "Ф": Q, "Л": R, "С": B, "К": N, "П": P,
           "Kr": K, "Kp": K, "F": Q, "L": R, "S": B, "K": N, "P": P},
    "pt": {"R": K, "D": Q, "T": R, "B": B, "C": N, "P": P},  # [PGN]
    "pl": {"K": K, "H": Q, "W": R, "G": B, "S": N, "P": P},  # [PGN]
    "cs": {"K": K, "D": Q, "V": R, "S": B, "J": N, "P": P},  # [PGN] Czech; Slovak uses the same letters
    "hu": {"K": K, "V": Q, "B": R, "F": B, "H": N, "G": P},  # [PGN]
    "ro": {"R": K, "D": Q, "T": R, "N": B, "C": N, "P": P},  # [PGN]
    "sv": _GERMAN,  # [PGN]
    "da": _GERMAN,  # [PGN]
    "no": _GERMAN,  # [PGN]
    "fi": {"K": K, "D": Q, "T": R, "L": B, "R": N, "P": P},  # [PGN]
    "is": {"K": K, "D": Q, "H": R, "B": B, "R": N, "P": P},  # [PGN]
    "et": {"K": K, "L": Q, "V": R, "O": B, "R": N, "P": P},  # [PGN]
    "lt": {"K": K, "V": Q, "B": R, "R": B, "Ž": N},  # [lt]
    "tr": {"Ş": K, "V": Q, "K": R, "F": B, "A": N},  # [tr]
    "uk": {**_RUSSIAN_KINGS, "Ф": Q, "Т": R, "С": B, "К": N},  # [uk]
    "bg": {"Ц": K, "Д": Q, "Т": R, "О": B, "К": N},  # [bg]
    "el": {"Ρ": K, "Β": Q, "Π": R, "Α": B, "Ι": N},  # [el]
}
"""Piece letters per language (FIDE C.3), sources above. Order matters: among languages that read a
record alike, or that the rule cannot choose between, the first is replayed (see
:func:`adjudicator.chess.replay.replay_game`)."""

LANGUAGE_NAMES: Mapping[str, str] = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch",
    "ru": "Russian", "pt": "Portuguese", "pl": "Polish", "cs": "Czech and Slovak", "hu": "Hungarian",
    "ro": "Romanian", "sv": "Swedish", "da": "Danish", "no": "Norwegian", "fi": "Finnish",
    "is": "Icelandic", "et": "Estonian", "lt": "Lithuanian", "tr": "Turkish", "uk": "Ukrainian",
    "bg": "Bulgarian", "el": "Greek",
}


def script_of(letter: str) -> str:
    """The script of a piece letter: ``Latin``, ``Cyrillic``, ``Greek``. A letter mixing scripts (``Kр``,
    Кр typed with a Latin K) is of the non-Latin one: that is the letter meant."""
    scripts = []
    for ch in letter:
        try:
            scripts.append(unicodedata.name(ch).split()[0].capitalize())
        except ValueError:
            scripts.append("Other")
    return next((script for script in scripts if script != "Latin"), scripts[0] if scripts else "Other")


LANGUAGE_SCRIPTS: Mapping[str, frozenset[str]] = {
    lang: frozenset(script_of(letter) for letter in table) for lang, table in LANGUAGES.items()
}
"""The scripts each language's letters are written in (Russian: Cyrillic, and Latin transliterated)."""

_FIGURINES = {
    "♔": K, "♕": Q, "♖": R, "♗": B, "♘": N, "♙": P,
    "♚": K, "♛": Q, "♜": R, "♝": B, "♞": N, "♟": P,
}
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\ufe58\ufe63\uff0d\u00ad"
"""Hyphens and dashes read as ``-``: hyphen, non-breaking hyphen, figure dash, en and em dash, horizontal
bar, hyphen bullet, minus sign, small and full-width forms, soft hyphen."""
_DASH_TABLE = str.maketrans({ch: "-" for ch in _DASHES})
_LOOK_ALIKES = {"а": "a", "с": "c", "е": "e", "в": "b", "х": "x"}
"""Cyrillic letters typed for the Latin file letters and capture sign they look like (files are Latin in
every Cyrillic-script notation)."""
_LOOK_ALIKE_TABLE = str.maketrans(_LOOK_ALIKES)
_CASTLE_LOOK_ALIKES = str.maketrans({"О": "O", "о": "o"})
_GREEK_FILES = str.maketrans(dict(zip("αβγδεζηθ", "abcdefgh", strict=True)))
_CAPTURES = str.maketrans({":": "x", "×": "x", "✕": "x"})
_TRAILING = re.compile(r"(?:\+/-|-/\+|\+/=|=/\+|=/∞|∞/=|\+-|-\+|[+#!?†‡□⊕∞=±∓⩲⩱]|e\.?p\.?|ch)+$")
"""Check marks, annotation glyphs and assessments written onto a move (``e4+/-``, ``Nf3!?``, ``exd6e.p.``)."""
_CASTLE = re.compile(r"^[O0o](?:-?[O0o]){1,2}$")
_CASTLE_SHAPE = re.compile(r"^[O0oОо](?:-?[O0oОо]){1,2}[+#!?]*$")
_NULL = frozenset({"--", "Z0", "0000", "@@@@", "null"})
LONGEST_TOKEN = 40
"""No written move is longer (``Ng1xf3+!?`` is 9 characters, ``exd6e.p.+/-`` 11); a longer token is read as
no move at once, so its cost is bounded."""


ICCF = re.compile(r"([1-8])([1-8])([1-8])([1-8])([1-4])?")
"""ICCF numeric notation (ICCF Rules, "numeric notation"; FIDE Laws Appendix C mentions it beside the
algebraic): origin file and rank, destination file and rank, digits 1-8 for a-h and 1-8; a fifth digit
for a promotion."""
ICCF_PROMOTIONS = {"1": Q, "2": R, "3": B, "4": N}
"""The fifth digit of an ICCF promotion: 1 queen, 2 rook, 3 bishop, 4 knight."""


class NotationError(ValueError):
    """A token that is not a move in any accepted notation."""


@dataclass(frozen=True)
class ReadingNote:
    """Something the reader assumed or normalised to read a token (shown with its ply)."""

    kind: str
    """``dash``, ``look-alike``, ``lower-case-piece``, ``file-repeated``, ``promotion-letter``,
    ``capture-mark-supplied``, ``en-passant-as-push``, ``capture-mark-without-capture``,
    ``castling-as-king-takes-rook``, ``two-readings``, ``null-move``, ``language``."""
    text: str
    """In an arbiter's words."""
    readings: tuple[str, ...] = ()
    """For ``two-readings``: every legal reading (SAN), the one replayed first."""


def _char_name(ch: str) -> str:
    return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed').lower()})"


def spelled(token: str) -> tuple[str, tuple[ReadingNote, ...]]:
    """The token with dashes, look-alike letters, capture signs and trailing glyphs made plain,
    with a note for each character read as another."""
    text = token
    notes: list[ReadingNote] = []
    if not text.isascii():
        dashes = sorted({ch for ch in text if ch in _DASHES})
        if dashes:
            text = text.translate(_DASH_TABLE)
            names = ", ".join(_char_name(ch) for ch in dashes)
            notes.append(ReadingNote("dash", f"{names} read as a hyphen"))
        if _CASTLE_SHAPE.match(text) and any(ch in "Оо" for ch in text):
            text = text.translate(_CASTLE_LOOK_ALIKES)
            notes.append(ReadingNote("look-alike", "the Cyrillic letter О read as the O of castling"))
        alike = sorted({ch for ch in text if ch in _LOOK_ALIKES})
        if alike:
            text = text.translate(_LOOK_ALIKE_TABLE)
            pairs = ", ".join(f"{ch} as {_LOOK_ALIKES[ch]}" for ch in alike)
            notes.append(ReadingNote("look-alike", f"the Cyrillic {pairs} (the Latin letters they look like)"))
    if ":" in text or "×" in text or "✕" in text:
        text = text.translate(_CAPTURES)
    if len(text) <= LONGEST_TOKEN:
        previous = None
        while previous != text:
            previous = text
            text = _TRAILING.sub("", text)
    return text, tuple(notes)


def clean(token: str) -> str:
    """The token without annotation glyphs and check marks, with dashes and capture signs made plain."""
    return spelled(token)[0]


@dataclass(frozen=True)
class Notation:
    """One reading of a written move in one language's letters."""

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
    lower_case: str | None = None
    """The lower-case letter(s) read as a piece letter (``n`` of ``nf3``), if any."""
    file_repeated: bool = False
    """A pawn move with its own file written before its square (``ee4``)."""
    promotion_in_english: bool = False
    """The promotion letter is not the record language's, and was read as an English letter."""
    spelling: tuple[ReadingNote, ...] = ()
    """Characters read as others (dashes, look-alike letters)."""

    @property
    def piece_from_lower_case(self) -> bool:
        """The piece letter was written in lower case (``nf3``, ``bb5``)."""
        return self.lower_case is not None

    @property
    def is_fully_placed(self) -> bool:
        """The origin square is written (``e2e4``, ``Ng1-f3``): the move needs no capture mark."""
        return self.from_file is not None and self.from_rank is not None

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


def _pattern(table: Mapping[str, int]) -> re.Pattern[str]:
    keys = sorted([*table, *_FIGURINES], key=len, reverse=True)
    piece = "|".join(re.escape(key) for key in keys)
    return re.compile(
        rf"^(?P<piece>{piece})?(?P<ff>[a-h])?(?P<fr>[1-8])?(?P<sep>[-x])?(?P<to>[a-h][1-8])"
        rf"(?:[=/]?\(?(?P<promo>[^\W\d_]|[♔-♟])\)?)?$"
    )


_PATTERNS: dict[str, re.Pattern[str]] = {}
"""Each language's SAN pattern, compiled when a token of that language is first read (a run that reads one
language compiles one: the command starts faster)."""


def _pattern_of(language: str) -> re.Pattern[str]:
    if language not in LANGUAGES:
        language = "en"
    found = _PATTERNS.get(language)
    if found is None:
        found = _PATTERNS[language] = _pattern(LANGUAGES[language])
    return found
_LOWER_KEYS = {
    lang: sorted(
        ((key.lower(), key) for key, piece in table.items() if key[0].isupper() and piece != P),
        key=lambda pair: -len(pair[0]),
    )
    for lang, table in LANGUAGES.items()
}
"""Lower-case forms of each language's piece letters (a pawn letter is never read from lower case)."""


def _lower_piece(text: str, language: str) -> tuple[str, str] | None:
    """(as written, the language's letter) when ``text`` starts with a piece letter in lower case.

    A file letter followed by a rank is a square (``b1e3``, ``b3``), never a piece.
    """
    for low, key in _LOWER_KEYS[language]:
        if text.startswith(low) and len(text) > len(low):
            if low in chess.FILE_NAMES and text[len(low)].isdigit():
                return None
            return text[: len(low)], key
    return None


def parse(token: str, language: str = "en") -> list[Notation]:
    """The readings of ``token`` in ``language``, the reading as written first (may be empty).

    Two readings arise from a lower-case letter that is both a file and a piece letter:
    ``bc4`` is the b-pawn taking on c4 or the bishop; ``bb5`` is the bishop, or the b-pawn
    naming its own file before its square (as ``ee4`` does): the bishop first, since SAN never
    writes a pawn's own file. Which one is replayed is the record's to say as a whole
    (:func:`adjudicator.chess.replay.replay_game`).
    """
    if len(token) > LONGEST_TOKEN:
        return []
    table = LANGUAGES.get(language, LANGUAGES["en"])
    text, spelling = spelled(token)
    if text in _NULL:
        return [Notation(token, is_null=True, spelling=spelling)]
    if _CASTLE.match(text):
        count = sum(1 for ch in text if ch in "O0o")
        return [Notation(token, castle="O-O" if count == 2 else "O-O-O", spelling=spelling)]
    iccf = ICCF.fullmatch(text)
    if iccf is not None:
        ff, fr, tf, tr, promo = iccf.groups()
        return [Notation(
            token, from_file=int(ff) - 1, from_rank=int(fr) - 1, to_square=chess.square(int(tf) - 1, int(tr) - 1),
            promotion=ICCF_PROMOTIONS[promo] if promo else None, spelling=spelling,
        )]
    if language == "el":
        text = text.translate(_GREEK_FILES)
    pattern = _pattern_of(language)
    variants: list[tuple[str, str | None]] = [(text, None)]
    lower = _lower_piece(text, language) if text[:1].islower() else None
    if lower is not None:
        variants.append((lower[1] + text[len(lower[0]):], lower[0]))
    readings: list[Notation] = []
    pawn_second = False
    for text_i, written in variants:
        match = pattern.match(text_i)
        if not match:
            continue
        letter = match.group("piece")
        piece = None if letter is None else table.get(letter, _FIGURINES.get(letter))
        promo_letter = match.group("promo")
        promotion: int | None = None
        in_english = False
        if promo_letter is not None:
            promotion = table.get(promo_letter.upper(), _FIGURINES.get(promo_letter))
            if promotion is None and language != "en":
                promotion = LANGUAGES["en"].get(promo_letter.upper())
                in_english = promotion is not None
            if promotion in (None, chess.PAWN, chess.KING):
                continue
        ff, fr = match.group("ff"), match.group("fr")
        to_square = chess.parse_square(match.group("to"))
        from_file = None if ff is None else chess.FILE_NAMES.index(ff)
        repeated = piece is None and fr is None and from_file == chess.square_file(to_square)
        if repeated and lower is not None:
            pawn_second = True  # bb5: the bishop first; the b-pawn naming its own file (as ee4) second
        readings.append(
            Notation(
                token, piece=piece, from_file=from_file,
                from_rank=None if fr is None else chess.RANK_NAMES.index(fr),
                to_square=to_square, promotion=promotion, is_capture=match.group("sep") == "x",
                lower_case=written, file_repeated=repeated, promotion_in_english=in_english, spelling=spelling,
            )
        )
    if pawn_second and len(readings) == 2:
        readings.reverse()
    return readings


_TWO_LETTER_KEYS = frozenset(key for table in LANGUAGES.values() for key in table if len(key) == 2)
_PROMOTION_LETTER = re.compile(r"[1-8](?:=|\(|/)?([^\W\d_])\)?$")


def _lead(text: str) -> str | None:
    """The piece letter a cleaned token starts with; a lower-case letter counts (as upper case) where it
    cannot be a file (``nf3``, ``sf3``, ``кf3``; not ``bb3`` or ``exd5``)."""
    if text[:2] in _TWO_LETTER_KEYS:
        return text[:2]
    first = text[:1]
    if first.isupper():
        return first
    if first.isalpha() and first not in _FILE_LETTERS and text[1:2] in _AFTER_LOWER_PIECE:
        two = text[:2].capitalize()
        return two if two in _TWO_LETTER_KEYS else first.upper()
    return None


_FILE_LETTERS = frozenset("abcdefghx" + "αβγδεζηθ")
_AFTER_LOWER_PIECE = frozenset("abcdefgh12345678x-рpr")


def lead_letter(token: str) -> str | None:
    """The piece letter a token starts with, in its own script (``Кр``/``Kr`` for the Russian king), if any."""
    if len(token) > LONGEST_TOKEN:
        return None
    text = clean(token)
    if not text or text in _NULL or _CASTLE.match(text):
        return None
    return _lead(text)


def letters_used(tokens: Iterable[str]) -> set[str]:
    """The piece letters a record uses (upper-case first letters, ``Кр``/``Kr`` for the Russian king,
    upper-case promotion letters), in their own script."""
    found: set[str] = set()
    for token in tokens:
        if len(token) > LONGEST_TOKEN:
            continue
        text = clean(token)
        if not text or text in _NULL or _CASTLE.match(text):
            continue
        lead = _lead(text)
        if lead is not None:
            found.add(lead)
        match = _PROMOTION_LETTER.search(text)
        if match and match.group(1).isupper():
            found.add(match.group(1))
    return found


def writes_upper_case_pieces(tokens: Iterable[str], language: str) -> bool:
    """Whether a record writes its piece letters in upper case (or as figurines), as SAN does:
    then a lower-case letter before a square is a file wherever that reads as plain SAN."""
    table = LANGUAGES.get(language, LANGUAGES["en"])
    for token in tokens:
        first = token[:1]
        if first in _FIGURINES:
            return True
        if first.isupper():
            letter = token[:2] if token[:2] in table else first
            if table.get(letter, P) != P:
                return True
    return False


def scripts_used(letters: Iterable[str], tokens: Iterable[str] = ()) -> frozenset[str]:
    """The scripts a record is written in: its piece letters', and Greek where a token has a Greek
    file letter (``ε4``); Latin when there is neither."""
    scripts = {script_of(letter) for letter in letters}
    if any(not token.isascii() and any(ch in _GREEK_FILE_LETTERS for ch in token) for token in tokens):
        scripts.add("Greek")
    return frozenset(scripts) or frozenset({"Latin"})


_GREEK_FILE_LETTERS = frozenset("αβγδεζηθ")


def is_move_like(token: str) -> bool:
    """Whether a word is meant as a move (and so must be read or reported), not a glyph or a word."""
    if len(token) > LONGEST_TOKEN:
        return True
    text = clean(token)
    if not text:
        return False
    return text in _NULL or bool(_CASTLE.match(text)) or any(ch.isdigit() or ch == "x" for ch in text)


NOTATIONS = ("san", "long-algebraic", "coordinate", "figurine", "iccf-numeric")
"""The notations a record's moves are read in (:func:`notation_of`): short algebraic (SAN, in any
language's letters), long algebraic (``Ng1-f3``, ``e2xd3``), coordinate (``g1f3``, UCI), figurine
algebraic (``♘f3``), ICCF numeric (``7163``)."""
_COORDINATE = re.compile(r"[a-h][1-8][a-h][1-8](?:[=/]?\(?[^\W\d_]\)?)?")
_LONG = re.compile(r"[^\W\d_]{0,2}[a-h][1-8][-x][a-h][1-8]")
_FIGURINE_START = frozenset(_FIGURINES)


def notation_of(token: str) -> str | None:
    """The notation a move token is written in (one of :data:`NOTATIONS`); None for castling and a null
    move, which every notation writes alike (ICCF writes castling as the king's move: ``5171`` is ICCF)."""
    if len(token) > LONGEST_TOKEN:
        return None
    text = spelled(token)[0]
    if not text or text in _NULL or _CASTLE.match(text):
        return None
    if ICCF.fullmatch(text):
        return "iccf-numeric"
    if text[0] in _FIGURINE_START:
        return "figurine"
    text = text.translate(_GREEK_FILES)
    if _COORDINATE.fullmatch(text):
        return "coordinate"
    if _LONG.match(text):
        return "long-algebraic"
    return "san"


def notations_of(tokens: Iterable[str]) -> list[str]:
    """The notations of a record's move tokens, in order of first use (castling alone: SAN). A figurine
    record writes its pawn moves as SAN does: they are figurine notation there."""
    found: dict[str, None] = {}
    castles = False
    for token in tokens:
        name = notation_of(token)
        if name is not None:
            found.setdefault(name)
        else:
            castles = castles or bool(_CASTLE.match(clean(token)[:LONGEST_TOKEN]))
    if "figurine" in found:
        found.pop("san", None)
    return list(found) or (["san"] if castles else [])
