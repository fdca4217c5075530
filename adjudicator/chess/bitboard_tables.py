"""Bitboard tables for the compiled boards: the helpmate kernel (``engines.chess.unwinnable.kernel``) and the
record reader (:mod:`adjudicator.chess.bulk.scan`), built once at import as plain Python lists.

Attack sets of the leaping pieces and pawns, the rays of the sliding pieces, the squares
between two squares and the whole line through them, knight distances, the castling
rights a move keeps, the de Bruijn bit index, and fixed Zobrist keys. Bitboards follow
python-chess (bit ``s`` is square ``s``, a1 = 0). Each compiled module copies them into C arrays
when they are compiled.
"""

from __future__ import annotations


def _splitmix(count: int) -> list[int]:
    """Fixed pseudo-random 64-bit numbers (Zobrist keys), the same on every run."""
    out = []
    state = 0x9E3779B97F4A7C15
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        out.append(z ^ (z >> 31))
    return out


def _leaper(steps: tuple[tuple[int, int], ...]) -> list[int]:
    table = []
    for sq in range(64):
        bb = 0
        for df, dr in steps:
            f, r = (sq & 7) + df, (sq >> 3) + dr
            if 0 <= f < 8 and 0 <= r < 8:
                bb |= 1 << (r * 8 + f)
        table.append(bb)
    return table


_DIRS = ((0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (1, -1), (-1, -1))
"""N, E, NE, NW (square numbers grow: first blocker is the lowest bit), then S, W, SE, SW."""
_OPPOSITE = (4, 5, 7, 6, 0, 1, 3, 2)


def _rays() -> list[int]:
    table = []
    for df, dr in _DIRS:
        for sq in range(64):
            bb = 0
            f, r = (sq & 7) + df, (sq >> 3) + dr
            while 0 <= f < 8 and 0 <= r < 8:
                bb |= 1 << (r * 8 + f)
                f, r = f + df, r + dr
            table.append(bb)
    return table


def _between_and_lines(rays: list[int]) -> tuple[list[int], list[int]]:
    between = [0] * 4096
    lines = [0] * 4096
    for d in range(8):
        back = _OPPOSITE[d]
        for a in range(64):
            ray = rays[d * 64 + a]
            bb = ray
            while bb:
                b = (bb & -bb).bit_length() - 1
                bb &= bb - 1
                between[a * 64 + b] = ray & ~rays[d * 64 + b] & ~(1 << b)
                lines[a * 64 + b] = ray | rays[back * 64 + a] | (1 << a)
    return between, lines


def _knight_distance() -> list[int]:
    moves = _leaper(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
    table = [0] * 4096
    for a in range(64):
        seen = 1 << a
        frontier = seen
        dist = 0
        while frontier:
            dist += 1
            spread = 0
            bb = frontier
            while bb:
                s = (bb & -bb).bit_length() - 1
                bb &= bb - 1
                spread |= moves[s]
            frontier = spread & ~seen
            seen |= frontier
            bb = frontier
            while bb:
                s = (bb & -bb).bit_length() - 1
                bb &= bb - 1
                table[a * 64 + s] = dist
    return table


def _castle_masks() -> list[int]:
    masks = [15] * 64
    masks[4], masks[7], masks[0] = 15 & ~3, 15 & ~1, 15 & ~2
    masks[60], masks[63], masks[56] = 15 & ~12, 15 & ~4, 15 & ~8
    return masks


def _bit_index() -> list[int]:
    table = [0] * 64
    for i in range(64):
        table[(((1 << i) * 0x03F79D71B4CB0A89) & 0xFFFFFFFFFFFFFFFF) >> 58] = i
    return table


KNIGHT_ATT = _leaper(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
KING_ATT = _leaper(((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))
PAWN_ATT = _leaper(((-1, -1), (1, -1))) + _leaper(((-1, 1), (1, 1)))
"""Index colour * 64 + square: the squares a pawn of that colour on that square attacks."""
RAY = _rays()
BETWEEN, LINE = _between_and_lines(RAY)
KNIGHT_DIST = _knight_distance()
CASTLE_MASK = _castle_masks()
BIT_INDEX = _bit_index()
ZOB = _splitmix(768 + 1 + 8 + 16)
"""(colour * 6 + type - 1) * 64 + square; then the side to move, the en-passant files, castling rights."""
