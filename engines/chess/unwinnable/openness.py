"""A quick test that the blockade analysis cannot prove a position unwinnable (FIDE 6.9, 5.2.2).

Most positions of real games are open: a queen, rook or knight of W can step at once
into the part of the board the loser's king can walk to. The blockade analysis
(:mod:`.blockade`) would then find that piece among the visitors of the king's region
and prove nothing; this test sees it with a few bitboard operations, so the analysis
is skipped. It follows the analysis's own rules, on subsets of its sets:

* W's piece can step onto an empty square next to it (its reachability set holds it);
* the loser's king can walk over squares that hold no loser piece and that no W piece
  attacks which might never move: all W pawns and W's king count as such, and a W
  piece with no empty square to step to (its reachability set holds those squares).

A square found so lies in the analysis's sets too, so when this test says "open" the
analysis says "not proven" (tested on real and composed positions).
"""

from __future__ import annotations

import chess

from .bitboards import (
    ALL,
    diagonal_spread,
    king_spread,
    knight_spread,
    orthogonal_spread,
    pawn_attack_spread,
    queen_spread,
)


def is_plainly_open(board: chess.Board, winner: chess.Color) -> bool:
    """A queen, rook or knight of ``winner`` can step into the loser king's walk at once."""
    w_occ = board.occupied_co[winner]
    l_occ = board.occupied_co[not winner]
    movers = w_occ & (board.queens | board.rooks | board.knights)
    loser_king = board.kings & l_occ
    winner_king = board.kings & w_occ
    if not movers or not loser_king or not winner_king:
        return False
    empty = ALL & ~board.occupied
    barred = pawn_attack_spread(board.pawns & w_occ, winner) | king_spread(winner_king)
    steps = 0
    for square in chess.scan_forward(w_occ & ~board.pawns & ~board.kings):
        bb = 1 << square
        if bb & board.knights:
            one = knight_spread(bb) & empty
        elif bb & board.bishops:
            one = diagonal_spread(bb) & empty
        elif bb & board.rooks:
            one = orthogonal_spread(bb) & empty
        else:
            one = queen_spread(bb) & empty
        if not one:
            barred |= int(board.attacks_mask(square))
        elif not bb & board.bishops:
            steps |= one
    if not steps:
        return False
    walk = ALL & ~l_occ & ~barred
    region = loser_king
    while True:
        if region & steps:
            return True
        grown = region | (king_spread(region) & walk)
        if grown == region:
            return False
        region = grown
