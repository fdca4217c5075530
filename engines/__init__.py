"""Everything that searches or probes: Stockfish, the unwinnability analysis,
tablebases, the checkers search and endgame database. Only this package starts
processes; it implements the protocols of :mod:`adjudicator.services`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adjudicator.services import Progress, Services

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
        from engines.unwinnable import UnwinnabilityAnalyser
    except ModuleNotFoundError:
        pass
    else:
        mate = UnwinnabilityAnalyser()  # the helpmate search (FIDE 6.9, 5.2.2)

    from adjudicator.analysis import EngineUnavailable
    from engines.stockfish import EngineSettings, StockfishPool, UnavailableAnalyst
    from engines.tablebase import Tablebases

    root = Path(str(config.get("_root", PROJECT_ROOT)))
    tables = Tablebases.from_config(config.get("tablebases", {}), root) if tablebases else None
    if tables is not None and tables.is_empty:
        tables = None
    analyst: StockfishPool | UnavailableAnalyst | None = None
    if engine:
        syzygy = [str(d) for d in tables.syzygy_dirs] if tables is not None else []
        try:
            analyst = StockfishPool(EngineSettings.from_config(config.get("engines", {}), syzygy))
        except EngineUnavailable as exc:
            analyst = UnavailableAnalyst(str(exc))  # the claims that need it say so in their rulings
    return Services(mate=mate, engine=analyst, tablebase=tables, progress=progress, deterministic=deterministic)
