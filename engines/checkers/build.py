"""Building the win/loss/draw endgame database by retrograde analysis, vectorised with NumPy.

Slices are solved in an order in which every capture and every promotion leads
into a slice already solved (fewer pieces, or as many pieces with one man less).
A slice and its colour-swapped partner are solved together, because a quiet move
that does not crown leads from one into the other.

For each pair:

1. every position is generated (Red to move), with its moves: captures (all into
   solved slices), crowning moves (likewise) and the other quiet moves (edges
   inside the pair);
2. positions decided without looking inside the pair are settled first: a capture
   position from its captures' values, a position with no move as lost, a position
   with a crowning move into a lost position as won;
3. layered retrograde propagation: a position with a lost successor is won one
   ply later; a position whose successors are all won (and whose crowning moves
   win for the opponent) is lost one ply after its last successor was settled;
4. what is left is drawn.

Each position gets its value (2 bits) and its distance in plies to a conversion
(capture or crowning) under best play, which lets a winning line be shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engines.checkers.index import (
    I64,
    OPPOSITE,
    RED_KING_ROW,
    U32,
    Slice,
    enumerate_slice,
    flip,
    lowest,
    pairs,
    rank,
    slice_of,
    slice_size,
    split_code,
    step,
)

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


def split_bits(x: U32) -> Iterator[tuple[I64, U32]]:
    """(indices, single bits) for every set bit of every element."""
    x = x.copy()
    alive = np.nonzero(x)[0]
    while len(alive):
        low = lowest(x[alive])
        yield alive.astype(np.int64), low
        x[alive] ^= low
        alive = alive[x[alive] != 0]


def _flip_to_move(rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[U32, U32, U32, U32]:
    """After Red's move: White to move, turned into a Red-to-move position."""
    return flip(wm), flip(wk), flip(rm), flip(rk)


def has_capture(rm: U32, rk: U32, wm: U32, wk: U32) -> npt.NDArray[np.bool_]:
    mover = rm | rk
    opp = wm | wk
    empty = ~(mover | opp)
    found = np.zeros(len(rm), dtype=bool)
    for d in range(4):
        pieces = mover if d in (0, 1) else rk
        found |= (step(step(pieces, d) & opp, d) & empty) != 0
    return found


