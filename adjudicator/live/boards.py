"""Which board a broadcast game is on, which game it is from one copy to the next, and its clocks.

DGT LiveChess often writes the board only in the round tag: ``[Round "3.12"]`` is round 3, board 12
(``shared/notes/watch.md``, *Sources of live records*). Boards are numbers, so they sort as numbers
(board 2 before board 10), never as text. A game is the same game from one copy to the next by its
``GameId`` tag, else by its round and players: boards get reordered mid-round, players do not change seats.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Tags = Iterable[tuple[str, str]]

_ROUND_BOARD = re.compile(r"^\s*(\d+)(?:\.(\d+))?")
_BLANK = ("", "?", "-")


def tag(tags: Tags, name: str) -> str | None:
    """A tag's value, stripped; None when absent or written as unknown (``?``, ``-``, empty)."""
    value = next((v for k, v in tags if k.lower() == name.lower()), None)
    if value is None or value.strip() in _BLANK:
        return None
    return value.strip()


def round_of(tags: Tags) -> int | None:
    """The round: ``[Round "3"]`` and ``[Round "3.12"]`` are both round 3."""
    found = _ROUND_BOARD.match(tag(tags, "Round") or "")
    return int(found.group(1)) if found else None


def board_of(tags: Tags) -> int | None:
    """The board: from ``[Board]``, else the ``b`` of ``[Round "r.b"]``; None when neither says."""
    tags = list(tags)
    written = tag(tags, "Board")
    if written is not None and written.isdigit():
        return int(written)
    found = _ROUND_BOARD.match(tag(tags, "Round") or "")
    if found and found.group(2) is not None:
        return int(found.group(2))
    return None


@dataclass(frozen=True)
class GameKey:
    """What makes a live game the same game in the next copy of the source."""

    game_id: str | None
    round: int | None
    players: tuple[str | None, str | None]

    @property
    def is_known(self) -> bool:
        return self.game_id is not None or any(self.players)


def game_key(tags: Tags, first_player: str = "White", second_player: str = "Black") -> GameKey:
    """The game's identity: its ``GameId`` when the source gives one, else its round and players
    (checkers PDN names the first mover ``Black``: pass the tag names in play order)."""
    tags = list(tags)
    return GameKey(tag(tags, "GameId"), round_of(tags), (tag(tags, first_player), tag(tags, second_player)))


def board_sort_key(board: int | None, fallback: str = "") -> tuple[int, int, str]:
    """Boards in number order (2 before 10); games without a board last, in ``fallback`` order."""
    return (0, board, fallback) if board is not None else (1, 0, fallback)


@dataclass(frozen=True)
class LastClocks:
    """Each side's last ``[%clk]`` reading, in seconds, in play order (the side that moved first, then the
    other); None where that side's moves carry no reading."""

    first: float | None
    second: float | None


def last_clocks(readings: Sequence[float | None], first_mover_moved_first: bool = True) -> LastClocks:
    """The last clock reading of each side from the per-ply readings of the record (``readings[i]`` follows
    ply ``i + 1``). ``first_mover_moved_first`` is False when the record starts with the second side's move
    (a set-up position with that side to move)."""
    first: float | None = None
    second: float | None = None
    for index, reading in enumerate(readings):
        if reading is None:
            continue
        by_first = (index % 2 == 0) == first_mover_moved_first
        if by_first:
            first = reading
        else:
            second = reading
    return LastClocks(first, second)
