"""The compiled record reader: one game of a PGN collection lexed and replayed in one pass.

:func:`scan` reads the game that starts at a given offset of a text. It reads only
what it is sure the lenient reader (:mod:`adjudicator.chess.movetext`,
:mod:`adjudicator.chess.san`, :mod:`adjudicator.chess.replay`) reads the same way:

- *lexing*: tag pairs (ASCII names, values without escapes), move numbers, NAGs,
  results, ``{...}`` and ``;`` comments, closed variations after the first move,
  ASCII movetext. Any other text (a stray bracket, a ``%`` line, an unclosed comment,
  a move after the result, a ``1.`` after a blank line, other scripts, a byte-order
  mark...) makes the game *unclean* (status 1): the caller splits it with the lenient
  splitter. A clean game ends at the end of the text or where a tag pair opens a line
  after its moves or result: there the splitter starts the next game afresh, so the
  games before and after it read the same alone as in the whole text;
- *reading*: every move word written as SAN in one language's letters (set by
  :func:`set_language`) with at most check and annotation marks after it (``+#!?``),
  that names exactly one legal move with the capture mark where it captures (castling
  as ``O-O``/``0-0``). Anything else (an illegal move, a lower-case piece letter, a
  capture written without its mark, a null move, more than 20,000 plies...) stops the
  reading (``reading`` false, the first such word's first character in ``fail``); the
  game is then replayed by the lenient reader, which names what it found.

Where the reading gets through, :func:`scan` gives what the collection check and the
replay print: the final position (FEN as python-chess writes it), the move-rule counter,
the repeated positions (FIDE 9.2.3 keys: e.p. only where the capture is legal), the
facts the automatic endings need (checkmate or stalemate at the end, the most
occurrences of a position, the highest counter), the final position's material and
openness tests (:mod:`engines.chess.unwinnable.openness`'s rule, on bitboards), and each
side's last ``[%clk]`` reading (none, zero or positive).

The board follows the helpmate kernel's conventions and shares its tables
(:mod:`adjudicator.chess.bitboard_tables`): bit ``s`` is square ``s`` (a1 = 0), colours 1
(white) and 0 (black), piece types 1 (pawn) to 6 (king), a move is ``from | to << 6 |
promotion << 12 | flag << 15``. Cython compiles this file to C (``setup.py``; the types
are in the annotations and in ``scan.pxd``); the same file runs as plain Python with the
same results. No I/O; one game at a time (module state: callers hold a lock).
"""

from __future__ import annotations

import cython

from adjudicator.chess import bitboard_tables as _tables

FULL = 0xFFFFFFFFFFFFFFFF
ONE = 1
DEBRUIJN = 0x03F79D71B4CB0A89
NOT_A = 0xFEFEFEFEFEFEFEFE
NOT_H = 0x7F7F7F7F7F7F7F7F
NOT_AB = 0xFCFCFCFCFCFCFCFC
NOT_GH = 0x3F3F3F3F3F3F3F3F
DARK = 0xAA55AA55AA55AA55
LIGHT = 0x55AA55AA55AA55AA
FILE_A = 0x0101010101010101
RANK_1 = 0xFF
EP_FLAG, CASTLE_FLAG, DOUBLE_FLAG = 1, 2, 4
MAXP = 20_000
"""Plies a game may have (:data:`adjudicator.chess.replay.MAX_PLIES`); a longer one is not read here."""

COMPILED = cython.compiled
"""True when this module runs as the C extension built by setup.py."""

KNIGHT_ATT = _tables.KNIGHT_ATT
KING_ATT = _tables.KING_ATT
PAWN_ATT = _tables.PAWN_ATT
RAY = _tables.RAY
CASTLE_MASK = _tables.CASTLE_MASK
BIT_INDEX = _tables.BIT_INDEX
ZOB = _tables.ZOB
ZOB_TURN = ZOB[768]


def _zeros(count: int) -> list[int]:
    return [0] * count


# the position: bitboards black, white, pawns, knights, bishops, rooks, queens, kings
BB = _zeros(8)
TURN = 1
EP = -1
CASTLE = 15
HALF = 0
FULLMOVE = 1
KEYP = 0
"""Zobrist key of the pieces alone (the side, castling and e.p. are added per ply)."""
START_BB = _zeros(8)
START_TURN = 1
START_EP = -1
START_CASTLE = 15
START_HALF = 0
START_FULL = 1
if not cython.compiled:  # compiled, these are C arrays (scan.pxd, zeroed); as plain Python, lists
    # the positions after each ply (index 0: the start), for repetitions and FENs
    H_BB = _zeros((MAXP + 1) * 8)
    H_META = _zeros(MAXP + 1)
    """turn | castling << 1 | (legal e.p. square + 1) << 5."""
    H_HALF = _zeros(MAXP + 1)
    H_FULL = _zeros(MAXP + 1)
    H_KEY = _zeros(MAXP + 1)
    SLOT = _zeros(1 << 16)
    GROUP = _zeros(MAXP + 1)
    COUNT = _zeros(MAXP + 1)
    MOVES = _zeros(MAXP + 1)
    """The moves of the last game read (index 0: its first), in this module's encoding."""
LETTER = _zeros(128)
"""ASCII code of a piece letter in the language read -> piece type (1: its pawn letter, 0: none)."""
LOWER = _zeros(128)
"""ASCII code of a file letter that is also a lower-case piece letter of the language -> 1."""
CLK = _zeros(2)
"""Per colour, the ``[%clk]`` after its last move: -1 none (or no time), 0 zero, 1 more than zero."""
RESULT_CODE = 0
"""Set by :func:`result_end`: 1 ``1-0``, 2 ``0-1``, 3 ``1/2-1/2``, 4 ``*``."""


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def lsb(x: cython.ulonglong) -> cython.int:
    return BIT_INDEX[(((x & -x) * DEBRUIJN) & FULL) >> 58]


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def msb(x: cython.ulonglong) -> cython.int:
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    x |= x >> 32
    return BIT_INDEX[((((x ^ (x >> 1)) & FULL) * DEBRUIJN) & FULL) >> 58]


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def popcount(x: cython.ulonglong) -> cython.int:
    n: cython.int = 0
    while x:
        x &= x - ONE
        n += 1
    return n


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
def attacked(sq: cython.int, by: cython.int, occ: cython.ulonglong) -> cython.bint:
    """Is ``sq`` attacked by a piece of colour ``by`` (sliders seen through ``occ``)?"""
    them: cython.ulonglong = BB[by]
    if PAWN_ATT[(1 - by) * 64 + sq] & BB[2] & them:
        return True
    if KNIGHT_ATT[sq] & BB[3] & them or KING_ATT[sq] & BB[7] & them:
        return True
    if bishop_att(sq, occ) & (BB[4] | BB[6]) & them:
        return True
    return (rook_att(sq, occ) & (BB[5] | BB[6]) & them) != 0


@cython.cfunc
@cython.exceptval(check=False)
def is_safe(us: cython.int, frm: cython.int, to: cython.int, flag: cython.int) -> cython.bint:
    """After the move (by ``us``), is ``us``'s king not attacked? (The helpmate kernel's test.)"""
    occ: cython.ulonglong = BB[0] | BB[1]
    fb: cython.ulonglong = ONE << frm
    tb: cython.ulonglong = ONE << to
    gone: cython.ulonglong = tb
    if flag == EP_FLAG:
        gone = ONE << (to - 8 if us else to + 8)
    occ = ((occ & ~fb) & ~gone) | tb
    king: cython.ulonglong = BB[7] & BB[us]
    ksq: cython.int = to if king & fb else lsb(king)
    enemy: cython.ulonglong = BB[1 - us] & ~gone & ~tb
    if PAWN_ATT[us * 64 + ksq] & BB[2] & enemy:
        return False
    if KNIGHT_ATT[ksq] & BB[3] & enemy or KING_ATT[ksq] & BB[7] & enemy:
        return False
    if bishop_att(ksq, occ) & (BB[4] | BB[6]) & enemy:
        return False
    return not rook_att(ksq, occ) & (BB[5] | BB[6]) & enemy


