"""Pawn checks the loser's king can always answer by capturing the pawn (FIDE 6.9, 5.2.2).

Part of the blockade analysis (:mod:`.blockade`). A pawn attacks only the two squares
diagonally in front of it, so a pawn that gives check stands next to the king. The king
may then take it, which is legal unless another piece of the pawn's side attacks the
pawn's square. So a pawn can deliver mate from a square only if some *other* piece of its
side can attack that square; a pawn that can never promote and whose every checking
square is out of reach of all its side's other pieces never mates.

Attacks are over-approximated from the reachability sets: a king, knight or pawn attacks
from any square it can reach; a bishop, rook or queen along its lines from any square it
can reach, each line stopping only at a square that is never empty (its piece can never
move nor be taken). When the only pieces of W that can ever come at the
loser's king are such pawns, the last move of a mate would have to be one of their
checks (a discovered or double check needs a checker of another kind, which would itself
come at the king): W can never mate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import chess

from .bitboards import ALL, Bitboard, king_spread, knight_spread, pawn_attack_spread


class _Reaching(Protocol):
    square: chess.Square
    kind: chess.PieceType
    color: chess.Color
    reach: Bitboard


def ever_attacked(piece: _Reaching, fixed: Bitboard = 0) -> Bitboard:
    """Every square ``piece`` might ever attack (an over-approximation).

    ``fixed``: squares that are never empty (their pieces never move and are never taken);
    a line stops there.
    """
    reach = piece.reach
    if reach == ALL:
        return ALL
    kind = piece.kind
    if kind == chess.PAWN:
        return pawn_attack_spread(reach, piece.color)
    if kind == chess.KNIGHT:
        return knight_spread(reach)
    if kind == chess.KING:
        return king_spread(reach)
    attacked = 0
    for sq in chess.scan_forward(reach):
        if kind != chess.ROOK:
            attacked |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & fixed]
        if kind != chess.BISHOP:
            attacked |= (chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & fixed]
                         | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & fixed])
    return attacked


def checking_squares(pawn: _Reaching, region: Bitboard) -> Bitboard:
    """The squares ``pawn`` can reach from which it attacks a square of ``region``."""
    found = 0
    for sq in chess.scan_forward(pawn.reach):
        if pawn_attack_spread(chess.BB_SQUARES[sq], pawn.color) & region:
            found |= chess.BB_SQUARES[sq]
    return found


def pawns_never_mate(
    visitors: Sequence[_Reaching], side: Sequence[_Reaching], region: Bitboard, fixed: Bitboard = 0
) -> bool:
    """All ``visitors`` are pawns that can never promote and never check from a defensible square.

    ``side``: every piece of the visitors' colour (king included); ``region``: the squares
    the enemy king can ever stand on; ``fixed``: squares that are never empty.
    """
    for pawn in visitors:
        if pawn.kind != chess.PAWN or pawn.reach == ALL:
            return False
        defended = 0
        for other in side:
            if other is not pawn:
                defended |= ever_attacked(other, fixed)
        if checking_squares(pawn, region) & defended:
            return False
    return True
