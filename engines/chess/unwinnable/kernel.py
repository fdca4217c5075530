"""The helpmate kernel: a self-contained board, legal moves and helpmate search (FIDE 6.9, 5.2.2).

A certificate of winnability is a helpmate: a series of legal moves ending in
checkmate by the intended winner W. This module looks for one with the search of
:mod:`.helpmate` (CHA's, FUN 2022: rewarded moves cost no depth, punished ones
cost more, iterative deepening with a transposition table), on its own board of
64-bit bitboards and its own legal move generator, written so that Cython compiles
it to C (the types are in the annotations and in ``kernel.pxd``; ``setup.py``
builds it when a C compiler is there). The same file runs as plain Python, with
the same results, only slower (tested against each other).

The search only ever answers "here is a line" or "none found": a line is replayed
and checked (:func:`replays_to_mate`, the rules read move by move rather than the
generator) before :mod:`.certificate` hands it on, and a failed search proves
nothing (the general analysis of :mod:`.analyser` goes on from there). The closure
(:func:`closure`) visits every reachable position, compared whole: none where W has
mated is a proof of unwinnability; it rests on the move generator, which the tests
check against python-chess (perft, move lists, the Python closure).

Bitboards follow python-chess: bit ``s`` is square ``s`` (a1 = 0); colours are
1 (white) and 0 (black); piece types 1 (pawn) to 6 (king). A move is an int:
from | to << 6 | promotion << 12 | flag << 15 (flag 1: en passant, 2: castling,
4: double pawn push); inside the search the generator adds the piece type << 18
(``KIND_SHIFT``). Integers wider than 32 bits are typed module constants
(``FULL``, ``ONE``...), never literals, so that C computes them as unsigned 64-bit.
"""

from __future__ import annotations

import cython

from . import kernel_tables as _tables

FULL = 0xFFFFFFFFFFFFFFFF
ONE = 1
DEBRUIJN = 0x03F79D71B4CB0A89
M1 = 0x5555555555555555
M2 = 0x3333333333333333
M4 = 0x0F0F0F0F0F0F0F0F
H01 = 0x0101010101010101
DARK = 0xAA55AA55AA55AA55
FILE_A = 0x0101010101010101
FILE_H = 0x8080808080808080
RANK_1 = 0xFF
RANK_2 = 0xFF00
RANK_7 = 0xFF000000000000
RANK_8 = 0xFF00000000000000
RANKS_3_TO_6 = 0xFFFFFFFF0000
PUSH_WHITE = 0xFFFFFF00000000
"""Ranks 5 to 7: a white pawn's move from there is rewarded (and ranks 4 to 2 for Black)."""
PUSH_BLACK = 0xFFFFFF00

COMPILED = cython.compiled
"""True when this module runs as the C extension built by setup.py."""

MAXPLY = 1024
"""Room for the deepest line (plies); the search stops lines at ``LINE_LIMIT`` (as plain Python its
recursion stays within the interpreter's limit)."""
LINE_LIMIT = 700
MAXMOVES = 256
EP_FLAG, CASTLE_FLAG, DOUBLE_FLAG = 1, 2, 4
KIND_SHIFT = 18
"""The generator adds the moving piece's type at this bit (``m >> KIND_SHIFT``), for the search's own
use: every move handed out (lines, :func:`legal_moves`) is ``m & MOVE_MASK``, as the docstring says."""
MOVE_MASK = (1 << KIND_SHIFT) - 1
PAWN_KIND = 1 << KIND_SHIFT
KING_KIND = 6 << KIND_SHIFT
TT_BITS = 18
TT_MASK = (1 << TT_BITS) - 1


KNIGHT_ATT = _tables.KNIGHT_ATT
KING_ATT = _tables.KING_ATT
PAWN_ATT = _tables.PAWN_ATT
"""Index colour * 64 + square: the squares a pawn of that colour on that square attacks."""
RAY = _tables.RAY
"""Index direction * 64 + square; directions N, E, NE, NW (first blocker: lowest bit), S, W, SE, SW."""
BETWEEN = _tables.BETWEEN
LINE = _tables.LINE
KNIGHT_DIST = _tables.KNIGHT_DIST
CASTLE_MASK = _tables.CASTLE_MASK
BIT_INDEX = _tables.BIT_INDEX
ZOB = _tables.ZOB
"""(colour * 6 + type - 1) * 64 + square; then the side to move, the en-passant files, castling rights."""
ZOB_TURN = ZOB[768]

def _zeros(count: int) -> list[int]:
    return [0] * count


# the search's state: positions by ply (8 bitboards each: black, white, pawns, knights,
# bishops, rooks, queens, kings), the moves of each ply, the line, the transposition table
if not cython.compiled:  # compiled, these are C arrays (kernel.pxd), zero from the start: nothing to copy
    S_BB = _zeros(MAXPLY * 8)
    S_TURN = _zeros(MAXPLY)
    S_EP = _zeros(MAXPLY)
    S_CASTLE = _zeros(MAXPLY)
    S_KEY = _zeros(MAXPLY)
    MOVES = _zeros(MAXPLY * MAXMOVES)
    LINE_MOVES = _zeros(MAXPLY)
    TT_KEY = _zeros(1 << TT_BITS)
    TT_DEPTH = _zeros(1 << TT_BITS)
    TT_GEN = _zeros(1 << TT_BITS)
PLY = 0
WINNER = 0
NODES = 0
NODE_LIMIT = 0
LOCAL_NODES = 0
LOCAL_LIMIT = 0
MAX_DEPTH = 0
INTERRUPTED = 0
ABORTED = 0
USE_TT = 0
GENERATION = 0
MATE_LENGTH = 0

