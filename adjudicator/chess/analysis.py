"""What a chess engine and endgame tablebases give the domain: limits and evidence, as values.

``engines/`` implements the protocols :class:`adjudicator.services.Analyst` (Stockfish
through ``chess.engine``) and :class:`adjudicator.services.TablebaseProber` (Syzygy and
Gaviota through python-chess), which answer in these values. The claims that
need judgement beyond the record (``unfinished-game``, ``insufficient-losing-chances``)
receive the evidence as frozen values and write it into the ruling, so an appeals
committee can see exactly which engine, settings and budget produced a recommendation.

Scores are always from White's point of view, in centipawns, unless a name says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


class EngineUnavailable(RuntimeError):
    """The engine could not be started, crashed or hung past its hard limit, even after a restart."""


@dataclass(frozen=True)
class AnalysisLimits:
    """The budget of one engine analysis.

    In deterministic mode (committee and appeal work) the engine runs one thread, with the
    hash cleared and only a node limit, so a re-run gives identical numbers.
    """

    nodes: int | None = 100_000
    seconds: float | None = None
    deterministic: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "seconds": self.seconds, "deterministic": self.deterministic}


@dataclass(frozen=True)
class EngineEvidence:
    """One engine analysis of one position, as an appeals committee needs to reproduce it."""

    engine: str
    """The engine's own name, e.g. ``Stockfish 15.1``."""
    version: str
    options: tuple[tuple[str, str], ...]
    """UCI options in force (name, value), sorted by name."""
    limits: AnalysisLimits
    fen: str
    depth: int
    seldepth: int | None
    nodes: int
    score_cp: int | None
    """Centipawns from White's point of view (None when the score is a mate)."""
    mate: int | None
    """Moves to mate from White's point of view: positive, White mates; negative, Black mates."""
    wdl: tuple[int, int, int] | None
    """Win/draw/loss per mille for White, from the engine's WDL model (UCI_ShowWDL)."""
    pv: tuple[str, ...]
    """The principal variation in UCI."""
    pv_san: tuple[str, ...] = ()
    seconds: float | None = field(default=None, compare=False)
    """Wall time; left out of the JSON in deterministic mode (it varies between runs)."""

    @property
    def is_mate(self) -> bool:
        return self.mate is not None

    def white_score(self, mate_value: int = 100_000) -> int:
        """The score from White's point of view, a found mate counting ``mate_value`` minus its length."""
        if self.mate is not None:
            return (mate_value - abs(self.mate)) * (1 if self.mate > 0 else -1)
        return self.score_cp if self.score_cp is not None else 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "engine": self.engine,
            "version": self.version,
            "options": dict(self.options),
            "limits": self.limits.to_json(),
            "fen": self.fen,
            "depth": self.depth,
            "seldepth": self.seldepth,
            "nodes": self.nodes,
            "score_cp": self.score_cp,
            "mate": self.mate,
            "wdl": list(self.wdl) if self.wdl is not None else None,
            "pv": list(self.pv),
            "pv_san": " ".join(self.pv_san),
        }
        if not self.limits.deterministic and self.seconds is not None:
            data["seconds"] = round(self.seconds, 3)
        return data


TablebaseOutcome = Literal["win", "cursed-win", "draw", "blessed-loss", "loss"]
"""For the side to move, in the tables' own terms (Syzygy WDL 2, 1, 0, -1, -2)."""


@dataclass(frozen=True)
class TablebaseEvidence:
    """A tablebase probe of one position (facts from a database: confidence 1)."""

    source: str
    """``syzygy`` or ``gaviota``."""
    fen: str
    pieces: int
    outcome: TablebaseOutcome
    """For the side to move, ignoring the current move-rule count."""
    dtz: int | None = None
    """Syzygy distance to zeroing (plies; may be off by one, as Syzygy stores it rounded)."""
    dtm: int | None = None
    """Gaviota distance to mate (plies)."""
    halfmove_clock: int = 0

    @property
    def is_pawnless(self) -> bool:
        return not any(c in "pP" for c in self.fen.split()[0])

    def _within_move_rule(self) -> bool:
        if self.dtz is not None:
            return self.halfmove_clock + abs(self.dtz) <= 100
        if self.dtm is not None and self.is_pawnless:
            # without pawns the only zeroing move left is a capture, so mate must come within the count
            return self.halfmove_clock + abs(self.dtm) <= 100
        return True

    @property
    def is_win_within_move_rule(self) -> bool:
        """A win the side to move can force before the 50-move count (with the moves already played) runs out."""
        return self.outcome == "win" and self._within_move_rule()

    @property
    def is_loss_within_move_rule(self) -> bool:
        return self.outcome == "loss" and self._within_move_rule()

    def result_for_mover(self, honour_move_rule: bool = True) -> int:
        """+1 the side to move wins, 0 draw, -1 it loses.

        With the 50-move rule honoured (FIDE 9.3, cutechess default), a cursed win and a
        blessed loss are draws, and so is a win the count already in progress makes too slow.
        Without it (ICCF-style tablebase claims), every win is a win.
        """
        if not honour_move_rule:
            return {"win": 1, "cursed-win": 1, "draw": 0, "blessed-loss": -1, "loss": -1}[self.outcome]
        if self.is_win_within_move_rule:
            return 1
        if self.is_loss_within_move_rule:
            return -1
        return 0

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "fen": self.fen,
            "pieces": self.pieces,
            "outcome": self.outcome,
            "dtz": self.dtz,
            "dtm": self.dtm,
            "halfmove_clock": self.halfmove_clock,
        }