def captures(rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[I64, U32, U32, U32, U32]:
    """Every complete jump of Red: (position index, successor as Red-to-move bitboards)."""
    mover = rm | rk
    opp = wm | wk
    occupied = mover | opp
    ps: list[I64] = []
    ats: list[U32] = []
    caps: list[U32] = []
    origins: list[U32] = []
    for d in range(4):
        pieces = mover if d in (0, 1) else rk
        landings = step(step(pieces, d) & opp, d) & ~occupied
        for p, land in split_bits(landings):
            over = step(land, OPPOSITE[d])
            origin = step(over, OPPOSITE[d])
            ps.append(p)
            ats.append(land)
            caps.append(over)
            origins.append(origin)
    out: list[tuple[I64, U32, U32, U32, U32]] = []
    if ps:
        p = np.concatenate(ps)
        at = np.concatenate(ats)
        cap = np.concatenate(caps)
        origin = np.concatenate(origins)
        king = (rk[p] & origin) != 0
        while len(p):
            crowned = ~king & ((at & RED_KING_ROW) != 0)
            empty = ~occupied[p] | origin
            extended = np.zeros(len(p), dtype=bool)
            nxt: list[tuple[I64, U32, U32]] = []
            for d in range(4):
                over = step(at, d) & opp[p] & ~cap
                land = step(over, d) & empty
                ok = (land != 0) & ~crowned
                if d in (2, 3):
                    ok &= king
                sel = np.nonzero(ok)[0]
                if len(sel):
                    extended[sel] = True
                    nxt.append((sel.astype(np.int64), land[sel], cap[sel] | over[sel]))
            done = np.nonzero(~extended)[0]
            if len(done):
                q = p[done]
                new_red = (mover[q] & ~origin[done]) | at[done]
                new_kings = (rk[q] & ~origin[done]) | np.where(king[done] | crowned[done], at[done], np.uint32(0))
                out.append((q, *_flip_to_move(new_red & ~new_kings, new_kings, wm[q] & ~cap[done], wk[q] & ~cap[done])))
            if not nxt:
                break
            sel = np.concatenate([n[0] for n in nxt])
            p, origin, king = p[sel], origin[sel], king[sel]
            at = np.concatenate([n[1] for n in nxt])
            cap = np.concatenate([n[2] for n in nxt])
    if not out:
        empty_i = np.zeros(0, dtype=np.int64)
        empty_u = np.zeros(0, dtype=np.uint32)
        return empty_i, empty_u, empty_u, empty_u, empty_u
    return (
        np.concatenate([o[0] for o in out]),
        *(np.concatenate([o[k] for o in out]) for k in range(1, 5)),  # type: ignore[return-value]
    )


def quiet_moves(rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[I64, U32, U32, U32, U32, npt.NDArray[np.bool_]]:
    """Every non-capturing move of Red: (position index, successor, is_crowning)."""
    empty = ~(rm | rk | wm | wk)
    parts: list[tuple[I64, U32, U32, U32, U32, npt.NDArray[np.bool_]]] = []
    for d in range(4):
        for is_king, pieces in ((False, rm), (True, rk)):
            if not is_king and d in (2, 3):
                continue
            for p, to in split_bits(step(pieces, d) & empty):
                frm = step(to, OPPOSITE[d])
                if is_king:
                    new_rm, new_rk = rm[p], (rk[p] ^ frm) | to
                    crown = np.zeros(len(p), dtype=bool)
                else:
                    crown = (to & RED_KING_ROW) != 0
                    new_rm = (rm[p] ^ frm) | np.where(crown, np.uint32(0), to)
                    new_rk = rk[p] | np.where(crown, to, np.uint32(0))
                parts.append((p, *_flip_to_move(new_rm, new_rk, wm[p], wk[p]), crown))
    if not parts:
        e_i = np.zeros(0, dtype=np.int64)
        e_u = np.zeros(0, dtype=np.uint32)
        return e_i, e_u, e_u, e_u, e_u, np.zeros(0, dtype=bool)
    return (
        np.concatenate([x[0] for x in parts]),
        np.concatenate([x[1] for x in parts]),
        np.concatenate([x[2] for x in parts]),
        np.concatenate([x[3] for x in parts]),
        np.concatenate([x[4] for x in parts]),
        np.concatenate([x[5] for x in parts]),
    )


def _any_per(p: I64, flag: npt.NDArray[np.bool_], n: int) -> npt.NDArray[np.bool_]:
    return np.bincount(p[flag], minlength=n) > 0


def solve_pair(solved: Solved, s: Slice, t: Slice, log: Log | None = None) -> None:
    """Solve slice ``s`` with its partner ``t`` (possibly the same) and add them to ``solved``."""
    sides = [s] if s == t else [s, t]
    sizes = [slice_size(x) for x in sides]
    base = [0, sizes[0]]
    n = sum(sizes)
    value = np.zeros(n, dtype=np.uint8)
    dist = np.zeros(n, dtype=np.uint16)
    count = np.zeros(n, dtype=np.int32)
    nonwin_exit = np.zeros(n, dtype=bool)
    tentative = np.zeros(n, dtype=np.int32)
    srcs: list[npt.NDArray[np.int32]] = []
    dsts: list[npt.NDArray[np.int32]] = []
    for k, x in enumerate(sides):
        partner = sides[1 - k] if len(sides) == 2 else x
        partner_base = base[1 - k] if len(sides) == 2 else 0
        rm_all, rk_all, wm_all, wk_all, valid = enumerate_slice(x)
        valid_idx = np.nonzero(valid)[0]
        del valid
        for lo in range(0, len(valid_idx), CHUNK):
            vi = valid_idx[lo:lo + CHUNK]
            src, dst = _generate(
                solved, rm_all[vi], rk_all[vi], wm_all[vi], wk_all[vi], vi + base[k], partner, partner_base,
                value, dist, count, nonwin_exit, tentative,
            )
            srcs.append(src)
            dsts.append(dst)
        del rm_all, rk_all, wm_all, wk_all
    src = np.concatenate(srcs)
    dst = np.concatenate(dsts)
    del srcs, dsts
    order = np.argsort(dst)
    rev_src = src[order]
    rev_ptr = np.searchsorted(dst[order], np.arange(n + 1))
    del order, src, dst
    _propagate(value, dist, count, nonwin_exit, tentative, rev_src, rev_ptr)
    value[value == UNKNOWN] = DRAW
    capped = np.minimum(dist, 255).astype(np.uint8)
    capped[value == DRAW] = 0
    for k, x in enumerate(sides):
        lo, hi = base[k], base[k] + sizes[k]
        solved.values[x] = pack(value[lo:hi])
        solved.distances[x] = capped[lo:hi]


CHUNK = 1 << 20
"""Positions generated at a time (bounds the memory for move lists)."""


def _generate(
    solved: Solved, rm: U32, rk: U32, wm: U32, wk: U32, g: I64, partner: Slice, partner_base: int,
    value: U8, dist: npt.NDArray[np.uint16], count: npt.NDArray[np.int32], nonwin_exit: npt.NDArray[np.bool_],
    tentative: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Settle what the moves of these positions decide at once; return the edges inside the pair."""
    cap = has_capture(rm, rk, wm, wk)
    # captures: every successor is in a solved slice
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
    # quiet positions
    qi = np.nonzero(~cap)[0]
    p, n_rm, n_rk, n_wm, n_wk, crown = quiet_moves(rm[qi], rk[qi], wm[qi], wk[qi])
    gq = g[qi]
    has_move = np.bincount(p, minlength=len(qi)) > 0
    value[gq[~has_move]] = LOSS  # no move: lost now
    cp = np.nonzero(crown)[0]
    ev, ed = solved.lookup(n_rm[cp], n_rk[cp], n_wm[cp], n_wk[cp])
    exit_win = _any_per(p[cp], ev == LOSS, len(qi))
    wd = np.full(len(qi), 1 << 15, dtype=np.int32)
    np.minimum.at(wd, p[cp][ev == LOSS], ed[ev == LOSS].astype(np.int32) + 1)
    # a crowning move that wins: won, but maybe faster by another move (settled during propagation)
    tentative[gq[exit_win]] = wd[exit_win]
    nonwin_exit[gq] = _any_per(p[cp], ev == DRAW, len(qi)) | exit_win
    exit_loss_dist = np.zeros(len(qi), dtype=np.int32)
    np.maximum.at(exit_loss_dist, p[cp], ed.astype(np.int32) + 1)
    inner = np.nonzero(~crown)[0]
    src = gq[p[inner]]
    dst = rank(partner, n_rm[inner], n_rk[inner], n_wm[inner], n_wk[inner]) + partner_base
    count[gq] = np.bincount(p[inner], minlength=len(qi)).astype(np.int32)
    # a position whose only moves are crowning moves that all lose is settled now
    only_exits = has_move & (count[gq] == 0)
    settled = gq[only_exits & ~exit_win]
    value[gq[only_exits & exit_win]] = WIN
    dist[gq[only_exits & exit_win]] = wd[only_exits & exit_win]
    only_exits &= ~exit_win
    value[settled] = np.where(nonwin_exit[settled], DRAW, LOSS)
    dist[settled] = np.where(nonwin_exit[settled], 0, exit_loss_dist[only_exits])
    # the longest crowning defence bounds how late a loss can come
    dist[gq[~exit_win & has_move & ~only_exits]] = exit_loss_dist[~exit_win & has_move & ~only_exits]
    keep = value[src] == UNKNOWN
    return src[keep].astype(np.int32), dst[keep].astype(np.int32)


def _predecessors(rev_src: npt.NDArray[np.int32], rev_ptr: I64, nodes: I64) -> npt.NDArray[np.int32]:
    starts = rev_ptr[nodes]
    lens = rev_ptr[nodes + 1] - starts
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int32)
    offsets = np.repeat(starts - np.cumsum(lens) + lens, lens) + np.arange(total)
    return rev_src[offsets]


def _distinct(nodes: npt.NDArray[np.int32], scratch: I64) -> I64:
    """``nodes`` without repeats (order not kept), without sorting: the last write to a slot wins."""
    positions = np.arange(len(nodes), dtype=np.int64)
    scratch[nodes] = positions
    out: I64 = nodes[scratch[nodes] == positions].astype(np.int64)
    return out


def _propagate(
    value: U8, dist: npt.NDArray[np.uint16], count: npt.NDArray[np.int32], nonwin_exit: npt.NDArray[np.bool_],
    tentative: npt.NDArray[np.int32], rev_src: npt.NDArray[np.int32], rev_ptr: I64,
) -> None:
    """Layered retrograde: settle predecessors of the positions settled one ply earlier.

    ``tentative`` holds, for positions with a winning crowning move, the distance of
    that win: such a position is won at that layer unless another move wins sooner.
    """
    settled = value != UNKNOWN
    # settled positions wait in layers by distance; unknown ones carry a lower bound in ``dist``
    pending_by_layer: dict[int, list[I64]] = {}
    idx = np.nonzero(settled)[0].astype(np.int64)
    for layer in np.unique(dist[idx]):
        pending_by_layer[int(layer)] = [idx[dist[idx] == layer]]
    scratch = np.zeros(len(value), dtype=np.int64)
    waiting: dict[int, I64] = {}
    idx = np.nonzero(tentative)[0].astype(np.int64)
    for layer in np.unique(tentative[idx]):
        waiting[int(layer)] = idx[tentative[idx] == layer]
    layer = 0
    while pending_by_layer or waiting:
        if layer not in pending_by_layer and layer not in waiting:
            layer = min([*pending_by_layer, *waiting])
        if layer in waiting:
            due = waiting.pop(layer)
            due = due[value[due] == UNKNOWN]
            value[due] = WIN
            dist[due] = layer
            pending_by_layer.setdefault(layer, []).append(due)
        frontier = np.concatenate(pending_by_layer.pop(layer))
        lost = frontier[value[frontier] == LOSS]
        won = frontier[value[frontier] == WIN]
        fresh: list[I64] = []
        raw = _predecessors(rev_src, rev_ptr, lost)
        winners = _distinct(raw[value[raw] == UNKNOWN], scratch)
        if len(winners):
            value[winners] = WIN
            dist[winners] = layer + 1
            fresh.append(winners)
        preds = _predecessors(rev_src, rev_ptr, won)
        preds = preds[value[preds] == UNKNOWN]
        if len(preds):
            np.subtract.at(count, preds, 1)
            cand = _distinct(preds, scratch)
            cand = cand[(count[cand] == 0) & ~nonwin_exit[cand]]
            if len(cand):
                value[cand] = LOSS
                dist[cand] = np.maximum(dist[cand], layer + 1)
                late = cand[dist[cand] > layer + 1]
                now = cand[dist[cand] == layer + 1]
                if len(now):
                    fresh.append(now)
                for later in np.unique(dist[late]):
                    pending_by_layer.setdefault(int(later), []).append(late[dist[late] == later])
        if fresh:
            pending_by_layer.setdefault(layer + 1, []).extend(fresh)
        layer += 1


def build(max_pieces: int, log: Log | None = None) -> Solved:
    """Solve every slice with 2..``max_pieces`` pieces."""
    solved = Solved()
    for pieces in range(2, max_pieces + 1):
        for s, t in pairs(pieces):
            started = time.perf_counter()
            solve_pair(solved, s, t, log)
            if log is not None:
                log(f"{s} + {t}: {slice_size(s) + (slice_size(t) if t != s else 0):,} indices "
                    f"in {time.perf_counter() - started:.1f} s")
    return solved
