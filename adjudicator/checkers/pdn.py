"""A lenient PDN reader for American checkers: tags, move text, comments, results.

PDN (Portable Draughts Notation) writes moves by square numbers, ``11-15`` for a
move and ``15x24`` (or ``15x24x31``, or only ``15x31``) for a jump. Real files
are untidy, so this reader reads leniently, but visibly:

* quiet moves written with ``x`` (``10x14``) are read by their squares; the
  replay matches squares, not separators;
* text glued to a move (``26-22Whiteoversteppedthetimecontrolonthismove.``) is
  split off as the move's comment, and a note says so;
* move numbers are ``12.``, ``12...`` or ``12…``, and may be glued to their move (``1.11-15``);
* ``{...}`` and ``;`` comments (clock comments such as ``{[%clk 0:05:00]}``
  among them), ``(...)`` variations, NAGs (``$3``), glyphs (``!?``), ellipses and
  move numbers are kept apart from the moves; a result token (``1-0``, ``0-1``,
  ``1/2-1/2``, ``2-0``, ``0-2``, ``1-1``, ``0-0``, ``*``) ends the game's moves,
  and move text after it is the next game (:func:`split_games`).

**Invariant: every token is accounted for.** Each whitespace-separated word of the
main line is a move number, a move (legal or not: the replay decides), a result, a
comment, a NAG, a glyph, a variation, or it is *unreadable*. An unreadable token
(a square outside 1-32 such as ``33-37`` or ``0-33``, a move to its own square
``5-5``, a lone square or separator ``9x``, ``12-16-``, ``22``, ``x``, a word
``foo``, a stray ``)`` or ``}``, a variation or a comment with moves in it that
is never closed) is kept in :attr:`PdnGame.moves` at its place, with
:attr:`MoveToken.unreadable` saying why, so the replay stops there and names its
ply. Nothing is skipped silently, and an unreadable token never joins the move
next to it.

Nothing here knows the rules; :mod:`adjudicator.checkers.replay` plays the moves.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from adjudicator.chess.marks import continues, result_mark_note
from adjudicator.chess.movetext import DASHES, TAG_NAME
from adjudicator.chess.stream import MAX_GAME_CHARS, OversizedGame

_TAG = re.compile(rf'^\s*\[\s*({TAG_NAME})\s+"((?:[^"\\]|\\.)*)"\s*\]')
_LEXEME = re.compile(
    r"""
    (?P<comment>\{[^}]*\})
  | (?P<unclosed>\{[^}]*\Z)
  | (?P<line>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<stray>\})
  | (?P<space>\s+)
  | (?P<word>[^\s{}();]+)
    """,
    re.VERBOSE,
)
_RESULT_TOKENS = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0", "*"})
_NUMBER = re.compile(r"\d+(?:\.|…)+")
_ANNOTATION = re.compile(r"(?:[!?]+|\$\d+)+")
_DOTS = re.compile(r"(?:\.|…)+")
_MOVE = re.compile(r"(?P<number>\d+(?:\.|…)+)?(?P<move>\d{1,2}(?:[-x:]\d{1,2})+)(?P<rest>.*)", re.DOTALL)
_GLUED_TEXT = re.compile(r"(?!x\d)[A-Za-z]{2}")
"""Glued text read as a comment: it starts with two letters (``White...``), not ``x`` and a square."""
_MOVE_LIKE = re.compile(r"\d{1,2}[-x:]\d{1,2}|(?<!\S)(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|\*)(?!\S)")
_SQUARES = re.compile(r"\d+")

_DASHES = str.maketrans(dict.fromkeys(DASHES, "-"))
"""A result written with another dash (``1–0``, an en dash) is read with a hyphen, as in chess."""

RESULTS = {
    "1-0": "1-0", "2-0": "1-0", "0-1": "0-1", "0-2": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2",
    "1-1": "1/2-1/2",
}
"""Result tokens as written, mapped to the contract's strings (first mover's score first)."""


@dataclass(frozen=True)
class MoveToken:
    """One move (or one unreadable token standing where a move would) as written in the record."""

    text: str
    """The move as written, without glued text or move number (``10x14``)."""
    squares: tuple[int, ...]
    """The squares it names, in order (for an unreadable token: the numbers in it)."""
    is_capture_written: bool
    """Written with ``x`` (or ``:``): the writer says it is a jump (often wrongly)."""
    comment: str | None = None
    """A comment that follows the move (braces removed, glued text included)."""
    glued: str | None = None
    """Text glued to the move without a space or braces, as it stood."""
    unreadable: str | None = None
    """Why the token cannot be a move on a 1-32 board; None for a move."""
    number: str | None = None
    """The move number written since the previous move (``12.`` the first mover's, ``12...`` the second's), or
    None (:mod:`adjudicator.chess.numbering`)."""


@dataclass(frozen=True)
class PdnGame:
    """One game of a PDN file, read but not yet played."""

    tags: tuple[tuple[str, str], ...]
    moves: tuple[MoveToken, ...]
    """The main line's moves in order; the first unreadable token among them stops the replay."""
    result: str | None
    """The result token as written (any dash read as a hyphen), or None."""
    first_comment: str | None = None
    notes: tuple[str, ...] = field(default=())
    marks: tuple[tuple[int, str], ...] = ()
    """(ply, note) of each result written before the last move, the numbered moves going on after it."""

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None


