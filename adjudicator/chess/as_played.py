"""Moves that were illegal as played: which piece went where, and why it was illegal (FIDE 7.5; US Chess 11).

A record is evidence of what happened at the board, so a written move that is no legal
move is kept as the move physically made, in the token's own notation: the piece the
token names (or the piece on the written square) moved to the written square, with the
reason in an arbiter's words. :mod:`adjudicator.chess.san` calls these when no legal
reading fits.
"""

from __future__ import annotations

import chess

from adjudicator.chess.notation import Notation

NAMES = {
    chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
    chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king",
}


def why_illegal(board: chess.Board, move: chess.Move) -> str:
    """Why a pseudo-legal move is illegal (it exposes the mover's king)."""
    piece = board.piece_type_at(move.from_square)
    if board.is_castling(move):
        return "castles out of, through or into check"
    if board.is_check():
        return "does not get the king out of check"
    if piece == chess.KING:
        return "moves the king into check"
    return "leaves the king in check"


def illegal_castling(board: chess.Board, side: str) -> chess.Move | None:
    """The castling as physically played when it was illegal; None when it cannot be done at all."""
    color = board.turn
    rank = 0 if color == chess.WHITE else 7
    king_from = chess.square(4, rank)
    rook_from = chess.square(7 if side == "O-O" else 0, rank)
    if board.piece_at(king_from) != chess.Piece(chess.KING, color):
        return None
    if board.piece_at(rook_from) != chess.Piece(chess.ROOK, color):
        return None
    between = chess.SquareSet(chess.between(king_from, rook_from))
    if between & board.occupied:
        return None
    return chess.Move(king_from, chess.square(6 if side == "O-O" else 2, rank))


def castling_reason(board: chess.Board, side: str) -> str:
    color = board.turn
    rank = 0 if color == chess.WHITE else 7
    rook_from = chess.square(7 if side == "O-O" else 0, rank)
    if not board.castling_rights & chess.BB_SQUARES[rook_from]:
        return "castles although the king or that rook has already moved"
    if board.is_check():
        return "castles out of check"
    king_from = chess.square(4, rank)
    step = 1 if side == "O-O" else -1
    if board.is_attacked_by(not color, king_from + step):
        return "castles through a square attacked by the opponent"
    return "castles into check"


def _geometry_ok(board: chess.Board, square: int, piece: int, target: int, color: bool) -> bool:
    """Whether the piece moves that way on an empty board (the path may be blocked)."""
    if piece == chess.PAWN:
        return False
    empty = chess.Board(None)
    empty.set_piece_at(square, chess.Piece(piece, color))
    return bool(empty.attacks_mask(square) & chess.BB_SQUARES[target])


def as_played(board: chess.Board, note: Notation) -> tuple[chess.Move | None, str | None, tuple[str, ...]]:
    """The move as physically made when no legal or pseudo-legal move fits, with the reason."""
    to = note.to_square
    if to is None:
        return None, None, ()
    color = board.turn
    own = board.occupied_co[color]
    if own & chess.BB_SQUARES[to]:
        return None, None, ()
    if board.kings & chess.BB_SQUARES[to]:
        return None, None, ()
    wanted = note.piece
    squares = [
        sq for sq in chess.SquareSet(own)
        if (note.from_file is None or chess.square_file(sq) == note.from_file)
        and (note.from_rank is None or chess.square_rank(sq) == note.from_rank)
    ]
    if wanted is None and not (note.from_file is not None and note.from_rank is not None):
        wanted = chess.PAWN
    if wanted is not None:
        squares = [sq for sq in squares if board.piece_type_at(sq) == wanted]
    if wanted == chess.PAWN:
        # the pawn nearest behind the target, on the named file, the target's file, or (captures) beside it
        forward = 1 if color == chess.WHITE else -1
        target_file = chess.square_file(to)
        if note.from_file is not None:
            files = {note.from_file}
        elif note.is_capture:
            files = {target_file - 1, target_file + 1}
        else:
            files = {target_file}
        behind = [
            sq for sq in squares
            if chess.square_file(sq) in files and (chess.square_rank(to) - chess.square_rank(sq)) * forward > 0
        ]
        behind.sort(key=lambda sq: abs(chess.square_rank(to) - chess.square_rank(sq)))
        squares = behind[:1]
    if len(squares) > 1:
        shaped = [sq for sq in squares if _geometry_ok(board, sq, board.piece_type_at(sq) or 0, to, color)]
        if len(shaped) == 1:
            squares = shaped
    if len(squares) != 1:
        names = tuple(
            chess.SQUARE_NAMES[sq] + chess.SQUARE_NAMES[to] for sq in squares
        )
        return None, None, names
    origin = squares[0]
    piece = board.piece_type_at(origin) or chess.PAWN
    promotion = note.promotion
    last_rank = 7 if color == chess.WHITE else 0
    if piece == chess.PAWN and chess.square_rank(to) == last_rank and promotion is None:
        promotion = chess.QUEEN
    elif piece != chess.PAWN:
        promotion = None
    move = chess.Move(origin, to, promotion)
    name = NAMES[piece]
    if _geometry_ok(board, origin, piece, to, color):
        reason = (
            f"the {name} on {chess.SQUARE_NAMES[origin]} cannot pass the pieces "
            f"between it and {chess.SQUARE_NAMES[to]}"
        )
    else:
        reason = f"a {name} cannot move from {chess.SQUARE_NAMES[origin]} to {chess.SQUARE_NAMES[to]}"
    return move, reason, ()
