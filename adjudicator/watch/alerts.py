"""What the arbiter's watch tells the arbiter: one alert per fact seen in a live record, with what to do.

Kinds (``shared/notes/watch.md``):

- game facts the arbiter must or may act on without a claim: ``fivefold`` (FIDE 9.6.1), ``seventy-five-moves``
  (9.6.2), ``dead-position`` (5.2.2), ``checkmate`` / ``stalemate`` with play going on (5.1.1, 5.2.1);
- facts a player could claim now: ``threefold-available`` (9.2.2), ``fifty-available`` (9.3.2), checkers'
  ``threefold-available`` and ``forty-available`` (WCDF 2008 draw rules (a), (b));
- ``flag-down`` (``[%clk 0:00:00]``: FIDE 6.8, A.5.3; US 13C1), ``illegal-move`` (7.5.1, A.5.2; US 11A),
  ``early-draw`` (a draw result before the event's ``no_offer_before_move``, 9.1.1);
- source faults, what a DGT board or a rewritten file gets wrong, never ruled as a game fact:
  ``king-moves-at-result``, ``move-not-legal``, ``take-back``, ``missing-clock``, ``board-moved``,
  ``half-written``, ``unreadable-record``; and ``source-unavailable`` (the folder or URL cannot be read: the
  command's, board null).

Actions: ``act`` (the arbiter must intervene), ``may-act`` (the ruleset leaves it to the TD, US 14K),
``claimable`` (do not interfere; the ruling is ready when the claim comes), ``do-not-call`` (the rules forbid
the arbiter to point it out; kept for the claim), ``check-board`` (look at the board first: the source may be
wrong), ``event-rule`` (the event's own regulations).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

Action = Literal["act", "may-act", "claimable", "do-not-call", "check-board", "event-rule"]
ACTIONS: tuple[Action, ...] = ("act", "may-act", "claimable", "do-not-call", "check-board", "event-rule")

GAME_ENDINGS = ("fivefold", "seventy-five-moves", "dead-position", "checkmate", "stalemate")
CLAIMABLE = ("threefold-available", "fifty-available", "forty-available")
FAULTS = ("king-moves-at-result", "move-not-legal", "take-back", "missing-clock", "board-moved", "half-written",
          "unreadable-record", "source-unavailable")
KINDS = (*GAME_ENDINGS, *CLAIMABLE, "flag-down", "illegal-move", "early-draw", *FAULTS)
EVENTS = ("take-back", "board-moved")
"""Faults that happened once, between two copies: they stand, whatever later copies show."""


@dataclass(frozen=True)
class Finding:
    """A fact of one game's record, before it is placed on a board: what, where, what to do, and why."""

    kind: str
    ply: int
    action: Action
    rule_refs: tuple[str, ...]
    reason: str
    move: str | None = None
    """The move of ``ply`` as an arbiter names it (``41...Kg7``)."""

    @property
    def key(self) -> tuple[str, int, str]:
        """An alert is the same alert from one copy to the next when its kind, ply and action are."""
        return (self.kind, self.ply, self.action)


@dataclass(frozen=True)
class Alert:
    """One alert of the watch: a :class:`Finding` on a board, with the game's players."""

    board: int | None
    round: int | None
    game: str
    """The game's identity (``GameId``, else round and players: :func:`adjudicator.live.boards.game_key`)."""
    players: tuple[str | None, str | None]
    """In play order: White then Black (checkers: the first mover, then the other)."""
    kind: str
    action: Action
    ply: int
    rule_refs: tuple[str, ...]
    reason: str
    move: str | None = None
    withdrawn: bool = False

    @classmethod
    def of(cls, finding: Finding, board: int | None, round_: int | None, game: str,
           players: tuple[str | None, str | None]) -> Alert:
        return cls(board, round_, game, players, finding.kind, finding.action, finding.ply, finding.rule_refs,
                   finding.reason, finding.move)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.kind, self.ply, self.action)

    @property
    def is_fault(self) -> bool:
        return self.kind in FAULTS

    def withdrawn_copy(self, reason: str) -> Alert:
        return replace(self, withdrawn=True, reason=reason)

    def to_json(self) -> dict[str, Any]:
        """The command's JSON line (docs/watch.md)."""
        return {
            "board": self.board, "round": self.round, "game": self.game, "kind": self.kind, "action": self.action,
            "ply": self.ply, "move": self.move, "rule_refs": list(self.rule_refs), "players": list(self.players),
            "withdrawn": self.withdrawn, "reason": self.reason,
        }