CLOSURE_MAX = 1 << 20
"""Most positions one closure may visit (its tables' size)."""
CLOSURE_SLOTS_BITS = 22
CLOSURE_MASK = (1 << CLOSURE_SLOTS_BITS) - 1
if not cython.compiled:  # compiled, these are C arrays (kernel.pxd); as plain Python, lists made on first use
    CL_POS = _zeros(0)
    """The closure's positions in the order found, 8 words each: 7 bitboards (black, white, pawns,
    knights, bishops, rooks, queens; the kings are the rest) and turn | (ep + 1) << 1 | castling << 8."""
    CL_PARENT = _zeros(0)
    CL_MOVE = _zeros(0)
    CL_SLOT = _zeros(0)
    """Open addressing on the Zobrist key: 1 + the index of a position, or 0 for an empty slot."""


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def lsb(x: cython.ulonglong) -> cython.int:
    if not cython.compiled:
        return BIT_INDEX[(((x & -x) * DEBRUIJN) & FULL) >> 58]
    return __builtin_ctzll(x)  # type: ignore[name-defined]  # noqa: F821  # one instruction (kernel.pxd)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def msb(x: cython.ulonglong) -> cython.int:
    if not cython.compiled:
        x |= x >> 1
        x |= x >> 2
        x |= x >> 4
        x |= x >> 8
        x |= x >> 16
        x |= x >> 32
        return BIT_INDEX[((((x ^ (x >> 1)) & FULL) * DEBRUIJN) & FULL) >> 58]
    return 63 - __builtin_clzll(x)  # type: ignore[name-defined]  # noqa: F821  # one instruction (kernel.pxd)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def popcount(x: cython.ulonglong) -> cython.int:
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    return cython.cast(cython.int, ((x * H01) & FULL) >> 56)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def bishop_att(sq: cython.int, occ: cython.ulonglong) -> cython.ulonglong:
    att: cython.ulonglong = 0
    r: cython.ulonglong
    d: cython.int
    for d in range(2, 4):
        r = RAY[d * 64 + sq]
        if r & occ:
            r ^= RAY[d * 64 + lsb(r & occ)]
        att |= r
    for d in range(6, 8):
        r = RAY[d * 64 + sq]
        if r & occ:
            r ^= RAY[d * 64 + msb(r & occ)]
        att |= r
    return att


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def rook_att(sq: cython.int, occ: cython.ulonglong) -> cython.ulonglong:
    att: cython.ulonglong = 0
    r: cython.ulonglong
    d: cython.int
    for d in range(0, 2):
        r = RAY[d * 64 + sq]
        if r & occ:
            r ^= RAY[d * 64 + lsb(r & occ)]
        att |= r
    for d in range(4, 6):
        r = RAY[d * 64 + sq]
        if r & occ:
            r ^= RAY[d * 64 + msb(r & occ)]
        att |= r
    return att


@cython.cfunc
@cython.exceptval(check=False)
def attackers(base: cython.int, sq: cython.int, by: cython.int, occ: cython.ulonglong) -> cython.ulonglong:
    """Pieces of colour ``by`` (in the position at ``base``) attacking ``sq`` with occupancy ``occ``."""
    found: cython.ulonglong = PAWN_ATT[(1 - by) * 64 + sq] & S_BB[base + 2]
    found |= KNIGHT_ATT[sq] & S_BB[base + 3]
    found |= KING_ATT[sq] & S_BB[base + 7]
    found |= bishop_att(sq, occ) & (S_BB[base + 4] | S_BB[base + 6])
    found |= rook_att(sq, occ) & (S_BB[base + 5] | S_BB[base + 6])
    return found & S_BB[base + by] & occ


@cython.cfunc
@cython.exceptval(check=False)
def attacked_by(base: cython.int, by: cython.int, occ: cython.ulonglong) -> cython.ulonglong:
    """Every square a piece of colour ``by`` (in the position at ``base``) attacks, with occupancy ``occ``."""
    own: cython.ulonglong = S_BB[base + by]
    pawns: cython.ulonglong = S_BB[base + 2] & own
    att: cython.ulonglong
    if by:
        att = (((pawns << 9) & FULL) & ~FILE_A) | (((pawns << 7) & FULL) & ~FILE_H)
    else:
        att = ((pawns >> 7) & ~FILE_A) | ((pawns >> 9) & ~FILE_H)
    bb: cython.ulonglong = S_BB[base + 3] & own
    while bb:
        att |= KNIGHT_ATT[lsb(bb)]
        bb &= bb - ONE
    bb = (S_BB[base + 4] | S_BB[base + 6]) & own
    while bb:
        att |= bishop_att(lsb(bb), occ)
        bb &= bb - ONE
    bb = (S_BB[base + 5] | S_BB[base + 6]) & own
    while bb:
        att |= rook_att(lsb(bb), occ)
        bb &= bb - ONE
    return att | KING_ATT[lsb(S_BB[base + 7] & own)]


@cython.cfunc
@cython.exceptval(check=False)
def piece_at(base: cython.int, sq: cython.int) -> cython.int:
    bit: cython.ulonglong = ONE << sq
    t: cython.int
    for t in range(1, 7):
        if S_BB[base + 1 + t] & bit:
            return t
    return 0


