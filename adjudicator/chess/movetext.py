"""Splitting a record into games: tag pairs, main-line move tokens, clock comments.

Every token of the movetext is accounted for (FIDE 8.1: the scoresheet is the
record of the game, so nothing on it may be dropped unseen). :func:`tokens`
gives each one its :data:`TokenKind`:

- ``tag`` (a tag pair under any name python-chess reads, ``[BlackType "program"]``,
  ``[White-Elo "..."]``, also in other scripts; a broken tag line in the header; a
  forum's ``[pgn]``/``[/pgn]`` wrapper), ``move-number`` (``12.``, ``12...``,
  ``12…``, a bare ``12``, continuation dots), ``result`` (``1-0`` with any dash,
  ``1–0`` as scalachess reads it, ``1:0``, ``½-½``, ``1/2``, ``*``),
  ``comment`` (``{...}``, ``;`` to the end of the line, ``%`` escape lines),
  ``clock-comment`` (a comment holding ``[%clk]`` or ``[%emt]``), ``nag``
  (``$14``), ``glyph`` (``!?``, ``+-``, ``=``, ``N``, ``e.p.``), ``variation``
  (the parentheses and everything inside them, at any depth);
- ``stray``: a parenthesis that encloses no variation, read past and noted with its
  ply (:class:`Note`): a ``)`` with no variation open (python-chess reads past it
  too), a ``(`` before the game's first move (no move yet for it to vary: python-chess
  reads past it), and a ``(`` that is never closed with no move after it;
- ``move``: every other word of the main line. The replay reads it as a legal
  move, an illegal move as played, or an *unreadable* token, and an unreadable
  token stops the replay at its ply (:mod:`adjudicator.chess.replay`);
- ``unreadable``: what the splitter already knows is no move: a stray ``]`` or
  ``}``, a variation or comment that is never closed and so swallows the moves
  after it. These are main-line tokens too: the replay stops at them. A comment is never
  read across a line that opens with a tag pair (``[Name "``) or a ``[pgn]`` wrapper: one
  never closed ends there, so the next game's tags are never swallowed (no silent game).

Games: a tag after moves starts the next game, and so do moves after a result, and
(games written without tags or results) a blank line followed by White's first move
number ``1.`` after moves, noted on the game it ends. python-chess ends a game at any
blank line; a blank line elsewhere (``1. e4 e5`` / blank / ``2. Nf3``) is only
spacing here, since a game's moves are sometimes written in paragraphs.

The invariant: the main-line tokens of a game (``move`` and ``unreadable``) are
exactly :attr:`RawGame.moves`, in order, so the n-th of them is ply n; what was
read past is in :attr:`RawGame.notes` with its ply.
Lenient by design (tags optional, any move-number style, deep variations cost
nothing), but never silent. No I/O: the caller passes the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from adjudicator.chess.marks import (
    HEADERS_ONLY_NOTE,
    HEADERS_REPEATED_NOTE,
    continues,
    draw_offer_note,
    result_mark_note,
)

TokenKind = Literal[
    "tag", "move-number", "result", "comment", "clock-comment", "nag", "glyph", "variation", "stray", "move",
    "unreadable",
]

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
"""The dashes a result may be written with: hyphen-minus, hyphen, non-breaking hyphen, figure dash,
en dash, em dash, minus sign (scalachess reads the hyphen, en dash and em dash; word processors
put in the others)."""
TAG_NAME = r"\w[\w+#=:\-]*"
"""A tag name: python-chess's (letters, digits, ``_+#=:-``), in any script."""
RESULT_DASH = f"[{DASHES}:]"
"""What may stand between a result's two scores (a pattern)."""
_D = RESULT_DASH
_TAG_START = rf'[^\S\n]*\[[ \t]*{TAG_NAME}[ \t]*"'
"""How a line holding a tag pair starts (a pattern), after any spacing (a form feed, a no-break space, as the
record cutter's tag line): where a comment ends, and how a broken tag line is told."""
_LEXER = re.compile(
    rf"""
    (?P<tag>\[[ \t]*(?P<name>{TAG_NAME})[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
    |(?P<wrapper>(?i:\[/?pgn\]))
    |(?P<comment>\{{[^}}\n]*(?:\n(?!{_TAG_START}|[^\S\n]*(?i:\[/?pgn\]))[^}}\n]*)*\}}?)
    |(?P<line>;[^\n]*)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<nag>\$\d*)
    |(?P<result>(?:1{_D}0|0{_D}1|(?:1/2|½){_D}(?:1/2|½)|1/2|½|\*)(?=[\s{{}}()\[\];]|$))
    |(?P<number>\d+[ \t]*(?:\.+|…)+)
    |(?P<word>[^\s{{}}()\[\];]+(?:\([QRBNDTSLFACqrbndtslfac]\))?)
    |(?P<other>\S)
    """,
    re.VERBOSE,
)
_RESULT_DASHES = str.maketrans(dict.fromkeys(DASHES + ":", "-"))
_RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2", "1/2-½": "1/2-1/2",
            "½-1/2": "1/2-1/2", "1/2": "1/2-1/2", "½": "1/2-1/2", "*": "*"}
