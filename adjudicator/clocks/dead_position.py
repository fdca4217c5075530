"""Dead positions (FIDE 5.2.2; US Chess 14D): the test, the first one in a game, and its proof in words.

FIDE 5.2.2: the game is drawn when a position has arisen in which neither player can
checkmate by any series of legal moves; this immediately ends the game, provided the
move producing the position was legal. US Chess 14D ("insufficient material to
continue"): the game is drawn when one of its endings arises: king against king, king
and a minor piece against king, king and bishop against king and bishop with the
bishops on one colour, and (its last item) no legal moves that could lead to
checkmate. The ruleset's ``flag.dead_position`` chooses the test:

- ``helpmate``: the helpmate analysis (``services.mate``) proves that neither side can
  mate; the listed material endings are the cases it proves at once;
- ``material``: only the listed material endings (python-chess's
  ``is_insufficient_material``: those above, and any number of bishops on one colour);
- ``material-then-td``: the listed endings end the game; a position only the analysis
  proves dead lets the TD declare the draw (reported, not imposed).

Without the analysis (no ``services.mate``) only the material test runs, and says so.
The test is sound: a position is dead only when both sides are *proven* unable to mate;
an undecided search counts as alive.

Deadness is monotone along legal play (every position reachable from a dead one is
dead), so the first dead position of a game is found by bisection: a few searches, not
one per ply, all kept in :attr:`Deadness.searches` for the proof.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chess

from adjudicator.services import MateOracle, MateSearch

_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}
METHOD_WORDS = {
    "material": "too little material to mate",
    "blockade": "a blockade no series of moves can open",
    "search": "an exhaustive helpmate search finds no mate",
    "blockade+search": "the blockade and an exhaustive search of the moves it leaves open",
    "closure": "every reachable position was visited and none is a mate",
    "forced-repetition": "the only legal moves repeat the position",
    "terminal": "no legal move is left and no mate stands",
}
"""The analyser's methods (``engines.chess.unwinnable``) in an arbiter's words."""


_IMPOSSIBLE = (
    chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_TOO_MANY_KINGS
    | chess.STATUS_OPPOSITE_CHECK | chess.STATUS_EMPTY
)
"""What no game of chess reaches (python-chess's status flags)."""


def listed_ending(board: chess.Board) -> str | None:
    """The material ending of the 14D list ``board`` shows, in words (None: not a listed ending)."""
    if not board.is_insufficient_material():
        return None
    minors = [p for p in board.piece_map().values() if p.piece_type != chess.KING]
    if not minors:
        return "king against king"
    if len(minors) == 1:
        side = _NAMES[minors[0].color]
        return f"king and {chess.piece_name(minors[0].piece_type)} ({side}) against king"
    shade = "light" if board.bishops & chess.BB_LIGHT_SQUARES else "dark"
    return f"kings and bishops only, every bishop on {shade} squares"


def _material(board: chess.Board, color: chess.Color) -> int:
    return sum(_VALUES[p.piece_type] for p in board.piece_map().values() if p.color == color)


class Deadness:
    """The dead-position test of a ruleset, with its searches kept (see the module docstring)."""

    def __init__(self, mode: str, mate: MateOracle | None) -> None:
        self.configured = mode
        self.mode = mode if mate is not None else "material"
        self.mate = mate
        self.searches: dict[tuple[str, bool], MateSearch] = {}

    @property
    def method(self) -> str:
        return "material" if self.mode == "material" else "helpmate search"

    @property
    def analyses(self) -> bool:
        """Whether positions beyond the listed material endings are analysed at all."""
        return self.mode != "material"

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch:
        key = (board.fen(), color)
        if key not in self.searches:
            assert self.mate is not None
            self.searches[key] = self.mate.search(board, color)
        return self.searches[key]

    def is_listed(self, board: chess.Board) -> bool:
        """A listed material ending (US 14D; FIDE 5.2.2's obvious cases) in a position a game can reach."""
        return not board.status() & _IMPOSSIBLE and board.is_insufficient_material()

    def is_dead(self, board: chess.Board) -> bool:
        """Sound: True only when neither side can mate (undecided counts as alive).

        A position no game reaches (a king missing or taken, the side not to move in check)
        is never dead: the record's illegal moves are the arbiter's to rule on.
        """
        if board.status() & _IMPOSSIBLE:
            return False
        if board.is_insufficient_material():
            return True
        if not self.analyses:
            return False
        # a side already searched goes first, then the side with more material: one winnable side settles it
        fen = board.fen()
        colors = sorted(
            (chess.WHITE, chess.BLACK), key=lambda c: ((fen, c) not in self.searches, -_material(board, c))
        )
        return all(self.search(board, color).unwinnable is True for color in colors)

    def proof(self, board: chess.Board) -> dict[str, Any]:
        """Why ``board`` is dead, per side (the searches the test made, or the material)."""
        listed = listed_ending(board)
        if listed is not None:
            return {"listed": listed, "white": {"can_mate": False, "method": "material"},
                    "black": {"can_mate": False, "method": "material"}}
        proof: dict[str, Any] = {}
        for color in (chess.WHITE, chess.BLACK):
            found = self.searches.get((board.fen(), color))
            if found is not None:
                proof[_NAMES[color].lower()] = {"can_mate": False, "method": found.method, "nodes": found.nodes}
        return proof

    def alive(self, board: chess.Board) -> dict[str, Any] | None:
        """A helpmate already found from ``board`` (the proof it was not dead yet), if the test made one."""
        for color in (chess.WHITE, chess.BLACK):
            found = self.searches.get((board.fen(), color))
            if found is not None and found.unwinnable is False and found.helpmate:
                return {"side": _NAMES[color].lower(), "helpmate": list(found.helpmate), "method": found.method,
                        "fen": board.fen()}
        return None

    def words(self, board: chess.Board) -> str:
        """The proof in words: ``king and bishop (White) against king`` / ``the helpmate analysis ...``."""
        proof = self.proof(board)
        if "listed" in proof:
            return f"{proof['listed']}, so neither player can checkmate"
        said = {name: METHOD_WORDS.get(found["method"], found["method"]) for name, found in proof.items()}
        if len(said) == 2 and len(set(said.values())) == 1:
            shown = f" (for both: {said['white']})"
        else:
            shown = f" ({'; '.join(f'{name.capitalize()}: {text}' for name, text in said.items())})" if said else ""
        return f"the helpmate analysis proves that neither player can checkmate by any series of legal moves{shown}"


def first_dead(
    count: int,
    board_at: Callable[[int], chess.Board],
    legal: Callable[[int], bool],
    test: Callable[[chess.Board], bool],
) -> int | None:
    """The first ply (0..count-1) whose position passes ``test`` and was produced by a legal move, if any.

    Bisection (``test`` is monotone along legal play). FIDE 5.2.2: the move producing the
    position must be legal; when the first dead position came from an illegal move, the game
    ends at the next dead position a legal move produced, and not at all when there is none.
    """
    last = count - 1
    if last < 0 or not test(board_at(last)):
        return None
    low, high = 0, last  # board_at(high) passes; find the first that does
    while low < high:
        middle = (low + high) // 2
        if test(board_at(middle)):
            high = middle
        else:
            low = middle + 1
    for ply in range(high, last + 1):  # an illegal move can undo deadness: each later position is tested again
        if legal(ply) and (ply == high or test(board_at(ply))):
            return ply
    return None