@cython.cfunc
@cython.exceptval(check=False)
def is_safe(base: cython.int, us: cython.int, frm: cython.int, to: cython.int, flag: cython.int) -> cython.bint:
    """After the move (by the side ``us``) in the position at ``base``, is ``us``'s king not attacked?"""
    occ: cython.ulonglong = S_BB[base] | S_BB[base + 1]
    fb: cython.ulonglong = ONE << frm
    tb: cython.ulonglong = ONE << to
    gone: cython.ulonglong = tb
    if flag == EP_FLAG:
        gone = ONE << (to - 8 if us else to + 8)
    occ = ((occ & ~fb) & ~gone) | tb
    king: cython.ulonglong = S_BB[base + 7] & S_BB[base + us]
    ksq: cython.int = to if king & fb else lsb(king)
    them: cython.int = 1 - us
    enemy: cython.ulonglong = S_BB[base + them] & ~gone & ~tb
    if PAWN_ATT[us * 64 + ksq] & S_BB[base + 2] & enemy:
        return False
    if KNIGHT_ATT[ksq] & S_BB[base + 3] & enemy or KING_ATT[ksq] & S_BB[base + 7] & enemy:
        return False
    if bishop_att(ksq, occ) & (S_BB[base + 4] | S_BB[base + 6]) & enemy:
        return False
    return not rook_att(ksq, occ) & (S_BB[base + 5] | S_BB[base + 6]) & enemy


@cython.cfunc
@cython.exceptval(check=False)
def in_check() -> cython.bint:
    base: cython.int = PLY * 8
    us: cython.int = S_TURN[PLY]
    ksq: cython.int = lsb(S_BB[base + 7] & S_BB[base + us])
    return attackers(base, ksq, 1 - us, S_BB[base] | S_BB[base + 1]) != 0


@cython.cfunc
@cython.exceptval(check=False)
def gen() -> cython.int:
    """The legal moves of the position at ``PLY`` into ``MOVES``: pawns, knights, bishops, rooks,
    queens, king (the order the search tries them in); returns how many."""
    base: cython.int = PLY * 8
    out: cython.int = PLY * MAXMOVES
    n: cython.int = 0
    us: cython.int = S_TURN[PLY]
    them: cython.int = 1 - us
    own: cython.ulonglong = S_BB[base + us]
    opp: cython.ulonglong = S_BB[base + them]
    occ: cython.ulonglong = own | opp
    ksq: cython.int = lsb(S_BB[base + 7] & own)
    # every square the enemy attacks once our king has left its square (the king's steps below);
    # the king's own square among them is a check (the king is the end of a ray, never inside one)
    danger: cython.ulonglong = attacked_by(base, them, occ ^ (ONE << ksq))
    checked: cython.bint = (danger >> ksq) & 1
    # pinned pieces: one piece of ours between the king and an enemy slider on its line
    pinned: cython.ulonglong = 0
    snipers: cython.ulonglong = (rook_att(ksq, 0) & (S_BB[base + 5] | S_BB[base + 6]) & opp) | (
        bishop_att(ksq, 0) & (S_BB[base + 4] | S_BB[base + 6]) & opp)
    s: cython.int
    to: cython.int
    frm: cython.int
    p: cython.int
    t: cython.int
    kind: cython.int
    bb: cython.ulonglong
    targets: cython.ulonglong
    between: cython.ulonglong
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - ONE
        between = BETWEEN[ksq * 64 + s] & occ
        if between and not (between & (between - ONE)):
            pinned |= between & own
    careful: cython.bint
    pawns: cython.ulonglong = S_BB[base + 2] & own
    empty: cython.ulonglong = ~occ & FULL
    ep: cython.int = S_EP[PLY]
    step: cython.int = 8 if us else -8
    last: cython.ulonglong = RANK_8 if us else RANK_1
    start: cython.ulonglong = RANK_2 if us else RANK_7
    bb = pawns
    while bb:
        frm = lsb(bb)
        bb &= bb - ONE
        careful = checked or (pinned >> frm) & 1
        to = frm + step
        if (empty >> to) & 1:
            if not careful or is_safe(base, us, frm, to, 0):
                if (last >> to) & 1:
                    for p in range(5, 1, -1):
                        MOVES[out + n] = frm | (to << 6) | (p << 12) | PAWN_KIND
                        n += 1
                else:
                    MOVES[out + n] = frm | (to << 6) | PAWN_KIND
                    n += 1
            if (start >> frm) & 1 and (empty >> (to + step)) & 1 and (
                not careful or is_safe(base, us, frm, to + step, 0)
            ):
                MOVES[out + n] = frm | ((to + step) << 6) | (DOUBLE_FLAG << 15) | PAWN_KIND
                n += 1
        targets = PAWN_ATT[us * 64 + frm] & opp
        while targets:
            to = lsb(targets)
            targets &= targets - ONE
            if careful and not is_safe(base, us, frm, to, 0):
                continue
            if (last >> to) & 1:
                for p in range(5, 1, -1):
                    MOVES[out + n] = frm | (to << 6) | (p << 12) | PAWN_KIND
                    n += 1
            else:
                MOVES[out + n] = frm | (to << 6) | PAWN_KIND
                n += 1
        if ep >= 0 and (PAWN_ATT[us * 64 + frm] >> ep) & 1 and is_safe(base, us, frm, ep, EP_FLAG):
            MOVES[out + n] = frm | (ep << 6) | (EP_FLAG << 15) | PAWN_KIND
            n += 1
    for kind in range(2, 6):
        bb = S_BB[base + 1 + kind] & own
        while bb:
            frm = lsb(bb)
            bb &= bb - ONE
            if kind == 2:
                targets = KNIGHT_ATT[frm]
            elif kind == 3:
                targets = bishop_att(frm, occ)
            elif kind == 4:
                targets = rook_att(frm, occ)
            else:
                targets = bishop_att(frm, occ) | rook_att(frm, occ)
            targets &= ~own
            careful = checked
            if (pinned >> frm) & 1:
                targets &= LINE[ksq * 64 + frm]
            while targets:
                to = lsb(targets)
                targets &= targets - ONE
                if careful and not is_safe(base, us, frm, to, 0):
                    continue
                MOVES[out + n] = frm | (to << 6) | (kind << KIND_SHIFT)
                n += 1
    # the king's steps: to a square no enemy piece attacks once the king has left its own square
    targets = KING_ATT[ksq] & ~own & ~danger
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        MOVES[out + n] = ksq | (to << 6) | KING_KIND
        n += 1
    rights: cython.int = S_CASTLE[PLY] & (3 if us else 12)
    if rights and not checked:
        t = 0 if us else 56
        if (rights & 5 and not (occ >> (t + 5)) & 1 and not (occ >> (t + 6)) & 1
                and not attackers(base, t + 5, them, occ) and not attackers(base, t + 6, them, occ)):
            MOVES[out + n] = (t + 4) | ((t + 6) << 6) | (CASTLE_FLAG << 15) | KING_KIND
            n += 1
        if (rights & 10 and not (occ >> (t + 1)) & 1 and not (occ >> (t + 2)) & 1 and not (occ >> (t + 3)) & 1
                and not attackers(base, t + 3, them, occ) and not attackers(base, t + 2, them, occ)):
            MOVES[out + n] = (t + 4) | ((t + 2) << 6) | (CASTLE_FLAG << 15) | KING_KIND
            n += 1
    return n


