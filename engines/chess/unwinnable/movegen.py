"""Legal move generation for the helpmate search, faster than the general one.

python-chess generates legal moves for every position and rule of the game;
the search spends most of its time there. This generator covers the common
case of the endgames the analysis meets (side to move not in check, no
castling right, no en-passant square) with precomputed pin lines and one enemy
attack map, and hands every other position to python-chess. It yields the same
moves in the same order as ``chess.Board.generate_legal_moves`` (checked by the
tests), so the search is unchanged, only quicker.
"""

from __future__ import annotations

import chess

from .bitboards import knight_spread, pawn_attack_spread

_Move = chess.Move
_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_KING = chess.BB_KING_ATTACKS
_DIAG_ATTACKS = chess.BB_DIAG_ATTACKS
_DIAG_MASKS = chess.BB_DIAG_MASKS
_RANK_ATTACKS = chess.BB_RANK_ATTACKS
_RANK_MASKS = chess.BB_RANK_MASKS
_FILE_ATTACKS = chess.BB_FILE_ATTACKS
_FILE_MASKS = chess.BB_FILE_MASKS
_RAYS = chess.BB_RAYS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS


def _squares_desc(bb: int) -> list[int]:
    out = []
    while bb:
        sq = bb.bit_length() - 1
        out.append(sq)
        bb ^= 1 << sq
    return out


def legal_moves(board: chess.Board) -> list[chess.Move]:
    """The legal moves of ``board``, in python-chess's order."""
    if board.castling_rights or board.ep_square is not None:
        return list(board.generate_legal_moves())
    turn = board.turn
    us = board.occupied_co[turn]
    them = board.occupied_co[not turn]
    occupied = board.occupied
    pawns = board.pawns
    knights = board.knights
    bishops = board.bishops
    rooks = board.rooks
    queens = board.queens
    king_bb = board.kings & us
    if not king_bb:
        return list(board.generate_legal_moves())
    king = king_bb.bit_length() - 1
    diagonal = (bishops | queens) & them
    straight = (rooks | queens) & them
    # enemy attacks (our king on its square: it is not in check, so no slider looks through it)
    attacked = pawn_attack_spread(pawns & them, not turn) | knight_spread(knights & them)
    attacked |= _KING[(board.kings & them).bit_length() - 1]
    for sq in _squares_desc(diagonal):
        attacked |= _DIAG_ATTACKS[sq][_DIAG_MASKS[sq] & occupied]
    for sq in _squares_desc(straight):
        attacked |= _RANK_ATTACKS[sq][_RANK_MASKS[sq] & occupied] | _FILE_ATTACKS[sq][_FILE_MASKS[sq] & occupied]
    if attacked & king_bb:
        return list(board.generate_legal_moves())  # check evasions: the general generator
    # pinned pieces: exactly one piece between the king and an enemy slider on its line
    snipers = (
        (_RANK_ATTACKS[king][0] | _FILE_ATTACKS[king][0]) & straight | _DIAG_ATTACKS[king][0] & diagonal
    )
    pinned = 0
    for sniper in _squares_desc(snipers):
        between = chess.between(king, sniper) & occupied
        if between and between & (between - 1) == 0:
            pinned |= between
    pinned &= us

    moves: list[chess.Move] = []
    append = moves.append
    not_us = ~us
    for frm in _squares_desc(us & ~pawns):
        bit = 1 << frm
        if frm == king:
            targets = _KING[frm] & not_us & ~attacked
        else:
            if bit & knights:
                targets = _KNIGHT[frm]
            else:
                targets = 0
                if bit & (bishops | queens):
                    targets = _DIAG_ATTACKS[frm][_DIAG_MASKS[frm] & occupied]
                if bit & (rooks | queens):
                    targets |= _RANK_ATTACKS[frm][_RANK_MASKS[frm] & occupied] | _FILE_ATTACKS[frm][
                        _FILE_MASKS[frm] & occupied
                    ]
            targets &= not_us
            if bit & pinned:
                targets &= _RAYS[king][frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= 1 << to
            append(_Move(frm, to))
    our_pawns = pawns & us
    if not our_pawns:
        return moves
    attacks = _PAWN_ATTACKS[turn]
    for frm in _squares_desc(our_pawns):
        targets = attacks[frm] & them
        if (1 << frm) & pinned:
            targets &= _RAYS[king][frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= 1 << to
            if (1 << to) & _BACK_RANKS:
                for promotion in _PROMOTIONS:
                    append(_Move(frm, to, promotion))
            else:
                append(_Move(frm, to))
    empty = ~occupied
    if turn:
        single = (our_pawns << 8) & empty & chess.BB_ALL
        double = (single << 8) & empty & chess.BB_RANK_4
        step = -8
    else:
        single = (our_pawns >> 8) & empty
        double = (single >> 8) & empty & chess.BB_RANK_5
        step = 8
    for to in _squares_desc(single):
        frm = to + step
        if (1 << frm) & pinned and not _RAYS[king][frm] & (1 << to):
            continue
        if (1 << to) & _BACK_RANKS:
            for promotion in _PROMOTIONS:
                append(_Move(frm, to, promotion))
        else:
            append(_Move(frm, to))
    for to in _squares_desc(double):
        frm = to + 2 * step
        if (1 << frm) & pinned and not _RAYS[king][frm] & (1 << to):
            continue
        append(_Move(frm, to))
    return moves
