"""Splitting a record into games: tag pairs, main-line move tokens, clock comments.

Lenient by design: tags are optional, comments may be unclosed, variations are
skipped at any depth (iteratively, so deep nesting costs nothing), NAGs and
annotation glyphs are dropped, move numbers may be ``12.``, ``12...``, ``12…`` or
a bare ``12``, and the result token ends a game. ``[%clk h:mm:ss]`` and
``[%emt h:mm:ss]`` in a comment after a move are kept for that move.
No I/O: the caller passes the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from adjudicator.notation import is_move_like

_LEXER = re.compile(
    r"""
    (?P<tag>\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
    |(?P<comment>\{[^}]*\}?)
    |(?P<line>;[^\n]*)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<nag>\$\d*)
    |(?P<result>(?:1-0|0-1|1/2-1/2|½-½|\*)(?=[\s{}()\[\];]|$))
    |(?P<number>\d+[ \t]*(?:\.+|…)+)
    |(?P<word>[^\s{}()\[\];]+(?:\([QRBNDTSLFACqrbndtslfac]\))?)
    |(?P<other>\S)
    """,
    re.VERBOSE,
)
_CLK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")
_EMT = re.compile(r"\[%emt\s+([0-9:.]+)\s*\]")
_ESCAPE = re.compile(r"(?m)^%[^\n]*$")
_PLAIN = re.compile(r"(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?|O-O(?:-O)?)[+#]?[!?]{0,2}")
_GLYPHS = re.compile(r"[!?+#=\-/±∓⩲⩱∞□⊕]+")
_SKIP = frozenset({"=", "(=)", "+-", "-+", "+/-", "-/+", "+=", "=+", "N", "TN", "Z0?", "ep", "e.p."})


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


@dataclass
class MoveToken:
    """One main-line move as written, with the clock comment that follows it."""

    text: str
    offset: int
    """Character offset in the record (to point at it)."""
    clock: float | None = None
    emt: float | None = None


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


def split_games(text: str) -> Iterator[RawGame]:
    """The games of a record, in order. Never raises on odd text: what is not a move is skipped."""
    if "%" in text:
        text = _ESCAPE.sub("", text)
    game = RawGame()
    depth = 0
    in_moves = False
    for match in _LEXER.finditer(text):
        kind = match.lastgroup
        if kind == "tag":
            if depth:
                continue
            if in_moves or game.result is not None:
                if not game.is_empty:
                    yield game
                game = RawGame(offset=match.start())
                in_moves = False
            value = match.group("value").replace('\\"', '"').replace("\\\\", "\\")
            game.tags.append((match.group("name"), value))
        elif kind == "comment":
            if depth or not game.moves:
                continue
            body = match.group()
            if "%" in body:
                last = game.moves[-1]
                clk = _CLK.search(body)
                if clk:
                    last.clock = seconds_of(clk.group(1))
                emt = _EMT.search(body)
                if emt:
                    last.emt = seconds_of(emt.group(1))
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "result":
            if depth:
                continue
            if game.result is not None:  # a second result: a new game without tags
                yield game
                game = RawGame(offset=match.start())
            game.result = match.group().replace("½-½", "1/2-1/2")
            in_moves = True
        elif kind == "word":
            if depth:
                continue
            word = match.group()
            if word != "--" and not _PLAIN.fullmatch(word) and (
                word in _SKIP or word.isdigit() or _GLYPHS.fullmatch(word) or not is_move_like(word)
            ):
                continue
            if game.result is not None:  # moves after a result: the next game, without tags
                yield game
                game = RawGame(offset=match.start())
            game.moves.append(MoveToken(word, match.start()))
            in_moves = True
    if not game.is_empty:
        yield game
