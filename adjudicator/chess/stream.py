"""Reading a collection of chess games piece by piece (``adjudicator replay`` streams), a game at a time.

:func:`stream_games` gives the same games :func:`adjudicator.chess.movetext.split_games`
finds in the whole text, holding at most one game and a few kilobytes; a game longer
than :data:`MAX_GAME_CHARS` is reported (:class:`OversizedGame`), not read. No I/O: the
caller passes the pieces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from adjudicator.chess.movetext import TAG_NAME, MoveToken, split_games

MAX_GAME_CHARS = 1_000_000
"""Longest single game a collection may hold: 20,000 plies with a clock comment on each fit in well under
1 MB. A game beyond it is reported (:class:`OversizedGame`), not read, so memory stays bounded."""

_CHECK_EVERY = 1 << 16
"""How much text :func:`stream_games` gathers before it hands on the games completed in it."""

_FULL_TAG = re.compile(rf'\[[ \t]*{TAG_NAME}[ \t]*"(?:[^"\\\n]|\\.)*"[ \t]*\]')
_TAG_LINE = re.compile(rf'[ \t\ufeff\u200b]*\[[ \t]*{TAG_NAME}[ \t]*"')


class SplitGame(Protocol):
    """A game as a splitter gives it: where it starts, and its main-line moves (a ``RawGame``, or a
    ``adjudicator.chess.bulk.games.CleanGame``, which starts with a tag line and lists none)."""

    @property
    def offset(self) -> int: ...

    @property
    def moves(self) -> Sequence[MoveToken]: ...


G = TypeVar("G", bound=SplitGame)


@dataclass(frozen=True)
class OversizedGame:
    """A game of a collection longer than the limit: skipped whole (to the next tag line)."""

    chars: int
    """How many characters it had."""
    limit: int


def _line_cut(text: str, games: Sequence[SplitGame]) -> int:
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
    pieces: Iterable[str], max_chars: int = MAX_GAME_CHARS, *, check_every: int = _CHECK_EVERY,
    split: Callable[[str], Iterable[G]] = split_games,  # type: ignore[assignment]
) -> Iterator[G | OversizedGame]:
    """The games of a collection read piece by piece (lines, or parts of long lines), in order.

    The same games :func:`split_games` finds in the whole text, holding at most one game
    and a few kilobytes: the text gathered so far is split, every game but the last
    (which may go on) is handed on, and the last one's text is kept. A game over
    ``max_chars`` gives an :class:`OversizedGame`, and reading goes on at the next line
    that starts with a tag. ``split``: the splitter (``adjudicator.chess.bulk.games.split_mixed``
    gives the same games, those the compiled reader reads as ``CleanGame``).
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
        games = list(split(text))
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
            games = list(split(text))
            cut = _line_cut(text, games)
            yield from _bounded([game for game in games if game.offset < cut], cut, max_chars)
            if len(text) - cut > max_chars:
                yield OversizedGame(len(text) - cut, max_chars)
            else:
                yield from (game for game in games if game.offset >= cut)
        else:
            yield from split(text)


def _bounded(games: list[G], end: int, max_chars: int) -> Iterator[G | OversizedGame]:
    """``games`` (the last one ending at ``end``), each longer than ``max_chars`` as an :class:`OversizedGame`."""
    ends = [*(g.offset for g in games[1:]), end] if games else []
    for game, after in zip(games, ends, strict=True):
        yield game if after - game.offset <= max_chars else OversizedGame(after - game.offset, max_chars)
