"""Splitting a record into games: tag pairs, main-line move tokens, clock comments.

Every token of the movetext is accounted for (FIDE 8.1: the scoresheet is the
record of the game, so nothing on it may be dropped unseen). :func:`tokens`
gives each one its :data:`TokenKind`:

- ``tag`` (a tag pair, or a broken tag line in the header), ``move-number``
  (``12.``, ``12...``, ``12…``, a bare ``12``, continuation dots), ``result``,
  ``comment`` (``{...}``, ``;`` to the end of the line, ``%`` escape lines),
  ``clock-comment`` (a comment holding ``[%clk]`` or ``[%emt]``), ``nag``
  (``$14``), ``glyph`` (``!?``, ``+-``, ``=``, ``N``, ``e.p.``), ``variation``
  (the parentheses and everything inside them, at any depth);
- ``move``: every other word of the main line. The replay reads it as a legal
  move, an illegal move as played, or an *unreadable* token, and an unreadable
  token stops the replay at its ply (:mod:`adjudicator.chess.replay`);
- ``unreadable``: what the splitter already knows is no move: a stray ``]`` or
  ``}``, a variation or comment that is never closed and so swallows the moves
  after it. These are main-line tokens too: the replay stops at them.

The invariant: the main-line tokens of a game (``move`` and ``unreadable``) are
exactly :attr:`RawGame.moves`, in order, so the n-th of them is ply n.
Lenient by design (tags optional, any move-number style, deep variations cost
nothing), but never silent. No I/O: the caller passes the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

TokenKind = Literal[
    "tag", "move-number", "result", "comment", "clock-comment", "nag", "glyph", "variation", "move", "unreadable"
]

_LEXER = re.compile(
    r"""
    (?P<tag>\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
    |(?P<comment>\{[^}]*\}?)
    |(?P<line>;[^\n]*)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<nag>\$\d*)
    |(?P<result>(?:1-0|0-1|1/2-1/2|½-½|1:0|0:1|1/2:1/2|½:½|1/2|½|\*)(?=[\s{}()\[\];]|$))
    |(?P<number>\d+[ \t]*(?:\.+|…)+)
    |(?P<word>[^\s{}()\[\];]+(?:\([QRBNDTSLFACqrbndtslfac]\))?)
    |(?P<other>\S)
    """,
    re.VERBOSE,
)
_RESULTS = {"½-½": "1/2-1/2", "1:0": "1-0", "0:1": "0-1", "1/2:1/2": "1/2-1/2", "½:½": "1/2-1/2",
            "1/2": "1/2-1/2", "½": "1/2-1/2"}
_CLK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")
_EMT = re.compile(r"\[%emt\s+([0-9:.]+)\s*\]")
_ESCAPE = re.compile(r"(?m)^%[^\n]*$")
_PLAIN = re.compile(r"(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?|O-O(?:-O)?)[+#]?[!?]{0,2}")
_GLYPHS = re.compile(r"[!?+#=\-/±∓⩲⩱∞□⊕]+")
_BROKEN_TAG = re.compile(r'[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"')
_DOTS = re.compile(r"(?:\.|…)+")
_ASSESSMENTS = frozenset({"(=)", "N", "TN", "Z0?", "ep", "e.p.", "e.p"})
"""Words that are annotations, not moves: a draw offer, a novelty, en passant written apart."""
_NULL_MOVES = frozenset({"--", "0000"})
"""Null moves (7.5.3) that would otherwise pass for a glyph or a move number (``0000`` is no number: no
move number has leading zeros); ``Z0`` and ``@@@@`` are moves by default."""
_SWALLOWED = re.compile(r"\d+\s*\.|(?:1-0|0-1|1/2-1/2)(?:\s|$)|^\s*\[", re.M)
"""What an unclosed comment must hold for it to have swallowed moves."""


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


def word_kind(word: str) -> TokenKind:
    """What a main-line word is: a move (to be read), or a known non-move."""
    if word in _NULL_MOVES or _PLAIN.fullmatch(word):
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


@dataclass
class RawGame:
    """A game as written: tags, main-line move tokens, the result token."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    moves: list[MoveToken] = field(default_factory=list)
    result: str | None = None
    offset: int = 0

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
    for kind, value, start in _scan(text):
        yield Token(kind, value, start)


