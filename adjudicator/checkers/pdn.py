"""A lenient PDN reader for American checkers: tags, move text, comments, results.

PDN (Portable Draughts Notation) writes moves by square numbers, ``11-15`` for a
move and ``15x24`` (or ``15x24x31``, or only ``15x31``) for a jump. Real files
are untidy, so this reader keeps going where a strict one would stop:

* quiet moves written with ``x`` (``10x14``) are read by their squares; the
  replay matches squares, not separators;
* text glued to a move (``26-22Whiteoversteppedthetimecontrolonthismove.``) is
  split off as the move's comment;
* ``{...}`` and ``;`` comments, ``(...)`` variations, NAGs and move numbers are
  kept apart from the moves; any result token (``1-0``, ``0-1``, ``1/2-1/2``,
  ``2-0``, ``0-2``, ``1-1``, ``*``) ends the game's moves.

Nothing here knows the rules; :mod:`adjudicator.checkers.replay` plays the moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TAG = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(
    r"""
    (?P<comment>\{[^}]*\}?)
  | (?P<line>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<result>(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)(?=[\s{(]|$))
  | (?P<number>\d+\.+)
  | (?P<move>\d{1,2}(?:\s*[-x:]\s*\d{1,2})+)(?P<glued>[^\s{}()]*)
  | (?P<nag>\$\d+|[!?]+)
  | (?P<dots>\.+)
  | (?P<other>[^\s{}();]+)
    """,
    re.VERBOSE,
)
_SQUARES = re.compile(r"\d{1,2}")

RESULTS = {"1-0": "1-0", "2-0": "1-0", "0-1": "0-1", "0-2": "0-1", "1/2-1/2": "1/2-1/2", "1-1": "1/2-1/2"}
"""Result tokens as written, mapped to the contract's strings (first mover's score first)."""


@dataclass(frozen=True)
class MoveToken:
    """One move as written in the record."""

    text: str
    """The move as written, without glued text (``10x14``)."""
    squares: tuple[int, ...]
    """The squares it names, in order."""
    is_capture_written: bool
    """Written with ``x`` (or ``:``): the writer says it is a jump (often wrongly)."""
    comment: str | None = None
    """A comment that follows the move (braces removed, glued text included)."""
    glued: str | None = None
    """Text glued to the move without a space or braces, as it stood."""


@dataclass(frozen=True)
class PdnGame:
    """One game of a PDN file, read but not yet played."""

    tags: tuple[tuple[str, str], ...]
    moves: tuple[MoveToken, ...]
    result: str | None
    """The result token as written, or None."""
    unknown: tuple[str, ...] = ()
    """Tokens in the move text that are neither moves, numbers, comments nor results."""
    first_comment: str | None = None
    notes: tuple[str, ...] = field(default=())

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None


def split_games(text: str) -> list[str]:
    """Split a multi-game PDN file into the text of each game.

    A tag line after move text starts a new game; so does move text after a result.
    """
    games: list[list[str]] = []
    current: list[str] = []
    has_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and _TAG.match(stripped):
            if has_moves:
                games.append(current)
                current, has_moves = [], False
            current.append(line)
            continue
        if stripped:
            has_moves = True
        current.append(line)
    if has_moves or any(line.strip() for line in current):
        games.append(current)
    return ["\n".join(lines).strip() + "\n" for lines in games if any(x.strip() for x in lines)]


def read_game(text: str) -> PdnGame:
    """Read one game's tags and move text; stops at the first result token."""
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
    unknown: list[str] = []
    notes: list[str] = []
    first_comment: str | None = None
    result: str | None = None
    depth = 0
    for m in _TOKEN.finditer(body):
        kind = m.lastgroup
        if kind == "glued":  # lastgroup names the last group matched: the move with glued text
            kind = "move"
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            depth = max(0, depth - 1)
            continue
        if depth:
            continue
        if kind in ("comment", "line"):
            raw = m.group(0)
            text = raw[1:-1] if raw.startswith("{") and raw.endswith("}") else raw[1:]
            text = text.strip()
            if moves:
                last = moves[-1]
                joined = text if last.comment is None else f"{last.comment} {text}"
                moves[-1] = MoveToken(last.text, last.squares, last.is_capture_written, joined, last.glued)
            else:
                first_comment = text if first_comment is None else f"{first_comment} {text}"
            continue
        if kind == "result":
            result = m.group("result")
            break
        if kind == "move":
            written = re.sub(r"\s+", "", m.group("move"))
            glued = m.group("glued") or None
            squares = tuple(int(x) for x in _SQUARES.findall(written))
            comment: str | None = None
            if glued and not re.fullmatch(r"[!?]+", glued):
                comment = glued
                notes.append(f"text glued to move {written}: {glued!r}")
            moves.append(MoveToken(written, squares, "x" in written or ":" in written, comment, glued))
            continue
        if kind == "other":
            token = m.group(0)
            if any(ch.isdigit() for ch in token):  # meant as a move, but not one: the replay stops there
                moves.append(MoveToken(token, (), False))
            else:
                unknown.append(token)
    return PdnGame(tuple(tags), tuple(moves), result, tuple(unknown), first_comment, tuple(notes))


__all__ = ["MoveToken", "PdnGame", "RESULTS", "read_game", "split_games"]
