"""Positions as plain values for the helpmate search: keys, keys of successors, snapshots.

A key is a tuple of the position's bitboards, side to move, en-passant square
and castling rights (the repetition-relevant parts). The key of the position
after a move is computed from the parent's key alone, and a snapshot puts a
board back into a position without replaying moves.
"""

from __future__ import annotations

import chess

Key = tuple[int, int, int, int, int, int, int, bool, int | None, int]


def position_key(board: chess.Board) -> Key:
    occ = board.occupied_co
    return (occ[0], occ[1], board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.turn,
            board.ep_square, board.castling_rights)


def child_key(key: Key, move: chess.Move, kind: int) -> Key:
    """The key of the position after ``move`` (by a ``kind`` piece), computed without a board."""
    black, white, pawns, knights, bishops, rooks, queens, turn, ep, castling = key
    frm = move.from_square
    to = move.to_square
    f = 1 << frm
    t = 1 << to
    own, enemy = (white, black) if turn else (black, white)
    new_ep = None
    if enemy & t:
        keep = ~t
        enemy &= keep
        pawns &= keep
        knights &= keep
        bishops &= keep
        rooks &= keep
        queens &= keep
    castling &= ~f & ~t
    if kind == chess.PAWN:
        pawns &= ~f
        diff = to - frm
        if diff == 16 or diff == -16:
            new_ep = (frm + to) >> 1
        elif to == ep and not (enemy & t) and (diff & 1):
            gone = ~(1 << (to - 8 if turn else to + 8))
            enemy &= gone
            pawns &= gone
        promotion = move.promotion
        if promotion is None:
            pawns |= t
        elif promotion == chess.QUEEN:
            queens |= t
        elif promotion == chess.KNIGHT:
            knights |= t
        elif promotion == chess.ROOK:
            rooks |= t
        else:
            bishops |= t
    elif kind == chess.KING:
        castling &= ~(chess.BB_RANK_1 if turn else chess.BB_RANK_8)
        if to - frm == 2 or frm - to == 2:  # castling: the rook jumps over the king
            rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
            rooks = (rooks & ~(1 << rook_from)) | (1 << rook_to)
            own = (own & ~(1 << rook_from)) | (1 << rook_to)
    elif kind == chess.KNIGHT:
        knights = (knights & ~f) | t
    elif kind == chess.BISHOP:
        bishops = (bishops & ~f) | t
    elif kind == chess.ROOK:
        rooks = (rooks & ~f) | t
    else:
        queens = (queens & ~f) | t
    own = (own & ~f) | t
    if turn:
        return (enemy, own, pawns, knights, bishops, rooks, queens, False, new_ep, castling)
    return (own, enemy, pawns, knights, bishops, rooks, queens, True, new_ep, castling)


def set_board(board: chess.Board, key: Key) -> None:
    """Puts ``board`` into the position ``key`` (its move stack is left alone; clocks are not part of a key).

    The search steps from a position to the next by the child's key instead of
    ``board.push``: the same board as the move would give (tested), a fraction of the cost.
    """
    black, white, pawns, knights, bishops, rooks, queens, turn, ep, castling = key
    occupied = white | black
    board.pawns = pawns
    board.knights = knights
    board.bishops = bishops
    board.rooks = rooks
    board.queens = queens
    board.kings = occupied & ~(pawns | knights | bishops | rooks | queens)
    board.occupied_co[chess.WHITE] = white
    board.occupied_co[chess.BLACK] = black
    board.occupied = occupied
    board.turn = turn
    board.ep_square = ep
    board.castling_rights = castling


def in_check(key: Key) -> bool:
    """Is the side to move in the position ``key`` in check?"""
    black, white, pawns, knights, bishops, rooks, queens, turn, _, _ = key
    own, enemy = (white, black) if turn else (black, white)
    king_bb = own & ~(pawns | knights | bishops | rooks | queens)
    king = king_bb.bit_length() - 1
    if chess.BB_KNIGHT_ATTACKS[king] & knights & enemy or chess.BB_PAWN_ATTACKS[turn][king] & pawns & enemy:
        return True
    occupied = white | black
    diagonal = (bishops | queens) & enemy
    if diagonal and chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & occupied] & diagonal:
        return True
    straight = (rooks | queens) & enemy
    return bool(
        straight
        and (
            chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & occupied]
            | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & occupied]
        )
        & straight
    )


class Snapshot:
    """A board's position, to jump back to it without replaying moves."""

    __slots__ = ("pawns", "knights", "bishops", "rooks", "queens", "kings", "white", "black", "occupied",
                 "promoted", "turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number")

    def __init__(self, board: chess.Board) -> None:
        self.pawns = board.pawns
        self.knights = board.knights
        self.bishops = board.bishops
        self.rooks = board.rooks
        self.queens = board.queens
        self.kings = board.kings
        self.white = board.occupied_co[chess.WHITE]
        self.black = board.occupied_co[chess.BLACK]
        self.occupied = board.occupied
        self.promoted = board.promoted
        self.turn = board.turn
        self.castling_rights = board.castling_rights
        self.ep_square = board.ep_square
        self.halfmove_clock = board.halfmove_clock
        self.fullmove_number = board.fullmove_number

    def restore(self, board: chess.Board) -> None:
        board.pawns = self.pawns
        board.knights = self.knights
        board.bishops = self.bishops
        board.rooks = self.rooks
        board.queens = self.queens
        board.kings = self.kings
        board.occupied_co[chess.WHITE] = self.white
        board.occupied_co[chess.BLACK] = self.black
        board.occupied = self.occupied
        board.promoted = self.promoted
        board.turn = self.turn
        board.castling_rights = self.castling_rights
        board.ep_square = self.ep_square
        board.halfmove_clock = self.halfmove_clock
        board.fullmove_number = self.fullmove_number