def _ends_after_result(body: str) -> int | None:
    """Where the next game starts in ``body``: at move text after a result, else None."""
    depth = 0
    seen_result = False
    for m in _LEXEME.finditer(body):
        kind = m.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close" and depth:
            depth -= 1
        elif kind in ("word", "stray", "close") and not depth:
            if seen_result and not _goes_on(m.group()):
                return m.start()
            seen_result = m.group().translate(_DASHES) in _RESULT_TOKENS
    return None


def split_games(text: str) -> list[str]:
    """Split a multi-game PDN file into the text of each game.

    A tag line after move text starts a new game; so does move text after a result
    (a game written without tags).
    """
    chunks: list[list[str]] = []
    current: list[str] = []
    has_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and _TAG.match(stripped):
            if has_moves:
                chunks.append(current)
                current, has_moves = [], False
            current.append(line)
            continue
        if stripped:
            has_moves = True
        current.append(line)
    chunks.append(current)
    games: list[str] = []
    for lines in chunks:
        head = 0
        while head < len(lines) and (not lines[head].strip() or _TAG.match(lines[head])):
            head += 1
        header, body = "\n".join(lines[:head]), "\n".join(lines[head:])
        while True:
            cut = _ends_after_result(body)
            game = f"{header}\n{body[:cut]}" if cut is not None else f"{header}\n{body}"
            if game.strip():
                games.append(game.strip() + "\n")
            if cut is None:
                break
            header, body = "", body[cut:]
    return games


def stream_games(pieces: Iterable[str], max_chars: int = MAX_GAME_CHARS) -> Iterator[str | OversizedGame]:
    """The game texts :func:`split_games` gives for the whole file, from its lines read one by one.

    Streaming (``adjudicator replay --game checkers``): :func:`split_games` first cuts the
    file before each tag line that follows move text, and the parts are independent, so
    each part is split as soon as the next begins; at most one part is held. A part over
    ``max_chars`` gives an :class:`~adjudicator.chess.stream.OversizedGame` instead.
    """
    held: list[str] = []
    size = 0
    has_moves = False
    for line in _lines(pieces, max_chars):
        for sub in line.splitlines(keepends=True):
            stripped = sub.strip()
            if stripped.startswith("[") and _TAG.match(stripped):
                if has_moves:
                    yield from _part(held, size, max_chars)
                    held, size, has_moves = [], 0, False
            elif stripped:
                has_moves = True
            size += len(sub)
            if size <= max_chars:
                held.append(sub)
            else:
                held = []  # too long: only counted from here on
    yield from _part(held, size, max_chars)


def _part(held: list[str], size: int, max_chars: int) -> Iterator[str | OversizedGame]:
    if size > max_chars:
        yield OversizedGame(size, max_chars)
    elif held:
        yield from split_games("".join(held))


def _lines(pieces: Iterable[str], max_chars: int) -> Iterator[str]:
    """Whole lines from pieces of lines (a line beyond ``max_chars`` in parts: its game is too long anyway)."""
    partial: list[str] = []
    partial_size = 0
    for piece in pieces:
        partial.append(piece)
        partial_size += len(piece)
        if piece.endswith("\n") or partial_size > max_chars:
            yield "".join(partial)
            partial, partial_size = [], 0
    if partial:
        yield "".join(partial)


def _glued_number(word: str) -> str | None:
    """The move number glued to a move (``1.11-15``), if any."""
    m = _MOVE.fullmatch(word)
    return m.group("number") if m else None


def _goes_on(word: str) -> bool:
    """Whether a word after a result goes on with the game: a move number (alone or glued to its move) other
    than the first mover's ``1.`` (:mod:`adjudicator.chess.marks`)."""
    return continues(word if _NUMBER.fullmatch(word) else _glued_number(word))


def _read_word(word: str) -> tuple[str, MoveToken | None]:
    """Classify one main-line word: (kind, move token); kind is number, result, annotation or move."""
    if _NUMBER.fullmatch(word):
        return "number", None
    if word.translate(_DASHES) in _RESULT_TOKENS:
        return "result", None
    if _ANNOTATION.fullmatch(word) or _DOTS.fullmatch(word):
        return "annotation", None
    m = _MOVE.fullmatch(word)
    if m is None:
        numbers = tuple(int(x) for x in _SQUARES.findall(word))
        prefix = _NUMBER.match(word)
        text = word[prefix.end():] if prefix else word
        why = "a single square is no move" if len(numbers) == 1 else "it is no move on a 1-32 board"
        if not numbers:
            why = "it is neither a move nor a move number, result, comment or annotation"
        return "move", MoveToken(text or word, numbers, False, unreadable=why)
    written, rest = m.group("move"), m.group("rest")
    squares = tuple(int(x) for x in _SQUARES.findall(written))
    is_x = "x" in written or ":" in written
    outside = [s for s in squares if not 1 <= s <= 32]
    if outside:
        why = f"square {outside[0]} is not on the board (1-32)"
        return "move", MoveToken(written + rest, squares, is_x, unreadable=why)
    if any(a == b for a, b in zip(squares, squares[1:], strict=False)):
        return "move", MoveToken(written + rest, squares, is_x, unreadable="a piece cannot move to its own square")
    if not rest or _ANNOTATION.fullmatch(rest):
        return "move", MoveToken(written, squares, is_x, None, rest or None)
    if _GLUED_TEXT.match(rest):
        return "move", MoveToken(written, squares, is_x, rest, rest)
    return "move", MoveToken(written + rest, squares, is_x, unreadable=f"{rest!r} after the move is no square")


