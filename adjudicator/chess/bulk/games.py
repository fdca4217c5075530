"""The games of a text for the compiled reader: clean ones read by it, the others left to the lenient reader.

:func:`split_mixed` gives the games :func:`adjudicator.chess.movetext.split_games` gives
for the same text, in order: a :class:`CleanGame` where the compiled reader lexed the game
(:mod:`.scan`), else the lenient splitter's :class:`~adjudicator.chess.movetext.RawGame`.
The text after a game it does not lex is handed to the lenient splitter up to a tag line
where that splitter starts a game afresh (every comment before it closed, the game before
it holding moves or a result), so each part splits alone as in the whole text.

:func:`read` replays a clean game, or says it cannot (None: the caller replays
:meth:`CleanGame.raw` with :func:`adjudicator.chess.replay.replay_game`). The language of
its letters follows :func:`adjudicator.chess.language_choice.choose`: English when English
reads every move and no other language could (a Q settles it); the one language whose
letters cover the record's and read every move where English cannot read a letter;
anything else (several readings, none, a language this reader does not read) is the
lenient reader's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import chess

import adjudicator.chess.bulk as _bulk
from adjudicator.chess.language_choice import _ENGLISH_ONLY, _meaning, family, language_words
from adjudicator.chess.movetext import TAG_NAME, MoveToken, RawGame, line_ends, split_games
from adjudicator.chess.notation import LANGUAGES, writes_upper_case_pieces
from adjudicator.chess.replay import Ply, Replay, _has_no_moves, repetition_key
from adjudicator.chess.san import read_move

STANDARD = chess.STARTING_FEN
_TAG = re.compile(rf'\[[ \t]*{TAG_NAME}[ \t]*"(?:[^"\\\n]|\\.)*"[ \t]*\]')
"""A tag pair as the lenient splitter's lexer reads one (``movetext._LEXER``)."""
_TRIES = 8
"""Tag lines tried as the end of a part the compiled reader does not lex, before the rest goes whole."""


def _tables(language: str) -> tuple[list[int], list[int]] | None:
    """The compiled reader's letter tables for a language written in single Latin capitals, else None."""
    table = LANGUAGES[language]
    if not all(len(key) == 1 and "A" <= key <= "Z" for key in table):
        return None
    letters, lower = [0] * 128, [0] * 128
    for key, piece in table.items():
        letters[ord(key)] = piece
        if piece != chess.PAWN and key.lower() in "abcdefgh":
            lower[ord(key.lower())] = 1
    return letters, lower


TABLES = {lang: found for lang in LANGUAGES if (found := _tables(lang)) is not None}
"""The languages the compiled reader reads (the PGN standard's, in single Latin capitals)."""
_current: list[object] = [None]
"""The scanner and language the compiled reader's letter tables were last set for."""


class Scanned(NamedTuple):
    """What :func:`.scan.scan` found in a clean game (see there): a tuple, made from the scanner's at once."""

    start: int
    end: int
    first: int
    tags: list[tuple[str, str]]
    result: str | None
    reading: bool
    fail: str
    plies: int
    final_fen: str | None
    counter: int
    repetitions: list[tuple[str, list[int]]] | None
    firsts: int
    leads: list[tuple[str, int, str]]
    promotions: int
    lower_risk: bool
    needs_start: bool
    facts: tuple[bool, bool, int, int, bool, bool, int, int] | None

    @property
    def letters(self) -> frozenset[str]:
        """The record's piece letters (``notation.letters_used``), as the clean words write them."""
        found = {letter for letter, _, _ in self.leads}
        if self.promotions:
            found.update(chr(65 + bit) for bit in range(26) if self.promotions >> bit & 1)
        return frozenset(found)

    def writes_upper_case(self, language: str) -> bool:
        """``notation.writes_upper_case_pieces`` for the clean words."""
        table = LANGUAGES[language]
        return any(self.firsts >> bit & 1 and table.get(chr(65 + bit), chess.PAWN) != chess.PAWN for bit in range(26))


