"""Blockade analysis: a sound over-approximation of where every piece can ever go.

This is the "semi-static" idea of Ambrona's analyser (FUN 2022), written afresh
as a per-piece bitboard flood fill. For every piece on the board we compute a
set ``reach`` of squares it might *ever* stand on, under rules that only ever
allow more than chess does:

* a piece may step (one king/knight/diagonal/orthogonal step of its kind; a
  slide is a chain of steps) onto a square that can be emptied of its own colour;
* a pawn may push onto a square that can be emptied of both colours, except the
  square of an enemy pawn facing it on the file when neither pawn can ever leave
  the file and the pawn's side can capture on no square between them;
* a pawn may capture only onto a square some enemy non-king piece can reach;
* a pawn that can reach its last rank may go anywhere (it promotes);
* a king may not step onto a square attacked by an enemy piece that can never
  move and never be captured (a fixed pawn wall seals its gaps).

A square can be emptied of colour ``c`` when it holds no ``c`` piece, or its
piece can move, or an enemy piece can reach it (capture). The sets only grow,
so the computation is a fixpoint; a square *outside* a piece's set is a proof
that the piece can never stand there.

The verdict (FIDE 6.9: can W mate by any series of legal moves?): W can check
the loser's king only with a piece that can enter the loser king's region (a
pawn: attack a square of it). No such piece: unwinnable. When the only such
pieces are pawns whose checks the king can always answer by taking the pawn, also
unwinnable (:mod:`.pawnchecks`). When the only such pieces are bishops of one square
colour, a mate needs every flight square of the other colour that W's king cannot
cover (it stands on one square it can reach, not next to the mated king, and covers
the squares next to it) to be filled by a loser piece, and the analysis checks
whether the loser has enough pieces that can get there.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from .bitboards import (
    ALL,
    DARK,
    LIGHT,
    Bitboard,
    diagonal_spread,
    king_spread,
    knight_spread,
    neighbours,
    orthogonal_spread,
    pawn_attack_spread,
    pawn_push_spread,
    queen_spread,
)
from .pawnchecks import pawns_never_mate

_SPREAD = {
    chess.KNIGHT: knight_spread,
    chess.BISHOP: diagonal_spread,
    chess.ROOK: orthogonal_spread,
    chess.QUEEN: queen_spread,
    chess.KING: king_spread,
}
_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
_FILES = chess.BB_FILES
_RISING = [
    sum(chess.BB_SQUARES[t] for t in chess.SQUARES if (t & 7) - (s & 7) == (t >> 3) - (s >> 3)) for s in chess.SQUARES
]
"""Per square: the squares on its a1-h8-direction diagonal."""


@dataclass
class _Piece:
    square: chess.Square
    kind: chess.PieceType
    color: chess.Color
    reach: Bitboard


class _Potential(Exception):
    """The analysis already knows it will not prove the position unwinnable."""


class Reachability:
    """The fixpoint of the reachability rules for one position (see the module docstring)."""

    def __init__(
        self,
        board: chess.Board,
        winner: chess.Color | None = None,
        loser_king_barred: Bitboard = 0,
        winner_king_barred: Bitboard = 0,
    ) -> None:
        """``loser_king_barred``, ``winner_king_barred``: squares the loser's (W's) king may not step
        onto (see :func:`.blocked.is_blockade_unwinnable` and :mod:`.shuttle`)."""
        self.board = board
        self.loser_king_barred = loser_king_barred
        self.winner_king_barred = winner_king_barred
        self.pieces: list[_Piece] = []
        for color in (chess.WHITE, chess.BLACK):
            mine = board.occupied_co[color]
            for kind, bb in (
                (chess.KING, board.kings),
                (chess.QUEEN, board.queens),
                (chess.ROOK, board.rooks),
                (chess.BISHOP, board.bishops),
                (chess.KNIGHT, board.knights),
                (chess.PAWN, board.pawns),
            ):
                for sq in chess.scan_forward(bb & mine):
                    self.pieces.append(_Piece(sq, kind, color, 1 << sq))
        if winner is not None:
            # the loser's king first, then W's pieces: a W piece entering the king's region ends the work early
            self.pieces.sort(
                key=lambda p: 0 if p.kind == chess.KING and p.color != winner else 1 if p.color == winner else 2
            )
        self.clear = [ALL & ~board.occupied_co[chess.BLACK], ALL & ~board.occupied_co[chess.WHITE]]
        self.pawn_captures = [0, 0]
        self.winner = winner
        self.potential = False
        try:
            self._saturate()
        except _Potential:
            self.potential = True

    # -- the fixpoint ---------------------------------------------------------

    def _unions(self) -> tuple[list[Bitboard], list[Bitboard], list[Bitboard]]:
        """Per colour: squares any piece can reach, any non-king piece can reach, and can capture on."""
        every = [0, 0]
        non_king = [0, 0]
        capture = [self.pawn_captures[0], self.pawn_captures[1]]
        for piece in self.pieces:
            c = piece.color
            every[c] |= piece.reach
            if piece.kind != chess.KING:
                non_king[c] |= piece.reach
            if piece.kind != chess.PAWN:
                capture[c] |= piece.reach
        return every, non_king, capture

    def _fixed_attacks(self, color: chess.Color) -> Bitboard:
        """Squares attacked for ever by ``color`` pieces that can never move nor be captured."""
        attacked = 0
        clear = self.clear[color]
        for piece in self.pieces:
            if piece.color != color or clear & chess.BB_SQUARES[piece.square]:
                continue
            bb = chess.BB_SQUARES[piece.square]
            if piece.kind == chess.PAWN:
                attacked |= pawn_attack_spread(bb, color)
            elif piece.kind == chess.KNIGHT:
                attacked |= knight_spread(bb)
            elif piece.kind == chess.KING:
                attacked |= chess.BB_KING_ATTACKS[piece.square]
            elif piece.kind == chess.BISHOP:
                attacked |= diagonal_spread(bb)
            elif piece.kind == chess.ROOK:
                attacked |= orthogonal_spread(bb)
            else:
                attacked |= queen_spread(bb)
        return attacked

    def _facing_blocks(self, capture: list[Bitboard]) -> dict[int, Bitboard]:
        """For each pawn, squares of enemy pawns it can never push onto (facing, file-bound, uncapturable)."""
        blocks: dict[int, Bitboard] = {}
        pawns = [p for p in self.pieces if p.kind == chess.PAWN]
        for index, pawn in enumerate(self.pieces):
            if pawn.kind != chess.PAWN:
                continue
            file_bb = _FILES[pawn.square & 7]
            if pawn.reach & ~file_bb:
                continue
            blocked = 0
            for other in pawns:
                if other.color == pawn.color or other.reach & ~file_bb or not chess.BB_SQUARES[other.square] & file_bb:
                    continue
                ahead = other.square > pawn.square if pawn.color else other.square < pawn.square
                if not ahead:
                    continue
                low, high = sorted((pawn.square, other.square))
                between = chess.between(low, high) | chess.BB_SQUARES[other.square]
                if not capture[pawn.color] & between & file_bb:
                    blocked |= chess.BB_SQUARES[other.square]
            if blocked:
                blocks[index] = blocked
        return blocks

    def _saturate(self) -> None:
        changed = True
        while changed:
            changed = False
            every, non_king, capture = self._unions()
            clear = self.clear
            for piece in self.pieces:
                c = piece.color
                bb = 1 << piece.square
                if not clear[c] & bb and (piece.reach != bb or every[not c] & bb):
                    clear[c] |= bb
                    changed = True
            forbidden = [self._fixed_attacks(chess.WHITE), self._fixed_attacks(chess.BLACK)]
            blocks = self._facing_blocks(capture)
            for index, piece in enumerate(self.pieces):
                c = piece.color
                reach = piece.reach
                if reach == ALL:
                    continue
                if piece.kind == chess.PAWN:
                    push_ok = self.clear[c] & self.clear[not c] & ~blocks.get(index, 0)
                    capture_ok = self.clear[c] & non_king[not c]
                    caps = 0
                    while True:
                        cap = pawn_attack_spread(reach, c) & capture_ok
                        caps |= cap
                        new = ((pawn_push_spread(reach, c) & push_ok) | cap) & ~reach
                        if not new:
                            break
                        reach |= new
                    if caps & ~self.pawn_captures[c]:
                        self.pawn_captures[c] |= caps
                        changed = True
                    if reach & _LAST_RANK[c]:
                        reach = ALL
                else:
                    spread = _SPREAD[piece.kind]
                    allowed = self.clear[c]
                    if piece.kind == chess.KING:
                        allowed &= ~forbidden[c]
                        if c != self.winner:
                            allowed &= ~self.loser_king_barred
                        elif self.winner is not None:
                            allowed &= ~self.winner_king_barred
                    frontier = reach
                    while True:
                        new = spread(frontier) & allowed & ~reach
                        if not new:
                            break
                        reach |= new
                        frontier = new
                if reach != piece.reach:
                    piece.reach = reach
                    changed = True
                    if (
                        c == self.winner
                        and piece.kind != chess.KING
                        and piece.kind != chess.BISHOP
                        and (piece.kind != chess.PAWN or reach == ALL)  # other pawns: see pawnchecks
                        and reach & self.pieces[0].reach
                    ):
                        raise _Potential
            if changed and self.winner is not None:
                self._check_potential()

    # -- the verdict -------------------------------------------------------

    def king_region(self, color: chess.Color) -> Bitboard:
        for piece in self.pieces:
            if piece.kind == chess.KING and piece.color == color:
                return piece.reach
        return 0

    def visitors(self, region: Bitboard, color: chess.Color) -> list[_Piece]:
        """``color``'s non-king pieces that can enter ``region`` (pawns: or attack a square of it)."""
        found = []
        for piece in self.pieces:
            if piece.color != color or piece.kind == chess.KING:
                continue
            if piece.reach & region or (
                piece.kind == chess.PAWN and pawn_attack_spread(piece.reach, color) & region
            ):
                found.append(piece)
        return found

    def _check_potential(self) -> None:
        assert self.winner is not None
        region = self.king_region(not self.winner)
        colours = 0
        for piece in self.visitors(region, self.winner):
            if piece.kind == chess.PAWN and piece.reach != ALL:
                continue  # its checks may all be answered by capturing it (pawnchecks), decided at the end
            if piece.kind != chess.BISHOP:
                raise _Potential
            colours |= 1 if chess.BB_SQUARES[piece.square] & DARK else 2
        if colours == 3:
            raise _Potential

    def is_unwinnable(self, winner: chess.Color) -> bool:
        """No series of moves lets ``winner`` mate, as far as this over-approximation shows."""
        if self.potential:
            return False
        loser = not winner
        region = self.king_region(loser)
        visitors = self.visitors(region, winner)
        if not visitors:
            return True
        never_empty = ALL & ~(self.clear[chess.WHITE] & self.clear[chess.BLACK])
        if pawns_never_mate(visitors, [p for p in self.pieces if p.color == winner], region, never_empty):
            return True
        if any(p.kind != chess.BISHOP for p in visitors):
            return False
        colour = DARK if chess.BB_SQUARES[visitors[0].square] & DARK else LIGHT
        if any(not chess.BB_SQUARES[p.square] & colour for p in visitors):
            return False
        w_king = next(p for p in self.pieces if p.kind == chess.KING and p.color == winner)
        blockers = [p for p in self.pieces if p.color == loser and p.kind != chess.KING]
        for square in chess.scan_forward(region & colour):
            if self._mate_possible_at(square, region, colour, visitors, w_king, blockers):
                return False
        return True

    @staticmethod
    def _mate_possible_at(
        square: chess.Square,
        region: Bitboard,
        colour: Bitboard,
        bishops: list[_Piece],
        w_king: _Piece,
        blockers: list[_Piece],
    ) -> bool:
        """Could W's one-coloured bishops mate the loser's king on ``square``?"""
        bb = chess.BB_SQUARES[square]
        if not any(b.reach & bb for b in bishops):
            return False
        around = neighbours(square) & region
        escapes = around & ~colour
        # One checking bishop covers one diagonal through the square; with a single
        # bishop able to get near, the other diagonal's neighbours need loser blockers too.
        near = sum(1 for b in bishops if b.reach & (bb | (around & colour)))
        if near < 2:
            diag_a = _RISING[square] & around & colour
            diag_b = around & colour & ~diag_a
            escapes |= diag_b if diag_b.bit_count() < diag_a.bit_count() else diag_a
        # W's king stands on one square it can reach, not next to the mated king, and covers the
        # flight squares next to it; the other flight squares need loser blockers
        left_over = set()
        for king_square in chess.scan_forward(w_king.reach & ~king_spread(bb)):
            left_over.add(escapes & ~chess.BB_KING_ATTACKS[king_square])
        return any(_blockable(rest, blockers) for rest in left_over)


def _blockable(escapes: Bitboard, blockers: list[_Piece]) -> bool:
    """Could the loser's pieces fill every square of ``escapes`` (as far as their reach shows)?"""
    if not escapes:
        return True
    for esc in chess.scan_forward(escapes):
        if not any(p.reach & chess.BB_SQUARES[esc] for p in blockers):
            return False
    helpers = sum(1 for p in blockers if p.reach & escapes)
    return helpers >= escapes.bit_count()
