"""A broadcast's games as the claim form lists them: board, players, the last move, the clocks, the record.

Chess PGN is split by :func:`adjudicator.chess.movetext.split_games` (the reader the ruling uses;
each game's record is its own text, ``[%clk]`` comments and all); checkers PDN by
:func:`adjudicator.checkers.pdn.split_games`. Which board a game is on, the order of the boards and
each side's last clock are the domain's (:mod:`adjudicator.live.boards`, shared with the arbiter's
watch): the board from ``[Board]``, else from the ``b`` of ``[Round "r.b"]``, sorted as numbers; never
a game's place in the list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.checkers.pdn import read_game
from adjudicator.checkers.pdn import split_games as split_pdn
from adjudicator.chess.movetext import seconds_of
from adjudicator.chess.movetext import split_games as split_pgn
from adjudicator.live.boards import board_of, board_sort_key, last_clocks
from adjudicator.live.boards import round_of as round_of_tags
from web.broadcast.sources import Copy


@dataclass(frozen=True)
class Board:
    """One game of the broadcast."""

    key: str
    """``<file>#<n>``: the n-th game (from 0) of one of the source's files."""
    board: str | None
    """The board number (:func:`adjudicator.live.boards.board_of`), as text; None when the tags do not say."""
    round: str | None
    first_player: str | None
    second_player: str | None
    plies: int
    last_move: str | None
    """The last move as written, with its number (``34. Qe2``, ``34... Qe2``)."""
    result: str | None
    record: str
    first_clock: str | None = None
    """The first mover's last ``[%clk]`` as the clock form takes it (``1:05:00``); None without one."""
    second_clock: str | None = None

    @property
    def number(self) -> int | None:
        return int(self.board) if self.board is not None else None

    def matches(self, query: str) -> bool:
        """The TD's search: a board number (``7``, ``#7``, ``board 7``), else words of a player's name."""
        text = query.strip().lower()
        if not text:
            return True
        digits = re.fullmatch(r"(?:board\s*|#\s*)?(\d+)", text)
        if digits:
            return self.board == str(int(digits.group(1)))
        names = f"{self.first_player or ''} {self.second_player or ''}".lower()
        return all(word in names for word in re.split(r"[\s,]+", text) if word)


def clock_text(seconds: float | None) -> str | None:
    """A clock reading in seconds as the clock form's fields take it: ``h:mm:ss`` (tenths kept: a clock at
    ``0:00:00.4`` is not a flag down)."""
    if seconds is None:
        return None
    whole = int(seconds)
    rest = round(seconds - whole, 3)
    hours, minutes, secs = whole // 3600, whole // 60 % 60, whole % 60
    fraction = f"{rest:.3f}".rstrip("0").rstrip(".")[1:] if rest else ""
    return f"{hours}:{minutes:02d}:{secs:02d}{fraction}"


def _last(tokens: list[str], second_moves_first: bool = False) -> str | None:
    if not tokens:
        return None
    ply = len(tokens) + (1 if second_moves_first else 0)
    number = (ply + 1) // 2
    return f"{number}. {tokens[-1]}" if ply % 2 else f"{number}... {tokens[-1]}"


def _tag(tags: list[tuple[str, str]] | tuple[tuple[str, str], ...], name: str) -> str | None:
    value = next((v for k, v in tags if k.lower() == name.lower()), None)
    return value.strip() if value and value.strip() not in ("?", "-", "") else None


def _result(written: str | None) -> str | None:
    return written if written not in (None, "*") else None


def _board_text(tags: list[tuple[str, str]]) -> str | None:
    number = board_of(tags)
    return None if number is None else str(number)


_CLK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")


def _second_moves_first(game: str, tags: list[tuple[str, str]]) -> bool:
    """A set-up position with the second side to move: its moves come first (FEN ``... b ...``; PDN ``W:``)."""
    fen = _tag(tags, "FEN")
    if not fen:
        return False
    if game == "checkers":
        return fen.lstrip('"[ ').upper().startswith("W")
    fields = fen.split()
    return len(fields) > 1 and fields[1] == "b"


def games_of(copy: Copy, game: str = "chess") -> list[Board]:
    """Every game of every file of the copy, in the files' order."""
    found: list[Board] = []
    for name, text in copy.files:
        if game == "checkers":
            for n, part in enumerate(split_pdn(text)):
                read = read_game(part)
                tags = list(read.tags)
                swapped = _second_moves_first(game, tags)
                readings = [seconds_of(m.group(1)) if (m := _CLK.search(move.comment or "")) else None
                            for move in read.moves]
                clocks = last_clocks(readings, not swapped)
                found.append(Board(f"{name}#{n}", _board_text(tags), _tag(tags, "Round"), _tag(tags, "Black"),
                                   _tag(tags, "White"), len(read.moves),
                                   _last([m.text for m in read.moves], swapped), _result(read.result),
                                   part.strip() + "\n", clock_text(clocks.first), clock_text(clocks.second)))
            continue
        raws = list(split_pgn(text))
        for n, raw in enumerate(raws):
            end = raws[n + 1].offset if n + 1 < len(raws) else len(text)
            tags = list(raw.tags)
            swapped = _second_moves_first(game, tags)
            clocks = last_clocks([m.clock for m in raw.moves], not swapped)
            found.append(Board(f"{name}#{n}", _board_text(tags), _tag(tags, "Round"),
                               _tag(tags, "White"), _tag(tags, "Black"), len(raw.moves),
                               _last([m.text for m in raw.moves], swapped), _result(raw.result),
                               text[raw.offset:end].strip() + "\n", clock_text(clocks.first),
                               clock_text(clocks.second)))
    return found


def round_of(board: Board) -> int | None:
    """The round number of a game's Round tag (``3``, ``3.1`` is round 3), or None."""
    return round_of_tags([("Round", board.round or "")])


def round_boards(boards: list[Board], wanted: str | None) -> tuple[list[Board], int | None]:
    """The games of round ``wanted`` (the form's round) when the broadcast has any, else of its last round,
    in board order (as numbers: 2 before 10; games without a board last); with the round shown (None: the
    games carry no round)."""
    rounds = {r for r in (round_of(b) for b in boards) if r is not None}
    if wanted and wanted.strip().isdigit() and int(wanted) in rounds:
        chosen: int | None = int(wanted)
    else:
        chosen = max(rounds) if rounds else None
    shown = [b for b in boards if chosen is None or round_of(b) == chosen]
    return sorted(shown, key=lambda b: board_sort_key(b.number, _file_order(b.key))), chosen


def _file_order(key: str) -> str:
    """``<file>#<n>`` with ``n`` padded, so that games without a board keep their order in the file."""
    name, _, n = key.rpartition("#")
    return f"{name}#{int(n):08d}" if n.isdigit() else key
