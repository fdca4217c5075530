"""The part of the game a proof-number search has explored, solved backwards: repetitions resolved at once.

A df-pn search (:mod:`engines.checkers.dfpn`) keeps a disproof that leans on a repetition
only for paths through the positions it came back to (the graph-history interaction), so
in king play full of transpositions it proves again and again what it has already seen,
and a draw may never close. Here the positions it has expanded are taken as one graph
(every legal move of each, found again) and solved backwards, as the endgame database is
built, once with the unexplored positions beyond it counted **won for the attacker**, once
counted **held by the defender**:

* with the unexplored counted won, a position the attacker still cannot force into a won
  position (the attacker's winning positions are the least set closed under "one move
  into it" for him and "every move into it" for the defender; the rest is where the
  defender keeps out of it for ever, or reaches a database draw) is one the attacker
  cannot win in the real game either: the real game only gives him less. Such positions
  are **disproven whatever the path** (a play that goes round is not a win);
* with the unexplored counted held, a position in the attacker's winning set is **won**:
  every line of his strategy ends in a database win or a defender without a move, in
  at most the plies counted (so no repetition is ever relied on).

What comes out is stored in the search as facts (``proven`` with plies, ``disproven``
with the defender's move that holds, for the main line), so the search goes on from there;
the children found are kept with the search (those still open, the won ones, one held one
for the defender), so the next time only positions explored since are expanded.
Database values, the search's own facts and positions without a move are exact; nothing
else is assumed. This is sound by construction whatever was explored.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from adjudicator.checkers.board import Position
from engines.checkers.dfpn import Key, WinSearch, _expand

WON, HELD, OPEN = 1, 0, -1
"""A child outside the graph: won for the attacker, held by the defender, not explored (the assumption decides)."""


@dataclass(frozen=True)
class Settled:
    """What solving the explored part backwards came to for the root."""

    value: bool | None
    """True: the attacker wins; False: he cannot; None: neither is shown by what is explored."""
    positions: int
    """Positions of the graph."""
    expanded: int
    """Positions of it expanded here (the others were the last time)."""
    proven: int
    """Positions newly proven won for the attacker."""
    disproven: int
    """Positions newly disproven."""


def settle(search: WinSearch, root: Position) -> Settled:
    """Solve the positions ``search`` has explored backwards, both ways; store what is shown; say what the root is."""
    attacker = search.attacker
    keys = [root.key] + [k for k in (*search.estimates, *search.leaning) if k != root.key]
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    is_or = [Position(*k).red_to_move == attacker for k in keys]
    edges: list[list[int]] = []
    outside: list[list[tuple[Key, int]]] = []
    expanded = 0
    for i, k in enumerate(keys):
        found = search.children.get(k)
        if found is None:
            expanded += 1
            found = _kept(is_or[i], [(child.key, _outside(search, child, moves)) for child, moves, _ in
                                     _expand(Position(*k))])
            search.children[k] = found
        inner: list[int] = []
        rest: list[tuple[Key, int]] = []
        for ck, known in found:
            j = index.get(ck)
            if j is not None:
                inner.append(j)
            elif known != OPEN:
                rest.append((ck, known))  # the database's value or the end of the game: for ever
            else:
                rest.append((ck, WON if ck in search.proven else HELD if ck in search.disproven else OPEN))
        edges.append(inner)
        outside.append(rest)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, inner in enumerate(edges):
        for j in inner:
            preds[j].append(i)
    held = _attractor(is_or, edges, outside, preds, open_is_won=True)
    won = _attractor(is_or, edges, outside, preds, open_is_won=False)
    disproven = 0
    for i, k in enumerate(keys):
        if held[i] is None:  # outside the attacker's winning set even with everything unexplored his
            disproven += 1
            search.disproven.add(k)
            search.leaning.pop(k, None)
            search.estimates.pop(k, None)
            search.children.pop(k, None)
            if not is_or[i]:
                search.refutation[k] = _holding_child(Position(*k), held, index, search)
    proven = _store_wins(search, keys, is_or, edges, outside, won)
    value = True if won[0] is not None else False if held[0] is None else None
    return Settled(value, n, expanded, proven, disproven)


def _kept(is_or: bool, found: list[tuple[Key, int]]) -> tuple[tuple[Key, int], ...]:
    """The children worth keeping: a held one matters only to the defender, and one is enough."""
    kept = tuple(f for f in found if f[1] != HELD)
    held = next((f for f in found if f[1] == HELD), None)
    return kept if is_or or held is None else (*kept, held)


def _outside(search: WinSearch, child: Position, moves: int) -> int:
    """A child outside the graph: a fact of the search, a database value, the end of the game, or unexplored."""
    key = child.key
    if key in search.proven:
        return WON
    if key in search.disproven:
        return HELD
    leaf = search._leaf(child)
    if leaf is not None:
        if leaf[0] == 0:
            search.proven.setdefault(key, leaf[2])
            return WON
        return HELD
    if moves == 0:  # the side to move cannot move: it has lost
        if child.red_to_move == search.attacker:
            return HELD
        search.proven.setdefault(key, 0)
        return WON
    return OPEN


def _attractor(
    is_or: list[bool], edges: list[list[int]], outside: list[list[tuple[Key, int]]], preds: list[list[int]],
    open_is_won: bool,
) -> list[int | None]:
    """For each position, the order in which it joined the attacker's winning set (None: never)."""
    n = len(is_or)
    order: list[int | None] = [None] * n
    left = [0] * n
    queue: deque[int] = deque()
    for i in range(n):
        values = [v == WON or (v == OPEN and open_is_won) for _, v in outside[i]]
        if is_or[i]:
            joins = any(values)
            left[i] = 1
        else:
            joins = all(values) and not edges[i]
            left[i] = len(edges[i]) if all(values) else n + 1  # a move out of it held: never joins
        if joins:
            order[i] = 0
            queue.append(i)
    step = 0
    while queue:
        j = queue.popleft()
        for i in preds[j]:
            if order[i] is not None:
                continue
            left[i] -= 1
            if left[i] == 0:
                step += 1
                order[i] = step
                queue.append(i)
    return order