_LOOSE_TAG = re.compile(rf'\[[ \t]*({TAG_NAME})[ \t]*"(.*)"[ \t]*\][ \t]*$')
"""A tag line whose value holds unescaped quotes (``[Annotator "J. "JJ" Smith"]``): python-chess takes
the value up to the last quote before the closing bracket."""
_CLK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")
_EMT = re.compile(r"\[%emt\s+([0-9:.]+)\s*\]")
_ESCAPE = re.compile(r"(?m)^%[^\n]*$")
_PLAIN = re.compile(r"(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?|O-O(?:-O)?)[+#]?[!?]{0,2}")
_GLYPHS = re.compile(r"[!?+#=\-/±∓⩲⩱∞□⊕]+")
_BROKEN_TAG = re.compile(_TAG_START)
"""A tag pair gone wrong in a header (``[Name "`` unclosed). A ``[...]`` with no quoted value is not one: it may
hold moves (``[1. e4 e5]``), so its ``[`` is unreadable, never a header skipped unseen."""

_WRAPPER = re.compile(r"(?i)\[/?pgn\]")
_BEFORE_MOVETEXT = re.compile(r'(?:"(?:[ \t]*\])?|\])(?=[ \t]*(?:\d+[ \t]*\.|\{|\*(?:\s|$)|1-0|0-1|1/2-1/2))')
"""Where a broken tag pair's line goes on with a one-line game's moves: a closing quote (and ``]``) or a ``]``, then
a move number, a comment or a result (anything else left on the line is the tag's, read past with it)."""
BROKEN_TAG_NOTE = "a tag pair that is not closed: read past, its value not taken"


_LOOSE_TAIL = re.compile(r'"[ \t]*\][ \t]*$')
"""How a loose tag line ends (``_LOOSE_TAG``)."""
_RESULT_TAIL = re.compile(rf"(?:^|\s)(?:1{RESULT_DASH}0|0{RESULT_DASH}1|(?:1/2|½){RESULT_DASH}(?:1/2|½)|\*)\s*$")
"""How a game written on one line ends: with its result."""


@dataclass(frozen=True, slots=True)
class _Line:
    """What the broken-tag rule asks of the line a ``[`` stands on, found once per line (a line of many ``[``
    stays linear)."""

    end: int
    is_loose_tag: bool
    """The line ends as a loose tag does (``[Annotator "J. "JJ" Smith"]``): read whole as one."""
    is_one_line_game: bool
    """The line ends with a result: a game written on one line, tags, moves and all."""

    @classmethod
    def at(cls, text: str, start: int) -> _Line:
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        return cls(end, _LOOSE_TAIL.search(text, start, end) is not None,
                   _RESULT_TAIL.search(text, start, end) is not None)


def _broken_tag_end(text: str, start: int, line: _Line) -> int:
    """Where the broken tag pair at ``start`` ends: at the end of its line, unless the line is a game written on
    one line and not a loose tag line; then at the first quote or ``]`` that movetext follows
    (:data:`_BEFORE_MOVETEXT`), so that the game's moves and result are read (they were read past with the tag,
    and the game lost without a word). A missing bracket on a header line of its own (``[Event "Liga "2. A"``) is
    read past whole, as before."""
    if line.is_loose_tag or not line.is_one_line_game:
        return line.end
    found = _BEFORE_MOVETEXT.search(text, text.index('"', start) + 1, line.end)
    return line.end if found is None else found.end()
