"""The loser's king that can only shuttle (FIDE 6.9, 5.2.2): part of the blockade analysis.

When the loser (the side W wants to mate) can move nothing but its king, and the king
only between two squares ``a`` and ``b``, W's king can never usefully come next to
them. Say the loser's king stands on ``x`` (one of the two) and W's king steps next to
the other one, ``y`` (it cannot step next to ``x``: kings never touch). The loser has
no legal move left, so the game ends at once: in stalemate, unless that king step
uncovered a check on ``x``, which would be mate. Before that moment W's king stays
away from both squares. So:

1. the blockade analysis (:class:`.blockade.Reachability`) is repeated with W's king
   kept off the squares next to ``a`` and ``b``; it must show, in that model too, that
   nothing of the loser ever moves and its king stays on the two squares, and that W
   cannot mate;
2. no king step of W onto a square next to ``y`` (and not next to ``x``) may uncover a
   line from ``x``: from a square W's king can reach in the model, on a line through
   ``x`` whose squares between can be empty, away from the line, with a W piece able
   to stand beyond it on that line and move along such lines (a promoting pawn counts).

This is CHA's stalemate motif (its semi-static analysis forbids a king the squares
next to a shuttling king, for either colour) for the loser's side, with the
uncovered check of step 2 ruled out explicitly. :func:`.blocked.is_blockade_unwinnable`
handles W's own shuttling king.
"""

from __future__ import annotations

import chess

from .bitboards import ALL, Bitboard, king_spread
from .blockade import Reachability

_DIAGONAL = chess.BB_DIAG_ATTACKS


def _only_king_step(board: chess.Board, side: chess.Color) -> chess.Move | None:
    """The one legal move of ``side`` (as if it were to move) when it is a king step, else None."""
    test = board
    if board.turn != side:
        test = board.copy(stack=False)
        test.turn = side
        test.ep_square = None
        if test.is_check():
            return None
    moves = list(test.legal_moves)
    king = board.king(side)
    if len(moves) != 1 or moves[0].from_square != king:
        return None
    return moves[0]


def is_loser_shuttle_unwinnable(board: chess.Board, winner: chess.Color) -> bool:
    """Sound proof that ``winner`` can never mate a loser whose king can only shuttle (see the module)."""
    loser = not winner
    move = _only_king_step(board, loser)
    w_king = board.king(winner)
    if move is None or w_king is None:
        return False
    squares = chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
    barred = king_spread(squares)
    if barred & chess.BB_SQUARES[w_king]:
        return False
    model = Reachability(board, winner, winner_king_barred=barred)
    if model.potential:
        return False
    w_king_reach = 0
    sliders: list[tuple[Bitboard, bool, bool]] = []  # reach, moves along diagonals, along ranks and files
    for piece in model.pieces:
        if piece.color == loser:
            if piece.kind == chess.KING:
                if piece.reach & ~squares:
                    return False
            elif piece.reach != chess.BB_SQUARES[piece.square]:
                return False
        elif piece.kind == chess.KING:
            w_king_reach = piece.reach
        elif piece.kind in (chess.BISHOP, chess.ROOK, chess.QUEEN) or piece.reach == ALL:
            any_line = piece.kind == chess.QUEEN or piece.reach == ALL
            sliders.append((piece.reach, any_line or piece.kind == chess.BISHOP, any_line or piece.kind == chess.ROOK))
    never_empty = _never_empty(model)
    for x, y in ((move.from_square, move.to_square), (move.to_square, move.from_square)):
        arrivals = chess.BB_KING_ATTACKS[y] & ~chess.BB_KING_ATTACKS[x] & ~squares
        if _uncovers_check(x, arrivals, w_king_reach & ~barred, sliders, never_empty):
            return False
    return model.is_unwinnable(winner)


def _never_empty(model: Reachability) -> Bitboard:
    """Squares whose piece never moves and is never taken (they block every line through them)."""
    fixed = 0
    for piece in model.pieces:
        bb = chess.BB_SQUARES[piece.square]
        if piece.reach == bb and not model.clear[piece.color] & bb:
            fixed |= bb
    return fixed


def _uncovers_check(
    x: chess.Square, arrivals: Bitboard, starts: Bitboard, sliders: list[tuple[Bitboard, bool, bool]],
    never_empty: Bitboard,
) -> bool:
    """Could W's king step from a square of ``starts`` to one of ``arrivals`` off a line through ``x``,
    uncovering a slider of W beyond it?"""
    for start in chess.scan_forward(starts & king_spread(arrivals)):
        if not chess.BB_KING_ATTACKS[start] & arrivals:
            continue
        line = chess.ray(x, start)
        if not line or chess.between(x, start) & never_empty:
            continue
        diagonal = bool(_DIAGONAL[x][0] & chess.BB_SQUARES[start])
        # the squares beyond the king's start, as far as the line can be open
        beyond = 0
        for sq in chess.scan_forward(line):
            if chess.between(x, sq) & chess.BB_SQUARES[start] and not chess.between(start, sq) & never_empty:
                beyond |= chess.BB_SQUARES[sq]
        if not beyond:
            continue
        steps_off = chess.BB_KING_ATTACKS[start] & arrivals & ~line
        if not steps_off:
            continue
        for reach, on_diagonals, on_lines in sliders:
            if reach & beyond and (on_diagonals if diagonal else on_lines):
                return True
    return False
