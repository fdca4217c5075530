"""Two scoresheets of one game, side by side: where they first differ, and which reading is legal there.

US Chess 14C9: the claimant's scoresheet must be adequate to show the claim, and the opponent's
may be borrowed; FIDE arbiters take both to check a claim (the Arbiters' Manual on 9.2). The two
are read by the replay the ruling uses (:func:`adjudicator.chess.replay.replay_chess`,
:func:`adjudicator.checkers.replay.replay_checkers`) and compared move by move, by the move played
(not by how it is written: ``Nf3`` and ``Ngf3``, ``10x14`` and ``10-14`` are the same move). Up to
their first difference both reach the same positions, so there the two readings are judged in the
same position: each is legal, illegal (with the reason), or no move at all (the scoresheet ends, or
its token cannot be read).

The comparison is evidence for the TD, who confirms one record; the ruling is made on that one
alone, as on any record. No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.checkers.replay import CheckersReplay, replay_checkers
from adjudicator.chess.replay import Replay, replay_chess
from adjudicator.contract import ContractError

SIDES = ("claimant", "opponent")
"""The two scoresheets, as the claim form names them."""


@dataclass(frozen=True)
class Reading:
    """What one scoresheet has at a ply."""

    move: str | None
    """The move as an arbiter names it (``12.Nf3``, ``Red's move 6: 11-15``); None: no move there."""
    token: str | None
    """The token as written (None: the scoresheet ends before this ply)."""
    is_legal: bool | None
    """Whether the move is legal in the position both scoresheets reach; None: no move."""
    reason: str | None = None
    """Why it is illegal, or why there is no move (the sheet ends there, or the token cannot be read)."""

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "token": self.token, "is_legal": self.is_legal, "reason": self.reason}

    def describe(self) -> str:
        """``3.Bb5 (legal)``, ``8-11 (illegal: ...)``, ``'Bb6', which cannot be read (...)``, ``no move (...)``."""
        if self.move is not None:
            return f"{self.move} (legal)" if self.is_legal else f"{self.move} (illegal: {self.reason or 'not legal'})"
        if self.token is not None:
            return f"{self.token!r}, which cannot be read ({self.reason})"
        return f"no move ({self.reason})"


@dataclass(frozen=True)
class Comparison:
    """Two scoresheets compared: ``first_difference`` is the first ply (1 = the first move) where they
    differ, None when they read the same moves throughout; ``problem`` when either cannot be read at all."""

    first_difference: int | None
    claimant: Reading | None
    opponent: Reading | None
    plies: tuple[int, int]
    """How many moves each scoresheet has (claimant's, opponent's)."""
    problem: str | None = None

    @property
    def agree(self) -> bool:
        return self.problem is None and self.first_difference is None

    def sentence(self) -> str:
        """The comparison in an arbiter's words."""
        if self.problem is not None:
            return self.problem
        if self.first_difference is None:
            return f"The two scoresheets agree: the same {self.plies[0]} moves."
        assert self.claimant is not None and self.opponent is not None
        before = f"They agree up to ply {self.first_difference - 1}" if self.first_difference > 1 else \
            "They differ from the first move"
        return (f"{before}; at ply {self.first_difference} the claimant's scoresheet has "
                f"{self.claimant.describe()}, the opponent's {self.opponent.describe()}.")

    def to_json(self) -> dict[str, Any]:
        return {"first_difference": self.first_difference,
                "claimant": None if self.claimant is None else self.claimant.to_json(),
                "opponent": None if self.opponent is None else self.opponent.to_json(),
                "plies": list(self.plies), "problem": self.problem, "sentence": self.sentence()}


@dataclass(frozen=True)
class _Sheet:
    start: str
    moves: Sequence[object]
    readings: Sequence[Reading]
    stop: Reading | None
    """What stands after the last move read: an unreadable token, or None (the sheet ends)."""

    def at(self, ply: int) -> Reading:
        if ply <= len(self.readings):
            return self.readings[ply - 1]
        if ply == len(self.readings) + 1 and self.stop is not None:
            return self.stop
        return Reading(None, None, None, f"it ends after ply {len(self.readings)}")


def _chess(text: str, start_fen: str | None, language: str | None) -> _Sheet:
    replay: Replay = replay_chess(text, start_fen, language, allow_unreadable=True)
    readings = [Reading(replay.label(p.number), p.token, p.is_legal, p.reason) for p in replay.plies]
    bad = replay.unreadable[0] if replay.unreadable else None
    stop = None if bad is None else Reading(None, bad.token, None, bad.reason)
    return _Sheet(replay.start_fen, [p.move for p in replay.plies], readings, stop)


def _checkers(text: str, start_fen: str | None) -> _Sheet:
    replay: CheckersReplay = replay_checkers(text, start_fen)
    red_first = replay.start.red_to_move
    readings = []
    for p in replay.plies:
        mover = "Red" if (p.number % 2 == 1) == red_first else "White"
        readings.append(Reading(f"{mover}'s {p.token}", p.token, p.is_legal, p.reason))
    bad = replay.unreadable[0] if replay.unreadable else None
    stop = None if bad is None else Reading(None, bad.token, None, bad.reason)
    return _Sheet(replay.start.fen(), [p.move.path for p in replay.plies], readings, stop)


def compare_scoresheets(game: str, claimant: str, opponent: str, start_fen: str | None = None,
                        language: str | None = None) -> Comparison:
    """Compare the claimant's and the opponent's scoresheets of one game (``chess`` or ``checkers``)."""
    sheets: list[_Sheet] = []
    for side, text in zip(SIDES, (claimant, opponent), strict=True):
        try:
            sheets.append(_checkers(text, start_fen) if game == "checkers" else _chess(text, start_fen, language))
        except ContractError as exc:
            return Comparison(None, None, None, (0, 0), f"The {side}'s scoresheet cannot be read: {exc.message}")
    mine, theirs = sheets
    plies = (len(mine.readings), len(theirs.readings))
    if mine.start != theirs.start:
        return Comparison(None, None, None, plies, "The two scoresheets start from different positions.")
    common = min(plies)
    first = next((i for i in range(1, common + 1) if mine.moves[i - 1] != theirs.moves[i - 1]), None)
    if first is None and (plies[0] != plies[1] or (mine.stop is None) != (theirs.stop is None)):
        first = common + 1
    if first is None:
        return Comparison(None, None, None, plies)
    return Comparison(first, mine.at(first), theirs.at(first), plies)


__all__ = ["Comparison", "Reading", "SIDES", "compare_scoresheets"]
