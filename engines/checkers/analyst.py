"""The checkers analyst behind ``Services.checkers``: database probe first, search otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.checkers.analysis import CheckersAnalysis, Value
from adjudicator.checkers.board import Position
from engines.checkers.database import DatabaseError, EndgameDatabase, available_pieces
from engines.checkers.search import PROVEN, WIN, Searcher

VERSION = "1"


class CheckersAnalyst:
    """Implements :class:`adjudicator.services.CheckersOracle`.

    The database folder is opened on first use (loading takes a moment for 5 pieces);
    a missing database leaves the search alone, without exact leaves.
    """

    def __init__(self, folder: Path | None, max_nodes: int = 100_000, database: EndgameDatabase | None = None) -> None:
        self.folder = folder
        self.max_nodes = max_nodes
        self._database = database
        self._tried = database is not None

    @property
    def database(self) -> EndgameDatabase | None:
        if not self._tried:
            self._tried = True
            if self.folder is not None and available_pieces(self.folder):
                try:
                    self._database = EndgameDatabase.open(self.folder)
                except DatabaseError:
                    self._database = None
        return self._database

    def identity(self) -> dict[str, Any]:
        db = self.database
        return {
            "name": "adjudicator checkers search",
            "version": VERSION,
            "max_nodes": self.max_nodes,
            "database": db.identity() if db else None,
        }

    def analyse(self, position: Position) -> CheckersAnalysis:
        """A database value when the position is in it, else a deterministic search within the node budget."""
        db = self.database
        if db is not None:
            probe = db.probe(position)
            if probe is not None:
                known: Value = "win" if probe.is_win else "loss" if probe.is_loss else "draw"
                line = tuple(str(m) for m in db.line(position)) if not probe.is_draw else ()
                return CheckersAnalysis(
                    "database", known, line, None, probe.plies if not probe.is_draw else None,
                    engine={"name": "adjudicator checkers WLD database", "pieces": db.max_pieces, "version": VERSION},
                )
        result = Searcher(db, self.max_nodes).search(position)
        value: Value | None = "win" if result.is_proven_win else "loss" if result.is_proven_loss else None
        plies = WIN - abs(result.score) if abs(result.score) >= PROVEN else None
        return CheckersAnalysis(
            "search", value, tuple(str(m) for m in result.line), result.score, plies,
            result.depth, result.nodes, result.seconds, self.identity(),
        )
