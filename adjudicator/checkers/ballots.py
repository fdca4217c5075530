"""Balloted openings for American checkers (ACF), as data.

* The ACF three-move deck: 174 ACF-numbered openings, 156 in the tournament deck
  (144 historic cross-board + 12 added in 2003) and 18 barred. Unlike pydraughts'
  ballot file (which lists #13 twice and omits the barred #26), this list is the
  ACF numbering: ``THREE_MOVE[n - 1]`` is ACF #n.
* The 11-man ballot (Newell Banks, 1907; README 3.3) is computed from its rule in
  :func:`eleven_man_positions` rather than stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from adjudicator.checkers.board import BACK, NEIGHBOUR, START, Move, Position

Status = Literal["deck", "barred"]


@dataclass(frozen=True)
class Ballot:
    """One ACF three-move ballot."""

    number: int
    """The ACF number (1-174)."""
    moves: str
    """The three opening moves (``9-13 21-17 5-9``)."""
    status: Status
    """``deck``: in the 156-opening tournament deck; ``barred``: not played."""

    @property
    def is_in_deck(self) -> bool:
        return self.status == "deck"

    def position(self) -> Position:
        """The position after the three moves (White to move)."""
        position = START
        for token in self.moves.split():
            position = position.push(_find(position, token))
        return position


_THREE_MOVE: Final[tuple[tuple[int, str, Status], ...]] = (
    (1, "9-13 21-17 5-9", "deck"),
    (2, "9-13 21-17 6-9", "deck"),
    (3, "9-13 21-17 10-14", "barred"),
    (4, "9-13 22-17 13x22", "deck"),
    (5, "9-13 22-18 6-9", "deck"),
    (6, "9-13 22-18 10-14", "deck"),
    (7, "9-13 22-18 10-15", "deck"),
    (8, "9-13 22-18 11-15", "deck"),
    (9, "9-13 22-18 11-16", "deck"),
    (10, "9-13 22-18 12-16", "deck"),
    (11, "9-13 23-18 5-9", "deck"),
    (12, "9-13 23-18 6-9", "deck"),
    (13, "9-13 23-18 10-14", "barred"),
    (14, "9-13 23-18 10-15", "deck"),
    (15, "9-13 23-18 11-15", "deck"),
    (16, "9-13 23-18 11-16", "deck"),
    (17, "9-13 23-18 12-16", "deck"),
    (18, "9-13 23-19 5-9", "deck"),
    (19, "9-13 23-19 6-9", "deck"),
    (20, "9-13 23-19 10-14", "deck"),
    (21, "9-13 23-19 10-15", "deck"),
    (22, "9-13 23-19 11-16", "deck"),
    (23, "9-13 24-19 5-9", "deck"),
    (24, "9-13 24-19 6-9", "deck"),
    (25, "9-13 24-19 10-14", "deck"),
    (26, "9-13 24-19 10-15", "barred"),
    (27, "9-13 24-19 11-15", "deck"),
    (28, "9-13 24-19 11-16", "deck"),
    (29, "9-13 24-20 5-9", "deck"),
    (30, "9-13 24-20 6-9", "deck"),
    (31, "9-13 24-20 10-14", "deck"),
    (32, "9-13 24-20 10-15", "deck"),
    (33, "9-13 24-20 11-15", "deck"),
    (34, "9-13 24-20 11-16", "deck"),
    (35, "9-13 24-20 12-16", "barred"),
    (36, "9-14 22-17 5-9", "deck"),
    (37, "9-14 22-17 6-9", "deck"),
    (38, "9-14 22-17 11-15", "deck"),
    (39, "9-14 22-17 11-16", "deck"),
    (40, "9-14 22-18 5-9", "deck"),
    (41, "9-14 22-18 10-15", "deck"),
    (42, "9-14 22-18 11-15", "deck"),
    (43, "9-14 22-18 11-16", "deck"),
    (44, "9-14 22-18 12-16", "barred"),
    (45, "9-14 22-18 14-17", "barred"),
    (46, "9-14 23-18 14x23", "deck"),
    (47, "9-14 23-19 5-9", "deck"),
    (48, "9-14 23-19 10-15", "barred"),
    (49, "9-14 23-19 11-16", "deck"),
    (50, "9-14 23-19 14-18", "deck"),
    (51, "9-14 24-19 5-9", "deck"),
    (52, "9-14 24-19 10-15", "barred"),
    (53, "9-14 24-19 11-15", "deck"),
    (54, "9-14 24-19 11-16", "deck"),
    (55, "9-14 24-20 5-9", "deck"),
    (56, "9-14 24-20 10-15", "deck"),
    (57, "9-14 24-20 11-15", "deck"),
    (58, "9-14 24-20 11-16", "deck"),
    (59, "10-14 22-17 7-10", "deck"),
    (60, "10-14 22-17 9-13", "deck"),
    (61, "10-14 22-17 11-15", "deck"),
    (62, "10-14 22-17 11-16", "deck"),
    (63, "10-14 22-17 14-18", "deck"),
    (64, "10-14 22-18 6-10", "deck"),
    (65, "10-14 22-18 7-10", "deck"),
    (66, "10-14 22-18 11-15", "deck"),
    (67, "10-14 22-18 11-16", "deck"),
    (68, "10-14 22-18 12-16", "deck"),
    (69, "10-14 23-18 14x23", "deck"),
    (70, "10-14 23-19 6-10", "deck"),
    (71, "10-14 23-19 7-10", "deck"),
    (72, "10-14 23-19 11-15", "deck"),
    (73, "10-14 23-19 11-16", "deck"),
    (74, "10-14 23-19 14-18", "deck"),
    (75, "10-14 24-19 6-10", "deck"),
    (76, "10-14 24-19 7-10", "deck"),
    (77, "10-14 24-19 11-15", "barred"),
    (78, "10-14 24-19 11-16", "deck"),
    (79, "10-14 24-19 14-18", "deck"),
    (80, "10-14 24-20 6-10", "deck"),
    (81, "10-14 24-20 7-10", "deck"),
    (82, "10-14 24-20 11-15", "deck"),
    (83, "10-14 24-20 11-16", "deck"),
    (84, "10-14 24-20 14-18", "deck"),
    (85, "10-15 21-17 6-10", "deck"),
    (86, "10-15 21-17 7-10", "deck"),
    (87, "10-15 21-17 9-13", "deck"),
    (88, "10-15 21-17 9-14", "barred"),
    (89, "10-15 21-17 11-16", "deck"),
    (90, "10-15 21-17 15-18", "deck"),
    (91, "10-15 22-17 6-10", "deck"),
    (92, "10-15 22-17 7-10", "deck"),
    (93, "10-15 22-17 9-13", "deck"),
    (94, "10-15 22-17 9-14", "barred"),
    (95, "10-15 22-17 11-16", "deck"),
    (96, "10-15 22-17 15-19", "deck"),
    (97, "10-15 22-18 15x22", "deck"),
    (98, "10-15 23-18 6-10", "deck"),
    (99, "10-15 23-18 7-10", "deck"),
    (100, "10-15 23-18 9-14", "deck"),
    (101, "10-15 23-18 11-16", "deck"),
    (102, "10-15 23-18 12-16", "deck"),
    (103, "10-15 23-19 6-10", "deck"),
    (104, "10-15 23-19 7-10", "deck"),
    (105, "10-15 23-19 11-16", "deck"),
    (106, "10-15 24-19 15x24", "deck"),
    (107, "10-15 24-20 6-10", "deck"),
    (108, "10-15 24-20 7-10", "deck"),
    (109, "10-15 24-20 11-16", "barred"),
    (110, "10-15 24-20 15-19", "deck"),
    (111, "11-15 21-17 8-11", "deck"),
    (112, "11-15 21-17 9-13", "deck"),
    (113, "11-15 21-17 9-14", "deck"),
    (114, "11-15 21-17 10-14", "barred"),
    (115, "11-15 21-17 15-19", "deck"),
    (116, "11-15 22-17 8-11", "deck"),
    (117, "11-15 22-17 9-13", "deck"),
    (118, "11-15 22-17 15-18", "deck"),
    (119, "11-15 22-17 15-19", "deck"),
    (120, "11-15 22-18 15x22", "deck"),
    (121, "11-15 23-18 8-11", "deck"),
    (122, "11-15 23-18 9-14", "deck"),
    (123, "11-15 23-18 10-14", "deck"),
    (124, "11-15 23-18 12-16", "deck"),
    (125, "11-15 23-18 15-19", "deck"),
    (126, "11-15 23-19 8-11", "deck"),
    (127, "11-15 23-19 9-13", "deck"),
    (128, "11-15 23-19 9-14", "deck"),
    (129, "11-15 24-19 15x24", "deck"),
    (130, "11-15 24-20 8-11", "deck"),
    (131, "11-15 24-20 12-16", "deck"),
    (132, "11-15 24-20 15-18", "deck"),
    (133, "11-16 21-17 7-11", "deck"),
    (134, "11-16 21-17 8-11", "deck"),
    (135, "11-16 21-17 9-13", "deck"),
    (136, "11-16 21-17 9-14", "deck"),
    (137, "11-16 21-17 10-14", "barred"),
    (138, "11-16 21-17 16-20", "deck"),
    (139, "11-16 22-17 7-11", "deck"),
    (140, "11-16 22-17 8-11", "deck"),
    (141, "11-16 22-17 9-13", "deck"),
    (142, "11-16 22-17 16-20", "deck"),
    (143, "11-16 22-18 7-11", "deck"),
    (144, "11-16 22-18 8-11", "deck"),
    (145, "11-16 22-18 10-15", "barred"),
    (146, "11-16 22-18 16-19", "deck"),
    (147, "11-16 22-18 16-20", "deck"),
    (148, "11-16 23-18 7-11", "deck"),
    (149, "11-16 23-18 8-11", "deck"),
    (150, "11-16 23-18 9-14", "deck"),
    (151, "11-16 23-18 10-14", "deck"),
    (152, "11-16 23-18 16-20", "deck"),
    (153, "11-16 23-19 16x23", "deck"),
    (154, "11-16 24-19 7-11", "deck"),
    (155, "11-16 24-19 8-11", "deck"),
    (156, "11-16 24-19 10-15", "barred"),
    (157, "11-16 24-19 16-20", "deck"),
    (158, "11-16 24-20 7-11", "deck"),
    (159, "11-16 24-20 16-19", "deck"),
    (160, "12-16 21-17 9-13", "deck"),
    (161, "12-16 21-17 9-14", "deck"),
    (162, "12-16 21-17 16-19", "deck"),
    (163, "12-16 21-17 16-20", "deck"),
    (164, "12-16 22-17 16-19", "deck"),
    (165, "12-16 22-17 16-20", "deck"),
    (166, "12-16 22-18 16-19", "deck"),
    (167, "12-16 22-18 16-20", "deck"),
    (168, "12-16 23-18 9-14", "barred"),
    (169, "12-16 23-18 16-19", "deck"),
    (170, "12-16 23-18 16-20", "deck"),
    (171, "12-16 23-19 16x23", "barred"),
    (172, "12-16 24-19 16-20", "deck"),
    (173, "12-16 24-20 8-12", "deck"),
    (174, "12-16 24-20 10-15", "deck"),
)

THREE_MOVE: Final[tuple[Ballot, ...]] = tuple(Ballot(n, m, s) for n, m, s in _THREE_MOVE)
"""All 174 ACF-numbered three-move ballots, in ACF order."""

ACF_DECK: Final[tuple[Ballot, ...]] = tuple(b for b in THREE_MOVE if b.is_in_deck)
"""The 156 openings of the ACF tournament deck."""


def three_move(number: int) -> Ballot:
    """ACF three-move ballot ``number``.

    :raises KeyError: no such ACF number.
    """
    if not 1 <= number <= len(THREE_MOVE):
        raise KeyError(f"there is no ACF three-move ballot #{number} (1-{len(THREE_MOVE)})")
    return THREE_MOVE[number - 1]


def _find(position: Position, token: str) -> Move:
    sep = "x" if "x" in token else "-"
    a, b = (int(x) for x in token.split(sep))
    for move in position.legal_moves():
        if move.from_square == a and move.to_square == b:
            return move
    raise ValueError(f"{token} is not legal in {position.fen()}")


RED_FIRST_MOVES: Final = ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
WHITE_FIRST_MOVES: Final = ("21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20")


def _ballot_step(men: int, token: str, removed: int) -> tuple[int, str]:
    """Play one balloted first move on a side's men; returns the men after it and the move made.

    11-man rule: if the balloted man was removed, the man behind it in the same direction
    moves up into the vacated square; at the board edge, the other man that can step
    into the vacated square moves.
    """
    a, b = (int(x) - 1 for x in token.split("-"))
    if a != removed:
        return men & ~(1 << a) | (1 << b), token
    direction = next(d for d in range(4) if NEIGHBOUR[d][a] == b)
    behind = BACK[direction][a]
    if behind < 0 or not men >> behind & 1:
        forward = (0, 1) if b > a else (2, 3)
        behind = next(BACK[d][a] for d in forward if BACK[d][a] >= 0 and men >> BACK[d][a] & 1)
    return men & ~(1 << behind) | (1 << a), f"{behind + 1}-{a + 1}"


def eleven_man_positions() -> dict[str, tuple[str, ...]]:
    """The 11-man ballot positions (Red to move), by FEN, with the draws that lead to each.

    Red removes one man from 5-12, White one from 21-28, then one first move each is
    drawn from the seven standard first moves per side (8 * 8 * 7 * 7 = 3,136 draws).
    """
    found: dict[str, list[str]] = {}
    for red_removed in range(4, 12):
        for white_removed in range(20, 28):
            for red_move in RED_FIRST_MOVES:
                for white_move in WHITE_FIRST_MOVES:
                    red, red_made = _ballot_step(START.red & ~(1 << red_removed), red_move, red_removed)
                    white, white_made = _ballot_step(
                        START.white & ~(1 << white_removed), white_move, white_removed
                    )
                    fen = Position(red, white, 0, True).fen()
                    draw = f"remove {red_removed + 1} and {white_removed + 1}; {red_made} {white_made}"
                    if draw not in found.setdefault(fen, []):
                        found[fen].append(draw)
    return {fen: tuple(draws) for fen, draws in found.items()}