@cython.cfunc
@cython.exceptval(check=False)
def make(m: cython.int) -> cython.void:
    """Plays ``m`` on the position at ``PLY`` into ``PLY + 1`` (copy-make: undo is ``PLY -= 1``)."""
    global PLY
    base: cython.int = PLY * 8
    nxt: cython.int = base + 8
    i: cython.int
    for i in range(8):
        S_BB[nxt + i] = S_BB[base + i]
    us: cython.int = S_TURN[PLY]
    them: cython.int = 1 - us
    frm: cython.int = m & 63
    to: cython.int = (m >> 6) & 63
    promo: cython.int = (m >> 12) & 7
    flag: cython.int = (m >> 15) & 7
    fb: cython.ulonglong = ONE << frm
    tb: cython.ulonglong = ONE << to
    key: cython.ulonglong = S_KEY[PLY] ^ ZOB_TURN
    if S_EP[PLY] >= 0:
        key ^= ZOB[769 + (S_EP[PLY] & 7)]
    kind: cython.int = m >> KIND_SHIFT
    if kind == 0:  # a move from outside the generator (a line being checked)
        kind = piece_at(base, frm)
    cap: cython.int
    csq: cython.int
    if flag == EP_FLAG:
        csq = to - 8 if us else to + 8
        S_BB[nxt + them] ^= ONE << csq
        S_BB[nxt + 2] ^= ONE << csq
        key ^= ZOB[(them * 6) * 64 + csq]
    elif S_BB[base + them] & tb:
        cap = piece_at(base, to)
        S_BB[nxt + them] ^= tb
        S_BB[nxt + 1 + cap] ^= tb
        key ^= ZOB[(them * 6 + cap - 1) * 64 + to]
    S_BB[nxt + us] ^= fb | tb
    S_BB[nxt + 1 + kind] ^= fb
    key ^= ZOB[(us * 6 + kind - 1) * 64 + frm]
    if promo:
        S_BB[nxt + 1 + promo] |= tb
        key ^= ZOB[(us * 6 + promo - 1) * 64 + to]
    else:
        S_BB[nxt + 1 + kind] |= tb
        key ^= ZOB[(us * 6 + kind - 1) * 64 + to]
    rf: cython.int
    rt: cython.int
    if flag == CASTLE_FLAG:
        rf, rt = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
        S_BB[nxt + us] ^= (ONE << rf) | (ONE << rt)
        S_BB[nxt + 5] ^= (ONE << rf) | (ONE << rt)
        key ^= ZOB[(us * 6 + 3) * 64 + rf] ^ ZOB[(us * 6 + 3) * 64 + rt]
    rights: cython.int = S_CASTLE[PLY] & CASTLE_MASK[frm] & CASTLE_MASK[to]
    key ^= ZOB[777 + S_CASTLE[PLY]] ^ ZOB[777 + rights]
    PLY += 1
    S_CASTLE[PLY] = rights
    S_TURN[PLY] = them
    S_EP[PLY] = -1
    if flag == DOUBLE_FLAG:
        S_EP[PLY] = (frm + to) >> 1
        key ^= ZOB[769 + (to & 7)]
    S_KEY[PLY] = key


# -- the search (the heuristics of :mod:`.helpmate`, after CHA's find_mate) -----------------


@cython.cfunc
@cython.exceptval(check=False)
def impossible_to_win(base: cython.int) -> cython.bint:
    """W cannot mate by material alone (the rule of :mod:`.material`)."""
    w_occ: cython.ulonglong = S_BB[base + WINNER]
    l_occ: cython.ulonglong = S_BB[base + 1 - WINNER]
    if popcount(w_occ) == 1:
        return True
    if l_occ & S_BB[base + 2]:
        return False
    return need_loser_promotion(base)


@cython.cfunc
@cython.exceptval(check=False)
def need_loser_promotion(base: cython.int) -> cython.bint:
    w_occ: cython.ulonglong = S_BB[base + WINNER]
    l_occ: cython.ulonglong = S_BB[base + 1 - WINNER]
    count: cython.int = popcount(w_occ)
    knights: cython.ulonglong = S_BB[base + 3]
    bishops: cython.ulonglong = S_BB[base + 4]
    if count == 2 and knights & w_occ and not (l_occ & (knights | bishops | S_BB[base + 5])):
        return True
    w_bishops: cython.ulonglong = bishops & w_occ
    if not w_bishops or count != popcount(w_bishops) + 1:
        return False
    colour: cython.ulonglong = DARK if w_bishops & DARK else ~DARK & FULL
    if w_bishops & ~colour:
        return False
    return not (bishops & ~colour) and not (knights & l_occ)