def scan(text: str, pos: int, language: str = "en", start: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
    """:func:`.scan.scan` in ``language`` (one of :data:`TABLES`) from ``start`` (:func:`start_of`) or the
    standard position."""
    scanner = _bulk.scanner
    with _bulk.LOCK:
        if _current[0] != (scanner, language):
            scanner.set_language(*TABLES[language])
            _current[0] = (scanner, language)
        if start is not None:
            scanner.set_start(*start)
        return tuple(scanner.scan(text, pos, start is not None))


class CleanGame:
    """A game the compiled reader lexed, by its place in a text."""

    __slots__ = ("text", "scanned", "language")
    moves: tuple[MoveToken, ...] = ()
    """(The lenient splitter's games list their moves; a clean game starts with a tag line: see
    ``stream._line_cut``.)"""

    def __init__(self, text: str, scanned: Scanned, language: str) -> None:
        self.text = text
        self.scanned = scanned
        self.language = language

    @property
    def offset(self) -> int:
        """``RawGame.offset``: where its first tag pair starts, 0 for a text's first game (whatever spacing comes
        before it), as the lenient splitter has it."""
        return self.scanned.start

    @property
    def tags(self) -> list[tuple[str, str]]:
        return self.scanned.tags

    def tag(self, name: str) -> str | None:
        for key, value in self.scanned.tags:
            if key == name:
                return value
        return None

    def raw(self) -> RawGame:
        """The game as the lenient splitter gives it (its offsets in the whole text)."""
        games = _shifted(split_games(self.text[self.scanned.start:self.scanned.end]), self.scanned.start)
        game = next(games)
        assert next(games, None) is None, "a clean game is one game"
        return game


def _shifted(games: Iterator[RawGame], by: int) -> Iterator[RawGame]:
    for game in games:
        if by:
            game.offset += by
            for move in game.moves:
                move.offset += by
        yield game


def split_mixed(text: str, language: str | None = None) -> Iterator[RawGame | CleanGame]:
    """The games :func:`~adjudicator.chess.movetext.split_games` gives for ``text``, clean ones as
    :class:`CleanGame` (read in ``language``'s letters when the compiled reader reads them, else in
    English's: see the module docstring)."""
    lang = language if language in TABLES else "en"
    text = line_ends(text)  # as the lenient reader sees it (a lone "\r" ends a line), offsets unchanged
    pos, size = 0, len(text)
    while pos < size:
        found = scan(text, pos, lang)
        if found[0] == 0:
            return
        if found[0] == 2 and _names_each_tag_once(found[3]):
            scanned = Scanned(pos, *found[1:])
            yield CleanGame(text, scanned, lang)
            pos = scanned.end
            continue
        end = _part_end(text, pos)
        yield from _shifted(split_games(text[pos:end]), pos)
        pos = end


def _names_each_tag_once(tags: list[tuple[str, str]]) -> bool:
    """Whether a clean game's tags name each tag once: a name twice is a game of tags alone and the next game's
    tags, which the lenient splitter parts (``movetext.split_games``); the compiled reader leaves them to it."""
    return len({name for name, _value in tags}) == len(tags)


def _part_end(text: str, pos: int) -> int:
    """Where a part of ``text`` from ``pos`` (where the lenient splitter starts afresh) can end so that it
    splits alone as in the whole text: a tag line after it, every ``{`` in it closed, its last game holding
    moves or a result (see the module docstring); else the end of the text."""
    start = pos
    for _ in range(_TRIES):
        cut = text.find("\n[", start) + 1
        if cut <= 0:
            break
        start = cut
        if not _TAG.match(text, cut) or text.rfind("{", pos, cut) > text.rfind("}", pos, cut):
            continue
        ended: list[bool] = []
        for _game in split_games(text[pos:cut], ended=ended):
            pass
        if ended[0]:
            return cut
    return len(text)


# -- reading --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """A start position given by a FEN tag or ``--start-fen``, as the lenient reader sets it up."""

    board: chess.Board
    fen: str
    """``board.fen()``: the replay's ``start_fen``."""
    scan: tuple[Any, ...]
    """The compiled reader's form of it (:func:`.scan.set_start`)."""


def start_of(fen: str) -> Start | None:
    """The start position for a FEN, None where the compiled reader does not go (no position, not one
    a game reaches, castling rights it does not model)."""
    try:
        board = chess.Board(fen.strip())
    except ValueError:
        return None
    if not board.is_valid():
        return None
    rights = board.clean_castling_rights()
    bits = 0
    for square, flag in ((chess.H1, 1), (chess.A1, 2), (chess.H8, 4), (chess.A8, 8)):
        if rights & chess.BB_SQUARES[square]:
            bits |= flag
            rights &= ~chess.BB_SQUARES[square]
    if rights:
        return None
    occupied = board.occupied_co
    bitboards = [occupied[chess.BLACK], occupied[chess.WHITE], board.pawns, board.knights, board.bishops,
                 board.rooks, board.queens, board.kings]
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else -1
    return Start(board, board.fen(), (bitboards, int(board.turn), ep, bits, board.halfmove_clock,
                                       board.fullmove_number))


class BulkReplay(NamedTuple):
    """A clean game replayed by the compiled reader: what the contract prints, and what the check asks (a tuple:
    one is made for every game of a collection)."""

    game: CleanGame
    scanned: Scanned
    start_fen: str
    start: Start | None
    language: str
    rule: str

    @property
    def plies(self) -> int:
        return self.scanned.plies

    @property
    def result(self) -> str | None:
        """The result written (the result token, else the Result tag's), as :class:`Replay` has it."""
        result = self.scanned.result if self.scanned.result not in (None, "*") else None
        tag = self.game.tag("Result")
        return tag if result is None and tag in ("1-0", "0-1", "1/2-1/2") else result

    @property
    def final_fen(self) -> str:
        return self.scanned.final_fen if self.scanned.plies and self.scanned.final_fen else self.start_fen

    def notes(self) -> list[dict[str, Any]]:
        """The contract's ``notes``: a clean game has only the language's, at its first piece letter."""
        if self.language == "en":
            return []
        table = LANGUAGES[self.language]
        leads = [(ply, word, letter) for letter, ply, word in self.scanned.leads if letter in table]
        if not leads:
            return []
        ply, word, _ = min(leads)
        text = language_words(self.language, self.rule, {letter for _, _, letter in leads})
        return [{"ply": ply, "token": word, "kind": "language", "note": text}]

    def to_json(self) -> dict[str, Any]:
        """The contract's "Replay output" object, as :meth:`adjudicator.chess.replay.Replay.to_json` gives it."""
        return {
            "plies": self.scanned.plies,
            "start_fen": self.start_fen,
            "final_fen": self.final_fen,
            "illegal": [],
            "unreadable": [],
            "repetitions": [{"fen": fen, "plies": plies} for fen, plies in self.scanned.repetitions or ()],
            "counter": self.scanned.counter,
            "language": self.language,
            "notation": "san" if self.scanned.plies else None,  # every move word read here is SAN
            "notations": ["san"] if self.scanned.plies else [],
            "alternative_readings": [],
            "notes": self.notes(),
            "numbering_gaps": [],  # a clean game's numbers follow its moves (scan.py reads the rest as unclean)
        }


def moves_of(replay: BulkReplay) -> list[chess.Move]:
    """The moves of a game the compiled reader replayed (read again, as it was: the reader keeps one game)."""
    scanner = _bulk.scanner
    with _bulk.LOCK:
        if _current[0] != (scanner, replay.language):
            scanner.set_language(*TABLES[replay.language])
            _current[0] = (scanner, replay.language)
        if replay.start is not None:
            scanner.set_start(*replay.start.scan)
        found = scanner.scan(replay.game.text, replay.game.scanned.start, replay.start is not None)
        assert found[0] == 2 and found[5] and found[7] == replay.plies, "the game reads as it read before"
        moves = scanner.last_moves(replay.plies)
    return [chess.Move(frm, to, promotion=promotion or None) for frm, to, promotion in moves]


def as_replay(replay: BulkReplay) -> Replay:
    """The :class:`~adjudicator.chess.replay.Replay` the lenient reader gives for the game, for the laws' questions
    about its positions (``game_end``, the findings' move labels): the same plies, positions, counters and
    endings (``replay._replay_in``'s own steps on the moves the compiled reader read, every one legal; the move
    words, their clocks and the reading notes are not kept)."""
    board = chess.Board() if replay.start is None else replay.start.board.copy(stack=False)
    start_key = repetition_key(board)
    plies: list[Ply] = []
    for number, move in enumerate(moves_of(replay), start=1):
        mover, move_number = board.turn, board.fullmove_number
        board.push(move)
        in_check = board.is_check()
        no_moves = _has_no_moves(board, in_check)
        plies.append(Ply(number, "", move, True, None, None, None, repetition_key(board), board.halfmove_clock, mover,
                         move_number, in_check and no_moves, not in_check and no_moves))
    return Replay(replay.start_fen, tuple(plies), tuple(replay.game.tags), start_key, (), replay.language, False,
                  replay.result, replay.rule)


def read(game: CleanGame, start_fen: str | None = None, language: str | None = None) -> BulkReplay | None:
    """``game`` replayed as :func:`adjudicator.chess.replay.replay_game` replays it, or None where the
    compiled reader cannot say so (see the module docstring)."""
    scanned = game.scanned
    if game.tag("Variant") is not None:
        return None
    fen = game.tag("FEN")
    if fen is None:
        fen = start_fen
    start: Start | None = None
    if fen is not None and fen.strip():
        start = start_of(fen)
        if start is None:
            return None
    elif scanned.needs_start:
        return None
    if language is not None:
        if language not in TABLES:
            return None
        if start is not None or game.language != language:
            scanned = _rescan(game, language, start)
        return _replay(game, scanned, start, language, "stated")
    if start is not None or game.language != "en":
        scanned = _rescan(game, "en", start)
    return _choose(game, scanned, start)


def _rescan(game: CleanGame, language: str, start: Start | None) -> Scanned:
    found = scan(game.text, game.scanned.start, language, None if start is None else start.scan)
    return Scanned(game.scanned.start, *found[1:])


def _replay(game: CleanGame, scanned: Scanned, start: Start | None, language: str, rule: str) -> BulkReplay | None:
    """The replay, when every move was read and no lower-case letter may be a piece's (``bc4``)."""
    if not scanned.reading or (scanned.lower_risk and not scanned.writes_upper_case(language)):
        return None
    return BulkReplay(game, scanned, STANDARD if start is None else start.fen, start, language, rule)


_ENGLISH_ONLY_BITS = sum(1 << (ord(letter) - 65) for letter in _ENGLISH_ONLY)
_NEVER_ENGLISH = frozenset(chr(code) for code in range(65, 91)) - set(LANGUAGES["en"]) - {"O", "Z"}
"""A move word starting with one of these capitals has no English reading (``O``: castling, ``Z0``: a null move)."""


def _choose(game: CleanGame, english: Scanned, start: Start | None) -> BulkReplay | None:
    """The reading :func:`adjudicator.chess.language_choice.choose` chooses, where this reader can tell.

    English reads every move: it stands unless another language's letters cover the record's with
    other pieces and read every move too (those are tried as the lenient reader tries them). English
    cannot read a letter: the one covering language that reads every move, when the compiled reader
    is the one that reads it."""
    if english.reading and english.firsts & _ENGLISH_ONLY_BITS:  # a Q: English settles it (most games)
        return _replay(game, english, start, "en", "english")
    letters = english.letters
    if english.reading:
        if not letters:
            return _replay(game, english, start, "en", "english")
        english_meaning = _meaning("en", letters)
        others = [lang for lang in _covering(letters) if _meaning(lang, letters) != english_meaning]
        if others and _any_reads_every_move(game, start, others):
            return None
        return _replay(game, english, start, "en", "english")
    if english.fail not in _NEVER_ENGLISH:
        return None
    full: list[tuple[str, Scanned]] = []
    tried: list[str] = []
    for lang in _covering(letters):
        scanned = _rescan(game, lang, start) if lang in TABLES else None
        if scanned is not None and scanned.reading:
            full.append((lang, scanned))
        else:
            tried.append(lang)
    if len(full) != 1 or _any_reads_every_move(game, start, tried):
        return None
    lang, scanned = full[0]
    return _replay(game, scanned, start, lang, "only")


def _any_reads_every_move(game: CleanGame, start: Start | None, languages: list[str]) -> bool:
    """Whether the lenient reader reads every move of ``game`` in one of ``languages`` (an illegal move is
    still a reading; ``replay._replay_in``'s loop, without the suggestions for an unreadable token)."""
    if not languages:
        return False
    raw = game.raw()
    texts = [token.text for token in raw.moves]
    for language in languages:
        lower_case = not writes_upper_case_pieces(texts, language)
        board = chess.Board() if start is None else start.board.copy(stack=False)
        for token in raw.moves:
            if token.unreadable is not None:
                break
            reading = read_move(board, token.text, language, lower_case=lower_case, suggest=False)
            if reading.move is None:
                break
            board.push(reading.move)
        else:
            return True
    return False


@functools.lru_cache(maxsize=256)
def _covering(letters: frozenset[str]) -> tuple[str, ...]:
    """The languages besides English whose letters cover ``letters``, one of each group whose letters mean
    the same pieces, in :data:`LANGUAGES` order (``language_choice._full_readings`` tries these)."""
    found: list[str] = []
    meanings: set[tuple[int | None, ...]] = set()
    for lang in family(set(letters), frozenset({"Latin"})):
        if lang == "en" or not letters <= LANGUAGES[lang].keys():
            continue
        meaning = _meaning(lang, letters)
        if meaning not in meanings:
            meanings.add(meaning)
            found.append(lang)
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _others_cover(letters: frozenset[str]) -> bool:
    """Whether another language's letters cover ``letters`` with other pieces (then it may read every move
    too, differently: an alternative reading the lenient reader weighs)."""
    english = _meaning("en", letters)
    return any(_meaning(lang, letters) != english for lang in _covering(letters))
