"""What the domain asks of searches and probes, as protocols; ``engines/`` implements them.

Claims receive a :class:`Services` value. A service that is not available is
``None``, and the claim that needs it says so in its ruling instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import chess

from adjudicator.checkers.analysis import CheckersAnalysis
from adjudicator.checkers.board import Position as CheckersPosition


@dataclass(frozen=True)
class MateSearch:
    """Can ``color`` ever checkmate (FIDE 6.9 / 5.2.2: by any series of legal moves)?"""

    color: chess.Color
    unwinnable: bool | None
    """True: no series of legal moves mates; False: a helpmate exists; None: undecided within the budget."""
    helpmate: tuple[str, ...] | None
    """UCI moves from the position to a checkmate by ``color`` (when winnable)."""
    method: str
    """Which part of the analysis decided (``material``, ``blockade``, ``search``, ...)."""
    nodes: int = 0

    @property
    def is_winnable(self) -> bool:
        return self.unwinnable is False


class MateOracle(Protocol):
    """The unwinnability (helpmate) analysis."""

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch: ...


class CheckersOracle(Protocol):
    """The checkers endgame database and search (``engines/checkers``)."""

    def analyse(self, position: CheckersPosition) -> CheckersAnalysis: ...

    def identity(self) -> dict[str, Any]: ...


Progress = Callable[[float, str], None]
"""Called with a fraction done (0..1) and a short message; raises to cancel."""


@dataclass(frozen=True)
class Services:
    """The searches and probes available to the claims (``None``: not available here)."""

    mate: MateOracle | None = None
    engine: object | None = None
    """The chess engine analyst (see ``adjudicator.analysis`` once present)."""
    tablebase: object | None = None
    checkers: CheckersOracle | None = None
    progress: Progress | None = None
    deterministic: bool = False
    """Committee and appeal work: fixed nodes, one thread, cleared hash, identical re-runs."""
