"""Material rules for FIDE 6.9: when can the material alone never allow a mate?

Unlike the symmetric insufficient-material test (python-chess, Lichess), the
rule here is asymmetric: it asks whether *one* side (the intended winner W) can
ever mate, and counts the loser's promotion resources. A lone knight or
same-coloured bishops can only mate with help from a loser's piece that blocks
the king's flight square; when the loser has no such blocker and no pawn that
could promote into one, W can never mate.
"""

from __future__ import annotations

import chess

from .bitboards import DARK, LIGHT


def needs_loser_promotion(board: chess.Board, winner: chess.Color) -> bool:
    """W's material can mate only if the loser first promotes a pawn into a blocker.

    True when W has king and one knight and the loser has no knight, bishop or
    rook; or when W has king and bishops of one square colour only, no bishop of
    the other colour stands on the board, and the loser has no knight. (A
    ``True`` may overstate the need when the loser still has pawns; callers that
    prove unwinnability check that the loser has none.)
    """
    occupied_w = board.occupied_co[winner]
    occupied_l = board.occupied_co[not winner]
    count_w = occupied_w.bit_count()
    knights = board.knights
    bishops = board.bishops
    if count_w == 2 and (knights & occupied_w) and not (occupied_l & (knights | bishops | board.rooks)):
        return True
    w_bishops = bishops & occupied_w
    if not w_bishops or count_w != w_bishops.bit_count() + 1:
        return False
    colour = DARK if w_bishops & DARK else LIGHT
    if w_bishops & ~colour:
        return False
    return not (bishops & ~colour) and not (knights & occupied_l)


def material_dead(
    occupied_w: int, occupied_l: int, pawns: int, knights: int, bishops: int, rooks: int
) -> bool:
    """:func:`is_material_unwinnable` on bitboards: W's and the loser's pieces, and the piece sets."""
    count_w = occupied_w.bit_count()
    if count_w == 1:
        return True
    if pawns & occupied_l:
        return False
    if count_w == 2 and knights & occupied_w and not occupied_l & (knights | bishops | rooks):
        return True
    w_bishops = bishops & occupied_w
    if not w_bishops or count_w != w_bishops.bit_count() + 1:
        return False
    colour = DARK if w_bishops & DARK else LIGHT
    return not bishops & ~colour and not knights & occupied_l


def is_material_unwinnable(board: chess.Board, winner: chess.Color) -> bool:
    """W can never mate by material alone (sound; FIDE 6.9, 5.2.2).

    W has a bare king; or W's mate would need a loser promotion (see
    :func:`needs_loser_promotion`) and the loser has no pawns left.
    """
    occupied_w = board.occupied_co[winner]
    if occupied_w.bit_count() == 1:
        return True
    if board.pawns & board.occupied_co[not winner]:
        return False
    return needs_loser_promotion(board, winner)