def _holding_child(position: Position, held: list[int | None], index: dict[Key, int], search: WinSearch) -> Position:
    """The defender's move that keeps out of the attacker's winning set: into the database or a fact first."""
    inside = None
    for child, moves, _ in _expand(position):
        j = index.get(child.key)
        if j is None:
            if _outside(search, child, moves) == HELD:
                return child
        elif held[j] is None and inside is None:
            inside = child
    assert inside is not None  # a position outside the winning set has a move that stays out of it
    return inside


def _store_wins(
    search: WinSearch, keys: list[Key], is_or: list[bool], edges: list[list[int]],
    outside: list[list[tuple[Key, int]]], won: list[int | None],
) -> int:
    """Store the positions shown won, with plies along the winning set's order (each move goes to a position that
    joined it earlier, so the main line of :mod:`engines.checkers.proof` always reaches its end)."""
    members = sorted((o, i) for i, o in enumerate(won) if o is not None)
    plies: dict[int, int] = {}
    stored = 0
    for _, i in members:
        here: list[int] = []
        for j in edges[i]:
            if j in plies:
                here.append(plies[j])
        for ck, v in outside[i]:
            if v == WON:
                here.append(search.plies(ck) or 0)
        if not here:
            continue  # cannot happen: a member has a child that joined before it (or an outside win)
        plies[i] = 1 + (min(here) if is_or[i] else max(here))
        key = keys[i]
        if key not in search.proven:
            stored += 1
        search.proven[key] = plies[i]
        search.estimates.pop(key, None)
        search.leaning.pop(key, None)
        search.children.pop(key, None)
    return stored
