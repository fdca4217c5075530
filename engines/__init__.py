"""Everything that searches or probes: Stockfish, the unwinnability analysis,
tablebases, the checkers search and endgame database. Only this package starts
processes; it implements the protocols of :mod:`adjudicator.services`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.services import ForcedWinOracle, Services


def build_services(config: Mapping[str, Any], *, deterministic: bool = False) -> Services:
    """The services this machine offers under ``config``; missing ones are ``None``."""
    mate = None
    try:
        from engines.unwinnable import UnwinnabilityAnalyser
    except ModuleNotFoundError:
        pass
    else:
        mate = UnwinnabilityAnalyser()  # the helpmate search (FIDE 6.9, 5.2.2)
    return Services(mate=mate, deterministic=deterministic, forced_win=_forced_win(config))


def _forced_win(config: Mapping[str, Any]) -> ForcedWinOracle:
    """US Chess 14E forced-win search, probing the configured Syzygy tables when present."""
    from pathlib import Path

    from engines.forced_mate import ForcedMateSearch, syzygy_probe

    root = Path(str(config.get("_root", Path(__file__).resolve().parent.parent)))
    section = config.get("tablebases")
    tables = section.get("syzygy", []) if isinstance(section, Mapping) else []
    dirs = [p if Path(p).is_absolute() else root / p for p in tables if isinstance(p, str)]
    probe = syzygy_probe(dirs)
    return ForcedMateSearch(wdl=None if probe is None else probe[0])
