"""Everything that searches or probes: Stockfish, the unwinnability analysis,
tablebases, the checkers search and endgame database. Only this package starts
processes; it implements the protocols of :mod:`adjudicator.services`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.services import Services


def build_services(config: Mapping[str, Any], *, deterministic: bool = False) -> Services:
    """The services this machine offers under ``config``; missing ones are ``None``."""
    mate = None
    try:
        from engines.unwinnable import UnwinnabilityAnalyser
    except ModuleNotFoundError:
        pass
    else:
        mate = UnwinnabilityAnalyser()  # the helpmate search (FIDE 6.9, 5.2.2)
    return Services(mate=mate, checkers=_checkers(config), deterministic=deterministic)


def _checkers(config: Mapping[str, Any]) -> Any:
    """The checkers analyst: the endgame database (``[checkers] database``) and the search."""
    from pathlib import Path

    from engines.checkers.analyst import CheckersAnalyst

    section = config.get("checkers", {})
    folder = Path(str(section.get("database", "data/checkers-db")))
    if not folder.is_absolute():
        folder = Path(str(config.get("_root", "."))) / folder
    return CheckersAnalyst(folder, max_nodes=int(section.get("search_nodes", 100_000)))