@cython.cfunc
@cython.exceptval(check=False)
def semi_mode(base: cython.int) -> cython.bint:
    """Only kings, pawns and bishops, four blocked pawn pairs or more, and no lonely pawn."""
    if S_BB[base + 3] | S_BB[base + 5] | S_BB[base + 6]:
        return False
    white: cython.ulonglong = S_BB[base + 2] & S_BB[base + 1]
    black: cython.ulonglong = S_BB[base + 2] & S_BB[base]
    if popcount(((white << 8) & FULL) & black) < 4:
        return False
    files_w: cython.ulonglong = white & ~(RANK_7 | RANK_8)
    files_b: cython.ulonglong = black & ~(RANK_1 | RANK_2)
    fw: cython.int = 0
    fb: cython.int = 0
    s: cython.int
    while files_w:
        s = lsb(files_w)
        files_w &= files_w - ONE
        fw |= 1 << (s & 7)
    while files_b:
        s = lsb(files_b)
        files_b &= files_b - ONE
        fb |= 1 << (s & 7)
    return fw == fb


@cython.cfunc
@cython.exceptval(check=False)
def semi_target(base: cython.int) -> cython.int:
    """A square between a white pawn and a black pawn two ranks up (ranks 3 to 6), or -1."""
    white: cython.ulonglong = S_BB[base + 2] & S_BB[base + 1]
    black: cython.ulonglong = S_BB[base + 2] & S_BB[base]
    between: cython.ulonglong = ((white << 8) & FULL) & (black >> 8) & RANKS_3_TO_6
    return lsb(between) if between else -1


@cython.cfunc
@cython.exceptval(check=False)
def king_dist(a: cython.int, b: cython.int) -> cython.int:
    df: cython.int = (a & 7) - (b & 7)
    dr: cython.int = (a >> 3) - (b >> 3)
    if df < 0:
        df = -df
    if dr < 0:
        dr = -dr
    return df if df > dr else dr


@cython.cfunc
@cython.exceptval(check=False)
def find(depth: cython.int, past_progress: cython.bint, was_semi: cython.bint) -> cython.bint:
    """Search on from the position at ``PLY``: True when a mate by W was met (the line is in
    ``LINE_MOVES[:MATE_LENGTH]``)."""
    global NODES, LOCAL_NODES, INTERRUPTED, ABORTED, MATE_LENGTH, PLY
    base: cython.int = PLY * 8
    moves_left: cython.int = MAX_DEPTH - depth
    key: cython.ulonglong = S_KEY[PLY]
    slot: cython.int = cython.cast(cython.int, key & TT_MASK)
    if USE_TT and TT_GEN[slot] == GENERATION and TT_KEY[slot] == key and TT_DEPTH[slot] >= moves_left:
        return False
    if impossible_to_win(base):
        return False
    turn: cython.int = S_TURN[PLY]
    count: cython.int = gen()
    if count == 0:
        if turn != WINNER and in_check():
            MATE_LENGTH = PLY
            return True
        return False
    if depth >= MAX_DEPTH or LOCAL_NODES >= LOCAL_LIMIT or PLY >= LINE_LIMIT:
        INTERRUPTED = 1
        return False
    if USE_TT:
        TT_GEN[slot] = GENERATION
        TT_KEY[slot] = key
        TT_DEPTH[slot] = moves_left
    winners_turn: cython.bint = turn == WINNER
    need_promotion: cython.bint = not winners_turn and need_loser_promotion(base)
    occ_w: cython.ulonglong = S_BB[base + WINNER]
    bishops: cython.ulonglong = S_BB[base + 4]
    w_bishops: cython.ulonglong = bishops & occ_w
    dark: cython.bint = (w_bishops & DARK) != 0 or (not w_bishops and (bishops & S_BB[base + 1 - WINNER] & ~DARK) != 0)
    flip: cython.int = (0 if dark else 7) ^ (0 if WINNER else 63)
    king_target: cython.int = (47 if winners_turn else 63) ^ flip
    piece_target: cython.int = (63 if winners_turn else 62) ^ flip
    semi: cython.bint = semi_mode(base)
    target: cython.int = semi_target(base) if semi else -1
    semi_here: cython.bint = target >= 0
    many_loser_bishops: cython.bint = semi and popcount(bishops & S_BB[base + 1 - WINNER]) > 1
    enemy: cython.ulonglong = S_BB[base + 1 - turn]
    push_ranks: cython.ulonglong = PUSH_WHITE if turn else PUSH_BLACK
    child_semi: cython.bint = semi_here or was_semi
    rewards_on: cython.bint = PLY <= 400
    normal_depth: cython.int = depth if past_progress else depth + 1
    punish_depth: cython.int = MAX_DEPTH if depth + 3 > MAX_DEPTH else depth + 3
    out: cython.int = PLY * MAXMOVES
    i: cython.int
    m: cython.int
    frm: cython.int
    to: cython.int
    kind: cython.int
    variation: cython.int
    new_depth: cython.int
    approach: cython.bint
    capture: cython.bint
    rewarded: cython.bint
    found: cython.bint
    for i in range(count):
        m = MOVES[out + i]
        frm = m & 63
        to = (m >> 6) & 63
        kind = m >> KIND_SHIFT
        if kind == 6:
            approach = king_dist(to, king_target) < king_dist(frm, king_target)
        elif kind == 2:
            approach = KNIGHT_DIST[to * 64 + piece_target] < KNIGHT_DIST[frm * 64 + piece_target]
        else:
            approach = False
        capture = (enemy >> to) & 1 or ((m >> 15) & 7) == EP_FLAG
        variation = 0
        if winners_turn:
            if capture or approach or (kind == 1 and (push_ranks >> frm) & 1):
                variation = 1
        else:
            if need_promotion:
                variation = 1 if kind == 1 and ((m >> 12) & 7) != 5 and ((m >> 12) & 7) != 4 else 2
            if approach:
                variation = 1
            elif capture:
                variation = 2
        if semi:
            if semi_here or was_semi:
                if capture and winners_turn:
                    variation = 1
                elif kind == 6:
                    variation = 0
                    if semi_here and king_dist(to, target) < king_dist(frm, target):
                        variation = 1
                else:
                    variation = 2
            elif many_loser_bishops and (
                approach or (kind == 3 and king_dist(to, piece_target) < king_dist(frm, piece_target))
            ):
                variation = 1
        rewarded = variation == 1 and rewards_on
        if rewarded:
            new_depth = depth
        elif variation == 2:
            new_depth = punish_depth
        else:
            new_depth = normal_depth
        NODES += 1
        LOCAL_NODES += 1
        if NODES >= NODE_LIMIT:
            ABORTED = 1
            return False
        if (NODES & 4095) == 0:  # compiled, the search holds the GIL: let the server's other threads run now
            with cython.nogil:  # and then (the caller holds certificate._LOCK, so no other search starts)
                pass
        LINE_MOVES[PLY] = m & MOVE_MASK
        make(m)
        found = find(new_depth, rewarded, child_semi)
        PLY -= 1
        if found:
            return True
        if ABORTED:
            return False
    return False


