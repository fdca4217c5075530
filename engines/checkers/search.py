"""Alpha-beta search for American checkers, with the endgame database at its leaves.

Negamax with iterative deepening, a transposition table, capture extension (a
position with a jump pending is never evaluated statically) and exact database
values wherever few enough pieces remain. Scores are from the side to move, in
hundredths of a man; ``WIN - plies`` is a forced win.

A root score beyond :data:`PROVEN` is a **proof**: every line the winner's strategy
allows ends in a database win or a position where the loser cannot move, since
static evaluations never come near it. Anything less is an evaluation, not a result.
The search is deterministic for a given node budget (no clock decides what it sees).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from adjudicator.checkers.board import Move, Position
from engines.checkers.database import EndgameDatabase

WIN = 30_000
PROVEN = WIN - 2_000
"""Scores at or beyond this are forced wins (or losses), not evaluations."""

MAN = 100
KING = 135
_ROW_BONUS = tuple(0 if r < 3 else (r - 2) * 3 for r in range(8))
"""A small bonus for a man's advance (rows from its own side)."""


class SearchAborted(Exception):
    """The node budget ran out in the middle of an iteration."""


def evaluate(position: Position) -> int:
    """A static evaluation from the side to move: material, men's advance, back-rank guard."""
    score = 0
    kings = position.kings
    for colour, bb in ((True, position.red), (False, position.white)):
        side = 0
        men = bb & ~kings
        side += (bb & kings).bit_count() * KING + men.bit_count() * MAN
        m = men
        while m:
            low = m & -m
            sq = low.bit_length() - 1
            row = sq // 4 if colour else 7 - sq // 4
            side += _ROW_BONUS[row]
            m ^= low
        back = 0xF if colour else 0xF << 28
        side += (men & back).bit_count() * 4
        score += side if colour == position.red_to_move else -side
    return score


@dataclass
class SearchResult:
    """What the search found from the root position."""

    score: int
    """From the side to move; beyond ``PROVEN`` a forced win, beyond ``-PROVEN`` a forced loss."""
    line: list[Move]
    depth: int
    nodes: int
    seconds: float
    database_hits: int = 0
    completed_depths: list[int] = field(default_factory=list)

    @property
    def is_proven_win(self) -> bool:
        return self.score >= PROVEN

    @property
    def is_proven_loss(self) -> bool:
        return self.score <= -PROVEN

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class Searcher:
    """Iterative-deepening alpha-beta with the database at the leaves."""

    def __init__(self, database: EndgameDatabase | None = None, max_nodes: int = 100_000) -> None:
        self.database = database
        self.max_nodes = max_nodes
        self.nodes = 0
        self.hits = 0
        self._tt: dict[tuple[int, int, int, bool], tuple[int, int, int, Move | None]] = {}

    def search(self, position: Position, max_depth: int = 64) -> SearchResult:
        """Search deeper and deeper until the node budget runs out or a forced result is found."""
        started = time.perf_counter()
        self.nodes = 0
        self.hits = 0
        self._tt.clear()
        best = SearchResult(evaluate(position), [], 0, 0, 0.0)
        done: list[int] = []
        for depth in range(1, max_depth + 1):
            try:
                score = self._negamax(position, depth, -WIN - 1, WIN + 1, 0, set())
            except SearchAborted:
                break
            done.append(depth)
            best = SearchResult(score, self._pv(position, depth), depth, self.nodes, 0.0)
            if abs(score) >= PROVEN:
                break
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - started
        best.database_hits = self.hits
        best.completed_depths = done
        return best

    def _pv(self, position: Position, depth: int) -> list[Move]:
        line: list[Move] = []
        seen: set[tuple[int, int, int, bool]] = set()
        while len(line) < depth + 20 and position.key not in seen:
            seen.add(position.key)
            entry = self._tt.get(position.key)
            if entry is None or entry[3] is None:
                break
            move = entry[3]
            if move not in position.legal_moves():
                break
            line.append(move)
            position = position.push(move)
        if self.database is not None and self.database.contains(position):
            line.extend(self.database.line(position, max_plies=80))
        return line

    def _negamax(
        self, position: Position, depth: int, alpha: int, beta: int, ply: int, path: set[tuple[int, int, int, bool]]
    ) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchAborted
        key = position.key
        if ply and key in path:
            return 0  # a repetition on the path: no progress
        db = self.database
        if db is not None and ply and position.piece_count <= db.max_pieces:
            probe = db.probe(position)
            if probe is not None:
                self.hits += 1
                if probe.is_draw:
                    return 0
                score = WIN - ply - probe.plies
                return score if probe.is_win else -score
        moves = position.legal_moves()
        if not moves:
            return -(WIN - ply)  # no move: lost
        is_capture = moves[0].is_capture
        if depth <= 0 and not is_capture:
            return evaluate(position)
        entry = self._tt.get(key)
        tt_move: Move | None = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            is_usable = e_depth >= depth and abs(e_score) < PROVEN
            if is_usable and (e_flag == 0 or (e_flag == 1 and e_score >= beta) or (e_flag == -1 and e_score <= alpha)):
                return e_score
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        original_alpha = alpha
        best_score = -WIN - 1
        best_move: Move | None = None
        path.add(key)
        try:
            for move in moves:
                next_depth = depth if is_capture and len(moves) == 1 else depth - 1
                score = -self._negamax(position.push(move), next_depth, -beta, -alpha, ply + 1, path)
                if score > best_score:
                    best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                if alpha >= beta:
                    break
        finally:
            path.discard(key)
        flag = 0 if original_alpha < best_score < beta else (1 if best_score >= beta else -1)
        self._tt[key] = (depth, best_score, flag, best_move)
        return best_score
