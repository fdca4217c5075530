"""Proving the value of a checkers position: both df-pn questions, the closed part, the main line to the database.

:func:`prove` asks the proof-number search (:mod:`engines.checkers.dfpn`) both questions:
a draw is proven when **neither side can force a win**; a win when the side to move can;
a loss when the opponent can. Where both stay open, a small closed part of the game
is solved backwards (:mod:`engines.checkers.closure`).

A proof comes with its **main line**: the winner's fastest proven move against the
loser's longest defence (or each side's move that held the other's winning attempts,
for a draw), played until the line enters the endgame database (its :class:`Leaf`:
the position, and the value and distance the database gives there). A position in the
database itself gets the database's line of best play. The search is deterministic, so
a re-run gives the same line.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.checkers.board import Move, Position
from engines.checkers.closure import solve_closure
from engines.checkers.database import EndgameDatabase, Probe
from engines.checkers.dfpn import BudgetExhausted, Key, Reason, Value, WinSearch
from engines.checkers.explored import settle

FIRST_SHARE = 5_000
"""Nodes of each question's first turn (then doubled each turn): not a share of the budget, so that a larger
budget plays the same turns first (a df-pn search does not depend on its limit before it reaches it): what df-pn
proves within a budget it proves within any larger one."""

__all__ = ["BudgetExhausted", "Leaf", "Proof", "WinSearch", "prove"]


@dataclass(frozen=True)
class Leaf:
    """Where a proof's main line enters the endgame database."""

    ply: int
    """Moves of the line played before it (0: the position itself is in the database)."""
    position: Position
    value: Value
    """The database's value there, for the side to move there."""
    plies: int
    """The database's distance there: plies to the end of the game under best play (0 for a draw)."""


@dataclass(frozen=True)
class Proof:
    """What the proof search settled about a position, for the side to move."""

    value: Value | None
    """``win``/``loss``/``draw`` for the side to move when proven, else None."""
    line: tuple[Move, ...]
    """The proof's main line: to the position where it enters the database (see :attr:`leaf`); for a position
    in the database, the database's line of best play."""
    size: int
    """Positions in the proof tree (each side's strategy, every reply of the other side)."""
    nodes: int
    """Positions expanded by the search, both questions together."""
    seconds: float
    reason: Reason | None = None
    """Why nothing was proven: ``budget`` (the node budget ran out) or ``depth`` (a line ran past the depth cap)."""
    settled: tuple[str, ...] = ()
    """What each question came to: e.g. ``Red cannot force a win``."""
    leaf: Leaf | None = None
    """Where the main line enters the database (None: it ends where the loser cannot move, or in a repetition)."""
    plies: int | None = None
    """For a win or a loss: plies to the end of the game along the main line (its moves, then the database's
    distance at its leaf)."""

    @property
    def is_proven(self) -> bool:
        return self.value is not None


def _side(red: bool) -> str:
    return "Red" if red else "White"


def _value(probe: Probe) -> Value:
    return "win" if probe.is_win else "loss" if probe.is_loss else "draw"


def prove(
    position: Position, database: EndgameDatabase | None, budget: int = 200_000, max_depth: int = 240
) -> Proof:
    """Prove the value of ``position`` for the side to move within ``budget`` expanded positions.

    Both questions ("can Red force a win?", "can White force a win?") are searched in
    turns (:data:`FIRST_SHARE` nodes, doubled each turn) within three quarters of the
    budget, the side the static evaluation favours first; each search keeps its table
    between turns, and after each turn what it explored is solved backwards
    (:mod:`engines.checkers.explored`; the positions it expands count in the budget). If neither
    side is proven to win, the rest goes to solving the reachable part backwards.
    """
    from engines.checkers.search import evaluate

    started = time.perf_counter()
    mover = position.red_to_move
    if database is not None:
        probe = database.probe(position)
        if probe is not None:
            value = _value(probe)
            line = tuple(database.line(position)) if not probe.is_draw else ()
            leaf: Leaf | None = Leaf(0, position, value, probe.plies)
            return Proof(value, line, 1, 0, time.perf_counter() - started, None, ("in the endgame database",), leaf,
                         probe.plies if value != "draw" else None)
    first = mover if evaluate(position) >= 0 else not mover
    dfpn_budget = budget * 3 // 4
    searches = {side: WinSearch(database, side, max_depth) for side in (first, not first)}
    results: dict[bool, bool | None] = {first: None, not first: None}
    share = FIRST_SHARE
    spent = 0
    while spent < dfpn_budget and True not in results.values():
        progressed = False
        for side in (first, not first):
            if results[side] is not None or spent >= dfpn_budget:
                continue
            search = searches[side]
            if search.stopped == "depth":
                continue
            before = search.nodes
            results[side] = search.solve(position, min(share, dfpn_budget - spent))
            spent += search.nodes - before
            if results[side] is None:  # what it explored, solved backwards: its repetitions resolved at once
                backwards = settle(search, position)
                spent += backwards.expanded
                results[side] = backwards.value
            progressed = True
            if results[side] is True:
                break
        if not progressed:
            break
        share *= 2
    if None in results.values() and True not in results.values():
        closed = solve_closure(position, database, budget - spent)
        if closed is not None:
            end = position
            for move in closed.line:
                end = end.push(move)
            leaf = _leaf(end, len(closed.line), database)
            plies = None if closed.value == "draw" else len(closed.line) + (leaf.plies if leaf else 0)
            return Proof(
                closed.value, closed.line, closed.positions, spent + closed.positions, time.perf_counter() - started,
                None, (f"every position reachable ({closed.positions}) solved backwards",), leaf, plies,
            )
        spent = budget
    seconds = time.perf_counter() - started
    settled = tuple(
        f"{_side(side)} {'can' if r else 'cannot'} force a win" for side, r in results.items() if r is not None
    )
    if results[mover] or results[not mover]:
        winner = mover if results[mover] else not mover
        win = searches[winner]
        line, leaf = _win_line(win, position, database)
        size = _win_size(win, position, database)
        return Proof("win" if winner == mover else "loss", line, size, spent, seconds, None, settled, leaf,
                     len(line) + (leaf.plies if leaf is not None else 0))
    if results[mover] is False and results[not mover] is False:
        line, leaf = _draw_line(searches, position, database)
        size = _draw_size(searches[mover], position, database) + _draw_size(searches[not mover], position, database)
        return Proof("draw", line, size, spent, seconds, None, settled, leaf)
    reasons = [searches[s].stopped for s in (mover, not mover) if results[s] is None]
    reason: Reason = "depth" if reasons and all(r == "depth" for r in reasons) else "budget"
    return Proof(None, (), 0, spent, seconds, reason, settled)