def load(bitboards: list[int], turn: int, ep: int, castling: int) -> None:
    """Sets the root position: the 8 bitboards (black, white, pawns, knights, bishops, rooks,
    queens, kings), the side to move (1 white), the en-passant square or -1, castling rights
    (1 white king side, 2 white queen side, 4 black king side, 8 black queen side)."""
    global PLY
    PLY = 0
    key: cython.ulonglong = 0
    bb: cython.ulonglong
    i: cython.int
    colour: cython.int
    kind: cython.int
    for i in range(8):
        S_BB[i] = bitboards[i]
    for colour in range(2):
        for kind in range(1, 7):
            bb = S_BB[colour] & S_BB[1 + kind]
            while bb:
                key ^= ZOB[(colour * 6 + kind - 1) * 64 + lsb(bb)]
                bb &= bb - ONE
    if turn:
        key ^= ZOB_TURN
    if ep >= 0:
        key ^= ZOB[769 + (ep & 7)]
    key ^= ZOB[777 + castling]
    S_TURN[0] = turn
    S_EP[0] = ep
    S_CASTLE[0] = castling
    S_KEY[0] = key


def legal_move_count() -> int:
    """How many legal moves the loaded position has."""
    count: int = gen()
    return count


def legal_moves() -> list[int]:
    """The legal moves of the loaded position (encoded ints, see the module docstring)."""
    count = gen()
    return [MOVES[i] & MOVE_MASK for i in range(count)]


def helpmate(
    winner: int, node_limit: int, quick_nodes: int = 5000, iteration_nodes: int = 10_000
) -> tuple[list[int] | None, int]:
    """A helpmate for ``winner`` from the loaded position: a short pass (nominal depth 2, no
    transposition table, ``quick_nodes``), then iterative deepening (``iteration_nodes`` per
    pass) until a mate or ``node_limit`` nodes in all. Returns the line (or None) and the nodes.
    The same as :func:`quick_pass`, then :func:`deepening` when the pass asks for it."""
    line, nodes, more = quick_pass(winner, node_limit, quick_nodes)
    if not more:
        return line, nodes
    return deepening(winner, node_limit, nodes, iteration_nodes)


def quick_pass(winner: int, node_limit: int, quick_nodes: int = 5000) -> tuple[list[int] | None, int, bool]:
    """The short pass of :func:`helpmate` from the loaded position: the line (or None), the nodes,
    and whether the deepening may still find one (the pass was cut short, the budget was not)."""
    global WINNER, NODES, NODE_LIMIT, ABORTED
    WINNER = winner
    NODES = 0
    NODE_LIMIT = node_limit
    ABORTED = 0
    if _search_pass(2, quick_nodes, 0):
        return [LINE_MOVES[i] for i in range(MATE_LENGTH)], NODES, False
    return None, NODES, not ABORTED and INTERRUPTED != 0


def deepening(winner: int, node_limit: int, nodes: int, iteration_nodes: int = 10_000) -> tuple[list[int] | None, int]:
    """The iterative deepening of :func:`helpmate` from the loaded position, after a short pass
    that spent ``nodes`` of the ``node_limit``: the line (or None) and the nodes in all."""
    global WINNER, NODES, NODE_LIMIT, ABORTED, GENERATION
    WINNER = winner
    NODES = nodes
    NODE_LIMIT = node_limit
    ABORTED = 0
    GENERATION += 1
    i: cython.int
    if GENERATION > 255:  # the generations are bytes (a table that stays in cache): wipe it and start again
        for i in range(1 << TT_BITS):
            TT_GEN[i] = 0
        GENERATION = 1
    depth: cython.int
    for depth in range(2, 1001):
        if _search_pass(depth, iteration_nodes, 1):
            return [LINE_MOVES[i] for i in range(MATE_LENGTH)], NODES
        if ABORTED or not INTERRUPTED:
            break
    return None, NODES


@cython.cfunc
@cython.exceptval(check=False)
def _search_pass(depth: cython.int, local: cython.longlong, use_tt: cython.int) -> cython.bint:
    """One pass of the search from the root to nominal ``depth``: True when it met a mate."""
    global PLY, MAX_DEPTH, LOCAL_NODES, LOCAL_LIMIT, INTERRUPTED, USE_TT
    PLY = 0
    MAX_DEPTH = depth
    LOCAL_NODES = 0
    LOCAL_LIMIT = depth * local
    INTERRUPTED = 0
    USE_TT = use_tt
    found: cython.bint = find(0, False, False)
    PLY = 0
    return found


