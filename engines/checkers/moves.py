"""Vectorised checkers moves for the endgame database: jumps, quiet moves, and quiet moves taken back.

Positions are four bitboard arrays (Red men, Red kings, White men, White kings), Red to
move; a successor comes back turned to Red to move (:func:`flip_to_move`). The rules are
those of :mod:`adjudicator.checkers.board` (ACF Standard Laws): jumps are compulsory and
a multiple jump must be completed; men move forward only (directions 0 and 1 for Red),
kings in the four directions; a man reaching the king row is crowned and its move ends.

:func:`unmoves` is the inverse of the quiet moves that do not crown: the retrograde
analysis walks from a settled position to the positions that can move into it.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from engines.checkers.index import I64, OPPOSITE, RED_KING_ROW, U32, flip, lowest, popcount, step

U8 = npt.NDArray[np.uint8]
Bools = npt.NDArray[np.bool_]
Successors = tuple[I64, U32, U32, U32, U32]
"""(index of the position each successor comes from, then the successor's four bitboards)."""


def split_bits(x: U32) -> Iterator[tuple[I64, U32]]:
    """(indices, single bits) for every set bit of every element."""
    x = x.copy()
    alive = np.nonzero(x)[0]
    while len(alive):
        low = lowest(x[alive])
        yield alive, low
        x[alive] ^= low
        alive = alive[x[alive] != 0]


def flip_to_move(rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[U32, U32, U32, U32]:
    """After Red's move: White to move, turned into a Red-to-move position (also its own inverse)."""
    return flip(wm), flip(wk), flip(rm), flip(rk)


def _empty_successors() -> Successors:
    e_u = np.zeros(0, dtype=np.uint32)
    return np.zeros(0, dtype=np.int64), e_u, e_u, e_u, e_u


def _join(parts: list[Successors]) -> Successors:
    if not parts:
        return _empty_successors()
    p = np.concatenate([x[0] for x in parts])
    rm, rk, wm, wk = (np.concatenate([x[k] for x in parts]) for k in range(1, 5))
    return p, rm, rk, wm, wk


def has_capture(rm: U32, rk: U32, wm: U32, wk: U32) -> Bools:
    mover = rm | rk
    opp = wm | wk
    empty = ~(mover | opp)
    found = np.zeros(len(rm), dtype=bool)
    for d in range(4):
        pieces = mover if d in (0, 1) else rk
        found |= (step(step(pieces, d) & opp, d) & empty) != 0
    return found


def captures(rm: U32, rk: U32, wm: U32, wk: U32) -> Successors:
    """Every complete jump of Red."""
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
            ps.append(p)
            ats.append(land)
            caps.append(over)
            origins.append(step(over, OPPOSITE[d]))
    out: list[Successors] = []
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
                out.append((q, *flip_to_move(new_red & ~new_kings, new_kings, wm[q] & ~cap[done], wk[q] & ~cap[done])))
            if not nxt:
                break
            sel = np.concatenate([n[0] for n in nxt])
            p, origin, king = p[sel], origin[sel], king[sel]
            at = np.concatenate([n[1] for n in nxt])
            cap = np.concatenate([n[2] for n in nxt])
    return _join(out)


def quiet_moves(rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[I64, U32, U32, U32, U32, Bools]:
    """Every non-capturing move of Red: (position index, successor, is_crowning)."""
    empty = ~(rm | rk | wm | wk)
    parts: list[tuple[I64, U32, U32, U32, U32, Bools]] = []
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
                parts.append((p, *flip_to_move(new_rm, new_rk, wm[p], wk[p]), crown))
    if not parts:
        e_u = np.zeros(0, dtype=np.uint32)
        return np.zeros(0, dtype=np.int64), e_u, e_u, e_u, e_u, np.zeros(0, dtype=bool)
    p, a, b, c, d_ = (np.concatenate([x[k] for x in parts]) for k in range(5))
    return p, a, b, c, d_, np.concatenate([x[5] for x in parts])


def quiet_counts(rm: U32, rk: U32, wm: U32, wk: U32) -> tuple[U8, U8]:
    """(quiet moves that do not crown, crowning moves) of each position, counted without making them."""
    empty = ~(rm | rk | wm | wk)
    inner = np.zeros(len(rm), dtype=np.uint8)
    crowning = np.zeros(len(rm), dtype=np.uint8)
    for d in (0, 1):
        to = step(rm, d) & empty
        inner += popcount(to & ~RED_KING_ROW)
        crowning += popcount(to & RED_KING_ROW)
    for d in range(4):
        inner += popcount(step(rk, d) & empty)
    return inner, crowning


def crowning_moves(rm: U32, rk: U32, wm: U32, wk: U32) -> Successors:
    """Every quiet move of Red that crowns a man (it leads into a slice with one man less)."""
    empty = ~(rm | rk | wm | wk)
    parts: list[Successors] = []
    for d in (0, 1):
        for p, to in split_bits(step(rm, d) & empty & RED_KING_ROW):
            frm = step(to, OPPOSITE[d])
            parts.append((p, *flip_to_move(rm[p] ^ frm, rk[p] | to, wm[p], wk[p])))
    return _join(parts)


def unmoves(rm: U32, rk: U32, wm: U32, wk: U32) -> Successors:
    """Every position (Red to move) with a quiet move that does not crown into each given position.

    The given positions are turned back to the moment after Red's move (White to move),
    and one Red piece steps back: a man against its direction, a king in any direction.
    A position found may have a jump (then the quiet move was not legal there); the
    caller discards those, which are settled before any move is taken back.
    """
    qrm, qrk, qwm, qwk = flip_to_move(rm, rk, wm, wk)
    empty = ~(qrm | qrk | qwm | qwk)
    parts: list[Successors] = []
    for d in (0, 1):
        for p, frm in split_bits(step(qrm, OPPOSITE[d]) & empty):
            to = step(frm, d)
            parts.append((p, (qrm[p] ^ to) | frm, qrk[p], qwm[p], qwk[p]))
    for d in range(4):
        for p, frm in split_bits(step(qrk, OPPOSITE[d]) & empty):
            to = step(frm, d)
            parts.append((p, qrm[p], (qrk[p] ^ to) | frm, qwm[p], qwk[p]))
    return _join(parts)
