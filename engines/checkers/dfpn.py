"""Depth-first proof-number search (df-pn) for American checkers, with the endgame database at its leaves.

One search answers one yes/no question: **can the attacker force a win?** A win is
proven when the attacker has a strategy whose every line ends in a database win or a
position where the defender cannot move (ACF: a player who cannot move has lost). It
is *disproven* when the defender has a strategy whose every line ends in a database
draw or loss for the attacker, or comes back to a position already on the line: a
repetition is never a win for the attacker, since a game that goes round for ever is
not won (the database counts such play as a draw in the same way).

Repetitions and the transposition table (the graph-history interaction): a proven win
holds whatever the path to it, and is stored. A disproof that leans on a repetition
of a position *above* the node (still on the search path) holds only where that
position is on the path: each disproof carries the set of positions above it that it
leans on (the positions its lines came back to). With none, it is a fact, stored as
such; with some, it is stored with that set and used again only when every position
of the set is on the path above (the same lines come back to them there). The root's
disproof leans on nothing above the root, so it is a fact. A line longer than
``max_depth`` plies is treated like a repetition that is never reused (a disproof
resting on it proves nothing), so the depth cap can cost a proof but never give a
wrong one.

The search is deterministic for a given node budget (no clock decides what it sees).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from adjudicator.checkers.board import Position
from engines.checkers.compiled import kernel
from engines.checkers.database import EndgameDatabase

INF = 1 << 40
Key = tuple[int, int, int, bool]
Leans = frozenset[Key] | None
"""The positions above a disproof that it leans on (empty: none, a fact); None: a line ran past the depth cap."""
FREE: frozenset[Key] = frozenset()
Entry = tuple[int, int, Leans]
"""(pn, dn, leans) of a child."""
Value = Literal["win", "loss", "draw"]
Reason = Literal["budget", "depth"]


class BudgetExhausted(Exception):
    """The node budget ran out in the middle of a proof search."""


@dataclass
class WinSearch:
    """Df-pn on the question "can ``attacker`` (True: Red) force a win?"."""

    database: EndgameDatabase | None
    attacker: bool
    max_depth: int = 240
    nodes: int = 0
    limit: int = 0
    depth_capped: bool = False
    stopped: Reason | None = None
    """Why the last :meth:`solve` settled nothing."""
    proven: dict[Key, int] = field(default_factory=dict)
    """Positions proven won for the attacker, with plies to the end under the proof's strategy (-1 for a
    database position whose distance is not looked up yet: :meth:`plies`)."""
    disproven: set[Key] = field(default_factory=set)
    """Positions disproven for the attacker whatever the path (facts)."""
    leaning: dict[Key, frozenset[Key]] = field(default_factory=dict)
    """Positions disproven for the attacker wherever the positions of their set are on the path above."""
    estimates: dict[Key, tuple[int, int, int]] = field(default_factory=dict)
    """Proof and disproof numbers of positions neither proven nor disproven yet, with the nodes searched below
    them so far (their work)."""
    max_estimates: int = 200_000
    """At most this many estimates are kept: past it, the half with the least work is dropped (an estimate only
    guides the search, so dropping one costs work again, never a wrong result; facts are all kept)."""
    refutation: dict[Key, Position] = field(default_factory=dict)
    """For display only: the position the defender's move that held the attacker led to, the last time a
    disproof was found."""
    epsilon: float = 0.25
    """The 1+epsilon threshold: a child is searched until its number passes the second best's by this share."""
    heuristic: bool = True
    """Start numbers from the distance to the database and the material (else from the number of moves only)."""
    exchanges_first: bool = True
    """Moves after which the opponent must jump (exchanges, shots) are tried first: they reach the database soonest."""
    weak: bool = True
    """Weak proof numbers (WPNS): a sum over children counts max + (unsolved children - 1), so that transpositions
    are not counted over and over."""
    children: dict[Key, tuple[tuple[Key, int], ...]] = field(default_factory=dict)
    """Each child's key and what it is without search (:mod:`engines.checkers.explored`: won, held, or to be
    explored), for the positions the explored part was solved backwards over: kept for the next time."""
    _path: dict[Key, int] = field(default_factory=dict)

    def solve(self, root: Position, extra_nodes: int) -> bool | None:
        """True (proven win), False (disproven), None (not settled within ``extra_nodes`` more nodes)."""
        self.limit = self.nodes + extra_nodes
        key = root.key
        if key in self.proven:
            return True
        if key in self.disproven:
            return False
        leaf = self._leaf(root)
        if leaf is not None:
            return leaf[0] == 0
        if not root.legal_moves():
            return root.red_to_move != self.attacker
        self.depth_capped = False
        self.stopped = None
        try:
            pn, dn, leans = self._mid(root, INF, INF, 0)
        except BudgetExhausted:
            self.stopped = "budget"
            return None
        finally:
            self._path.clear()
        if pn == 0:
            return True
        if dn == 0 and leans is not None:
            return False
        self.stopped = "depth"
        return None

    def plies(self, key: Key) -> int | None:
        """Plies to the end of a position proven won for the attacker (None if not proven)."""
        plies = self.proven.get(key)
        if plies is None or plies >= 0 or self.database is None:
            return plies
        probe = self.database.probe(Position(*key))  # a database leaf: its distance looked up only now
        assert probe is not None
        self.proven[key] = probe.plies
        return probe.plies

    def _leaf(self, position: Position) -> tuple[int, int, int] | None:
        """(pn, dn, plies) of a position settled without search: no move, or in the database (its plies -1:
        looked up when a proof needs them, :meth:`plies`)."""
        db = self.database
        if db is not None and position.piece_count <= db.max_pieces:
            value = db.value_of(position)
            if value is not None:
                attacker_wins = value == ("win" if position.red_to_move == self.attacker else "loss")
                return (0, INF, -1) if attacker_wins else (INF, 0, 0)
        if not position.mover:
            return (INF, 0, 0) if position.red_to_move == self.attacker else (0, INF, 0)
        return None

    def _initial(self, child: Position, depth: int, moves: int, jump: bool) -> Entry:
        """(pn, dn, leans) of a child before it is searched (``moves``: its legal moves, ``jump``: they are jumps)."""
        key = child.key
        if key in self._path:
            return (INF, 0, frozenset((key,)))  # a repetition: not a win, while this position is on the path
        if key in self.proven:
            return (0, INF, FREE)
        if key in self.disproven:
            return (INF, 0, FREE)
        leans = self.leaning.get(key)
        if leans is not None and all(k in self._path for k in leans):
            return (INF, 0, leans)
        estimate = self.estimates.get(key)
        if estimate is not None:
            return (estimate[0], estimate[1], FREE)
        leaf = self._leaf(child)
        if leaf is not None:
            if leaf[0] == 0:
                self.proven[key] = leaf[2]
            return (leaf[0], leaf[1], FREE)
        if depth > self.max_depth:
            self.depth_capped = True
            return (INF, 0, None)  # too deep: a disproof through here proves nothing
        if moves == 0:
            # the side to move cannot move: it has lost
            if child.red_to_move == self.attacker:
                return (INF, 0, FREE)
            self.proven[key] = 0
            return (0, INF, FREE)
        # df-pn+ style start: the more moves the side to move has, the harder to beat it
        if not self.heuristic:
            return (1, moves, FREE) if child.red_to_move == self.attacker else (moves, 1, FREE)
        far, pro, con = self._cost(child, jump)
        if child.red_to_move == self.attacker:
            return (far * pro, far * con * moves, FREE)
        return (far * pro * moves, far * con, FREE)

    def _cost(self, child: Position, jump: bool) -> tuple[int, int, int]:
        """(how far from the database, a factor against the attacker, a factor for him): positions with fewer
        pieces beyond the database (a jump to make counts as made) are settled sooner; the attacker's material
        lead makes a proof likelier and a disproof less likely."""
        limit = self.database.max_pieces if self.database is not None else 0
        beyond = child.piece_count - limit
        if jump:
            beyond -= 1
        far = 1 + max(0, beyond)
        lead = _material(child, self.attacker)
        return far, max(1, 1 - lead), max(1, 1 + lead)

    def _mid(self, position: Position, th_pn: int, th_dn: int, depth: int) -> tuple[int, int, Leans]:
        """Search below ``position`` until its numbers pass the thresholds; returns (pn, dn, leans)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise BudgetExhausted
        start = self.nodes
        key = position.key
        is_or = position.red_to_move == self.attacker
        found = _expand(position)
        if self.exchanges_first and len(found) > 1:
            found.sort(key=lambda f: not f[2])  # stable: the opponent's jumps first, else the moves' order
        children = [f[0] for f in found]
        values = [self._initial(c, depth + 1, m, j) for c, m, j in found]
        self._path[key] = depth
        try:
            while True:
                pn, dn, leans, best, second = _combine(values, is_or, self.weak)
                if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                    break
                child = values[best]
                grow = second + 1 if second >= INF else second + int(second * self.epsilon) + 1  # 1 + epsilon
                if not self.epsilon:
                    grow = second + 1
                if is_or:
                    c_pn, c_dn = min(th_pn, grow), _cap(th_dn - dn + child[1])
                else:
                    c_pn, c_dn = _cap(th_pn - pn + child[0]), min(th_dn, grow)
                values[best] = self._mid(children[best], c_pn, c_dn, depth + 1)
        finally:
            del self._path[key]
        if pn == 0:
            plies = [self.plies(c.key) or 0 for c, v in zip(children, values, strict=True) if v[0] == 0]
            self.proven[key] = 1 + (min(plies) if is_or else max(plies))
            self.estimates.pop(key, None)
        elif dn == 0:
            if not is_or:
                self.refutation[key] = children[best]
            self.estimates.pop(key, None)
            if leans is None:
                return pn, dn, None
            leans = leans - {key}  # the lines that came back here: this position is on any path through it
            if leans:
                self.leaning[key] = leans
            else:
                self.disproven.add(key)
                self.leaning.pop(key, None)
            return pn, dn, leans
        else:
            before = self.estimates.get(key)
            self.estimates[key] = (pn, dn, self.nodes - start + (before[2] if before else 0))
            if len(self.estimates) > self.max_estimates:
                self._forget()
        return pn, dn, FREE

    def _forget(self) -> None:
        """Drop the half of the estimates with the least work (and what was kept to solve them backwards)."""
        ranked = sorted(self.estimates.items(), key=lambda item: item[1][2], reverse=True)
        self.estimates = dict(ranked[: self.max_estimates // 2])
        for key, _ in ranked[self.max_estimates // 2:]:
            self.children.pop(key, None)


def _expand(position: Position) -> list[tuple[Position, int, bool]]:
    """The positions after each legal move, with their own numbers of legal moves and whether those are jumps
    (by the compiled kernel where it is built: the same moves, a hundred times faster)."""
    if kernel is not None:
        return [(Position(*c), n, j) for c, n, j in kernel.children(*position)]
    out = []
    for move in position.legal_moves():
        child = position.push(move)
        moves = child.legal_moves()
        out.append((child, len(moves), bool(moves) and moves[0].is_capture))
    return out


def _material(position: Position, side: bool) -> int:
    """``side``'s material lead in men (a king counts 1.5, rounded down)."""
    kings = position.kings
    red = position.red
    white = position.white
    lead = 2 * ((red & ~kings).bit_count() - (white & ~kings).bit_count()) + 3 * (
        (red & kings).bit_count() - (white & kings).bit_count())
    lead //= 2
    return lead if side else -lead


