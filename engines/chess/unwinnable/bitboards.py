"""Bitboard helpers for the unwinnability analysis: one-step spreads and distances.

A bitboard is a Python ``int`` with bit ``s`` set for square ``s`` (python-chess
numbering, a1 = 0). A *spread* maps a set of squares to every square one step
(of a given piece's movement) away from any of them.
"""

from __future__ import annotations

import chess

Bitboard = int

ALL: Bitboard = chess.BB_ALL
DARK: Bitboard = chess.BB_DARK_SQUARES
LIGHT: Bitboard = chess.BB_LIGHT_SQUARES
_NOT_A = ALL & ~chess.BB_FILE_A
_NOT_H = ALL & ~chess.BB_FILE_H
_NOT_AB = ALL & ~(chess.BB_FILE_A | chess.BB_FILE_B)
_NOT_GH = ALL & ~(chess.BB_FILE_G | chess.BB_FILE_H)


def orthogonal_spread(bb: Bitboard) -> Bitboard:
    return (((bb << 1) & _NOT_A) | ((bb >> 1) & _NOT_H) | (bb << 8) | (bb >> 8)) & ALL


def diagonal_spread(bb: Bitboard) -> Bitboard:
    east = (bb << 1) & _NOT_A
    west = (bb >> 1) & _NOT_H
    sides = east | west
    return ((sides << 8) | (sides >> 8)) & ALL


def king_spread(bb: Bitboard) -> Bitboard:
    """Squares within one king step of ``bb`` (``bb`` itself included)."""
    row = bb | ((bb << 1) & _NOT_A) | ((bb >> 1) & _NOT_H)
    return (row | (row << 8) | (row >> 8)) & ALL


def queen_spread(bb: Bitboard) -> Bitboard:
    return orthogonal_spread(bb) | diagonal_spread(bb)


def knight_spread(bb: Bitboard) -> Bitboard:
    one = ((bb << 1) & _NOT_A) | ((bb >> 1) & _NOT_H)
    two = ((bb << 2) & _NOT_AB) | ((bb >> 2) & _NOT_GH)
    return ((one << 16) | (one >> 16) | (two << 8) | (two >> 8)) & ALL


def pawn_push_spread(bb: Bitboard, color: chess.Color) -> Bitboard:
    return (bb << 8) & ALL if color else bb >> 8


def pawn_attack_spread(bb: Bitboard, color: chess.Color) -> Bitboard:
    sides = ((bb << 1) & _NOT_A) | ((bb >> 1) & _NOT_H)
    return (sides << 8) & ALL if color else sides >> 8


def neighbours(square: chess.Square) -> Bitboard:
    return chess.BB_KING_ATTACKS[square]


def ring2(square: chess.Square) -> Bitboard:
    """Squares at king distance exactly two from ``square``."""
    return _RING2[square]


def king_distance(a: chess.Square, b: chess.Square) -> int:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def _knight_distances() -> list[list[int]]:
    table = [[0] * 64 for _ in range(64)]
    for start in chess.SQUARES:
        seen = chess.BB_SQUARES[start]
        frontier = seen
        dist = 0
        row = table[start]
        while frontier:
            dist += 1
            frontier = knight_spread(frontier) & ~seen
            seen |= frontier
            for sq in chess.scan_forward(frontier):
                row[sq] = dist
    return table


KNIGHT_DISTANCE: list[list[int]] = _knight_distances()
"""``KNIGHT_DISTANCE[a][b]``: knight moves needed from a to b on an empty board."""

KING_DISTANCE: list[list[int]] = [
    [max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) for b in chess.SQUARES] for a in chess.SQUARES
]  # king_distance(a, b), written out: the table is built at every start-up

_RING2: list[Bitboard] = [sum(1 << t for t, d in enumerate(KING_DISTANCE[s]) if d == 2) for s in chess.SQUARES]


def popcount(bb: Bitboard) -> int:
    return bb.bit_count()
