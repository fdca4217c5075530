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
of a position *above* the node (still on the search path) holds only for that path;
it is kept for the current visit but never stored. Each disproof carries the depth
of the highest ancestor it leans on (``low``); it is stored when ``low`` is not
above the node itself, and the root's disproof is a fact only when it leans on
nothing above the root. A line longer than ``max_depth`` plies is treated like such
a repetition (a disproof resting on it proves nothing), so the depth cap can cost a
proof but never give a wrong one.

The search is deterministic for a given node budget (no clock decides what it sees).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from adjudicator.checkers.board import Position
from engines.checkers.compiled import kernel
from engines.checkers.database import EndgameDatabase

INF = 1 << 40
FREE = 1 << 30
"""``low`` of a result that leans on no position on the path."""
Key = tuple[int, int, int, bool]
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
    estimates: dict[Key, tuple[int, int]] = field(default_factory=dict)
    """Proof and disproof numbers of positions neither proven nor disproven yet."""
    refutation: dict[Key, Position] = field(default_factory=dict)
    """For display only: the position the defender's move that held the attacker led to, the last time a
    disproof was found."""
    epsilon: float = 0.25
    """The 1+epsilon threshold: a child is searched until its number passes the second best's by this share."""
    heuristic: bool = True
    """Start numbers from the distance to the database and the material (else from the number of moves only)."""
    exchanges_first: bool = True
    """Moves after which the opponent must jump (exchanges, shots) are tried first: they reach the database soonest."""
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
            pn, dn, low, _ = self._mid(root, INF - 1, INF - 1, 0)
        except BudgetExhausted:
            self.stopped = "budget"
            return None
        finally:
            self._path.clear()
        if pn == 0:
            return True
        if dn == 0 and low >= 0:
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

    def _initial(self, child: Position, depth: int, moves: int, jump: bool) -> list[int]:
        """[pn, dn, low] of a child before it is searched (``moves``: its legal moves, ``jump``: they are jumps)."""
        key = child.key
        ancestor = self._path.get(key)
        if ancestor is not None:
            return [INF, 0, ancestor]  # a repetition: not a win, for this path only
        if key in self.proven:
            return [0, INF, FREE]
        if key in self.disproven:
            return [INF, 0, FREE]
        estimate = self.estimates.get(key)
        if estimate is not None:
            return [estimate[0], estimate[1], FREE]
        leaf = self._leaf(child)
        if leaf is not None:
            if leaf[0] == 0:
                self.proven[key] = leaf[2]
            return [leaf[0], leaf[1], FREE]
        if depth > self.max_depth:
            self.depth_capped = True
            return [INF, 0, -1]  # too deep: a disproof through here proves nothing
        if moves == 0:
            # the side to move cannot move: it has lost
            if child.red_to_move == self.attacker:
                return [INF, 0, FREE]
            self.proven[key] = 0
            return [0, INF, FREE]
        # df-pn+ style start: the more moves the side to move has, the harder to beat it
        if not self.heuristic:
            return [1, moves, FREE] if child.red_to_move == self.attacker else [moves, 1, FREE]
        far, pro, con = self._cost(child, jump)
        if child.red_to_move == self.attacker:
            return [far * pro, far * con * moves, FREE]
        return [far * pro * moves, far * con, FREE]

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

    def _mid(self, position: Position, th_pn: int, th_dn: int, depth: int) -> tuple[int, int, int, list[Key]]:
        """Search below ``position`` until its numbers pass the thresholds.

        Returns (pn, dn, low, pending): ``pending`` lists the positions of a path-dependent
        disproof (this one and those below it that it rests on); they become facts with it.
        """
        self.nodes += 1
        if self.nodes > self.limit:
            raise BudgetExhausted
        key = position.key
        is_or = position.red_to_move == self.attacker
        found = _expand(position)
        if self.exchanges_first and len(found) > 1:
            found.sort(key=lambda f: not f[2])  # stable: the opponent's jumps first, else the moves' order
        children = [f[0] for f in found]
        values = [self._initial(c, depth + 1, m, j) for c, m, j in found]
        pendings: list[list[Key]] = [[] for _ in children]
        self._path[key] = depth
        try:
            while True:
                pn, dn, low, best, second = _combine(values, is_or)
                if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                    break
                child = values[best]
                grow = second + 1 if second >= INF else int(second * (1 + self.epsilon)) + 1
                if is_or:
                    c_pn, c_dn = min(th_pn, grow), _cap(th_dn - dn + child[1])
                else:
                    c_pn, c_dn = _cap(th_pn - pn + child[0]), min(th_dn, grow)
                c_pn, c_dn, c_low, pendings[best] = self._mid(children[best], c_pn, c_dn, depth + 1)
                values[best] = [c_pn, c_dn, c_low]
        finally:
            del self._path[key]
        pending: list[Key] = []
        if pn == 0:
            plies = [self.plies(c.key) or 0 for c, v in zip(children, values, strict=True) if v[0] == 0]
            self.proven[key] = 1 + (min(plies) if is_or else max(plies))
            self.estimates.pop(key, None)
        elif dn == 0:
            if not is_or:
                self.refutation[key] = children[best]
            for i in range(len(values)) if is_or else (best,):
                pending.extend(pendings[i])
            if low >= depth:
                # the disproof rests on nothing above this node: it and all it rests on are facts
                self.disproven.add(key)
                self.disproven.update(pending)
                for k in pending:
                    self.estimates.pop(k, None)
                self.estimates.pop(key, None)
                return pn, dn, FREE, []
            pending.append(key)
        else:
            self.estimates[key] = (pn, dn)
        return pn, dn, low, pending


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


def _combine(values: list[list[int]], is_or: bool) -> tuple[int, int, int, int, int]:
    """(pn, dn, low, best child, second-best number) of a node from its children's numbers."""
    if is_or:
        order = sorted(range(len(values)), key=lambda i: values[i][0])
        best = order[0]
        pn = values[best][0]
        dn = _cap(sum(v[1] for v in values))
        low = min(v[2] for v in values) if dn == 0 else FREE
        second = values[order[1]][0] if len(order) > 1 else INF
        return pn, dn, low, best, second
    order = sorted(range(len(values)), key=lambda i: (values[i][1], -values[i][2]))
    best = order[0]
    dn = values[best][1]
    pn = _cap(sum(v[0] for v in values))
    low = values[best][2] if dn == 0 else FREE
    second = values[order[1]][1] if len(order) > 1 else INF
    return pn, dn, low, best, second
