"""Endgame-database indexing for American checkers: slices, dense ranks, and vectorised moves.

Positions are stored with **Red to move** only; a White-to-move position is turned
into one by rotating the board 180 degrees (square ``s`` becomes ``33 - s``) and
swapping the colours, which maps the rules onto themselves.

A *slice* is a material signature ``(a, c, b, d)``: Red men, Red kings, White men,
White kings. Inside a slice the index is a product of combinatorial (colex) ranks:
Red men among squares 1-28 (a Red man is never on its crowning row 29-32), White men
among 5-32, then Red kings among the squares the men leave free, then White kings
among what is left. Red and White men may overlap in this numbering: such indices
are invalid and never reached (about a fifth of the entries for the largest slices).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from adjudicator.checkers.board import SHIFTS, Position

U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
Slice = tuple[int, int, int, int]

RED_KING_ROW: Final = np.uint32(0xF0000000)
COMB: Final = np.array([[comb(n, k) for k in range(6)] for n in range(33)], dtype=np.int64)
"""``COMB[n, k]``: n choose k (n <= 32, k <= 5)."""
OPPOSITE: Final = (3, 2, 1, 0)
"""The reverse of each direction (0 DL <-> 3 UR, 1 DR <-> 2 UL)."""


CHINOOK_POSITIONS: Final = {
    1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232, 6: 2_503_611_964, 7: 34_779_531_480,
    8: 406_309_208_481,
}
"""Positions with N pieces for one side to move, men never on their own crowning row, one-sided
positions included: the table published by the Chinook team (Lake, Schaeffer and Lu, *Solving
large retrograde analysis problems using a network of workstations*, 1994), as quoted in the
project's research notes (shared/notes/checkers.md, section 4)."""


def positions_in_slice(s: Slice) -> int:
    """The positions of a slice, counted by formula (not by enumeration): Red men on 1-28 and White
    men on 5-32 never on one square (``i`` Red men on 1-4, where no White man can stand), then the
    kings on the squares left."""
    a, c, b, d = s
    men = sum(comb(4, i) * comb(24, a - i) * comb(28 - (a - i), b) for i in range(min(4, a) + 1))
    return men * comb(32 - a - b, c) * comb(32 - a - b - c, d)


def one_sided_positions(pieces: int) -> int:
    """Positions with ``pieces`` pieces of one colour only (not in the database: the side to move has
    won or lost already); with the database's slices they make up Chinook's count."""
    total = 0
    for men in range(pieces + 1):
        kings = pieces - men
        total += positions_in_slice((men, kings, 0, 0)) + positions_in_slice((0, 0, men, kings))
    return total


def slice_size(s: Slice) -> int:
    a, c, b, d = s
    return comb(28, a) * comb(28, b) * comb(32 - a - b, c) * comb(32 - a - b - c, d)


def slices(pieces: int) -> list[Slice]:
    """The slices with exactly ``pieces`` pieces and both sides present, in solving order.

    Solving order: fewer men first (a promotion leads into a slice with one man less),
    and each slice next to its colour-swapped partner ``(b, d, a, c)``.
    """
    found: list[Slice] = []
    for men in range(pieces + 1):
        for a in range(men + 1):
            b = men - a
            for c in range(pieces - men + 1):
                d = pieces - men - c
                if a + c >= 1 and b + d >= 1:
                    found.append((a, c, b, d))
    return found


def pairs(pieces: int) -> Iterator[tuple[Slice, Slice]]:
    """Each slice with its partner once: ``(s, partner)``, ``s == partner`` for symmetric slices."""
    done: set[Slice] = set()
    for s in slices(pieces):
        if s in done:
            continue
        partner = (s[2], s[3], s[0], s[1])
        done.update((s, partner))
        yield s, partner


# ---------------------------------------------------------------- bit helpers


def popcount(x: U32) -> npt.NDArray[np.uint8]:
    return np.bitwise_count(x)


def lowest(x: U32) -> U32:
    return x & (~x + np.uint32(1))


def flip(x: U32) -> U32:
    """Rotate bitboards by 180 degrees: bit ``i`` becomes bit ``31 - i``."""
    for shift, mask in _FLIP_STEPS:
        x = ((x >> shift) & mask) | ((x & mask) << shift)
    return (x >> np.uint32(16)) | (x << np.uint32(16))


_FLIP_STEPS: Final = tuple(
    (np.uint32(s), np.uint32(m)) for s, m in ((1, 0x55555555), (2, 0x33333333), (4, 0x0F0F0F0F), (8, 0x00FF00FF))
)


