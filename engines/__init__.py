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
    return Services(mate=mate, deterministic=deterministic)
