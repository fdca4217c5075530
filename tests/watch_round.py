"""A live round as a DGT LiveChess export writes it, move by move (tests of the arbiter's watch).

Each board's game is written to ``round-3/game-N.pgn`` with ``[Round "3.N"]`` (no ``[Board]`` tag, as
LiveChess exports), a ``[%clk]`` after each move, ``*`` while in play. The steps follow what DGT boards do
(``shared/notes/watch.md``: a take-back rewriting the last plies, a file caught half-written, the king moves
made when the players set up the result, boards reordered mid-round, a clock missing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"] * 4
"""Board 1: the knights back and forth; the start position stands for the fifth time after ply 16."""


def clock(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def pgn(
    moves: Sequence[str], board: int, white: str, black: str, result: str = "*",
    clocks: Sequence[int | None] | None = None, game_id: str | None = None,
) -> str:
    """One game as LiveChess writes it; ``clocks[i]``: seconds after ply i+1 (None: no ``[%clk]``)."""
    tags = [("Event", "Open"), ("Site", "Hall"), ("Round", f"3.{board}"), ("White", white), ("Black", black),
            ("Result", result)]
    if game_id:
        tags.append(("GameId", game_id))
    body: list[str] = []
    for i, move in enumerate(moves):
        if i % 2 == 0:
            body.append(f"{i // 2 + 1}.")
        body.append(move)
        left = (clocks[i] if clocks is not None and i < len(clocks) else 5400 - 30 * i)
        if left is not None:
            body.append(f"{{[%clk {clock(left)}]}}")
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return f"{head}\n{' '.join([*body, result])}\n\n"


@dataclass(frozen=True)
class Step:
    """One write of the export: ``file`` gets ``text`` (``half`` of it when the read catches it mid-write)."""

    file: str
    text: str
    what: str

    def write(self, folder: Path) -> None:
        path = folder / self.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text, encoding="utf-8")


def game_file(board: int) -> str:
    return f"round-3/game-{board}.pgn"


ILLEGAL = ["e4", "e5", "f4", "Qh4+", "Nf3", "Nc6"]
"""Board 7: 3.Nf3 leaves the white king in check from h4 (an illegal move a player can make: FIDE 7.5.1)."""
FLAG_CLOCKS = [600, 590, 300, 580, 0, 570]
"""Board 3: White's clock shows 0:00:00 after 3.Bc4 (ply 5)."""
KINGS = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#", "Ke4", "Kd5"]
"""Board 4: scholar's mate, 1-0, then the two king moves a DGT board records when the result is set up."""


def steps() -> list[Step]:
    """The round, copy by copy (each step is read by the watch before the next is written)."""
    out: list[Step] = []
    # board 2: a game whose third ply carries no [%clk]; caught half-written once
    b2 = ["d4", "d5", "c4", "e6"]
    out.append(Step(game_file(2), pgn(b2, 2, "Carla", "Dmitri", clocks=[5400, 5390, None, 5380]), "missing clock"))
    whole_b2 = pgn([*b2, "Nc3"], 2, "Carla", "Dmitri", clocks=[5400, 5390, None, 5380, 5370])
    out.append(Step(game_file(2), whole_b2[: whole_b2.index("Nc3") + 2], "half-written"))
    out.append(Step(game_file(2), whole_b2, "whole again"))
    # board 1: the shuffle to ply 8 (a threefold claimable), a take-back of ply 8, then on to the fivefold
    for n in range(1, 9):
        out.append(Step(game_file(1), pgn(SHUFFLE[:n], 1, "Anna", "Boris"), f"board 1 ply {n}"))
    out.append(Step(game_file(1), pgn([*SHUFFLE[:7], "Nh5"], 1, "Anna", "Boris"), "take-back"))
    for n in range(8, 17):
        out.append(Step(game_file(1), pgn(SHUFFLE[:n], 1, "Anna", "Boris"), f"board 1 ply {n}"))
    # board 3: a flag at 0:00:00
    out.append(Step(game_file(3), pgn(["e4", "c5", "Nf3", "d6", "Bc4", "Nf6"], 3, "Elif", "Femi",
                                      clocks=FLAG_CLOCKS), "flag"))
    # board 4: mate, the result, and the king moves of setting up the result
    out.append(Step(game_file(4), pgn(KINGS, 4, "Gita", "Hugo", result="1-0"), "king moves"))
    # boards 5 and 6: the same game, first on board 5, then on board 6 (boards reordered mid-round)
    out.append(Step(game_file(5), pgn(["c4", "e5"], 5, "Ivan", "Jana", game_id="g-77"), "board 5"))
    out.append(Step(game_file(5), pgn(["c4", "e5", "Nc3"], 6, "Ivan", "Jana", game_id="g-77"), "board swap"))
    # board 7: an illegal move, then the opponent's reply
    out.append(Step(game_file(7), pgn(ILLEGAL[:5], 7, "Karl", "Lena"), "illegal move"))
    out.append(Step(game_file(7), pgn(ILLEGAL, 7, "Karl", "Lena"), "reply"))
    return out