def _cap(x: int) -> int:
    return INF if x >= INF else x


def _sum(numbers: Iterable[int]) -> int:
    """A sum of children's numbers: INF (a fact) if one is; a large sum is capped below INF, never taken for one."""
    total = 0
    for n in numbers:
        if n >= INF:
            return INF
        total += n
    return total if total < INF else INF - 1


def _reliance(leans: Leans) -> int:
    """How much a disproof leans on: nothing, some positions above, or the depth cap."""
    return 1 << 20 if leans is None else len(leans)


def _weak(numbers: Iterable[int]) -> int:
    """A weak sum (WPNS): the largest number plus one for each other child not settled."""
    top = 0
    count = 0
    for n in numbers:
        if n >= INF:
            return INF
        if n:
            top = max(top, n)
            count += 1
    return min(top + count - 1, INF - 1) if count else 0


def _combine(values: list[Entry], is_or: bool, weak: bool = False) -> tuple[int, int, Leans, int, int]:
    """(pn, dn, leans, best child, second-best number) of a node from its children's numbers."""
    if is_or:
        order = sorted(range(len(values)), key=lambda i: values[i][0])
        best = order[0]
        pn = values[best][0]
        dn = (_weak if weak else _sum)(v[1] for v in values)
        leans: Leans = FREE
        if dn == 0:  # every move is refuted: the disproof leans on all that theirs lean on
            for v in values:
                if v[2] is None or leans is None:
                    leans = None
                    break
                leans = leans | v[2]
        second = values[order[1]][0] if len(order) > 1 else INF
        return pn, dn, leans, best, second
    order = sorted(range(len(values)), key=lambda i: (values[i][1], _reliance(values[i][2])))
    best = order[0]
    dn = values[best][1]
    pn = (_weak if weak else _sum)(v[0] for v in values)
    leans = values[best][2] if dn == 0 else FREE
    second = values[order[1]][1] if len(order) > 1 else INF
    return pn, dn, leans, best, second