_SIMPLE: dict[str | None, TokenKind] = {"line": "comment", "nag": "nag", "result": "result", "number": "move-number"}


def _scan(text: str) -> Iterator[tuple[TokenKind, str, int]]:
    """(kind, text, offset) of every token: :func:`tokens` without the objects, for speed."""
    if "%" in text:
        text = _ESCAPE.sub(lambda m: " " * len(m.group()), text)
    if "\ufeff" in text or "\u200b" in text:  # byte-order marks and zero-width spaces are spacing
        text = text.replace("\ufeff", " ").replace("\u200b", " ")
    depth = 0
    opened = 0
    started = False
    skip = 0
    plain = _PLAIN.fullmatch
    for match in _LEXER.finditer(text):
        kind, value, start = match.lastgroup, match.group(), match.start()
        if start < skip:
            continue
        if kind == "word" and not depth:
            word = "move" if plain(value) else word_kind(value)
            started = started or word == "move"
            yield word, value, start
        elif kind == "open":
            if not depth:
                opened = start
            depth += 1
            yield "variation", value, start
        elif kind == "close":
            yield ("variation" if depth else "unreadable"), value, start
            depth = max(0, depth - 1)
        elif kind == "tag":
            if depth:  # a new game's tags: the variation before them was never closed
                depth = 0
                yield "unreadable", "(", opened
            started = False
            yield "tag", value, start
        elif depth:
            yield "variation", value, start
        elif kind == "comment":
            if not value.endswith("}") and _SWALLOWED.search(value):
                yield "unreadable", "{", start
            else:
                yield ("clock-comment" if "[%" in value else "comment"), value, start
        elif kind in _SIMPLE:
            yield _SIMPLE[kind], value, start
        elif value == "[" and not started and _BROKEN_TAG.match(text, text.rfind("\n", 0, start) + 1):
            end = text.find("\n", start)  # a broken tag line in the header (``[Event "x`` unclosed)
            skip = len(text) if end < 0 else end
            yield "tag", text[start:skip], start
        else:
            started = True
            yield "unreadable", value, start
    if depth:  # the text ends inside a variation
        yield "unreadable", "(", opened


_UNREADABLE_REASONS = {
    "(": "a variation opened here is never closed, so the moves after it cannot be told from it",
    "{": "a comment opened here is never closed and swallows the moves after it",
    ")": "a stray ')' with no variation open",
    "]": "a stray ']' outside any tag",
    "}": "a stray '}' outside any comment",
    "[": "a stray '[' in the moves",
}


def split_games(text: str) -> Iterator[RawGame]:
    """The games of a record, in order. Never raises on odd text, and never drops a main-line token."""
    game = RawGame()
    for kind, value, offset in _scan(text):
        if kind == "move":
            if game.result is not None:  # moves after a result: the next game, without tags
                yield game
                game = RawGame(offset=offset)
            game.moves.append(MoveToken(value, offset))
        elif kind == "tag":
            if game.moves or game.result is not None:
                if not game.is_empty:
                    yield game
                game = RawGame(offset=offset)
            if value.endswith("]") and (match := _LEXER.match(value)) and match.lastgroup == "tag":
                tag = match.group("value").replace('\\"', '"').replace("\\\\", "\\")
                game.tags.append((match.group("name"), tag))
        elif kind == "clock-comment":
            if game.moves:
                last = game.moves[-1]
                clk = _CLK.search(value)
                if clk:
                    last.clock = seconds_of(clk.group(1))
                emt = _EMT.search(value)
                if emt:
                    last.emt = seconds_of(emt.group(1))
        elif kind == "result":
            if game.result is not None:  # a second result: a new game without tags
                yield game
                game = RawGame(offset=offset)
            game.result = _RESULTS.get(value, value)
        elif kind == "unreadable":
            if game.result is not None:
                yield game
                game = RawGame(offset=offset)
            game.moves.append(MoveToken(value, offset, unreadable=_UNREADABLE_REASONS.get(value)))
    if not game.is_empty:
        yield game



