"""The blockade verdict (FIDE 6.9, 5.2.2): a locked position proved unwinnable by the model of
:mod:`.blockade`, first as it stands, then with W's shuttling king (the stalemate motif
below), then with the loser's shuttling king (:mod:`.shuttle`). Both refinements build on
the model, so they are composed here, above it."""

from __future__ import annotations

import chess

from .bitboards import king_spread
from .blockade import Reachability
from .openness import is_plainly_open
from .shuttle import is_loser_shuttle_unwinnable


def is_blockade_unwinnable(board: chess.Board, winner: chess.Color) -> bool:
    """Sound proof that ``winner`` can never mate in a locked position (FIDE 6.9, 5.2.2).

    ``False`` means "not proven", never "winnable". Positions with an en-passant
    capture available are left alone (the model does not follow that capture).

    The stalemate motif: when W's only legal move is a king step (W's king
    shuttling between two squares, nothing else of W able to move), the loser's
    king can never stand next to those squares: arriving there would leave W
    without a move, which ends the game in stalemate (or W checkmated), never
    in a mate by W. The analysis is then repeated with the loser's king kept away,
    and its verdict used only if, in that model too, W's pieces never move and
    W's king stays on the two squares.
    """
    if is_plainly_open(board, winner):
        return False
    if board.ep_square is not None and board.has_legal_en_passant():
        return False
    if Reachability(board, winner).is_unwinnable(winner):
        return True
    if _shuttle_unwinnable(board, winner):
        return True
    return is_loser_shuttle_unwinnable(board, winner)


def _shuttle_unwinnable(board: chess.Board, winner: chess.Color) -> bool:
    king = board.king(winner)
    if king is None:
        return False
    squares = chess.BB_SQUARES[king]
    if board.turn == winner:
        moves = list(board.legal_moves)
        if len(moves) != 1 or moves[0].from_square != king:
            return False
        squares |= chess.BB_SQUARES[moves[0].to_square]
    else:
        test = board.copy(stack=False)
        test.turn = winner
        test.ep_square = None
        moves = list(test.legal_moves)
        if len(moves) != 1 or moves[0].from_square != king:
            return False
        squares |= chess.BB_SQUARES[moves[0].to_square]
    barred = king_spread(squares)
    loser_king = board.king(not winner)
    if loser_king is not None:
        barred &= ~chess.BB_SQUARES[loser_king]
    model = Reachability(board, winner, barred)
    if model.potential:
        return False
    for piece in model.pieces:
        if piece.color != winner:
            continue
        if piece.kind == chess.KING:
            if piece.reach & ~squares:
                return False
        elif piece.reach != chess.BB_SQUARES[piece.square]:
            return False
    return model.is_unwinnable(winner)