_DOTS = re.compile(r"(?:\.|…)+")
_ASSESSMENTS = frozenset({"(=)", "N", "TN", "Z0?", "ep", "e.p.", "e.p"})
"""Words that are annotations, not moves: a draw offer, a novelty, en passant written apart."""
_NULL_MOVES = frozenset({"--", "0000"})
"""Null moves (7.5.3) that would otherwise pass for a glyph or a move number (``0000`` is no number: no
move number has leading zeros); ``Z0`` and ``@@@@`` are moves by default."""
_SWALLOWED = re.compile(r"\d+\s*\.|(?:1-0|0-1|1/2-1/2|(?<![^\s{])\*)(?:\s|$|\[)|^[^\S\n]*\[", re.M)
"""What an unclosed comment must hold for it to have swallowed moves or the game's result (a ``*`` standing
as a word: ``{*`` or `` * ``, not ``*great*``; a result glued to the next game's tag, ``1-0[Event``), or a line
starting with ``[`` (each line tried once)."""


def seconds_of(text: str) -> float | None:
    """``h:mm:ss(.f)``, ``m:ss`` or seconds, as seconds (None when it is not a time)."""
    try:
        parts = [float(p) for p in text.split(":")]
    except ValueError:
        return None
    if not parts or len(parts) > 3 or any(p < 0 for p in parts):
        return None
    total = 0.0
    for part in parts:
        total = total * 60 + part
    return total


_ICCF_MOVE = re.compile(r"[1-8]{4}[1-4]?")
"""A move in ICCF numeric notation (``5254``, ``57581``), not a move number (no game has such numbers)."""


def word_kind(word: str) -> TokenKind:
    """What a main-line word is: a move (to be read), or a known non-move."""
    if word in _NULL_MOVES or _PLAIN.fullmatch(word) or _ICCF_MOVE.fullmatch(word):
        return "move"
    if word.isdigit() or _DOTS.fullmatch(word):
        return "move-number"
    if word in _ASSESSMENTS or _GLYPHS.fullmatch(word):
        return "glyph"
    return "move"


@dataclass
class MoveToken:
    """One main-line move as written, with the clock comment that follows it."""

    text: str
    offset: int
    """Character offset in the record (to point at it)."""
    clock: float | None = None
    emt: float | None = None
    unreadable: str | None = None
    """Why the splitter already knows this token is no move (a stray bracket, an unclosed variation)."""
    number: str | None = None
    """The move number written since the previous move (``12.``, ``12...``), or None: the scoresheet's own
    evidence of which side made the move (:mod:`adjudicator.chess.numbering`)."""


@dataclass(frozen=True)
class Note:
    """Something the splitter read past or decided by a stated rule, at the ply where it stands."""

    ply: int
    """The ply it stands at: the moves before it, plus one (as an unreadable token's ply)."""
    token: str
    """What was written there (``)``, ``(``, ``1.``)."""
    text: str
    """The rule applied, in an arbiter's words."""
    kind: str = "read-past"
    """``read-past`` (a bracket that encloses or closes nothing), ``new-game`` (a blank line, then ``1.``),
    ``result-mark`` (a result written before the last move: ``½``, ``1/2``, ``1-0`` with the numbered moves
    going on after it), ``draw-offer`` (FIDE's ``(=)``, Appendix C.13) or ``numbering-gap``
    (:mod:`adjudicator.chess.numbering`)."""

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "token": self.token, "kind": self.kind, "note": self.text}


@dataclass
class RawGame:
    """A game as written: tags, main-line move tokens, the result token, and what was read past."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    moves: list[MoveToken] = field(default_factory=list)
    result: str | None = None
    offset: int = 0
    notes: list[Note] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not self.tags and not self.moves and self.result is None

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None


@dataclass(frozen=True)
class Token:
    """One token of a record with its kind (for showing how the record was read)."""

    kind: TokenKind
    text: str
    offset: int


def tokens(text: str) -> Iterator[Token]:
    """Every token of ``text`` with its kind, in order (see the module docstring)."""
    for kind, value, start in _scan(line_ends(text)):
        yield Token(kind, value, start)


_SIMPLE: dict[str | None, TokenKind] = {"line": "comment", "nag": "nag", "result": "result", "number": "move-number"}
def _swallows_a_move(held: list[re.Match[str]]) -> bool:
    """Whether an unclosed variation's lexemes hold a word that would be a main-line move."""
    return any(m.lastgroup == "word" and word_kind(m.group()) == "move" for m in held)


_NEW_GAME_INSIDE = re.compile(r"\n[^\S\n]*\n[^\S\n]*1[ \t]*\.")
"""A blank line and then White's first move number starting a line, inside a comment that holds another ``{``
after it: an untagged game swallowed by a comment never closed, up to a later comment's ``}`` (a ``{`` alone
inside a comment is text; each line is tried once: linear in the comment's length)."""