@cython.cfunc
@cython.exceptval(check=False)
def piece_at(sq: cython.int) -> cython.int:
    bit: cython.ulonglong = ONE << sq
    t: cython.int
    for t in range(1, 7):
        if BB[1 + t] & bit:
            return t
    return 0


@cython.cfunc
@cython.exceptval(check=False)
def in_check() -> cython.bint:
    king: cython.ulonglong = BB[7] & BB[TURN]
    return attacked(lsb(king), 1 - TURN, BB[0] | BB[1])


@cython.cfunc
@cython.exceptval(check=False)
def castling(kingside: cython.bint) -> cython.int:
    """The castling move of that side when it is legal (python-chess's test), else -1."""
    us: cython.int = TURN
    t: cython.int = 0 if us else 56
    bit: cython.int = (1 if kingside else 2) << (0 if us else 2)
    if not CASTLE & bit:
        return -1
    occ: cython.ulonglong = BB[0] | BB[1]
    king: cython.ulonglong = ONE << (t + 4)
    rook: cython.ulonglong = ONE << (t + 7 if kingside else t)
    path: cython.ulonglong = (ONE << (t + 5)) | (ONE << (t + 6))
    if not kingside:
        path = (ONE << (t + 1)) | (ONE << (t + 2)) | (ONE << (t + 3))
    if occ & path:
        return -1
    them: cython.int = 1 - us
    step: cython.int = t + 5 if kingside else t + 3
    to: cython.int = t + 6 if kingside else t + 2
    rook_to: cython.ulonglong = ONE << step
    if attacked(t + 4, them, occ ^ king) or attacked(step, them, occ ^ king):
        return -1
    if attacked(to, them, occ ^ king ^ rook ^ rook_to):
        return -1
    return (t + 4) | (to << 6) | (CASTLE_FLAG << 15)


@cython.cfunc
@cython.exceptval(check=False)
def resolve(piece: cython.int, ff: cython.int, fr: cython.int, to: cython.int, promo: cython.int,
            capture: cython.bint) -> cython.int:
    """The one legal move the parts name (capture mark and promotion as the move has them), else -1."""
    us: cython.int = TURN
    them: cython.int = 1 - us
    own: cython.ulonglong = BB[us]
    opp: cython.ulonglong = BB[them]
    occ: cython.ulonglong = own | opp
    tb: cython.ulonglong = ONE << to
    froms: cython.ulonglong = 0
    flag: cython.int = 0
    step: cython.int = 8 if us else -8
    frm: cython.int
    found: cython.int = -1
    if own & tb:
        return -1
    if piece == 1:
        if capture:
            if opp & tb:
                if BB[7] & tb:
                    return -1
            elif to == EP:
                flag = EP_FLAG
            else:
                return -1
            froms = PAWN_ATT[them * 64 + to] & BB[2] & own
            froms &= FILE_A << ff
        else:
            if occ & tb:
                return -1
            frm = to - step
            if frm < 8 or frm > 55:
                return -1
            if BB[2] & own & (ONE << frm):
                froms = ONE << frm
            elif not occ & (ONE << frm) and (to >> 3) == (3 if us else 4) and BB[2] & own & (ONE << (frm - step)):
                froms = ONE << (frm - step)
                flag = DOUBLE_FLAG
    else:
        if capture != ((opp & tb) != 0) or BB[7] & tb:
            return -1
        if piece == 2:
            froms = KNIGHT_ATT[to]
        elif piece == 3:
            froms = bishop_att(to, occ)
        elif piece == 4:
            froms = rook_att(to, occ)
        elif piece == 5:
            froms = bishop_att(to, occ) | rook_att(to, occ)
        else:
            froms = KING_ATT[to]
        froms &= BB[1 + piece] & own
        if ff >= 0:
            froms &= FILE_A << ff
        if fr >= 0:
            froms &= RANK_1 << (8 * fr)
    while froms:
        frm = lsb(froms)
        froms &= froms - ONE
        if is_safe(us, frm, to, flag):
            if found >= 0:
                return -1
            found = frm | (to << 6) | (promo << 12) | (flag << 15)
    return found


@cython.cfunc
@cython.exceptval(check=False)
def make(m: cython.int) -> cython.void:
    """Plays ``m`` on the position (in place), with the counters and the pieces' Zobrist key."""
    global TURN, EP, CASTLE, HALF, FULLMOVE, KEYP
    us: cython.int = TURN
    them: cython.int = 1 - us
    frm: cython.int = m & 63
    to: cython.int = (m >> 6) & 63
    promo: cython.int = (m >> 12) & 7
    flag: cython.int = m >> 15
    fb: cython.ulonglong = ONE << frm
    tb: cython.ulonglong = ONE << to
    kind: cython.int = piece_at(frm)
    cap: cython.int = 0
    csq: cython.int
    if flag == EP_FLAG:
        csq = to - 8 if us else to + 8
        BB[them] ^= ONE << csq
        BB[2] ^= ONE << csq
        KEYP ^= ZOB[(them * 6) * 64 + csq]
        cap = 1
    elif BB[them] & tb:
        cap = piece_at(to)
        BB[them] ^= tb
        BB[1 + cap] ^= tb
        KEYP ^= ZOB[(them * 6 + cap - 1) * 64 + to]
    BB[us] ^= fb | tb
    BB[1 + kind] ^= fb
    KEYP ^= ZOB[(us * 6 + kind - 1) * 64 + frm]
    if promo:
        BB[1 + promo] |= tb
        KEYP ^= ZOB[(us * 6 + promo - 1) * 64 + to]
    else:
        BB[1 + kind] |= tb
        KEYP ^= ZOB[(us * 6 + kind - 1) * 64 + to]
    rf: cython.int
    rt: cython.int
    if flag == CASTLE_FLAG:
        rf, rt = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
        BB[us] ^= (ONE << rf) | (ONE << rt)
        BB[5] ^= (ONE << rf) | (ONE << rt)
        KEYP ^= ZOB[(us * 6 + 3) * 64 + rf] ^ ZOB[(us * 6 + 3) * 64 + rt]
    CASTLE = CASTLE & CASTLE_MASK[frm] & CASTLE_MASK[to]
    EP = (frm + to) >> 1 if flag == DOUBLE_FLAG else -1
    HALF = 0 if kind == 1 or cap else HALF + 1
    if not us:
        FULLMOVE += 1
    TURN = them


@cython.cfunc
@cython.exceptval(check=False)
def legal_ep() -> cython.int:
    """The e.p. square when an e.p. capture is legal (python-chess's ``has_legal_en_passant``), else -1."""
    if EP < 0:
        return -1
    us: cython.int = TURN
    caps: cython.ulonglong = PAWN_ATT[(1 - us) * 64 + EP] & BB[2] & BB[us]
    while caps:
        if is_safe(us, lsb(caps), EP, EP_FLAG):
            return EP
        caps &= caps - ONE
    return -1


