"""A broadcast's games as the claim form lists them: board, players, the last move, the record.

Chess PGN is split by :func:`adjudicator.chess.movetext.split_games` (the reader the ruling uses;
each game's record is its own text, ``[%clk]`` comments and all); checkers PDN by
:func:`adjudicator.checkers.pdn.split_games`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.checkers.pdn import read_game
from adjudicator.checkers.pdn import split_games as split_pdn
from adjudicator.chess.movetext import split_games as split_pgn
from web.broadcast import Copy


@dataclass(frozen=True)
class Board:
    """One game of the broadcast."""

    key: str
    """``<file>#<n>``: the n-th game (from 0) of one of the source's files."""
    board: str | None
    round: str | None
    first_player: str | None
    second_player: str | None
    plies: int
    last_move: str | None
    """The last move as written, with its number (``34. Qe2``, ``34... Qe2``)."""
    result: str | None
    record: str


def _last(tokens: list[str]) -> str | None:
    if not tokens:
        return None
    ply = len(tokens)
    number = (ply + 1) // 2
    return f"{number}. {tokens[-1]}" if ply % 2 else f"{number}... {tokens[-1]}"


def _tag(tags: list[tuple[str, str]] | tuple[tuple[str, str], ...], name: str) -> str | None:
    value = next((v for k, v in tags if k.lower() == name.lower()), None)
    return value.strip() if value and value.strip() not in ("?", "-", "") else None


def _result(written: str | None) -> str | None:
    return written if written not in (None, "*") else None


def games_of(copy: Copy, game: str = "chess") -> list[Board]:
    """Every game of every file of the copy, in the files' order."""
    found: list[Board] = []
    for name, text in copy.files:
        if game == "checkers":
            for n, part in enumerate(split_pdn(text)):
                read = read_game(part)
                tags = list(read.tags)
                found.append(Board(f"{name}#{n}", _tag(tags, "Board"), _tag(tags, "Round"), _tag(tags, "Black"),
                                   _tag(tags, "White"), len(read.moves), _last([m.text for m in read.moves]),
                                   _result(read.result), part.strip() + "\n"))
            continue
        raws = list(split_pgn(text))
        for n, raw in enumerate(raws):
            end = raws[n + 1].offset if n + 1 < len(raws) else len(text)
            found.append(Board(f"{name}#{n}", _tag(raw.tags, "Board"), _tag(raw.tags, "Round"),
                               _tag(raw.tags, "White"), _tag(raw.tags, "Black"), len(raw.moves),
                               _last([m.text for m in raw.moves]), _result(raw.result),
                               text[raw.offset:end].strip() + "\n"))
    return found


_ROUND = re.compile(r"^\s*(\d+)")


def round_of(board: Board) -> int | None:
    """The round number of a game's Round tag (``3``, ``3.1`` is round 3), or None."""
    found = _ROUND.match(board.round or "")
    return int(found.group(1)) if found else None


def round_boards(boards: list[Board], wanted: str | None) -> tuple[list[Board], int | None]:
    """The games of round ``wanted`` (the form's round) when the broadcast has any, else of its last round;
    with the round shown (None: the games carry no round)."""
    rounds = {r for r in (round_of(b) for b in boards) if r is not None}
    if wanted and wanted.strip().isdigit() and int(wanted) in rounds:
        chosen: int | None = int(wanted)
    else:
        chosen = max(rounds) if rounds else None
    shown = [b for b in boards if chosen is None or round_of(b) == chosen]
    return sorted(shown, key=lambda b: (int(b.board) if b.board and b.board.isdigit() else 10_000, b.key)), chosen
