"""A quick dead-position screen for whole collections of games (FIDE 5.2.2).

:class:`DeadScreen` answers the helpmate question (``adjudicator.services.MateOracle``)
with the cheap, sound steps of :class:`.analyser.UnwinnabilityAnalyser` only: forced
moves, the end of the game, the material rule and the blockade analysis of the position
itself. Anything those steps cannot prove is *undecided*, which the dead-position test
counts as alive. So the screen never finds a dead position that is not one; it can miss
one whose proof needs the search (the analyser's steps 4 to 6: positions one move later,
the helpmate search, the closure), which a single claim still gets in full.

A few hundred microseconds a position, against milliseconds for the full analysis of an
open position (the blockade analysis of every position one move later is most of that).
"""

from __future__ import annotations

import chess

from adjudicator.services import MateSearch

from .analyser import PositionError, check_position, forced_moves, game_over_for
from .blocked import is_blockade_unwinnable
from .material import is_material_unwinnable


class DeadScreen:
    """The cheap, sound part of the unwinnability analysis (see the module docstring)."""

    open_positions_undecided = True
    """Undecided (never "unwinnable") for a position where the side to move has two legal moves or more,
    W's material can mate (:mod:`.material`) and W is plainly open (:mod:`.openness`): no forced move,
    no end of the game, no material proof, and the blockade analysis proves nothing there. A collection
    check may skip asking (``adjudicator.chess.bulk.check``); tests/test_bulk_reader.py holds it to that."""

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch:
        """Can ``color`` checkmate? Proven no (True), a forced line to mate (False), else undecided (None)."""
        try:
            check_position(board)
        except PositionError as exc:
            return MateSearch(color=color, unwinnable=None, helpmate=None, method=f"illegal-position: {exc}")
        work = board.copy(stack=False)
        prefix, repeated, has_move = forced_moves(work)
        if repeated:
            return MateSearch(color=color, unwinnable=True, helpmate=None, method="forced-repetition")
        terminal = None if has_move else game_over_for(work, color)
        if terminal is False:
            line = tuple(m.uci() for m in prefix)
            return MateSearch(color=color, unwinnable=False, helpmate=line, method="checkmate")
        if terminal is True:
            return MateSearch(color=color, unwinnable=True, helpmate=None, method="terminal")
        if is_material_unwinnable(work, color):
            return MateSearch(color=color, unwinnable=True, helpmate=None, method="material")
        if is_blockade_unwinnable(work, color):
            return MateSearch(color=color, unwinnable=True, helpmate=None, method="blockade")
        return MateSearch(color=color, unwinnable=None, helpmate=None, method="screen")