@cython.cfunc
@cython.exceptval(check=False)
def record(p: cython.int) -> cython.void:
    """Keeps the position as the one after ply ``p`` (0: the start)."""
    i: cython.int
    for i in range(8):
        H_BB[p * 8 + i] = BB[i]
    ep: cython.int = legal_ep()
    H_META[p] = TURN | (CASTLE << 1) | ((ep + 1) << 5)
    H_HALF[p] = HALF
    H_FULL[p] = FULLMOVE
    key: cython.ulonglong = KEYP ^ ZOB[777 + CASTLE]
    if TURN:
        key ^= ZOB_TURN
    if ep >= 0:
        key ^= ZOB[769 + (ep & 7)]
    H_KEY[p] = key


@cython.cfunc
@cython.exceptval(check=False)
def same(p: cython.int, q: cython.int) -> cython.bint:
    i: cython.int
    if H_META[p] != H_META[q]:
        return False
    for i in range(8):  # noqa: SIM110 (a C loop, not a generator)
        if H_BB[p * 8 + i] != H_BB[q * 8 + i]:
            return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
def group_positions(plies: cython.int) -> cython.int:
    """GROUP[p]: the first ply whose position is that after ``p``; COUNT[first]: occurrences. Returns the
    most occurrences of any position."""
    size: cython.int = 64
    while size < 2 * (plies + 1):
        size *= 2
    mask: cython.int = size - 1
    p: cython.int
    h: cython.int
    q: cython.int
    most: cython.int = 1
    for p in range(size):
        SLOT[p] = 0
    for p in range(plies + 1):
        h = cython.cast(cython.int, H_KEY[p] & mask)
        while True:
            q = SLOT[h] - 1
            if q < 0:
                SLOT[h] = p + 1
                GROUP[p] = p
                COUNT[p] = 1
                break
            if H_KEY[q] == H_KEY[p] and same(p, q):
                GROUP[p] = q
                COUNT[q] += 1
                if COUNT[q] > most:
                    most = COUNT[q]
                break
            h = (h + 1) & mask
    return most


def fen_at(p: cython.int) -> str:
    """The FEN of the position after ply ``p`` of the last game read, as python-chess writes it."""
    rows: list[str] = []
    rank: cython.int
    file: cython.int
    sq: cython.int
    empty: cython.int
    t: cython.int
    kind: cython.int
    bit: cython.ulonglong
    row: str
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            sq = rank * 8 + file
            bit = ONE << sq
            t = 0
            for kind in range(1, 7):
                if H_BB[p * 8 + 1 + kind] & bit:
                    t = kind
            if not t:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += ("PNBRQK" if H_BB[p * 8 + 1] & bit else "pnbrqk")[t - 1]
        if empty:
            row += str(empty)
        rows.append(row)
    meta: cython.int = H_META[p]
    castle: cython.int = (meta >> 1) & 15
    rights: str = "".join(letter for bit_, letter in ((1, "K"), (2, "Q"), (4, "k"), (8, "q")) if castle & bit_)
    ep: cython.int = (meta >> 5) - 1
    shown: str = "abcdefgh"[ep & 7] + "12345678"[ep >> 3] if ep >= 0 else "-"
    return f"{'/'.join(rows)} {'w' if meta & 1 else 'b'} {rights or '-'} {shown} {H_HALF[p]} {H_FULL[p]}"


@cython.cfunc
@cython.exceptval(check=False)
def legal_count(cap: cython.int) -> cython.int:
    """How many legal moves the side to move has, counted up to ``cap`` (a promotion counts four)."""
    us: cython.int = TURN
    own: cython.ulonglong = BB[us]
    opp: cython.ulonglong = BB[1 - us]
    occ: cython.ulonglong = own | opp
    n: cython.int = 0
    frm: cython.int
    to: cython.int
    kind: cython.int
    targets: cython.ulonglong
    bb: cython.ulonglong
    step: cython.int = 8 if us else -8
    last: cython.int = 7 if us else 0
    for kind in range(2, 7):
        bb = BB[1 + kind] & own
        while bb:
            frm = lsb(bb)
            bb &= bb - ONE
            if kind == 2:
                targets = KNIGHT_ATT[frm]
            elif kind == 3:
                targets = bishop_att(frm, occ)
            elif kind == 4:
                targets = rook_att(frm, occ)
            elif kind == 5:
                targets = bishop_att(frm, occ) | rook_att(frm, occ)
            else:
                targets = KING_ATT[frm]
            targets &= ~own
            while targets:
                to = lsb(targets)
                targets &= targets - ONE
                if is_safe(us, frm, to, 0):
                    n += 1
                    if n >= cap:
                        return n
    bb = BB[2] & own
    while bb:
        frm = lsb(bb)
        bb &= bb - ONE
        to = frm + step
        if not occ & (ONE << to) and is_safe(us, frm, to, 0):
            n += 4 if (to >> 3) == last else 1
            if (frm >> 3) == (1 if us else 6) and not occ & (ONE << (to + step)) and is_safe(us, frm, to + step, 0):
                n += 1
        targets = PAWN_ATT[us * 64 + frm] & opp
        while targets:
            to = lsb(targets)
            targets &= targets - ONE
            if is_safe(us, frm, to, 0):
                n += 4 if (to >> 3) == last else 1
        if EP >= 0 and PAWN_ATT[us * 64 + frm] & (ONE << EP) and is_safe(us, frm, EP, EP_FLAG):
            n += 1
        if n >= cap:
            return n
    if castling(True) >= 0:
        n += 1
    if castling(False) >= 0:
        n += 1
    return n


@cython.cfunc
@cython.exceptval(check=False)
def insufficient(color: cython.int) -> cython.bint:
    """python-chess's ``has_insufficient_material``."""
    mine: cython.ulonglong = BB[color]
    if mine & (BB[2] | BB[5] | BB[6]):
        return False
    if mine & BB[3]:
        return popcount(mine) <= 2 and not (BB[1 - color] & ~BB[7] & ~BB[6])
    if mine & BB[4]:
        return (not BB[4] & DARK or not BB[4] & LIGHT) and not BB[2] and not BB[3]
    return True


@cython.cfunc
@cython.exceptval(check=False)
def material_dead(w: cython.int) -> cython.bint:
    """``engines.chess.unwinnable.material.material_dead``: W can never mate by material alone."""
    mine: cython.ulonglong = BB[w]
    theirs: cython.ulonglong = BB[1 - w]
    count: cython.int = popcount(mine)
    if count == 1:
        return True
    if BB[2] & theirs:
        return False
    if count == 2 and BB[3] & mine and not theirs & (BB[3] | BB[4] | BB[5]):
        return True
    bishops: cython.ulonglong = BB[4] & mine
    if not bishops or count != popcount(bishops) + 1:
        return False
    colour: cython.ulonglong = DARK if bishops & DARK else LIGHT
    return not (BB[4] & ~colour) and not (BB[3] & theirs)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def king_spread(bb: cython.ulonglong) -> cython.ulonglong:
    row: cython.ulonglong = bb | ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_H)
    return (row | (row << 8) | (row >> 8)) & FULL