def _swallows_a_game(comment: str) -> bool:
    """Whether a closed comment holds, in this order, a blank line, ``1.`` and a ``{`` (:data:`_NEW_GAME_INSIDE`)."""
    found = _NEW_GAME_INSIDE.search(comment)
    return found is not None and "{" in comment[found.end():]


def _holds_a_move(comment: str) -> bool:
    """Whether a comment never closed holds two words in a row written as moves (``a6 Ba4``: moves written without
    numbers, swallowed up to the next game's tags; one such word is prose: "played a4 and won")."""
    words = comment[1:].split()
    return any(_PLAIN.fullmatch(one) and _PLAIN.fullmatch(other) for one, other in zip(words, words[1:], strict=False))


def _top_token(group: str | None, value: str) -> tuple[TokenKind, str]:
    """The kind (and text) of a main-line lexeme that is no move, tag or bracket."""
    if group == "comment":  # never closed, or closed only by a later comment's "}" (a "{" inside it)
        if not value.endswith("}"):
            if _SWALLOWED.search(value) or _holds_a_move(value):
                return "unreadable", "{"
        elif "{" in value[1:] and _swallows_a_game(value):
            return "unreadable", "{"
        return ("clock-comment" if "[%" in value else "comment"), value
    if group == "word":
        return word_kind(value), value
    return _SIMPLE.get(group, "unreadable"), value


def _unclosed(held: list[re.Match[str]]) -> Iterator[tuple[TokenKind, str, int]]:
    """The tokens of a variation opened on the main line and never closed (``held``: its lexemes).

    Holding a move, it is ``unreadable`` where it opens (the moves after it cannot be told from
    it). Holding none, each ``(`` never closed is ``stray``, what closed pairs enclose is
    ``variation``, and the rest is read as main line (a result, a comment...).
    """
    if _swallows_a_move(held):
        yield "unreadable", "(", held[0].start()
        for m in held[1:]:
            yield "variation", m.group(), m.start()
        return
    opened: list[int] = []
    paired: set[int] = set()
    for index, m in enumerate(held):
        if m.lastgroup == "open":
            opened.append(index)
        elif m.lastgroup == "close" and opened:
            paired.update((opened.pop(), index))
    inside = 0
    for index, m in enumerate(held):
        group, value, start = m.lastgroup, m.group(), m.start()
        if index in paired:
            inside += 1 if group == "open" else -1
            yield "variation", value, start
        elif group == "open":
            yield "stray", value, start
        elif inside:
            yield "variation", value, start
        else:
            kind, text = _top_token(group, value)
            yield kind, text, start


_LONE_CR = re.compile(r"\r(?!\n)")


