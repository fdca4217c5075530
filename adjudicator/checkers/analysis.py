"""What the checkers analysis (database probe or search) reports, as a value the claims can rule on.

The analysis itself lives in ``engines/checkers`` and reaches the claims through
``Services.checkers`` (:class:`adjudicator.services.CheckersOracle`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Method = Literal["database", "proof", "search", "none"]
Value = Literal["win", "loss", "draw"]


@dataclass(frozen=True)
class CheckersAnalysis:
    """The analysis of one position, from the side to move's point of view."""

    method: Method
    """``database``: an exact probe; ``proof``: the proof search (database at its leaves) settled it;
    ``search``: nothing proven, the alpha-beta evaluation and best line are evidence only."""
    value: Value | None
    """Proven value for the side to move, or None when the search proved nothing."""
    line: tuple[str, ...] = ()
    """Moves in PDN (``11-15``, ``15x24x31``) from the position: the winning (or best) line."""
    score: int | None = None
    """Search score from the side to move, in hundredths of a man (None for a database probe)."""
    plies_to_end: int | None = None
    """For a proven win or loss: plies to the end of the game under best play."""
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    engine: Mapping[str, Any] = field(default_factory=dict)
    """Name, version and settings of what produced the analysis (for appeals)."""
    proof_size: int | None = None
    """Positions in the proof tree, when proven by the proof search."""
    proof_nodes: int = 0
    """Positions the proof search expanded (proven or not)."""
    unproven_reason: str | None = None
    """Why no proof was found: ``budget`` (the node budget ran out), ``depth`` (a line ran past the depth cap)
    or ``out-of-database`` (no endgame database here to end the lines in)."""
    settled: tuple[str, ...] = ()
    """What the proof search established, e.g. ``Red cannot force a win``."""
    confidence: float | None = None
    """For an unproven position: the calibrated chance that the favoured side wins (None if not measured)."""
    leaf: Mapping[str, Any] | None = None
    """Where the proof's main line enters the endgame database: ``ply`` (moves of the line before it), ``fen``,
    and the database's ``value`` (for the side to move there) and distance ``plies`` (to the end of the game
    under best play); None when the line does not end in the database."""

    @property
    def is_proven(self) -> bool:
        return self.value is not None

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0
