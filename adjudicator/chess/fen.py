"""Reading a FEN quickly: the board python-chess would build, for the plain FENs of batches.

FIDE 5.2.2 / 6.9 batches (``adjudicator unwinnable -``, the bench) read thousands of FENs;
``chess.Board(fen)`` sets each piece one at a time (about 30 microseconds a position).
:func:`read_fen` builds the same board from the placement's bitboards when the FEN is
plain (eight ranks of pieces and single digits, ``w``/``b``, castling, an e.p. square,
counters in ASCII digits) and hands every other text to ``chess.Board``, so that the
board, and every error, is python-chess's own (the tests compare the two).
"""

from __future__ import annotations

import chess

_PIECES = {symbol: (chess.Piece.from_symbol(symbol).color, chess.Piece.from_symbol(symbol).piece_type)
           for symbol in "pnbrqkPNBRQK"}
_DIGITS = {str(n): n for n in range(1, 9)}
_EP_SQUARES = {chess.SQUARE_NAMES[s]: s for s in chess.SquareSet(chess.BB_RANK_3 | chess.BB_RANK_6)}


def read_fen(fen: str) -> chess.Board:
    """``chess.Board(fen)``, faster for plain FENs.

    :raises ValueError: as ``chess.Board(fen)`` does.
    """
    parts = fen.split()
    if not 4 <= len(parts) <= 6:
        return chess.Board(fen)
    board = _placement(parts[0])
    if board is None or parts[1] not in ("w", "b") or not (parts[3] == "-" or parts[3] in _EP_SQUARES):
        return chess.Board(fen)
    counters = parts[4:]
    if not all(part.isascii() and part.isdigit() for part in counters):
        return chess.Board(fen)
    castling = parts[2]
    if castling != "-":
        if not chess.FEN_CASTLING_REGEX.match(castling):
            return chess.Board(fen)
        board._set_castling_fen(castling)  # python-chess's own reading of the rights
    board.turn = parts[1] == "w"
    board.ep_square = None if parts[3] == "-" else _EP_SQUARES[parts[3]]
    if counters:
        board.halfmove_clock = int(counters[0])
    if len(counters) == 2:
        board.fullmove_number = max(int(counters[1]), 1)
    return board


def _placement(text: str) -> chess.Board | None:
    """The board of a plain placement field (None for anything else: ``chess.Board`` reads it)."""
    ranks = text.split("/")
    if len(ranks) != 8:
        return None
    by_color = [0, 0]
    by_type = [0, 0, 0, 0, 0, 0, 0]
    square = 56
    for rank in ranks:
        end = square + 8
        digit = False
        for char in rank:
            piece = _PIECES.get(char)
            if piece is not None:
                if square >= end:
                    return None
                bit = 1 << square
                by_color[piece[0]] |= bit
                by_type[piece[1]] |= bit
                square += 1
                digit = False
                continue
            step = _DIGITS.get(char)
            if step is None or digit:
                return None
            square += step
            digit = True
        if square != end:
            return None
        square -= 16
    board = chess.Board(None)
    board.occupied_co = by_color
    board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings = by_type[1:]
    board.occupied = by_color[0] | by_color[1]
    return board