@cache
def _shift_consts(direction: int) -> tuple[np.uint32, int, np.uint32, int]:
    (me, se), (mo, so) = SHIFTS[direction]
    return np.uint32(me), se, np.uint32(mo), so


def step(bb: U32, direction: int) -> U32:
    """Vectorised :func:`adjudicator.checkers.board.step`."""
    me, se, mo, so = _shift_consts(direction)
    a = bb & me
    b = bb & mo
    sa = (a << np.uint32(se)) if se >= 0 else (a >> np.uint32(-se))
    sb = (b << np.uint32(so)) if so >= 0 else (b >> np.uint32(-so))
    return sa | sb


# ---------------------------------------------------------------- ranks


_COMB_COLUMNS: Final = tuple(np.ascontiguousarray(COMB[:, i]) for i in range(6))


def _colex(x: U32, k: int, occupied: U32 | None) -> I64:
    """Colex rank of the set bits of ``x`` (``occupied`` squares below each bit not counted)."""
    rank = np.zeros(x.shape, dtype=np.int64)
    for i in range(1, k + 1):
        low = lowest(x)
        below = low - np.uint32(1)
        u = popcount(below)
        if occupied is not None:
            u -= popcount(occupied & below)
        rank += _COMB_COLUMNS[i][u]
        if i < k:
            x = x ^ low
    return rank


def rank(s: Slice, rm: U32, rk: U32, wm: U32, wk: U32) -> I64:
    """The index in slice ``s`` of Red-to-move positions given as four bitboard arrays."""
    a, c, b, d = s
    men = rm | wm
    idx = _colex(rm, a, None) * comb(28, b) + _colex(wm >> np.uint32(4), b, None)
    idx = idx * comb(32 - a - b, c) + _colex(rk, c, men)
    return idx * comb(32 - a - b - c, d) + _colex(wk, d, men | rk)


@cache
def colex_combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    """All k-subsets of range(n) in colex order (row ``r`` has colex rank ``r``), as a (C(n,k), k) array."""
    from itertools import combinations

    rows = sorted(combinations(range(n), k), key=lambda t: tuple(reversed(t)))
    return np.array(rows, dtype=np.int8).reshape(len(rows), k)


def _masks(combos: npt.NDArray[np.int8], offset: int = 0) -> U32:
    out = np.zeros(len(combos), dtype=np.uint32)
    for j in range(combos.shape[1]):
        out |= np.uint32(1) << (combos[:, j].astype(np.uint32) + np.uint32(offset))
    return out


@cache
def _king_slots(free: int, c: int, d: int) -> npt.NDArray[np.int8]:
    """For each (red kings, white kings) pair in index order: positions in the list of free squares.

    Red kings are a colex c-subset of the ``free`` squares; White kings a d-subset of
    the ``free - c`` squares left, turned back into positions in the first list.
    """
    red = colex_combinations(free, c)
    white = colex_combinations(free - c, d)
    taken = np.zeros((len(red), free), dtype=bool)
    for j in range(c):
        taken[np.arange(len(red)), red[:, j]] = True
    left = np.argsort(taken, axis=1, kind="stable")[:, : free - c].astype(np.int8)
    out = np.zeros((len(red), len(white), c + d), dtype=np.int8)
    out[:, :, :c] = red[:, None, :]
    out[:, :, c:] = left[:, white]
    return out.reshape(len(red) * len(white), c + d)


def enumerate_slice(s: Slice) -> tuple[U32, U32, U32, U32, npt.NDArray[np.bool_]]:
    """Every index of slice ``s`` in order, as (rm, rk, wm, wk, valid)."""
    a, c, b, d = s
    rm_m = _masks(colex_combinations(28, a))
    wm_m = _masks(colex_combinations(28, b), 4)
    men_rm = np.repeat(rm_m, len(wm_m))
    men_wm = np.tile(wm_m, len(rm_m))
    valid_men = (men_rm & men_wm) == 0
    occupied = men_rm | men_wm
    free_count = 32 - a - b
    # the free squares of each men placement, in order (invalid placements: any squares)
    squares = np.arange(32, dtype=np.int8)
    is_free = ((occupied[:, None] >> squares.astype(np.uint32)[None, :]) & np.uint32(1)) == 0
    order = np.argsort(~is_free, axis=1, kind="stable")[:, :free_count].astype(np.int8)
    slots = _king_slots(free_count, c, d)
    kings = len(slots)
    rk = np.zeros(len(occupied) * kings, dtype=np.uint32)
    wk = np.zeros(len(occupied) * kings, dtype=np.uint32)
    for j in range(c + d):
        sq = order[:, slots[:, j]].reshape(-1).astype(np.uint32)
        if j < c:
            rk |= np.uint32(1) << sq
        else:
            wk |= np.uint32(1) << sq
    return (
        np.repeat(men_rm, kings), rk, np.repeat(men_wm, kings), wk, np.repeat(valid_men, kings),
    )


