"""What the domain asks of searches and probes, as protocols; ``engines/`` implements them.

Claims receive a :class:`Services` value. A service that is not available is
``None``, and the claim that needs it says so in its ruling instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import chess

from adjudicator.chess.analysis import AnalysisLimits, EngineEvidence, EngineUnavailable, TablebaseEvidence

if TYPE_CHECKING:  # the checkers analyst's types: a chess check has no use for the modules
    from adjudicator.checkers.analysis import CheckersAnalysis
    from adjudicator.checkers.board import Position as CheckersPosition


class ServicesClosed(EngineUnavailable):
    """The services were closed (their process is stopping): no engine is started for them any more. A job
    that meets this ends as one the engines could not serve, and says why."""


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
    """The unwinnability (helpmate) analysis.

    An oracle may say ``open_positions_undecided = True``: it answers undecided (never "unwinnable")
    for a position where the side to move has two legal moves or more, W's material can mate and a
    queen, rook or knight of W can step at once into the loser king's walk (the quick screen of a
    collection check does), so the check need not ask it about such a position
    (:mod:`adjudicator.chess.bulk.check`).
    """

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch: ...


@dataclass(frozen=True)
class ForcedWin:
    """Does ``color`` have a forced win (US Chess 14E2/14E3: "a forced win")?"""

    color: chess.Color
    has_forced_win: bool | None
    """True: proven (a forced mate, or a tablebase win); False: proven not; None: not settled."""
    line: tuple[str, ...] | None
    """UCI moves of a forced mate (both sides' best play), when one was found."""
    method: str
    """What decided: ``material``, ``tablebase``, ``search`` (bounded forced-mate search)."""
    plies: int = 0
    """Depth searched, in plies."""
    nodes: int = 0
    note: str | None = None
    """What an arbiter should know about the answer (cursed win, budget exhausted, ...)."""


class ForcedWinOracle(Protocol):
    """A bounded forced-mate search, with tablebases where they reach."""

    def forced_win(self, board: chess.Board, color: chess.Color) -> ForcedWin: ...


class CheckersOracle(Protocol):
    """The checkers endgame database and search (``engines/checkers``)."""

    def analyse(self, position: CheckersPosition, proof_nodes: int | None = None) -> CheckersAnalysis:
        """The position's value for the side to move; ``proof_nodes``: the ruleset's proof budget."""
        ...

    def identity(self) -> dict[str, Any]: ...


Progress = Callable[[float, str], None]
"""Called with a fraction done (0..1) and a short message; raises to cancel."""


class Analyst(Protocol):
    """A chess engine that analyses positions within limits (``engines.chess.stockfish``)."""

    def analyse(
        self, board: chess.Board, limits: AnalysisLimits, *, progress: Progress | None = None
    ) -> EngineEvidence:
        """Analyse ``board``.

        :raises EngineUnavailable: the engine cannot be started, or crashed or hung twice.
        A ``progress`` callback cancels by raising: the search is stopped and the
        callback's own exception propagates unchanged.
        """
        ...

    def close(self) -> None: ...


class TablebaseProber(Protocol):
    """Endgame tablebases (``engines.chess.tablebase``)."""

    @property
    def max_pieces(self) -> int:
        """The most pieces (kings included) any installed table covers; 0 when none."""
        ...

    def probe(self, board: chess.Board) -> TablebaseEvidence | None:
        """The tables' verdict on ``board``, or None when no installed table covers it."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Services:
    """The searches and probes available to the claims (``None``: not available here)."""

    mate: MateOracle | None = None
    engine: Analyst | None = None
    """The chess engine analyst (Stockfish in ``engines.chess.stockfish``)."""
    tablebase: TablebaseProber | None = None
    """Endgame tablebases (``engines.chess.tablebase``)."""
    checkers: CheckersOracle | None = None
    progress: Progress | None = None
    deterministic: bool = False
    """Committee and appeal work: fixed nodes, one thread, cleared hash, identical re-runs."""
    forced_win: ForcedWinOracle | None = None
    """US Chess 14E "forced win": bounded forced-mate search plus tablebases (``engines.chess.forced_mate``)."""

    def close(self) -> None:
        """End the engine processes and close the tables (safe to call twice)."""
        for service in (self.engine, self.tablebase):
            if service is not None:
                service.close()
