"""Exact values of a small closed part of the game: every position reachable from a root, solved backwards.

When every position reachable from the root (by any legal moves, stopping at database
positions and positions with no move) fits in the budget, the part is solved by
retrograde analysis exactly like the endgame database is built: a position with a
move into a position lost for the opponent is won; one whose every move leads into a
position won for the opponent is lost; what is never settled is a draw (neither side
can force a win, the play can only go round). Repetitions need no special care here:
a cycle that nobody can be forced out of is exactly what a draw is.

This complements the proof-number search (:mod:`engines.checkers.proof`), which finds
wins quickly but proves king-against-king draws only slowly, because a disproof that
leans on a repetition cannot be stored.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

from adjudicator.checkers.board import Move, Position
from engines.checkers.database import EndgameDatabase

UNKNOWN, WIN, LOSS, DRAW = 0, 1, 2, 3
Key = tuple[int, int, int, bool]


@dataclass(frozen=True)
class Closure:
    """The solved part of the game below a root."""

    value: Literal["win", "loss", "draw"]
    """``win``, ``loss`` or ``draw`` for the side to move at the root."""
    line: tuple[Move, ...]
    positions: int
    """Positions searched (outside the database)."""


def solve_closure(root: Position, database: EndgameDatabase | None, max_positions: int) -> Closure | None:
    """The exact value of ``root``, or None when more than ``max_positions`` positions are reachable."""
    from engines.checkers.dfpn import _expand

    index: dict[Key, int] = {root.key: 0}
    positions = [root]
    succ: list[list[int]] = []
    value: list[int] = []
    dist: list[int] = []
    queue = deque([0])
    while queue:
        i = queue.popleft()
        position = positions[i]
        while len(value) <= i:
            value.append(UNKNOWN)
            dist.append(0)
            succ.append([])
        known = _known(position, database)
        if known is not None:
            value[i], dist[i] = known
            continue
        children = [c for c, _, _ in _expand(position)]
        if not children:
            value[i] = LOSS
            continue
        for child in children:
            j = index.get(child.key)
            if j is None:
                if len(positions) >= max_positions:
                    return None
                j = len(positions)
                index[child.key] = j
                positions.append(child)
                queue.append(j)
            succ[i].append(j)
    n = len(positions)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in succ[i]:
            preds[j].append(i)
    remaining = [len(succ[i]) for i in range(n)]
    frontier = deque(i for i in range(n) if value[i] in (WIN, LOSS))
    while frontier:
        j = frontier.popleft()
        for i in preds[j]:
            if value[i] != UNKNOWN:
                continue
            if value[j] == LOSS:
                value[i], dist[i] = WIN, dist[j] + 1
                frontier.append(i)
            else:
                remaining[i] -= 1
                if remaining[i] == 0:
                    value[i] = LOSS
                    dist[i] = 1 + max(dist[k] for k in succ[i])
                    frontier.append(i)
    root_value: Literal["win", "loss", "draw"] = "win" if value[0] == WIN else "loss" if value[0] == LOSS else "draw"
    return Closure(root_value, _line(positions, value, dist, succ), n)


def _known(position: Position, database: EndgameDatabase | None) -> tuple[int, int] | None:
    if not position.mover:
        return LOSS, 0
    if database is None or position.piece_count > database.max_pieces:
        return None
    probe = database.probe(position)
    if probe is None:
        return None
    return (WIN if probe.is_win else LOSS if probe.is_loss else DRAW), probe.plies


def _line(positions: list[Position], value: list[int], dist: list[int], succ: list[list[int]]) -> tuple[Move, ...]:
    """Best play inside the closure: the fastest win, the longest loss, a move keeping the draw."""
    line: list[Move] = []
    seen: set[int] = set()
    i = 0
    while succ[i] and i not in seen and len(line) < 200:
        seen.add(i)
        if value[i] == WIN:
            j = min((j for j in succ[i] if value[j] == LOSS), key=lambda j: dist[j])
        elif value[i] == LOSS:
            j = max(succ[i], key=lambda j: dist[j])
        else:
            j = next(j for j in succ[i] if value[j] in (UNKNOWN, DRAW))
        position = positions[i]
        line.append(next(m for m in position.legal_moves() if position.push(m) == positions[j]))
        i = j
    return tuple(line)