@cython.cfunc
@cython.exceptval(check=False)
def plainly_open(w: cython.int) -> cython.bint:
    """``engines.chess.unwinnable.openness.is_plainly_open``: a queen, rook or knight of W can step at once
    into the squares the loser's king can walk to."""
    mine: cython.ulonglong = BB[w]
    theirs: cython.ulonglong = BB[1 - w]
    occ: cython.ulonglong = mine | theirs
    loser_king: cython.ulonglong = BB[7] & theirs
    if not mine & (BB[3] | BB[5] | BB[6]) or not loser_king or not BB[7] & mine:
        return False
    empty: cython.ulonglong = ~occ & FULL
    pawns: cython.ulonglong = BB[2] & mine
    sides: cython.ulonglong = ((pawns << 1) & NOT_A) | ((pawns >> 1) & NOT_H)
    barred: cython.ulonglong = ((sides << 8) & FULL if w else sides >> 8) | king_spread(BB[7] & mine)
    steps: cython.ulonglong = 0
    one: cython.ulonglong
    bit: cython.ulonglong
    sq: cython.int
    bb: cython.ulonglong = mine & ~BB[2] & ~BB[7]
    while bb:
        sq = lsb(bb)
        bb &= bb - ONE
        bit = ONE << sq
        if bit & BB[3]:
            one = KNIGHT_ATT[sq] & empty
        elif bit & BB[4]:
            one = KING_ATT[sq] & ~rook_att(sq, 0) & empty
        elif bit & BB[5]:
            one = KING_ATT[sq] & rook_att(sq, 0) & empty
        else:
            one = KING_ATT[sq] & empty
        if not one:
            if bit & BB[3]:
                barred |= KNIGHT_ATT[sq]
            elif bit & BB[4]:
                barred |= bishop_att(sq, occ)
            elif bit & BB[5]:
                barred |= rook_att(sq, occ)
            else:
                barred |= bishop_att(sq, occ) | rook_att(sq, occ)
        elif not bit & BB[4]:
            steps |= one
    if not steps:
        return False
    walk: cython.ulonglong = FULL & ~theirs & ~barred
    region: cython.ulonglong = loser_king
    grown: cython.ulonglong
    while True:
        if region & steps:
            return True
        grown = region | (king_spread(region) & walk)
        if grown == region:
            return False
        region = grown


# -- the text's characters ---------------------------------------------------------------------

if not cython.compiled:  # compiled, C globals and the C API (scan.pxd); as plain Python, for the type checker only
    # (hold reads them compiled only; a plain-Python at() reads text[i])
    ONE_BYTE = False
    BUF = b""
    PyUnicode_1BYTE_KIND = 1

    def PyUnicode_KIND(text: str) -> int:
        return PyUnicode_1BYTE_KIND if max(text, default="\0") <= "\xff" else 2

    def PyUnicode_1BYTE_DATA(text: str) -> bytes:
        return text.encode("latin-1")

    def PyUnicode_FindChar(text: str, ch: int, start: int, end: int, direction: int) -> int:  # forward only
        return text.find(chr(ch), start, end)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def hold(text: str) -> cython.void:
    """Compiled: read ``text``'s characters straight from its buffer where it holds one byte a character (ASCII
    and Latin-1 texts: a PGN file's almost always), not through Python's general character read (a readiness
    test and a switch on the width per character). Each entry point taking a text calls this first; the buffer
    is read only while that text is being read (the caller holds it)."""
    global BUF, ONE_BYTE
    if cython.compiled:
        ONE_BYTE = PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND
        if ONE_BYTE:
            BUF = PyUnicode_1BYTE_DATA(text)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def at(text: str, i: cython.Py_ssize_t) -> cython.Py_UCS4:
    """``text[i]`` (the text :func:`hold` was given)."""
    if cython.compiled and ONE_BYTE:
        return BUF[i]
    return text[i]


@cython.cfunc
@cython.inline
@cython.exceptval(-2)
def line_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Past the newline that ends the line from ``i`` (``n`` where none does before it): the C API's character
    search (``memchr`` on a one-byte text), without a Python call and a Python integer a line. The search's own
    error (-2: none for a str already measured) is raised, not ignored."""
    e: cython.Py_ssize_t = PyUnicode_FindChar(text, 10, i, n, 1)
    return n if e < 0 else e + 1


# -- lexing -------------------------------------------------------------------------------------


@cython.cfunc
@cython.exceptval(check=False)
def skip_space(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Past ASCII spacing; -1 at a line that starts with ``%`` (an escape line the splitter blanks)."""
    c: cython.Py_UCS4
    while i < n:
        c = at(text, i)
        if c == " " or c == "\t" or c == "\r":
            i += 1
        elif c == "\n":
            i += 1
            if i < n and at(text, i) == "%":
                return -1
        else:
            break
    return i