def join_split(parts: list[MoveToken]) -> MoveToken | None:
    """The move that tokens split by spacing make when written together (``5x`` ``14``: ``5x14``), or None
    when together they are no move either. Whether that reading stands is the replay's to say."""
    text = "".join(part.text for part in parts)
    kind, token = _read_word(text)
    if kind != "move" or token is None or token.unreadable is not None or token.comment:
        return None  # no move together either, or text glued on
    comments = [part.comment for part in parts if part.comment]
    return MoveToken(token.text, token.squares, token.is_capture_written, " ".join(comments) or None, token.glued,
                     number=parts[0].number)


def read_game(text: str) -> PdnGame:
    """Read one game's tags and move text; stops at the first result token.

    Every main-line token is classified (see the module's invariant); variations and
    comments are kept out of the moves, unreadable tokens stay in them.
    """
    tags: list[tuple[str, str]] = []
    body_lines: list[str] = []
    in_body = False
    for line in text.splitlines():
        m = _TAG.match(line) if not in_body else None
        if m:
            tags.append((m.group(1), m.group(2).replace('\\"', '"')))
            rest = line[m.end():].strip()
            if rest:
                body_lines.append(rest)
                in_body = True
        elif line.strip():
            in_body = True
            body_lines.append(line)
    body = "\n".join(body_lines)
    moves: list[MoveToken] = []
    notes: list[str] = []
    first_comment: str | None = None
    result: str | None = None
    depth = 0
    opened_at = 0
    unclosed: tuple[int, str] | None = None
    number: str | None = None

    def attach(comment: str) -> None:
        nonlocal first_comment
        if moves:
            last = moves[-1]
            joined = comment if last.comment is None else f"{last.comment} {comment}"
            moves[-1] = MoveToken(last.text, last.squares, last.is_capture_written, joined, last.glued, last.unreadable)
        else:
            first_comment = comment if first_comment is None else f"{first_comment} {comment}"

    marks: list[tuple[int, str]] = []
    written = ""
    for lexeme in _LEXEME.finditer(body):
        kind, raw = lexeme.lastgroup, lexeme.group()
        if kind == "space":
            continue
        if result is not None:  # after a result: the game's moves go on only under a move number that goes on
            if kind != "word":
                continue
            if not _goes_on(raw):
                break
            last = moves[-1].text if moves else ""
            marks.append((len(moves) + 1, result_mark_note(written, len(moves), last)))
            notes.append(f"ply {len(moves) + 1}: {marks[-1][1]}")
            result = None
        if kind == "open":
            if not depth:
                opened_at = lexeme.start()
            depth += 1
            continue
        if kind == "close" and depth:
            depth -= 1
            continue
        if depth:  # inside a variation: not the game's moves
            continue
        if kind in ("close", "stray"):
            what = "variation" if raw == ")" else "comment"
            moves.append(MoveToken(raw, (), False, unreadable=f"it closes a {what} that was never opened"))
        elif kind == "unclosed":  # always the last lexeme
            if _MOVE_LIKE.search(raw):  # moves in it cannot be told from the game's
                unclosed = (lexeme.start(), "comment")
            else:
                notes.append("a comment is never closed: it runs to the end of the record")
                attach(raw[1:].strip())
        elif kind in ("comment", "line"):
            attach((raw[1:-1] if kind == "comment" else raw[1:]).strip())
        else:
            word_kind, token = _read_word(raw)
            if word_kind == "result":
                result, written = raw.translate(_DASHES), raw
                continue
            if word_kind == "number":
                number = raw
            if token is not None:
                token = dataclasses.replace(token, number=_glued_number(raw) or number)
                number = None
                moves.append(token)
                if token.glued and token.comment:
                    notes.append(f"text glued to move {token.text}: {token.glued!r}")
    if depth:
        unclosed = (opened_at, "variation")
    if unclosed is not None:
        start, what = unclosed
        shown = re.sub(r"\s+", " ", body[start:start + 24]).strip()
        moves.append(MoveToken(shown, (), False, unreadable=f"a {what} is opened here and never closed"))
    return PdnGame(tuple(tags), tuple(moves), result, first_comment, tuple(notes), tuple(marks))


__all__ = ["MoveToken", "PdnGame", "RESULTS", "join_split", "read_game", "split_games"]
