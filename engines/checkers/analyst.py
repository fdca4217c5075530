"""The checkers analyst behind ``Services.checkers``: database probe, then the proof search, then evidence.

1. In the endgame database: the exact value and the line of best play.
2. Otherwise the proof search (:func:`engines.checkers.proof.prove`, the database at its
   leaves) within the ruleset's budget: a proven win, loss or draw, with the proof's
   main line and size.
3. Otherwise the alpha-beta search's best line and score, with the calibrated
   confidence (:func:`adjudicator.checkers.calibration.win_probability`) and the
   reason no proof was found. Evidence for the committee, never a result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.checkers.analysis import CheckersAnalysis, Value
from adjudicator.checkers.board import Position
from adjudicator.checkers.calibration import win_probability
from engines.checkers.database import DatabaseError, EndgameDatabase, available_pieces
from engines.checkers.proof import Leaf, prove
from engines.checkers.search import PROVEN, WIN, Searcher

VERSION = "3"
DEFAULT_PROOF_NODES = 200_000
"""The machine's cap on a ruleset's ``adjudication.proof_nodes`` (``[checkers] proof_nodes``)."""


def leaf_of(leaf: Leaf | None) -> dict[str, Any] | None:
    """The evidence's form of where a proof's line enters the database."""
    if leaf is None:
        return None
    return {"ply": leaf.ply, "fen": leaf.position.fen(), "value": leaf.value, "plies": leaf.plies}


class CheckersAnalyst:
    """Implements :class:`adjudicator.services.CheckersOracle`.

    The database folder is opened on first use (loading takes a moment for 5 pieces);
    a missing database leaves the searches alone, without exact leaves (fewer proofs,
    never a different result).
    """

    def __init__(
        self, folder: Path | None, max_nodes: int = 100_000, database: EndgameDatabase | None = None,
        proof_nodes: int = DEFAULT_PROOF_NODES,
    ) -> None:
        self.folder = folder
        self.max_nodes = max_nodes
        self.proof_nodes = proof_nodes
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

    def identity(self, proof_nodes: int | None = None) -> dict[str, Any]:
        db = self.database
        return {
            "name": "adjudicator checkers search",
            "proof": "df-pn, both sides, then the closed part solved backwards",
            "version": VERSION,
            "max_nodes": self.max_nodes,
            "proof_nodes": proof_nodes or self.proof_nodes,
            "database": db.identity() if db else None,
        }

    def analyse(self, position: Position, proof_nodes: int | None = None) -> CheckersAnalysis:
        """A database value, else a proof within ``proof_nodes``, else a deterministic evaluation."""
        db = self.database
        if db is not None:
            probe = db.probe(position)
            if probe is not None:
                known: Value = "win" if probe.is_win else "loss" if probe.is_loss else "draw"
                line = tuple(str(m) for m in db.line(position)) if not probe.is_draw else ()
                return CheckersAnalysis(
                    "database", known, line, None, probe.plies if not probe.is_draw else None,
                    engine={"name": "adjudicator checkers WLD database", "pieces": db.max_pieces, "version": VERSION},
                    leaf={"ply": 0, "fen": position.fen(), "value": known, "plies": probe.plies},
                )
        budget = min(proof_nodes, self.proof_nodes) if proof_nodes else self.proof_nodes
        proof = prove(position, db, budget)
        identity = self.identity(budget)
        if proof.value is not None:
            return CheckersAnalysis(
                "proof", proof.value, tuple(str(m) for m in proof.line), None, proof.plies, 0, proof.nodes,
                proof.seconds, identity, proof.size, proof.nodes, None, proof.settled, leaf=leaf_of(proof.leaf),
            )
        result = Searcher(db, self.max_nodes).search(position)
        value: Value | None = "win" if result.is_proven_win else "loss" if result.is_proven_loss else None
        plies = WIN - abs(result.score) if abs(result.score) >= PROVEN else None
        reason = "out-of-database" if db is None and value is None else proof.reason
        chance = win_probability(result.score, position.piece_count, db.max_pieces if db else 0)
        return CheckersAnalysis(
            "search" if value is None else "proof", value, tuple(str(m) for m in result.line), result.score, plies,
            result.depth, result.nodes + proof.nodes, result.seconds + proof.seconds, identity, None, proof.nodes,
            reason if value is None else None, proof.settled,
            None if value is not None else chance,
        )