class Codec:
    """Tables that turn indices of one slice back into positions (the inverse of :func:`rank`)."""

    def __init__(self, s: Slice) -> None:
        a, c, b, d = s
        self.slice = s
        self.size = slice_size(s)
        self.white_men = comb(28, b)
        self.kings = comb(32 - a - b, c) * comb(32 - a - b - c, d)
        self.red_kings = c
        self.rm_masks = _masks(colex_combinations(28, a))
        self.wm_masks = _masks(colex_combinations(28, b), 4)
        self.slots = _king_slots(32 - a - b, c, d)
        self.free: npt.NDArray[np.int8] = np.zeros((0, 0), dtype=np.int8)
        if c + d:
            occupied = np.repeat(self.rm_masks, len(self.wm_masks)) | np.tile(self.wm_masks, len(self.rm_masks))
            is_free = ((occupied[:, None] >> np.arange(32, dtype=np.uint32)[None, :]) & np.uint32(1)) == 0
            self.free = np.argsort(~is_free, axis=1, kind="stable")[:, : 32 - a - b].astype(np.int8)

    def unrank(self, idx: I64) -> tuple[U32, U32, U32, U32, npt.NDArray[np.bool_]]:
        """The positions at these indices, as (rm, rk, wm, wk, valid) (invalid: Red and White men overlap)."""
        men, king_idx = np.divmod(idx, self.kings)
        red, white = np.divmod(men, self.white_men)
        rm = self.rm_masks[red]
        wm = self.wm_masks[white]
        rk = np.zeros(len(idx), dtype=np.uint32)
        wk = np.zeros(len(idx), dtype=np.uint32)
        if len(self.free):
            squares = self.free[men[:, None], self.slots[king_idx]].astype(np.uint32)
            for j in range(squares.shape[1]):
                bit = np.uint32(1) << squares[:, j]
                if j < self.red_kings:
                    rk |= bit
                else:
                    wk |= bit
        return rm, rk, wm, wk, (rm & wm) == 0


_REV8: Final = tuple(int(f"{b:08b}"[::-1], 2) for b in range(256))
_COMB: Final = tuple(tuple(comb(n, k) for k in range(6)) for n in range(33))


def flip_one(x: int) -> int:
    """:func:`flip` for one 32-bit board (pure Python, for probes during a search)."""
    return (_REV8[x & 255] << 24) | (_REV8[(x >> 8) & 255] << 16) | (_REV8[(x >> 16) & 255] << 8) | _REV8[x >> 24]


def _colex_one(x: int, occupied: int) -> int:
    rank_ = 0
    i = 0
    while x:
        low = x & -x
        sq = low.bit_length() - 1
        i += 1
        rank_ += _COMB[sq - (occupied & (low - 1)).bit_count()][i]
        x ^= low
    return rank_


def canonical(position: Position) -> tuple[Slice, int]:
    """The slice and index of a position (turned to Red to move if White is to move)."""
    red, white, kings = position.red, position.white, position.kings
    if not position.red_to_move:
        red, white, kings = flip_one(white), flip_one(red), flip_one(kings)
    rm, rk = red & ~kings, red & kings
    wm, wk = white & ~kings, white & kings
    a, c, b, d = rm.bit_count(), rk.bit_count(), wm.bit_count(), wk.bit_count()
    men = rm | wm
    idx = _colex_one(rm, 0) * _COMB[28][b] + _colex_one(wm >> 4, 0)
    idx = idx * _COMB[32 - a - b][c] + _colex_one(rk, men)
    idx = idx * _COMB[32 - a - b - c][d] + _colex_one(wk, men | rk)
    return (a, c, b, d), idx


def slice_of(rm: U32, rk: U32, wm: U32, wk: U32) -> npt.NDArray[np.int64]:
    """A code ``a*1000 + c*100 + b*10 + d`` of each position's slice."""
    return (
        popcount(rm).astype(np.int64) * 1000
        + popcount(rk).astype(np.int64) * 100
        + popcount(wm).astype(np.int64) * 10
        + popcount(wk).astype(np.int64)
    )


def split_code(code: int) -> Slice:
    return (code // 1000, code // 100 % 10, code // 10 % 10, code % 10)