def line_ends(text: str) -> str:
    """``text`` with each line end a ``\n`` (a ``\r\n`` keeps its ``\r``): a lone ``\r``, as old Mac OS wrote
    line ends, becomes ``\n``, one character for one, so every offset stays. Where a line ends matters: a ``;``
    comment and a ``%`` line end there, a brace comment never runs across a next game's tag line, a blank line
    parts untagged games; with ``\r`` alone a ``;`` swallowed the rest of the file, games and all."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def _scan(text: str) -> Iterator[tuple[TokenKind, str, int]]:
    """(kind, text, offset) of every token, in order: :func:`tokens` without the objects, for speed.

    A variation opened on the main line is held until it closes (its lexemes are then
    ``variation``); one that never closes (the text ends, or a new game's tags come) is
    resolved by :func:`_unclosed`. A ``(`` opens a variation only after a move of the same game: where
    :func:`split_games` starts a game with no move yet (a second result, move number 1 after a blank line,
    tags), the moves of the game before are no longer there to vary, so a game reads the same whatever
    game comes before it (a ``(`` there is read past with a note, never a variation hiding the moves).
    ``text``'s line ends are :func:`line_ends`' (its callers make them so, once).
    """
    if "%" in text:
        text = _ESCAPE.sub(lambda m: " " * len(m.group()), text)
    if "\ufeff" in text or "\u200b" in text:  # byte-order marks and zero-width spaces are spacing
        text = text.replace("\ufeff", " ").replace("\u200b", " ")
    depth = 0
    held: list[re.Match[str]] = []  # the lexemes of the main-line variation still open
    started = False  # a move of the current game read: a "(" opens a variation of it
    result_since_move = False
    skip = 0
    plain = _PLAIN.fullmatch
    line: _Line | None = None  # the line of the last broken tag pair
    for match in _LEXER.finditer(text):
        kind = match.lastgroup
        if skip and match.start() < skip:
            continue
        if depth:
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth -= 1
            elif kind == "tag" or kind == "wrapper" or (  # a new game: the variation was never closed
                    kind == "number" and _starts_a_game(text, match.group(), match.start())):  # 1. after a blank line
                yield from _unclosed(held)
                depth, held = 0, []
            if depth:
                held.append(match)
                continue
            if kind == "close":  # the variation closes
                held.append(match)
                for m in held:
                    yield "variation", m.group(), m.start()
                held = []
                continue
        value, start = match.group(), match.start()
        if kind == "word":
            word = "move" if plain(value) else word_kind(value)
            if word == "move":
                started, result_since_move = True, False
            elif word == "move-number" and started and _starts_a_game(text, value, start):
                started = False
            yield word, value, start
        elif kind == "open" and text.startswith("(=)", start):  # FIDE's draw-offer mark (C.13), no variation
            skip = start + 3
            yield "glyph", "(=)", start
        elif kind == "open":
            if started:
                depth, held = 1, [match]
            else:  # no move yet for a variation to vary (python-chess reads past it too)
                yield "stray", value, start
        elif kind == "close":
            yield "stray", value, start
        elif kind == "tag" or kind == "wrapper":
            started = False
            yield "tag", value, start
        elif kind == "comment":
            token, shown = _top_token(kind, value)
            yield token, shown, start
        elif kind in _SIMPLE:
            simple = _SIMPLE[kind]
            if simple == "result":
                if result_since_move:  # a second result: split_games starts a game, with no move yet
                    started = False
                result_since_move = True
            elif simple == "move-number" and started and _starts_a_game(text, value, start):
                started = False
            yield simple, value, start
        elif value == "[" and not started and _BROKEN_TAG.match(text, start):
            if line is None or start >= line.end:
                line = _Line.at(text, start)
            skip = _broken_tag_end(text, start, line)  # a broken tag pair in the header (``[Event "x`` unclosed)
            yield "tag", text[start:skip], start
        else:
            started, result_since_move = True, False  # split_games holds it as a move of the game
            yield "unreadable", value, start
    if depth:  # the text ends inside a variation
        yield from _unclosed(held)


_UNREADABLE_REASONS = {
    "(": "a variation opened here is never closed, so the moves after it cannot be told from it",
    "{": "a comment opened here is never closed and swallows the moves after it",
    "]": "a stray ']' outside any tag",
    "}": "a stray '}' outside any comment",
    "[": "a stray '[' in the moves",
}
_STRAY_NOTES = {
    ")": "a ')' with no variation open closes nothing: it is read past",
    "(": "a '(' with no move before it in the game opens no variation (there is no move to vary): it is "
         "read past, and the moves after it are the game's",
    "((": "a '(' that is never closed, with no move after it, encloses nothing: it is read past",
}
_FIRST_MOVE_NUMBER = re.compile(r"1[ \t]*\.")
_SPACING = " \t\r\n\f\v"


def _starts_a_game(text: str, number: str, offset: int) -> bool:
    """Whether move number ``number`` at ``offset``, after moves, starts a game (:func:`split_games`: ``1.``
    after a blank line)."""
    return bool(_FIRST_MOVE_NUMBER.fullmatch(number)) and _after_blank_line(text, offset)


def _after_blank_line(text: str, offset: int, lines: int = 1) -> bool:
    """Whether the spacing before ``offset`` holds ``lines`` blank lines (or more)."""
    start = offset
    while start and text[start - 1] in _SPACING:
        start -= 1
    return text.count("\n", start, offset) >= lines + 1
_NEW_GAME_NOTE = (
    "a blank line followed by move number 1 ends this game: what follows is read as the next game "
    "(python-chess ends a game at a blank line)"
)


def _tag_pair(value: str) -> tuple[str, str] | None:
    """The (name, value) of a tag token; None for a wrapper or a broken tag line with no quoted value."""
    match = _LEXER.match(value)
    if match is not None and match.lastgroup == "tag" and match.end() == len(value):
        return match.group("name"), match.group("value").replace('\\"', '"').replace("\\\\", "\\")
    loose = _LOOSE_TAG.match(value)
    if loose is None or _BROKEN_TAG.search(loose.group(2)):  # ``[Event "b] [Site "c"]``: two pairs, one broken
        return None
    return loose.group(1), loose.group(2)


def split_games(text: str, *, ended: list[bool] | None = None) -> Iterator[RawGame]:
    """The games of a record, in order. Never raises on odd text, and never drops a main-line token.

    ``ended``: a list that gets, once the text is split, whether its last game is closed (it has
    moves or a result), so that a tag pair after the text would start a game of its own
    (:func:`adjudicator.chess.bulk.games.split_mixed` splits a text in parts by it)."""
    text = line_ends(text)
    game = RawGame()
    number: str | None = None  # the move number written since the last move
    result_token = ""  # the result as written
    named, names = game, set[str]()  # the game whose tag names ``names`` holds
    for kind, value, offset in _scan(text):
        if kind == "move":
            if game.result is not None:
                if game.moves and continues(number):  # a result mark before the last move: the game goes on
                    note = result_mark_note(result_token, len(game.moves), game.moves[-1].text)
                    game.notes.append(Note(len(game.moves) + 1, result_token, note, "result-mark"))
                    game.result = None
                else:  # moves after a result: the next game, without tags
                    yield game
                    game = RawGame(offset=offset)
            game.moves.append(MoveToken(value, offset, number=number))
            number = None
        elif kind == "move-number":
            number = value
            if game.moves and _starts_a_game(text, value, offset):
                # untagged games apart by a blank line
                game.notes.append(Note(len(game.moves) + 1, value, _NEW_GAME_NOTE, "new-game"))
                yield game
                game = RawGame(offset=offset)
        elif kind == "glyph" and value == "(=)":
            written = game.moves[-1].text if game.moves else ""
            game.notes.append(Note(len(game.moves) + 1, value, draw_offer_note(len(game.moves), written), "draw-offer"))
        elif kind == "tag":
            pair = _tag_pair(value)
            if named is not game:
                named, names = game, {key for key, _value in game.tags}
            headers_only = bool(game.tags) and not game.moves and game.result is None
            # a header names each tag once: a name again after a blank line is the next game's header (with no
            # blank line it stays this game's, the last of the name read, as python-chess reads it)
            repeated = headers_only and pair is not None and pair[0] in names and _after_blank_line(text, offset)
            headers_only = headers_only and (repeated or _after_blank_line(text, offset, 2))
            if game.moves or game.result is not None or headers_only:
                if repeated and pair is not None:  # a game's header names each tag once: the next game's tags
                    game.notes.append(Note(1, value, HEADERS_REPEATED_NOTE.format(name=pair[0]), "new-game"))
                elif headers_only:
                    game.notes.append(Note(1, value, HEADERS_ONLY_NOTE, "new-game"))
                if not game.is_empty:
                    yield game
                game = RawGame(offset=offset)
                number = None
            if pair is not None:
                game.tags.append(pair)
                if named is game:
                    names.add(pair[0])
            elif not _WRAPPER.fullmatch(value):
                game.notes.append(Note(len(game.moves) + 1, value, BROKEN_TAG_NOTE))
        elif kind == "clock-comment":
            if game.moves:
                move = game.moves[-1]
                clk = _CLK.search(value)
                if clk:
                    move.clock = seconds_of(clk.group(1))
                emt = _EMT.search(value)
                if emt:
                    move.emt = seconds_of(emt.group(1))
        elif kind == "result":
            if game.result is not None:  # a second result: a new game without tags
                yield game
                game = RawGame(offset=offset)
            game.result = _RESULTS.get(value.translate(_RESULT_DASHES), value)
            result_token, number = value, None
        elif kind == "unreadable":
            if game.result is not None:
                yield game
                game = RawGame(offset=offset)
            game.moves.append(MoveToken(value, offset, unreadable=_UNREADABLE_REASONS.get(value)))
        elif kind == "stray":
            why = _STRAY_NOTES["((" if value == "(" and game.moves else value]
            last = game.notes[-1] if game.notes else None
            if last and (last.ply, last.text) == (len(game.moves) + 1, why) and len(last.token) < 16:
                # ``(((``: one note (up to 16 brackets, so that a megabyte of them is read in linear time)
                game.notes[-1] = Note(last.ply, last.token + value, why)
            else:
                game.notes.append(Note(len(game.moves) + 1, value, why))
    if ended is not None:
        ended.append(bool(game.moves) or game.result is not None)
    if not game.is_empty:
        yield game