@cython.cfunc
@cython.exceptval(check=False)
def _perft(depth: cython.int) -> cython.longlong:
    global PLY
    count: cython.int = gen()
    if depth == 1:
        return count
    total: cython.longlong = 0
    out: cython.int = PLY * MAXMOVES
    i: cython.int
    for i in range(count):
        make(MOVES[out + i])
        total += _perft(depth - 1)
        PLY -= 1
    return total


def perft(depth: int) -> int:
    """Leaf count of the legal move tree of the loaded position (checks the generator)."""
    return _perft(depth) if depth > 0 else 1


# -- the check of a line, by the rules move by move (not through the generator) ---------------


@cython.cfunc
@cython.exceptval(check=False)
def slides(frm: cython.int, to: cython.int, occ: cython.ulonglong, diagonal: cython.bint) -> cython.bint:
    """``to`` lies on a line (diagonal or not) from ``frm`` with every square between empty."""
    d: cython.int
    first: cython.int = 2 if diagonal else 0
    for d in range(first, first + 2):
        if (RAY[d * 64 + frm] >> to) & 1 or (RAY[(d + 4) * 64 + frm] >> to) & 1:
            return not BETWEEN[frm * 64 + to] & occ
    return False


@cython.cfunc
@cython.exceptval(check=False)
def move_is_legal(m: cython.int) -> cython.bint:
    """Is ``m`` a legal move in the position at ``PLY``? Read off the rules: whose piece, how it
    moves, what it may capture, castling's conditions, and the mover's king not left attacked."""
    base: cython.int = PLY * 8
    us: cython.int = S_TURN[PLY]
    them: cython.int = 1 - us
    own: cython.ulonglong = S_BB[base + us]
    opp: cython.ulonglong = S_BB[base + them]
    occ: cython.ulonglong = own | opp
    frm: cython.int = m & 63
    to: cython.int = (m >> 6) & 63
    promo: cython.int = (m >> 12) & 7
    flag: cython.int = m >> 15
    if m < 0 or flag > DOUBLE_FLAG or not (own >> frm) & 1 or (own >> to) & 1:
        return False
    kind: cython.int = piece_at(base, frm)
    step: cython.int = 8 if us else -8
    last: cython.bint = (to >> 3) == (7 if us else 0)
    t: cython.int
    if kind == 1:
        if last != (promo >= 2 and promo <= 5) or (promo and not last):
            return False
        if flag == EP_FLAG:
            if to != S_EP[PLY] or not (PAWN_ATT[us * 64 + frm] >> to) & 1 or (occ >> to) & 1:
                return False
            if not ((S_BB[base + 2] & opp) >> (to - step)) & 1:
                return False
        elif flag == DOUBLE_FLAG:
            if (frm >> 3) != (1 if us else 6) or to != frm + 2 * step:
                return False
            if (occ >> (frm + step)) & 1 or (occ >> to) & 1:
                return False
        elif flag:
            return False
        elif to == frm + step:
            if (occ >> to) & 1:
                return False
        elif not ((PAWN_ATT[us * 64 + frm] >> to) & 1 and (opp >> to) & 1):
            return False
    elif promo or (flag and (kind != 6 or flag != CASTLE_FLAG)):
        return False  # only pawns promote, take en passant or step twice; only the king castles
    elif kind == 2:
        if not (KNIGHT_ATT[frm] >> to) & 1:
            return False
    elif kind == 3 or kind == 4:
        if not slides(frm, to, occ, kind == 3):
            return False
    elif kind == 5:
        if not slides(frm, to, occ, True) and not slides(frm, to, occ, False):
            return False
    elif flag == CASTLE_FLAG:
        t = 0 if us else 56
        if frm != t + 4 or (to != t + 6 and to != t + 2) or attackers(base, frm, them, occ):
            return False
        if to == t + 6:
            if not S_CASTLE[PLY] & (1 if us else 4) or (occ >> (t + 5)) & 1 or (occ >> (t + 6)) & 1:
                return False
            if attackers(base, t + 5, them, occ):
                return False
        else:
            if not S_CASTLE[PLY] & (2 if us else 8) or (occ >> (t + 1)) & 1 or (occ >> (t + 2)) & 1:
                return False
            if (occ >> (t + 3)) & 1 or attackers(base, t + 3, them, occ):
                return False
    elif not (KING_ATT[frm] >> to) & 1:
        return False
    if (S_BB[base + 7] >> to) & 1:
        return False  # a king is never captured
    return is_safe(base, us, frm, to, flag)


def replays_to_mate(line: list[int], winner: int) -> bool:
    """Is every move of ``line`` legal from the loaded position, and does it end with ``winner``
    giving checkmate? (The loaded position is left as it was.)"""
    global PLY
    PLY = 0
    try:
        for m in line:
            if PLY >= MAXPLY - 1 or not move_is_legal(m):
                return False
            make(m)
        return S_TURN[PLY] != winner and in_check() and gen() == 0
    finally:
        PLY = 0


# -- the closure: every position reachable from the root, each visited once ---------------------


def _closure_tables() -> None:
    """As plain Python, the closure's tables are lists made on first use (compiled: C arrays)."""
    global CL_POS, CL_PARENT, CL_MOVE, CL_SLOT
    if not cython.compiled and not CL_SLOT:
        CL_POS = _zeros(8 * CLOSURE_MAX)
        CL_PARENT = _zeros(CLOSURE_MAX)
        CL_MOVE = _zeros(CLOSURE_MAX)
        CL_SLOT = _zeros(1 << CLOSURE_SLOTS_BITS)