MAX_GAME_CHARS = 1_000_000
"""Longest single game a collection may hold: 20,000 plies with a clock comment on each fit in well under
1 MB. A game beyond it is reported (:class:`OversizedGame`), not read, so memory stays bounded."""

_CHECK_EVERY = 1 << 16
"""How much text :func:`stream_games` gathers before it hands on the games completed in it."""

_FULL_TAG = re.compile(r'\[[ \t]*[A-Za-z0-9_]+[ \t]*"(?:[^"\\\n]|\\.)*"[ \t]*\]')
_TAG_LINE = re.compile(r'[ \t\ufeff\u200b]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"')


@dataclass(frozen=True)
class OversizedGame:
    """A game of a collection longer than the limit: skipped whole (to the next tag line)."""

    chars: int
    """How many characters it had."""
    limit: int


def _line_cut(text: str, games: list[RawGame]) -> int:
    """Where the games still open begin: the last game (after the first) that starts a line, else 0.

    Cutting only at a line start that holds a tag or a move keeps every token read as in
    the whole text (``%`` escape lines and broken tag lines are told by how their line
    starts, and by whether a move came before).
    """
    for game in reversed(games[1:]):
        if text[game.offset - 1] != "\n":
            continue
        starts_with_move = bool(game.moves) and game.moves[0].offset == game.offset and not game.moves[0].unreadable
        if starts_with_move or _FULL_TAG.match(text, game.offset):  # the lexer's state there is a fresh one's
            return game.offset
    return 0


def stream_games(
    pieces: Iterable[str], max_chars: int = MAX_GAME_CHARS, *, check_every: int = _CHECK_EVERY
) -> Iterator[RawGame | OversizedGame]:
    """The games of a collection read piece by piece (lines, or parts of long lines), in order.

    The same games :func:`split_games` finds in the whole text, holding at most one game
    and a few kilobytes: the text gathered so far is split, every game but the last
    (which may go on) is handed on, and the last one's text is kept. A game over
    ``max_chars`` gives an :class:`OversizedGame`, and reading goes on at the next line
    that starts with a tag.
    """
    held: list[str] = []
    size = since_check = 0
    skipped = 0  # > 0: inside an oversized game, looking for the next tag line
    at_line_start = True
    for piece in pieces:
        line_start, at_line_start = at_line_start, piece.endswith("\n")
        if skipped:
            if not (line_start and _TAG_LINE.match(piece)):
                skipped += len(piece)
                continue
            yield OversizedGame(skipped, max_chars)
            skipped = 0
        held.append(piece)
        size += len(piece)
        since_check += len(piece)
        if since_check < check_every:
            continue
        since_check = 0
        text = "".join(held)
        games = list(split_games(text))
        cut = _line_cut(text, games)
        yield from _bounded([game for game in games if game.offset < cut], cut, max_chars)
        rest = text[cut:] if games or text.strip() else ""  # spacing alone is dropped
        held, size = [rest], len(rest)
        if size > max_chars:
            held, size, skipped = [], 0, size
    if skipped:
        yield OversizedGame(skipped, max_chars)
    elif held:
        text = "".join(held)
        if size > max_chars:
            games = list(split_games(text))
            cut = _line_cut(text, games)
            yield from _bounded([game for game in games if game.offset < cut], cut, max_chars)
            if len(text) - cut > max_chars:
                yield OversizedGame(len(text) - cut, max_chars)
            else:
                yield from (game for game in games if game.offset >= cut)
        else:
            yield from split_games(text)


def _bounded(games: list[RawGame], end: int, max_chars: int) -> Iterator[RawGame | OversizedGame]:
    """``games`` (the last one ending at ``end``), each longer than ``max_chars`` as an :class:`OversizedGame`."""
    ends = [*(g.offset for g in games[1:]), end] if games else []
    for game, after in zip(games, ends, strict=True):
        yield game if after - game.offset <= max_chars else OversizedGame(after - game.offset, max_chars)
