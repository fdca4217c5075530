"""Building the win/loss/draw endgame database by retrograde analysis, vectorised with NumPy.

Slices are solved in an order in which every capture and every promotion leads
into a slice already solved (fewer pieces, or as many pieces with one man less).
A slice and its colour-swapped partner are solved together (a *pair*), because a
quiet move that does not crown leads from one into the other. Pairs with the same
numbers of pieces and of men depend on nothing but what is solved before them, so
they can be solved in separate processes (``workers``).

For each pair:

1. one pass over every position (Red to move) settles what needs no look inside
   the pair: a position with a jump from its jumps' values (ACF: jumps are
   compulsory; every jump leads into a solved slice), a position with no move as
   lost, a position with a crowning move into a lost position as won (at once if
   it has no other move); the pass also counts each position's other quiet moves;
2. layered retrograde propagation, walking *back* from settled positions (their
   quiet moves taken back, :func:`engines.checkers.moves.unmoves`): a position with
   a lost successor is won one ply later; a position whose count of unsettled
   successors reaches zero, all of them won (and whose crowning moves win for the
   opponent), is lost one ply after the last of them;
3. what is left is drawn.

No move list is stored: a pair needs about 11 bytes a position while it is solved.
Each position gets its value (2 bits) and its distance in plies to the end of the
game under best play (capped at 255), which lets a winning line be shown.
"""

from __future__ import annotations

import itertools
import multiprocessing
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engines.checkers.index import I64, U32, Codec, Slice, pairs, rank, slice_of, slice_size, split_code
from engines.checkers.moves import captures, crowning_moves, has_capture, quiet_counts, unmoves

UNKNOWN, WIN, LOSS, DRAW = 0, 1, 2, 3
"""Values for the side to move. Stored as 2 bits each."""

U8 = npt.NDArray[np.uint8]
Log = Callable[[str], None]


