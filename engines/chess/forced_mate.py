"""US Chess 14E "forced win": a bounded forced-mate search, with Syzygy tablebases where they reach.

US Chess 14E2/14E3 draw a flag fall when the opponent has only K+B, K+N (or K+N+N
against a side without pawns) *and no forced win*. With such material the only
way to win is to mate, so "forced win" means "forced mate". This module answers:

1. the side cannot mate at all (python-chess's sound asymmetric material test):
   **no forced win**, proven;
2. the position is in the tablebases (WDL): a win is **proven**; a draw, a loss or a
   cursed win (a win only beyond the fifty-move rule) is proven **not** a forced win;
3. otherwise an AND-OR search for a forced mate in up to ``max_moves`` moves: a mate
   found is **proven** (the line is the evidence); none found within the bound is
   **not settled**, and the ruling must say so (the TD decides).

Pure python-chess; no processes. Only ``engines/`` reads the tablebase files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import chess
import chess.polyglot

from adjudicator.services import ForcedWin

WdlProbe = Callable[[chess.Board], int | None]
"""WDL from the side to move's view (2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss), or None."""


class SearchBudgetExceeded(RuntimeError):
    """The node budget ran out before the search finished."""


class ForcedMateSearch:
    """Bounded forced-mate search plus optional Syzygy WDL (implements ``ForcedWinOracle``)."""

    def __init__(
        self, max_moves: int = 4, node_budget: int = 40_000, wdl: WdlProbe | None = None, name: str = "search"
    ) -> None:
        self.max_moves = max_moves
        self.node_budget = node_budget
        self.wdl = wdl
        self.name = name
        self._nodes = 0
        self._limit = node_budget
        self._table: dict[tuple[int, int], bool] = {}

    def forced_win(self, board: chess.Board, color: chess.Color) -> ForcedWin:
        """Whether ``color`` can force a win from ``board`` (see the module docstring)."""
        board = board.copy(stack=False)
        if board.is_checkmate():
            won = board.turn != color
            return ForcedWin(color, won, () if won else None, "position", note="the position is checkmate")
        if board.has_insufficient_material(color):
            return ForcedWin(color, False, None, "material", note="this material cannot mate by any series of moves")
        probed = self._probe(board, color)
        if probed is not None and probed.has_forced_win:
            shown = self._search(board, color, budget=3_000)  # the mating line as evidence, when it is short
            if shown.has_forced_win:
                return ForcedWin(color, True, shown.line, "tablebase", shown.plies, shown.nodes, probed.note)
        if probed is not None:
            return probed
        return self._search(board, color)

    def _probe(self, board: chess.Board, color: chess.Color) -> ForcedWin | None:
        if self.wdl is None:
            return None
        wdl = self.wdl(board)
        if wdl is None:
            return None
        mine = wdl if board.turn == color else -wdl
        note = {
            2: "tablebase win",
            1: "cursed win: wins only beyond the fifty-move rule",
            0: "tablebase draw",
            -1: "blessed loss: the other side wins only beyond the fifty-move rule",
            -2: "tablebase loss",
        }[mine]
        return ForcedWin(color, mine == 2, None, "tablebase", note=note)

    def _search(self, board: chess.Board, color: chess.Color, budget: int | None = None) -> ForcedWin:
        self._limit = self.node_budget if budget is None else budget
        self._nodes = 0
        self._table = {}
        plies = 0
        try:
            for moves in range(1, self.max_moves + 1):
                plies = 2 * moves - 1 if board.turn == color else 2 * moves
                line = self._attack(board, color, plies) if board.turn == color else self._defend(board, color, plies)
                if line is not None:
                    return ForcedWin(color, True, tuple(m.uci() for m in line), "search", plies, self._nodes)
        except SearchBudgetExceeded:
            note = f"node budget ({self._limit}) exhausted at {plies} plies; no forced mate found before"
            return ForcedWin(color, None, None, "search", plies, self._nodes, note)
        note = f"no forced mate within {self.max_moves} moves; a longer one is not ruled out"
        return ForcedWin(color, None, None, "search", plies, self._nodes, note)

    def _count(self) -> None:
        self._nodes += 1
        if self._nodes > self._limit:
            raise SearchBudgetExceeded(self._limit)

    def _attack(self, board: chess.Board, color: chess.Color, plies: int) -> list[chess.Move] | None:
        """A forced mate by ``color`` (to move) within ``plies``."""
        if plies < 1:
            return None
        key = (chess.polyglot.zobrist_hash(board), plies)
        if self._table.get(key) is False:
            return None
        for move in _ordered(board, board.legal_moves, attacking=True):
            self._count()
            board.push(move)
            try:
                if board.is_checkmate():
                    return [move]
                if plies >= 3 and not board.has_insufficient_material(color):
                    rest = self._defend(board, color, plies - 1)
                    if rest is not None:
                        return [move, *rest]
            finally:
                board.pop()
        self._table[key] = False
        return None

    def _defend(self, board: chess.Board, color: chess.Color, plies: int) -> list[chess.Move] | None:
        """A forced mate by ``color`` against every defence (the defender to move) within ``plies``."""
        if plies < 2:
            return None
        key = (chess.polyglot.zobrist_hash(board), plies)
        if self._table.get(key) is False:
            return None
        longest: list[chess.Move] | None = None
        moves = list(_ordered(board, board.legal_moves, attacking=False))
        if not moves:
            return None  # stalemate (mate was caught by the caller)
        for move in moves:
            self._count()
            board.push(move)
            try:
                rest = None if board.has_insufficient_material(color) else self._attack(board, color, plies - 1)
            finally:
                board.pop()
            if rest is None:
                self._table[key] = False
                return None
            if longest is None or len(rest) + 1 > len(longest):
                longest = [move, *rest]
        return longest


def _ordered(board: chess.Board, moves: Iterable[chess.Move], attacking: bool) -> Sequence[chess.Move]:
    """Checks first for the attacker; captures first for the defender (quick refutations)."""

    def score(move: chess.Move) -> int:
        if attacking:
            return (0 if board.gives_check(move) else 2) + (0 if board.is_capture(move) else 1)
        return (0 if board.is_capture(move) else 2) + (0 if move.promotion else 1)

    return sorted(moves, key=score)

