"""Everything that searches or probes: Stockfish, the unwinnability analysis,
tablebases, the checkers search and endgame database. Only this package starts
processes; it implements the protocols of :mod:`adjudicator.services`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess

from adjudicator.services import ForcedWinOracle, Progress, Services

if TYPE_CHECKING:
    from adjudicator.checkers.analysis import CheckersAnalysis
    from adjudicator.checkers.board import Position
    from engines.checkers.analyst import CheckersAnalyst
    from engines.chess.stockfish import StockfishPool, UnavailableAnalyst
    from engines.chess.tablebase import Tablebases

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def build_services(
    config: Mapping[str, Any],
    *,
    deterministic: bool = False,
    progress: Progress | None = None,
    engine: bool = True,
    tablebases: bool = True,
) -> Services:
    """The services this machine offers under ``config``; missing ones are ``None``.

    Engine processes start on first use, so building services is cheap; call
    ``services.close()`` when done. ``engine=False`` / ``tablebases=False`` leave those
    services out (benchmarks and tests of the layers underneath).
    """
    mate = None
    try:
        from engines.chess.unwinnable import UnwinnabilityAnalyser
    except ModuleNotFoundError:
        pass
    else:
        # the helpmate search (FIDE 6.9, 5.2.2); committee and appeal work: the node budget alone
        # decides, so that a re-run gives the same verdict on any machine
        mate = UnwinnabilityAnalyser(time_limit=float("inf")) if deterministic else UnwinnabilityAnalyser()

    from engines.chess.tablebase import Tablebases

    root = Path(str(config.get("_root", PROJECT_ROOT)))
    tables = Tablebases.from_config(config.get("tablebases", {}), root) if tablebases else None
    if tables is not None and tables.is_empty:
        tables = None
    analyst: StockfishPool | UnavailableAnalyst | None = None
    if engine:  # imported here: a run without the engine (check-games) starts faster
        from adjudicator.chess.analysis import EngineUnavailable
        from engines.chess.stockfish import EngineSettings, StockfishPool, UnavailableAnalyst

        syzygy = [str(d) for d in tables.syzygy_dirs] if tables is not None else []
        try:
            analyst = StockfishPool(EngineSettings.from_config(config.get("engines", {}), syzygy))
        except EngineUnavailable as exc:
            analyst = UnavailableAnalyst(str(exc))  # the claims that need it say so in their rulings
    return Services(
        mate=mate, engine=analyst, tablebase=tables, progress=progress, deterministic=deterministic,
        forced_win=_forced_win(tables), checkers=_checkers(config),
    )


_WDL = {"win": 2, "cursed-win": 1, "draw": 0, "blessed-loss": -1, "loss": -2}


def _forced_win(tables: Tablebases | None) -> ForcedWinOracle:
    """US Chess 14E forced-win search, probing the same tablebases as the adjudication."""
    from engines.chess.forced_mate import ForcedMateSearch

    if tables is None:
        return ForcedMateSearch()

    def wdl(board: chess.Board) -> int | None:
        evidence = tables.probe(board)
        return None if evidence is None else _WDL[evidence.outcome]

    return ForcedMateSearch(wdl=wdl)


def _checkers(config: Mapping[str, Any]) -> LazyCheckers:
    """The checkers analyst: the endgame database (``[checkers] database``) and the search."""
    section = config.get("checkers", {})
    folder = Path(str(section.get("database", "data/checkers-db")))
    if not folder.is_absolute():
        folder = Path(str(config.get("_root", PROJECT_ROOT))) / folder
    proof = section.get("proof_nodes")
    return LazyCheckers(folder, int(section.get("search_nodes", 100_000)), None if proof is None else int(proof))


class LazyCheckers:
    """:class:`engines.checkers.analyst.CheckersAnalyst`, imported and made on first use: the checkers
    search loads numpy's tables, which a chess-only run (``check-games`` on a PGN file) never needs."""

    def __init__(self, folder: Path, max_nodes: int, proof_nodes: int | None) -> None:
        self._settings = (folder, max_nodes, proof_nodes)
        self._analyst: CheckersAnalyst | None = None

    @property
    def analyst(self) -> CheckersAnalyst:
        if self._analyst is None:
            from engines.checkers.analyst import DEFAULT_PROOF_NODES, CheckersAnalyst

            folder, max_nodes, proof_nodes = self._settings
            self._analyst = CheckersAnalyst(
                folder, max_nodes=max_nodes, proof_nodes=DEFAULT_PROOF_NODES if proof_nodes is None else proof_nodes
            )
        return self._analyst

    def analyse(self, position: Position, proof_nodes: int | None = None) -> CheckersAnalysis:
        return self.analyst.analyse(position, proof_nodes)

    def identity(self, proof_nodes: int | None = None) -> dict[str, Any]:
        return self.analyst.identity(proof_nodes)