def pack(values: U8) -> U8:
    """Four 2-bit values a byte."""
    padded = np.zeros((len(values) + 3) // 4 * 4, dtype=np.uint8)
    padded[: len(values)] = values
    q = padded.reshape(-1, 4)
    return (q[:, 0] | (q[:, 1] << 2) | (q[:, 2] << 4) | (q[:, 3] << 6)).astype(np.uint8)


def unpack_at(packed: U8, idx: I64) -> U8:
    """The 2-bit values at ``idx``."""
    shifts = ((idx & 3) * 2).astype(np.uint8)
    out: U8 = ((packed[idx >> 2] >> shifts) & np.uint8(3)).astype(np.uint8)
    return out


@dataclass
class Solved:
    """Solved slices: packed values and distances, looked up by slice."""

    values: dict[Slice, U8] = field(default_factory=dict)
    distances: dict[Slice, U8] = field(default_factory=dict)

    def lookup(self, rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[U8, U8]:
        """Values and distances of Red-to-move positions in solved slices (any mix of slices)."""
        values = np.zeros(len(rm), dtype=np.uint8)
        dists = np.zeros(len(rm), dtype=np.uint8)
        codes = slice_of(rm, rk, wm, wk)
        for code in np.unique(codes):
            s = split_code(int(code))
            sel = np.nonzero(codes == code)[0]
            if s[0] + s[1] == 0:
                values[sel] = LOSS  # the side to move has no piece left: lost
                continue
            idx = rank(s, rm[sel], rk[sel], wm[sel], wk[sel])
            values[sel] = unpack_at(self.values[s], idx)
            dists[sel] = self.distances[s][idx]
        return values, dists


def _any_per(p: I64, flag: npt.NDArray[np.bool_], n: int) -> npt.NDArray[np.bool_]:
    return np.bincount(p[flag], minlength=n) > 0


CHUNK = 1 << 18
"""Positions settled at a time in the first pass."""
BACK_CHUNK = 1 << 17
"""Settled positions whose moves are taken back at a time (up to 20 predecessors each)."""
U16 = npt.NDArray[np.uint16]
Nodes = npt.NDArray[np.int32]
"""Positions of a pair (indices below 2**31) waiting to be walked back from."""
Solution = dict[Slice, tuple[U8, U8]]
"""Packed values and capped distances of the slices of a pair."""


class _Pair:
    """A slice and its colour-swapped partner, numbered one after the other."""

    def __init__(self, s: Slice, t: Slice) -> None:
        self.sides = [s] if s == t else [s, t]
        self.codecs = [Codec(x) for x in self.sides]
        self.base = [0, self.codecs[0].size]
        self.n = sum(c.size for c in self.codecs)
        self.value = np.zeros(self.n, dtype=np.uint8)
        self.dist = np.zeros(self.n, dtype=np.uint16)
        self.count = np.zeros(self.n, dtype=np.uint8)
        """Quiet moves not crowning, to positions not yet settled won."""
        self.nonwin_exit = np.zeros(self.n, dtype=bool)
        """A crowning move leads to a position not lost for the mover: this position is not lost."""
        self.tentative = np.zeros(self.n, dtype=np.uint16)
        """For positions with a winning crowning move: that win's distance (a quicker win may exist)."""
        self._stamp = np.zeros(self.n, dtype=np.int32)

    def distinct(self, nodes: I64) -> I64:
        """``nodes`` without repeats (in their order), without sorting: one write to a slot survives."""
        if len(nodes) < 2:
            return nodes
        positions = np.arange(len(nodes), dtype=np.int32)
        self._stamp[nodes] = positions
        out: I64 = nodes[self._stamp[nodes] == positions]
        return out

    def partner(self, k: int) -> int:
        return 1 - k if len(self.sides) == 2 else 0

    def predecessors(self, nodes: I64) -> I64:
        """Global indices of the positions with a quiet, non-crowning move into ``nodes`` (repeats kept)."""
        out: list[I64] = []
        for k, codec in enumerate(self.codecs):
            lo = self.base[k]
            sel = nodes[(nodes >= lo) & (nodes < lo + codec.size)]
            if not len(sel):
                continue
            rm, rk, wm, wk, _ = codec.unrank(sel - lo)
            _, prm, prk, pwm, pwk = unmoves(rm, rk, wm, wk)
            j = self.partner(k)
            out.append(rank(self.sides[j], prm, prk, pwm, pwk) + self.base[j])
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def solve_pair(solved: Solved, s: Slice, t: Slice, log: Log | None = None) -> None:
    """Solve slice ``s`` with its partner ``t`` (possibly the same) and add them to ``solved``."""
    for x, (values, distances) in solve_pair_arrays(solved, s, t).items():
        solved.values[x] = values
        solved.distances[x] = distances


def solve_pair_arrays(solved: Solved, s: Slice, t: Slice) -> Solution:
    """The packed values and capped distances of ``s`` and its partner ``t``."""
    pair = _Pair(s, t)
    for k, codec in enumerate(pair.codecs):
        for lo in range(0, codec.size, CHUNK):
            idx = np.arange(lo, min(lo + CHUNK, codec.size), dtype=np.int64)
            rm, rk, wm, wk, valid = codec.unrank(idx)
            vi = np.nonzero(valid)[0]
            _settle(solved, pair, rm[vi], rk[vi], wm[vi], wk[vi], idx[vi] + pair.base[k])
    _propagate(pair)
    value, dist = pair.value, pair.dist
    del pair.count, pair.nonwin_exit, pair.tentative, pair._stamp
    value[value == UNKNOWN] = DRAW
    capped = np.minimum(dist, 255).astype(np.uint8)
    capped[value == DRAW] = 0
    out: Solution = {}
    for k, codec in enumerate(pair.codecs):
        lo, hi = pair.base[k], pair.base[k] + codec.size
        out[pair.sides[k]] = (pack(value[lo:hi]), capped[lo:hi].copy())
    return out


def _settle(solved: Solved, pair: _Pair, rm: U32, rk: U32, wm: U32, wk: U32, g: I64) -> None:
    """Settle what the moves of these positions decide at once; count their other quiet moves."""
    value, dist = pair.value, pair.dist
    cap = has_capture(rm, rk, wm, wk)
    # jumps: every successor is in a solved slice
    ci = np.nonzero(cap)[0]
    p, *succ = captures(rm[ci], rk[ci], wm[ci], wk[ci])
    sv, sd = solved.lookup(*succ)
    score = np.where(sv == LOSS, 2, np.where(sv == DRAW, 1, 0)).astype(np.int8)
    best = np.full(len(ci), -1, dtype=np.int8)
    np.maximum.at(best, p, score)
    win_dist = np.full(len(ci), 1 << 15, dtype=np.int32)
    np.minimum.at(win_dist, p[sv == LOSS], sd[sv == LOSS].astype(np.int32) + 1)
    loss_dist = np.zeros(len(ci), dtype=np.int32)
    np.maximum.at(loss_dist, p, sd.astype(np.int32) + 1)
    gc = g[ci]
    value[gc] = np.where(best == 2, WIN, np.where(best == 1, DRAW, LOSS))
    dist[gc] = np.where(best == 2, win_dist, np.where(best == 0, loss_dist, 0))
    # quiet positions: crowning moves lead into a solved slice, the other moves stay in the pair
    qi = np.nonzero(~cap)[0]
    gq = g[qi]
    inner, crowns = quiet_counts(rm[qi], rk[qi], wm[qi], wk[qi])
    has_move = (inner + crowns) > 0
    value[gq[~has_move]] = LOSS  # no move: lost now (ACF)
    p, *succ = crowning_moves(rm[qi], rk[qi], wm[qi], wk[qi])
    ev, ed = solved.lookup(*succ)
    exit_win = _any_per(p, ev == LOSS, len(qi))
    wd = np.full(len(qi), 1 << 15, dtype=np.int32)
    np.minimum.at(wd, p[ev == LOSS], ed[ev == LOSS].astype(np.int32) + 1)
    # a crowning move that wins: won, but maybe faster by another move (settled during propagation)
    pair.tentative[gq[exit_win]] = wd[exit_win]
    nonwin = _any_per(p, ev == DRAW, len(qi)) | exit_win
    pair.nonwin_exit[gq] = nonwin
    exit_loss_dist = np.zeros(len(qi), dtype=np.int32)
    np.maximum.at(exit_loss_dist, p, ed.astype(np.int32) + 1)
    pair.count[gq] = inner
    # a position whose only moves are crowning moves is settled now
    only_exits = has_move & (inner == 0)
    won = only_exits & exit_win
    value[gq[won]] = WIN
    dist[gq[won]] = wd[won]
    rest = only_exits & ~exit_win
    value[gq[rest]] = np.where(nonwin[rest], DRAW, LOSS)
    dist[gq[rest]] = np.where(nonwin[rest], 0, exit_loss_dist[rest])
    # the longest crowning defence bounds how late a loss can come
    later = ~exit_win & has_move & ~only_exits
    dist[gq[later]] = exit_loss_dist[later]


def _by_layer(idx: Nodes, layers: U16) -> dict[int, list[Nodes]]:
    """``idx`` grouped by ``layers`` (one value each)."""
    order = np.argsort(layers, kind="stable")
    idx, layers = idx[order], layers[order]
    del order
    cuts = [0, *(np.flatnonzero(np.diff(layers)) + 1).tolist(), len(idx)]
    return {int(layers[lo]): [idx[lo:hi].copy()] for lo, hi in itertools.pairwise(cuts) if hi > lo}


def _chunks(nodes: Nodes) -> Iterable[I64]:
    for lo in range(0, len(nodes), BACK_CHUNK):
        yield nodes[lo:lo + BACK_CHUNK].astype(np.int64)


def _propagate(pair: _Pair) -> None:
    """Layered retrograde: settle the predecessors of the positions settled one ply earlier."""
    value, dist, count, nonwin_exit = pair.value, pair.dist, pair.count, pair.nonwin_exit
    pending: dict[int, list[Nodes]] = {}
    waiting_parts: dict[int, list[Nodes]] = {}
    for lo in range(0, pair.n, 4 * CHUNK):  # grouped a part at a time: sorting all at once costs 14 bytes each
        part = value[lo:lo + 4 * CHUNK]
        idx = (np.flatnonzero((part == WIN) | (part == LOSS)) + lo).astype(np.int32)
        for layer, nodes in _by_layer(idx, dist[idx]).items():
            pending.setdefault(layer, []).extend(nodes)
        idx = (np.flatnonzero(pair.tentative[lo:lo + 4 * CHUNK]) + lo).astype(np.int32)
        for layer, nodes in _by_layer(idx, pair.tentative[idx]).items():
            waiting_parts.setdefault(layer, []).extend(nodes)
    waiting = {layer: np.concatenate(parts) for layer, parts in waiting_parts.items()}
    del waiting_parts
    layer = 0
    while pending or waiting:
        if layer not in pending and layer not in waiting:
            layer = min([*pending, *waiting])
        if layer in waiting:
            due = waiting.pop(layer)
            due = due[value[due] == UNKNOWN]
            value[due] = WIN
            dist[due] = layer
            pending.setdefault(layer, []).append(due)
        frontier = np.concatenate(pending.pop(layer))
        fresh: list[Nodes] = []
        for lost in _chunks(frontier[value[frontier] == LOSS]):
            preds = pair.predecessors(lost)
            winners = pair.distinct(preds[value[preds] == UNKNOWN])
            if len(winners):
                value[winners] = WIN
                dist[winners] = layer + 1
                fresh.append(winners.astype(np.int32))
        for won in _chunks(frontier[value[frontier] == WIN]):
            preds = pair.predecessors(won)
            preds = preds[value[preds] == UNKNOWN]
            if not len(preds):
                continue
            np.subtract.at(count, preds, np.uint8(1))  # a uint8 operand: the fast path of ufunc.at
            cand = pair.distinct(preds[(count[preds] == 0) & ~nonwin_exit[preds]])
            if len(cand):
                value[cand] = LOSS
                dist[cand] = np.maximum(dist[cand], layer + 1)
                lost_now: Nodes = cand.astype(np.int32)
                now = lost_now[dist[lost_now] == layer + 1]
                if len(now):
                    fresh.append(now)
                late = lost_now[dist[lost_now] > layer + 1]
                for later, parts in _by_layer(late, dist[late]).items():
                    pending.setdefault(later, []).extend(parts)
        if fresh:
            pending.setdefault(layer + 1, []).extend(fresh)
        layer += 1


_SOLVED = Solved()
"""What the worker processes (forked) read: the slices solved before their level."""


def _solve_job(job: tuple[Slice, Slice]) -> tuple[Slice, Slice, Solution, float]:
    started = time.process_time()
    return job[0], job[1], solve_pair_arrays(_SOLVED, *job), time.process_time() - started


def build_count(solved: Solved, pieces: int, log: Log | None = None, workers: int = 1) -> None:
    """Solve every slice with exactly ``pieces`` pieces (the fewer pieces already in ``solved``).

    Pairs are grouped by their number of men; the pairs of a group are independent
    and, with ``workers`` > 1, are solved in forked processes, largest first.
    """
    global _SOLVED
    for jobs in job_groups(pieces):
        if workers > 1 and len(jobs) > 1:
            _SOLVED = solved
            context = multiprocessing.get_context("fork")
            pool = context.Pool(min(workers, len(jobs)))
            try:
                results = list(_report(pool.imap_unordered(_solve_job, jobs), log))
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.close()  # workers exit and are waited for: their processor time is counted
                pool.join()
            _SOLVED = Solved()
        else:
            results = list(_report(map(_solve_job_in(solved), jobs), log))
        keep(solved, results)


def job_groups(pieces: int) -> list[list[tuple[Slice, Slice]]]:
    """The pairs of slices with ``pieces`` pieces, grouped by their number of men, fewest first: a crowning
    leads into a group solved before, so a group's pairs are independent of each other. Each group is
    largest first, so that workers solving it side by side finish together."""
    groups: dict[int, list[tuple[Slice, Slice]]] = {}
    for s, t in pairs(pieces):
        groups.setdefault(s[0] + s[2], []).append((s, t))
    return [sorted(groups[men], key=lambda j: -(slice_size(j[0]) * (1 if j[0] == j[1] else 2)))
            for men in sorted(groups)]


def keep(solved: Solved, results: Iterable[tuple[Slice, Slice, Solution, float]]) -> None:
    """Put the solved pairs' values and distances into ``solved``."""
    for _, _, solution, _ in results:
        for x, (values, distances) in solution.items():
            solved.values[x] = values
            solved.distances[x] = distances


def _solve_job_in(solved: Solved) -> Callable[[tuple[Slice, Slice]], tuple[Slice, Slice, Solution, float]]:
    def job(j: tuple[Slice, Slice]) -> tuple[Slice, Slice, Solution, float]:
        started = time.process_time()
        return j[0], j[1], solve_pair_arrays(solved, *j), time.process_time() - started

    return job


def _report(
    results: Iterable[tuple[Slice, Slice, Solution, float]], log: Log | None
) -> Iterable[tuple[Slice, Slice, Solution, float]]:
    for result in results:
        if log is not None:
            s, t, _, cpu = result
            log(f"  {s} / {t}: {slice_size(s) + (slice_size(t) if t != s else 0):,} indices, {cpu:.1f} s CPU")
        yield result


def build(max_pieces: int, log: Log | None = None, workers: int = 1) -> Solved:
    """Solve every slice with 2..``max_pieces`` pieces."""
    solved = Solved()
    for pieces in range(2, max_pieces + 1):
        build_count(solved, pieces, log, workers)
    return solved