def _in_db(position: Position, database: EndgameDatabase | None) -> bool:
    return database is not None and database.contains(position)


def _leaf(position: Position, ply: int, database: EndgameDatabase | None) -> Leaf | None:
    if database is None or not database.contains(position):
        return None
    probe = database.probe(position)
    return None if probe is None else Leaf(ply, position, _value(probe), probe.plies)


def _proven_child(search: WinSearch, position: Position) -> Move | None:
    """The winner's move (fastest proven) or the loser's longest defence, in the proof tree."""
    is_or = position.red_to_move == search.attacker
    best: tuple[int, Move] | None = None
    for move in position.legal_moves():
        plies = search.plies(position.push(move).key)
        if plies is None:
            if is_or:
                continue
            return None
        if best is None or (plies < best[0] if is_or else plies > best[0]):
            best = (plies, move)
    return None if best is None else best[1]


def _win_line(
    search: WinSearch, position: Position, database: EndgameDatabase | None
) -> tuple[tuple[Move, ...], Leaf | None]:
    """The winner's strategy against the longest defence, to the database (or to the end of the game)."""
    line: list[Move] = []
    while len(line) < 300:
        leaf = _leaf(position, len(line), database)
        if leaf is not None:
            return tuple(line), leaf
        move = _proven_child(search, position)
        if move is None:
            break
        line.append(move)
        position = position.push(move)
    return tuple(line), None


def _strategy_size(
    root: Position, database: EndgameDatabase | None, chooser: bool, choice: Callable[[Position], Move | None]
) -> int:
    """Positions in one side's strategy from ``root``: ``chooser`` (red_to_move) plays ``choice``, the other
    side every legal move; database positions are leaves."""
    seen: set[Key] = set()
    stack = [root]
    while stack and len(seen) < 5_000_000:
        position = stack.pop()
        if position.key in seen:
            continue
        seen.add(position.key)
        if _in_db(position, database):
            continue
        if position.red_to_move == chooser:
            move = choice(position)
            stack.extend([] if move is None else [position.push(move)])
        else:
            stack.extend(position.push(m) for m in position.legal_moves())
    return len(seen)


def _win_size(search: WinSearch, root: Position, database: EndgameDatabase | None) -> int:
    """Positions in the attacker's winning strategy (each reply of the defender)."""
    return _strategy_size(root, database, search.attacker, lambda p: _proven_child(search, p))


def _move_to(position: Position, child: Position | None) -> Move | None:
    """The legal move of ``position`` that leads to ``child``."""
    if child is None:
        return None
    return next((m for m in position.legal_moves() if position.push(m) == child), None)


def _draw_size(search: WinSearch, root: Position, database: EndgameDatabase | None) -> int:
    """Positions in the defender's drawing strategy against ``search.attacker`` (each reply of the attacker)."""
    return _strategy_size(root, database, not search.attacker,
                          lambda p: _move_to(p, search.refutation.get(p.key)))


def _draw_line(
    searches: dict[bool, WinSearch], position: Position, database: EndgameDatabase | None
) -> tuple[tuple[Move, ...], Leaf | None]:
    """Each side in turn plays the move that held the other side's winning attempts, until the database or a repeat."""
    line: list[Move] = []
    seen: set[Key] = set()
    while len(line) < 120 and position.key not in seen:
        seen.add(position.key)
        leaf = _leaf(position, len(line), database)
        if leaf is not None:
            return tuple(line), leaf
        move = _move_to(position, searches[not position.red_to_move].refutation.get(position.key))
        if move is None:
            break
        line.append(move)
        position = position.push(move)
    return tuple(line), None