@cython.cfunc
@cython.exceptval(check=False)
def _packed(ply: cython.int) -> cython.ulonglong:
    return cython.cast(cython.ulonglong, S_TURN[ply] | ((S_EP[ply] + 1) << 1) | (S_CASTLE[ply] << 8))


@cython.cfunc
@cython.exceptval(check=False)
def _same(index: cython.int, ply: cython.int) -> cython.bint:
    i: cython.int
    for i in range(7):
        if CL_POS[index * 8 + i] != S_BB[ply * 8 + i]:
            return False
    return CL_POS[index * 8 + 7] == _packed(ply)


@cython.cfunc
@cython.exceptval(check=False)
def _closure(max_positions: cython.int) -> cython.int:
    """Breadth first from the root (ply 0) over every reachable position, positions compared whole.
    1: a position where W has mated (its line in ``LINE_MOVES[:MATE_LENGTH]``); 0: none anywhere;
    -1: more than ``max_positions`` positions."""
    global PLY, MATE_LENGTH, NODES
    i: cython.int
    j: cython.int
    k: cython.int
    n: cython.int = 1
    count: cython.int
    slot: cython.int
    packed: cython.ulonglong
    at: cython.int
    for i in range(CLOSURE_MASK + 1):
        CL_SLOT[i] = 0
    for i in range(7):
        CL_POS[i] = S_BB[i]
    CL_POS[7] = _packed(0)
    CL_PARENT[0] = -1
    CL_SLOT[cython.cast(cython.int, S_KEY[0] & CLOSURE_MASK)] = 1
    at = 0
    while at < n:
        PLY = 0
        for i in range(7):
            S_BB[i] = CL_POS[at * 8 + i]
        S_BB[7] = (S_BB[0] | S_BB[1]) & ~(S_BB[2] | S_BB[3] | S_BB[4] | S_BB[5] | S_BB[6])
        packed = CL_POS[at * 8 + 7]
        S_TURN[0] = cython.cast(cython.int, packed & 1)
        S_EP[0] = cython.cast(cython.int, (packed >> 1) & 127) - 1
        S_CASTLE[0] = cython.cast(cython.int, packed >> 8)
        S_KEY[0] = _key(0)
        if impossible_to_win(0):
            at += 1
            continue
        count = gen()
        if count == 0:
            if S_TURN[0] != WINNER and in_check():
                k = 0
                j = at
                while CL_PARENT[j] >= 0:
                    k += 1
                    j = CL_PARENT[j]
                MATE_LENGTH = k
                j = at
                while CL_PARENT[j] >= 0:
                    k -= 1
                    LINE_MOVES[k] = CL_MOVE[j]
                    j = CL_PARENT[j]
                return 1
            at += 1
            continue
        for i in range(count):
            make(MOVES[i])
            NODES += 1
            if (NODES & 4095) == 0:  # as in find(): other threads run while a closure is built
                with cython.nogil:
                    pass
            slot = cython.cast(cython.int, S_KEY[1] & CLOSURE_MASK)
            while CL_SLOT[slot] and not _same(CL_SLOT[slot] - 1, 1):
                slot = (slot + 1) & CLOSURE_MASK
            if not CL_SLOT[slot]:
                if n >= max_positions:
                    PLY = 0
                    return -1
                for j in range(7):
                    CL_POS[n * 8 + j] = S_BB[8 + j]
                CL_POS[n * 8 + 7] = _packed(1)
                CL_PARENT[n] = at
                CL_MOVE[n] = MOVES[i] & MOVE_MASK
                CL_SLOT[slot] = n + 1
                n += 1
            PLY = 0
        at += 1
    return 0


@cython.cfunc
@cython.exceptval(check=False)
def _key(ply: cython.int) -> cython.ulonglong:
    """The Zobrist key of the position at ``ply``, from scratch."""
    key: cython.ulonglong = 0
    colour: cython.int
    kind: cython.int
    sq: cython.int
    bb: cython.ulonglong
    for colour in range(2):
        for kind in range(1, 7):
            bb = S_BB[ply * 8 + colour] & S_BB[ply * 8 + 1 + kind]
            while bb:
                sq = lsb(bb)
                bb &= bb - ONE
                key ^= ZOB[(colour * 6 + kind - 1) * 64 + sq]
    if S_TURN[ply]:
        key ^= ZOB_TURN
    if S_EP[ply] >= 0:
        key ^= ZOB[769 + (S_EP[ply] & 7)]
    return key ^ ZOB[777 + S_CASTLE[ply]]


def closure(winner: int, max_positions: int) -> tuple[int, list[int] | None, int]:
    """Visits every position reachable from the loaded one (W's mating material gone: not expanded).
    Returns 1 and the line to a position where ``winner`` has mated; 0 and None when no reachable
    position is one (every one was visited: a proof that ``winner`` cannot mate); -1 and None when
    there are more than ``max_positions`` (at most ``CLOSURE_MAX``). Also the moves made."""
    global WINNER, NODES, PLY
    _closure_tables()
    WINNER = winner
    NODES = 0
    root = [S_BB[i] for i in range(8)], S_TURN[0], S_EP[0], S_CASTLE[0], S_KEY[0]
    try:
        verdict = _closure(min(max_positions, CLOSURE_MAX))
        line = [LINE_MOVES[i] for i in range(MATE_LENGTH)] if verdict == 1 else None
        return verdict, line, NODES
    finally:
        PLY = 0
        for i in range(8):
            S_BB[i] = root[0][i]
        S_TURN[0], S_EP[0], S_CASTLE[0], S_KEY[0] = root[1], root[2], root[3], root[4]