@cython.cfunc
@cython.exceptval(check=False)
def comment_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The ``}`` closing the comment opened at ``i``; -1 when none does, or a ``%`` line, a line starting
    with ``[`` after any spacing (a new game's tags end a comment: the lenient reader tells), a second ``{``
    (a comment never closed that ran on to a later one's ``}``: the lenient reader tells) or a byte-order
    mark / zero-width space (which the splitter turns into spaces) is inside."""
    c: cython.Py_UCS4
    j: cython.Py_ssize_t = i + 1
    k: cython.Py_ssize_t
    while j < n:
        c = at(text, j)
        if c == "}":
            return j
        if c == "{":
            return -1
        if c == "\n":
            if j + 1 < n and at(text, j + 1) == "%":
                return -1
            k = j + 1
            while k < n and at(text, k) != "\n" and is_space(at(text, k)):
                k += 1
            if k < n and at(text, k) == "[":
                return -1
        elif c == "\ufeff" or c == "\u200b":
            return -1
        j += 1
    return -1


@cython.cfunc
@cython.exceptval(check=False)
def is_printable(c: cython.Py_UCS4) -> cython.bint:
    return "!" <= c <= "~"


@cython.cfunc
@cython.exceptval(check=False)
def is_stop(c: cython.Py_UCS4) -> cython.bint:
    """Ends a word (ASCII spacing and the brackets and ``;`` of ``_LEXER``'s word)."""
    return c in " \t\r\n{}()[];"


@cython.cfunc
@cython.exceptval(check=False)
def word_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The end of the word at ``i`` (with a ``(Q)`` promotion suffix, as ``_LEXER`` reads it); -1 at a
    character outside printable ASCII (other scripts and spacing are the lenient splitter's)."""
    c: cython.Py_UCS4
    j: cython.Py_ssize_t = i
    while j < n:
        c = at(text, j)
        if is_stop(c):
            break
        if not is_printable(c):
            return -1
        j += 1
    if j + 2 < n and at(text, j) == "(" and at(text, j + 2) == ")" and at(text, j + 1) in "QRBNDTSLFACqrbndtslfac":
        j += 3
    return j


@cython.cfunc
@cython.exceptval(check=False)
def starts(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t, word: str) -> cython.bint:
    k: cython.Py_ssize_t
    m: cython.Py_ssize_t = len(word)
    if i + m > n:
        return False
    for k in range(m):  # noqa: SIM110 (a C loop, not a generator)
        if at(text, i + k) != word[k]:
            return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
def result_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The end of a result token at ``i`` (``_LEXER``'s alternatives in order, ASCII dashes), else 0;
    sets :data:`RESULT_CODE`."""
    global RESULT_CODE
    words = ("1-0", "1:0", "0-1", "0:1", "1/2-1/2", "1/2:1/2", "1/2", "*")
    codes = (1, 1, 2, 2, 3, 3, 3, 4)
    k: cython.int
    j: cython.Py_ssize_t
    for k in range(8):
        if starts(text, i, n, words[k]):
            j = i + len(words[k])
            if j == n or is_stop(at(text, j)):
                RESULT_CODE = codes[k]
                return j
    return 0


@cython.cfunc
@cython.exceptval(check=False)
def number_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The end of a move number (digits, spaces or tabs, dots) at ``i``, else 0."""
    j: cython.Py_ssize_t = i
    while j < n and "0" <= at(text, j) <= "9":
        j += 1
    while j < n and (at(text, j) == " " or at(text, j) == "\t"):
        j += 1
    if j >= n or at(text, j) != ".":
        return 0
    while j < n and at(text, j) == ".":
        j += 1
    return j


@cython.cfunc
@cython.exceptval(check=False)
def atom_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The end of the NAG, result, move number or word at ``i``; -1 where this reader does not lex."""
    c: cython.Py_UCS4 = at(text, i)
    j: cython.Py_ssize_t
    if not is_printable(c):
        return -1
    if c == "$":
        j = i + 1
        while j < n and "0" <= at(text, j) <= "9":
            j += 1
        return j
    if c == "1" or c == "0" or c == "*":
        j = result_end(text, i, n)
        if j:
            return j
    if "0" <= c <= "9":
        j = number_end(text, i, n)
        if j:
            return j
    return word_end(text, i, n)


@cython.cfunc
@cython.exceptval(check=False)
def variation_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Past the ``)`` closing the variation opened at ``i``; -1 when it is not closed cleanly, or holds a blank line
    (a ``1.`` after one starts a game: the lenient reader tells)."""
    depth: cython.int = 1
    j: cython.Py_ssize_t = i + 1
    k: cython.Py_ssize_t
    c: cython.Py_UCS4
    while True:
        k = j
        j = skip_space(text, j, n)
        if j < 0 or j >= n:
            return -1
        if text.count("\n", k, j) >= 2:
            return -1
        c = at(text, j)
        if c == "{":
            j = comment_end(text, j, n)
            if j < 0:
                return -1
            j += 1
        elif c == ";":
            while j < n and at(text, j) != "\n":
                j += 1
        elif c == "(":
            depth += 1
            j += 1
        elif c == ")":
            depth -= 1
            j += 1
            if not depth:
                return j
        elif c == "[":
            return -1
        elif c == "]" or c == "}":
            j += 1
        else:
            j = atom_end(text, j, n)
            if j < 0:
                return -1


@cython.cfunc
@cython.exceptval(check=False)
def tag_end(text: str, i: cython.Py_ssize_t, n: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Past the tag pair at ``i`` (``[Name "value"]``: ASCII name, no escapes), else -1."""
    j: cython.Py_ssize_t = i + 1
    c: cython.Py_UCS4
    while j < n and (at(text, j) == " " or at(text, j) == "\t"):
        j += 1
    if j >= n:
        return -1
    c = at(text, j)
    if not ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c == "_"):
        return -1
    j += 1
    while j < n:
        c = at(text, j)
        if "a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c in "_+#=:-":
            j += 1
        else:
            break
    while j < n and (at(text, j) == " " or at(text, j) == "\t"):
        j += 1
    if j >= n or at(text, j) != '"':
        return -1
    j += 1
    while j < n:
        c = at(text, j)
        if c == '"':
            break
        if c == "\\" or c == "\n" or c == "\ufeff" or c == "\u200b":
            return -1
        j += 1
    if j >= n:
        return -1
    j += 1
    while j < n and (at(text, j) == " " or at(text, j) == "\t"):
        j += 1
    if j >= n or at(text, j) != "]":
        return -1
    return j + 1


@cython.cfunc
@cython.exceptval(check=False)
def clock_state(text: str, a: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.int:
    """What ``[%clk ...]`` in the comment text ``a..b`` says (``movetext._CLK``, ``seconds_of``): -2 none,
    -1 no time, 0 zero, 1 more than zero; -3 when the comment is not plain ASCII."""
    k: cython.Py_ssize_t
    m: cython.Py_ssize_t
    v: cython.Py_ssize_t
    c: cython.Py_UCS4
    first: cython.Py_ssize_t = -1
    for k in range(a, b - 1):
        if at(text, k) == "[" and at(text, k + 1) == "%":
            first = k
            break
    if first < 0:
        return -2
    for k in range(a, b):
        c = at(text, k)
        if not (is_printable(c) or c == " " or c == "\t" or c == "\n" or c == "\r"):
            return -3
    for k in range(first, b):  # no "[%" before the first one
        if at(text, k) != "[" or not starts(text, k, b, "[%clk"):
            continue
        m = k + 5
        if m >= b or not (at(text, m) == " " or at(text, m) == "\t" or at(text, m) == "\n" or at(text, m) == "\r"):
            continue
        while m < b and (at(text, m) == " " or at(text, m) == "\t" or at(text, m) == "\n" or at(text, m) == "\r"):
            m += 1
        v = m
        while m < b and ("0" <= at(text, m) <= "9" or at(text, m) == ":" or at(text, m) == "."):
            m += 1
        if m == v:
            continue
        end: cython.Py_ssize_t = m
        while m < b and (at(text, m) == " " or at(text, m) == "\t" or at(text, m) == "\n" or at(text, m) == "\r"):
            m += 1
        if m < b and at(text, m) == "]":
            return seconds_state(text, v, end)
    return -2


@cython.cfunc
@cython.exceptval(check=False)
def seconds_state(text: str, a: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.int:
    """``seconds_of`` on ``[0-9:.]+``: -1 not a time, 0 zero, 1 more than zero."""
    parts: cython.int = 1
    digits: cython.int = 0
    dots: cython.int = 0
    nonzero: cython.bint = False
    k: cython.Py_ssize_t
    c: cython.Py_UCS4
    for k in range(a, b + 1):
        c = at(text, k) if k < b else ":"
        if c == ":":
            if not digits or dots > 1:
                return -1
            if k < b:
                parts += 1
            digits = 0
            dots = 0
        elif c == ".":
            dots += 1
        else:
            digits += 1
            if c != "0":
                nonzero = True
    if parts > 3:
        return -1
    return 1 if nonzero else 0


# -- records of a file ----------------------------------------------------------------------------


@cython.cfunc
@cython.exceptval(check=False)
def is_space(c: cython.Py_UCS4) -> cython.bint:
    """``str.isspace`` (the regular expressions' ``\\s``, ``str.strip``'s spacing)."""
    return c.isspace()


@cython.cfunc
@cython.exceptval(check=False)
def past_space(text: str, j: cython.Py_ssize_t, e: cython.Py_ssize_t) -> cython.Py_ssize_t:
    while j < e and is_space(at(text, j)):
        j += 1
    return j


@cython.cfunc
@cython.exceptval(check=False)
def is_word(c: cython.Py_UCS4) -> cython.bint:
    """The regular expressions' ``\\w``: ``str.isalnum`` or ``_`` (an ASCII character by its ranges: the same
    answer without a look-up in Unicode's tables)."""
    if ord(c) < 128:
        return "a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c == "_"
    return c.isalnum()


@cython.cfunc
@cython.exceptval(check=False)
def tag_rest(text: str, j: cython.Py_ssize_t, e: cython.Py_ssize_t) -> cython.bint:
    """``\\[\\s*\\w[\\w+#=:\\-]*\\s*"`` at ``j``."""
    c: cython.Py_UCS4
    if j >= e or at(text, j) != "[":
        return False
    j = past_space(text, j + 1, e)
    if j >= e or not is_word(at(text, j)):
        return False
    j += 1
    while j < e:
        c = at(text, j)
        if not (is_word(c) or c == "+" or c == "#" or c == "=" or c == ":" or c == "-"):
            break
        j += 1
    j = past_space(text, j, e)
    return j < e and at(text, j) == '"'


@cython.cfunc
@cython.exceptval(check=False)
def is_tag_line(text: str, i: cython.Py_ssize_t, e: cython.Py_ssize_t) -> cython.bint:
    """``adjudicator.collection._TAG_LINE.match`` on the line ``i..e``: ``\\s*(?:\\[pgn\\]\\s*)?\\[\\s*NAME\\s*"``
    (``[pgn]`` in any case)."""
    j: cython.Py_ssize_t = past_space(text, i, e)
    if (j + 5 <= e and at(text, j) == "[" and (at(text, j + 1) == "p" or at(text, j + 1) == "P")
            and (at(text, j + 2) == "g" or at(text, j + 2) == "G")
            and (at(text, j + 3) == "n" or at(text, j + 3) == "N")
            and at(text, j + 4) == "]" and tag_rest(text, past_space(text, j + 5, e), e)):
        return True
    return tag_rest(text, j, e)


@cython.cfunc
@cython.exceptval(check=False)
def is_result_dash(c: cython.Py_UCS4) -> cython.bint:
    """``movetext.RESULT_DASH``."""
    return (c == "-" or c == ":" or c == "\u2010" or c == "\u2011" or c == "\u2012" or c == "\u2013"
            or c == "\u2014" or c == "\u2212")


@cython.cfunc
@cython.exceptval(check=False)
def result_before(text: str, s: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.bint:
    """A result token of ``adjudicator.collection._RESULT_AT_END`` ends at ``b``, after spacing or at ``s``
    (the line's first character that is not spacing)."""
    t: cython.Py_ssize_t = -1
    x: cython.Py_UCS4
    y: cython.Py_UCS4
    if b - s >= 1 and at(text, b - 1) == "*":
        t = b - 1
    elif b - s >= 7 and at(text, b - 7) == "1" and at(text, b - 6) == "/" and at(text, b - 5) == "2" and is_result_dash(
            at(text, b - 4)) and at(text, b - 3) == "1" and at(text, b - 2) == "/" and at(text, b - 1) == "2":
        t = b - 7
    if t < 0 and b - s >= 3 and is_result_dash(at(text, b - 2)):
        x = at(text, b - 3)
        y = at(text, b - 1)
        if ((x == "1" and (y == "0" or y == "1")) or (x == "0" and (y == "1" or y == "2")) or (x == "2" and y == "0")
                or (x == "\u00bd" and y == "\u00bd")):
            t = b - 3
    if t < 0:
        return False
    return t == s or is_space(at(text, t - 1))


@cython.cfunc
@cython.exceptval(check=False)
def ends_with_bracket(text: str, i: cython.Py_ssize_t, e: cython.Py_ssize_t) -> cython.bint:
    """Whether the line ``i..e`` stripped ends with ``]`` (``adjudicator.collection.record_spans``)."""
    b: cython.Py_ssize_t = e
    while b > i and is_space(at(text, b - 1)):
        b -= 1
    return b > i and at(text, b - 1) == "]"


@cython.cfunc
@cython.exceptval(check=False)
def ends_with_result(text: str, i: cython.Py_ssize_t, e: cython.Py_ssize_t) -> cython.bint:
    """``_RESULT_AT_END`` searched in the line ``i..e`` stripped: ``(?:^|\\s)RESULT(?:\\[/pgn\\])?$``."""
    s: cython.Py_ssize_t = past_space(text, i, e)
    b: cython.Py_ssize_t = e
    while b > s and is_space(at(text, b - 1)):
        b -= 1
    if (b - s >= 6 and at(text, b - 6) == "[" and at(text, b - 5) == "/"
            and (at(text, b - 4) == "p" or at(text, b - 4) == "P")
            and (at(text, b - 3) == "g" or at(text, b - 3) == "G")
            and (at(text, b - 2) == "n" or at(text, b - 2) == "N")
            and at(text, b - 1) == "]"):
        b -= 6
    return result_before(text, s, b)


@cython.cfunc
@cython.exceptval(check=False)
def goes_on(text: str, i: cython.Py_ssize_t, e: cython.Py_ssize_t) -> cython.bint:
    """``collection._goes_on``: the line from ``i`` starts with a move number other than White's ``1.``."""
    k: cython.Py_ssize_t = i
    value: cython.int = 0
    dots: cython.int = 0
    while k < e and "0" <= at(text, k) <= "9":
        if value < 100000:
            value = value * 10 + (ord(at(text, k)) - 48)
        k += 1
    if k == i:
        return False
    while k < e and (at(text, k) == " " or at(text, k) == "\t"):
        k += 1
    while k < e and (at(text, k) == "." or at(text, k) == "…"):
        dots += 2 if at(text, k) == "…" else 1
        k += 1
    return dots > 0 and not (value == 1 and dots == 1)


def record_cuts(text: str, state: list[int], max_lines: cython.Py_ssize_t, max_chars: cython.Py_ssize_t) -> list[int]:
    """Where ``adjudicator.collection.record_spans`` starts a record in ``text`` (whole lines of a file, each
    ending with a newline but perhaps the file's last): offsets, ``len(text)`` where a record is cut after
    the last line. ``state`` carries its reading from one text to the next (all 0 at the file's start): the
    lines and characters of the record so far, whether it holds moves, whether its last line ended with a
    result, whether the line before was blank, whether the record holds any text."""
    hold(text)
    n: cython.Py_ssize_t = len(text)
    i: cython.Py_ssize_t = 0
    e: cython.Py_ssize_t
    lines: cython.Py_ssize_t = state[0]
    chars: cython.Py_ssize_t = state[1]
    has_moves: cython.bint = state[2] != 0
    ended: cython.bint = state[3] != 0
    last_blank: cython.bint = state[4] != 0
    has_text: cython.bint = state[5] != 0
    blank: cython.bint
    cuts: list[int] = []
    while i < n:
        e = line_end(text, i, n)
        blank = False
        if is_tag_line(text, i, e):
            if has_moves:
                cuts.append(i)
                lines, chars, has_moves, has_text = 0, 0, False, False
            ended = False
        elif past_space(text, i, e) < e:
            if ended and last_blank and not goes_on(text, past_space(text, i, e), e):
                cuts.append(i)
                lines, chars, has_text = 0, 0, False
            has_moves = not ends_with_bracket(text, i, e)  # the next game's header began on this line: no cut
            ended = ends_with_result(text, i, e)
        else:
            blank = True
        if not blank:
            has_text = True
        last_blank = blank
        lines += 1
        chars += e - i
        if lines >= max_lines or chars >= max_chars:
            cuts.append(e)
            lines, chars, has_moves, ended, has_text = 0, 0, False, False, False
        i = e
    state[0], state[1], state[2], state[3], state[4], state[5] = lines, chars, has_moves, ended, last_blank, has_text
    return cuts


# -- reading -------------------------------------------------------------------------------------


@cython.cfunc
@cython.exceptval(check=False)
def read_word(text: str, a: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.int:
    """The legal move the SAN word ``a..b`` names in the language set, else -1 (see the module docstring)."""
    c: cython.Py_UCS4
    while b > a and at(text, b - 1) in "+#!?":
        b -= 1
    if b <= a:
        return -1
    length: cython.Py_ssize_t = b - a
    c = at(text, a)
    if c == "O" or c == "0":
        if length == 3 and at(text, a + 1) == "-" and at(text, a + 2) == c:
            return castling(True)
        if (length == 5 and at(text, a + 1) == "-" and at(text, a + 2) == c and at(text, a + 3) == "-"
                and at(text, a + 4) == c):
            return castling(False)
        if c == "0":
            return -1
    piece: cython.int = 1
    if "A" <= c <= "Z":
        piece = LETTER[ord(c)]
        if piece < 2:
            return -1
        a += 1
    elif not "a" <= c <= "h":
        return -1
    promo: cython.int = 0
    if b - a >= 4 and at(text, b - 2) == "=":
        c = at(text, b - 1)
        if not "A" <= c <= "Z":
            return -1
        promo = LETTER[ord(c)]
        if promo < 2 or promo > 5:
            return -1
        b -= 2
    if b - a < 2:
        return -1
    c = at(text, b - 2)
    if not "a" <= c <= "h":
        return -1
    c2: cython.Py_UCS4 = at(text, b - 1)
    if not "1" <= c2 <= "8":
        return -1
    to: cython.int = (ord(c2) - 49) * 8 + (ord(c) - 97)
    b -= 2
    capture: cython.bint = False
    if b > a and at(text, b - 1) == "x":
        capture = True
        b -= 1
    ff: cython.int = -1
    fr: cython.int = -1
    if b - a > 2:
        return -1
    if b - a == 2:
        c = at(text, a)
        c2 = at(text, a + 1)
        if not ("a" <= c <= "h" and "1" <= c2 <= "8"):
            return -1
        ff = ord(c) - 97
        fr = ord(c2) - 49
    elif b - a == 1:
        c = at(text, a)
        if "a" <= c <= "h":
            ff = ord(c) - 97
        elif "1" <= c <= "8":
            fr = ord(c) - 49
        else:
            return -1
    last: cython.int = 7 if TURN else 0
    if piece == 1:
        if fr >= 0 or capture != (ff >= 0) or (promo != 0) != ((to >> 3) == last):
            return -1
    elif promo:
        return -1
    return resolve(piece, ff, fr, to, promo, capture)


def last_moves(plies: int) -> list[tuple[int, int, int]]:
    """The first ``plies`` moves of the last game :func:`scan` read (all of them read), each as (from square,
    to square, promotion piece type or 0) in python-chess's numbering (a1 = 0; a castling king's own
    squares: ``e1g1``)."""
    found: list[tuple[int, int, int]] = []
    p: cython.int
    m: cython.int
    for p in range(plies):
        m = MOVES[p]
        found.append((m & 63, (m >> 6) & 63, (m >> 12) & 7))
    return found


def set_language(letters: list[int], lower: list[int]) -> None:
    """The piece letters read (ASCII code -> piece type, 1 for a pawn letter) and the file letters that
    are also lower-case piece letters (ASCII code -> 1), 128 entries each."""
    i: cython.int
    for i in range(128):
        LETTER[i] = letters[i]
        LOWER[i] = lower[i]


def set_start(bitboards: list[int], turn: int, ep: int, castling_rights: int, half: int, full: int) -> None:
    """The start position of the next games read with ``given_start``: the 8 bitboards (black, white,
    pawns, knights, bishops, rooks, queens, kings), the side to move (1 white), the square of a legal
    e.p. capture or -1, castling rights (1 white king side, 2 white queen side, 4 black king side, 8 black
    queen side), the move counters."""
    global START_TURN, START_EP, START_CASTLE, START_HALF, START_FULL
    i: cython.int
    for i in range(8):
        START_BB[i] = bitboards[i]
    START_TURN, START_EP, START_CASTLE, START_HALF, START_FULL = turn, ep, castling_rights, half, full


@cython.cfunc
@cython.exceptval(check=False)
def reset(given_start: cython.bint) -> cython.void:
    global TURN, EP, CASTLE, HALF, FULLMOVE, KEYP
    i: cython.int
    sq: cython.int
    kind: cython.int
    colour: cython.int
    bb: cython.ulonglong
    if given_start:
        for i in range(8):
            BB[i] = START_BB[i]
        TURN, EP, CASTLE, HALF, FULLMOVE = START_TURN, START_EP, START_CASTLE, START_HALF, START_FULL
    else:
        BB[0], BB[1], BB[2] = 0xFFFF000000000000, 0xFFFF, 0x00FF00000000FF00
        BB[3], BB[4], BB[5] = 0x4200000000000042, 0x2400000000000024, 0x8100000000000081
        BB[6], BB[7] = 0x0800000000000008, 0x1000000000000010
        TURN, EP, CASTLE, HALF, FULLMOVE = 1, -1, 15, 0, 1
    KEYP = 0
    for colour in range(2):
        for kind in range(1, 7):
            bb = BB[colour] & BB[1 + kind]
            while bb:
                sq = lsb(bb)
                bb &= bb - ONE
                KEYP ^= ZOB[(colour * 6 + kind - 1) * 64 + sq]
    CLK[0] = -1
    CLK[1] = -1


@cython.cfunc
@cython.exceptval(check=False)
def after_blank_line(text: str, offset: cython.Py_ssize_t) -> cython.bint:
    """``movetext._after_blank_line``: the spacing before ``offset`` holds a blank line."""
    return blank_lines(text, offset) >= 1


@cython.cfunc
@cython.exceptval(check=False)
def is_iccf(text: str, a: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.bint:
    """``movetext._ICCF_MOVE``: four digits 1-8 and an optional fifth 1-4 (a word of digits)."""
    k: cython.Py_ssize_t
    c: cython.Py_UCS4
    for k in range(a, b):
        c = at(text, k)
        if c == "0" or c == "9" or (k == a + 4 and c > "4"):
            return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
def blank_lines(text: str, offset: cython.Py_ssize_t) -> cython.int:
    """How many blank lines the spacing before ``offset`` holds (``movetext._after_blank_line``'s count)."""
    lines: cython.int = 0
    k: cython.Py_ssize_t = offset
    c: cython.Py_UCS4
    while k > 0:
        c = at(text, k - 1)
        if c == "\n":
            lines += 1
        elif not (c == " " or c == "\t" or c == "\r" or c == "\x0c" or c == "\x0b"):
            break
        k -= 1
    return lines - 1 if lines else 0


@cython.cfunc
@cython.exceptval(check=False)
def number_slot(text: str, i: cython.Py_ssize_t, j: cython.Py_ssize_t) -> cython.int:
    """The place a move number ``text[i:j]`` names (``adjudicator.chess.numbering.Slot.index``: 2 (n - 1) for
    the first mover's ``n.``, one more for ``n...``), -1 for a number too large to weigh."""
    value: cython.int = 0
    k: cython.Py_ssize_t = i
    while "0" <= at(text, k) <= "9":
        if value > 100000:
            return -1
        value = value * 10 + (ord(at(text, k)) - 48)
        k += 1
    if value < 1:
        return -1
    return 2 * (value - 1) + (1 if j - 2 >= i and at(text, j - 2) == "." else 0)


@cython.cfunc
@cython.exceptval(check=False)
def is_move_word(text: str, a: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.bint:
    """``movetext.word_kind(word) == "move"`` for an ASCII word (digits and dots are move numbers,
    ``N``, ``TN``, ``ep``... and glyphs are annotations; ``--`` and ``0000`` are null moves)."""
    k: cython.Py_ssize_t
    c: cython.Py_UCS4
    length: cython.Py_ssize_t = b - a
    digits: cython.bint = True
    dots: cython.bint = True
    glyphs: cython.bint = True
    word: str
    for k in range(a, b):
        c = at(text, k)
        digits = digits and "0" <= c <= "9"
        dots = dots and c == "."
        glyphs = glyphs and c in "!?+#=-/"
    if length == 2 and at(text, a) == "-" and at(text, a + 1) == "-":
        return True
    if length == 4 and digits and starts(text, a, b, "0000"):
        return True
    if digits and (length == 4 or length == 5) and is_iccf(text, a, b):
        return True  # ICCF numeric notation (5254): a move, read by the lenient reader
    if digits or dots or glyphs:
        return False
    c = at(text, a)
    if length > 4 or not (c == "N" or c == "T" or c == "Z" or c == "e"):
        return True
    word = text[a:b]
    return word not in ("N", "TN", "Z0?", "ep", "e.p.", "e.p")


def scan(text: str, pos: int, given_start: bool = False) -> tuple:  # type: ignore[type-arg]
    """Read the game that starts at ``pos`` (see the module docstring).

    Returns ``(0, len(text))`` when only spacing is left, ``(1, pos)`` when the game is not
    clean, else ``(2, end, first, tags, result, reading, fail, plies, final_fen, counter,
    repetitions, firsts, leads, promotions, lower_risk, needs_start, facts)``: ``end`` where the
    next game starts (or the text ends), ``first`` the offset of its first tag, ``tags`` the
    (name, value) pairs, ``result`` the result token as the splitter gives it (or None),
    ``reading`` whether every move word was read (else ``fail``: the first character of the
    first word that was not), ``firsts`` the upper-case first letters of the move words (a bit
    mask, A = 1), ``leads`` (letter, ply, word) for each piece letter a move word starts with,
    the first time it does, ``promotions`` the promotion letters (a mask), ``lower_risk`` a
    move word that starts with a file letter that is also a lower-case piece letter of the
    language, ``needs_start`` a FEN or Variant tag (not read: the caller sets the start and
    reads again with ``given_start``). ``facts``: (checkmate at the end, stalemate at the
    end, most occurrences of a position, highest move-rule counter not at a final checkmate or
    stalemate, the final position is insufficient material for both (python-chess), it is plainly
    open for a side whose material can mate with two legal moves or more to move, White's last
    clock, Black's last clock).
    """
    hold(text)
    n: cython.Py_ssize_t = len(text)
    i: cython.Py_ssize_t = pos
    j: cython.Py_ssize_t
    k: cython.Py_ssize_t
    c: cython.Py_UCS4
    if i < n and (i == 0 or at(text, i - 1) == "\n") and at(text, i) == "%":
        return (1, pos)
    i = skip_space(text, i, n)
    if i < 0:
        return (1, pos)
    if i >= n:
        return (0, n)
    if at(text, i) != "[":
        return (1, pos)
    first: cython.Py_ssize_t = i
    tags: list[tuple[str, str]] = []
    result: object = None
    moves: cython.int = 0
    reading: cython.bint = True
    needs_start: cython.bint = False
    fail: str = ""
    firsts: cython.int = 0
    promos: cython.int = 0
    lower_risk: cython.bint = False
    leads: list[tuple[str, int, str]] = []
    seen: cython.int = 0
    m: cython.int
    state: cython.int
    mover: cython.int = 1
    end: cython.Py_ssize_t = n
    slot: cython.int
    base: cython.int = -1 if given_start else 0  # the numbers' place of the first move (-1: not known yet)
    reset(given_start)
    record(0)
    while True:
        i = skip_space(text, i, n)
        if i < 0:
            return (1, pos)
        if i >= n:
            break
        c = at(text, i)
        if c == "[":
            if moves or result is not None:
                if at(text, i - 1) == "\n" and tag_end(text, i, n) > 0:
                    end = i
                    break
                return (1, pos)
            if tags and blank_lines(text, i) >= 2:  # a game of tags alone ends here: the lenient splitter notes it
                return (1, pos)
            j = tag_end(text, i, n)
            if j < 0:
                return (1, pos)
            k = i + 1
            while at(text, k) == " " or at(text, k) == "\t":
                k += 1
            m = text.index('"', k)
            name: str = text[k:m].rstrip(" \t")
            value: str = text[m + 1:text.rindex('"', m + 1, j)]
            tags.append((name, value))
            if not given_start and (name == "FEN" or name == "Variant"):
                needs_start = True
                reading = False
            i = j
            continue
        if result is not None:
            return (1, pos)
        if c == "{":
            j = comment_end(text, i, n)
            if j < 0:
                return (1, pos)
            state = clock_state(text, i + 1, j)
            if state == -3:
                return (1, pos)
            if state != -2 and moves:
                CLK[mover] = state
            i = j + 1
            continue
        if c == ";":
            while i < n and at(text, i) != "\n":
                i += 1
            continue
        if c == "(":
            if not moves or (i + 2 < n and at(text, i + 1) == "=" and at(text, i + 2) == ")"):  # (=): a draw offer
                return (1, pos)
            i = variation_end(text, i, n)
            if i < 0:
                return (1, pos)
            continue
        if c == ")" or c == "]" or c == "}" or not is_printable(c):
            return (1, pos)
        if c == "$":
            i += 1
            while i < n and "0" <= at(text, i) <= "9":
                i += 1
            continue
        if c == "1" or c == "0" or c == "*":
            j = result_end(text, i, n)
            if j:
                result = ("1-0", "0-1", "1/2-1/2", "*")[RESULT_CODE - 1]
                i = j
                continue
        if "0" <= c <= "9":
            j = number_end(text, i, n)
            if j:
                if moves and c == "1" and at(text, j - 1) == "." and j - 1 > i and at(text, j - 2) != "." and (
                    j - 2 == i or at(text, j - 2) == " " or at(text, j - 2) == "\t"
                ):
                    k = i + 1
                    while at(text, k) == " " or at(text, k) == "\t":
                        k += 1
                    if k == j - 1 and after_blank_line(text, i):
                        return (1, pos)
                slot = number_slot(text, i, j)
                if reading and slot >= 0:  # a number the order of the moves does not give: the lenient reader's
                    if base < 0:  # a set-up position: the first number's side must be the side to move's
                        if (slot % 2 == 0) == ((START_TURN == 1) == (moves % 2 == 0)):
                            base = slot - moves
                        else:
                            slot = -2
                    if slot != base + moves:
                        reading = False
                        fail = at(text, i)
                i = j
                continue
        j = word_end(text, i, n)
        if j < 0:
            return (1, pos)
        if not is_move_word(text, i, j):
            i = j
            continue
        moves += 1
        if "A" <= c <= "Z":
            firsts |= 1 << (ord(c) - 65)
            if not (c == "O" and j - i >= 3 and at(text, i + 1) == "-") and not seen & (1 << (ord(c) - 65)):
                seen |= 1 << (ord(c) - 65)
                leads.append((at(text, i), moves, text[i:j]))
        elif LOWER[ord(c) & 127] and j - i > 1 and not "0" <= at(text, i + 1) <= "9":
            lower_risk = True
        k = j
        while k > i and at(text, k - 1) in "+#!?":
            k -= 1
        if k - i >= 4 and at(text, k - 2) == "=" and "A" <= at(text, k - 1) <= "Z" and "1" <= at(text, k - 3) <= "8":
            promos |= 1 << (ord(at(text, k - 1)) - 65)
        if reading:
            m = read_word(text, i, j) if moves <= MAXP else -1
            if m < 0:
                reading = False
                fail = at(text, i)
            else:
                mover = TURN
                make(m)
                CLK[mover] = -1
                record(moves)
                MOVES[moves - 1] = m
        i = j
    if not reading:
        return (2, end, first, tags, result, False, fail, moves, None, 0, None, firsts, leads, promos, lower_risk,
                needs_start, None)
    plies: cython.int = moves
    most: cython.int = group_positions(plies)
    repetitions: list[tuple[str, list[int]]] = []
    p: cython.int
    if most > 1:
        for p in range(plies + 1):
            if GROUP[p] == p and COUNT[p] > 1:
                repetitions.append((fen_at(p), [q for q in range(p, plies + 1) if GROUP[q] == p]))
    check: cython.bint = in_check()
    count: cython.int = legal_count(2)
    terminal: cython.bint = count == 0
    highest: cython.int = 0
    for p in range(1, plies + 1):
        if H_HALF[p] > highest and not (p == plies and terminal):
            highest = H_HALF[p]
    dead_material: cython.bint = insufficient(0) and insufficient(1)
    open_: cython.bint = count >= 2 and (
        (not material_dead(1) and plainly_open(1)) or (not material_dead(0) and plainly_open(0))
    )
    facts = (terminal and check, terminal and not check, most, highest, dead_material, open_, CLK[1], CLK[0])
    return (2, end, first, tags, result, True, "", plies, fen_at(plies), H_HALF[plies], repetitions, firsts, leads,
            promos, lower_risk, needs_start, facts)
