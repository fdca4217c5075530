"""Helpmate search: both sides cooperate to let W checkmate (FIDE 6.9 "any series of legal moves").

An iterative-deepening depth-first search with a transposition table, in the
manner of Ambrona's analyser (FUN 2022): the nominal depth counts only moves
that make no progress towards a mate, so long helpmates (20-60 plies) are found
with a few thousand nodes. Progress is measured against a target corner on the
loser's back rank, chosen from the bishops' square colours:

* free for W (*rewarded*): captures, pawn pushes from the fifth rank on, king or
  knight moves towards the target;
* free for the loser: king or knight moves towards the corner; when W can mate
  only after a loser promotion, pawn moves and minor promotions;
* the loser's captures, and (when a loser promotion is needed) the loser's other
  moves, cost two extra plies (*punished*);
* a move right after a rewarded one is free too; no rewards after ply 400.

A completed iteration that was never cut off by depth or budget has explored
every reachable position: then no helpmate exists.
"""

from __future__ import annotations

import time

import chess

from .bitboards import DARK, KING_DISTANCE, KNIGHT_DISTANCE, LIGHT
from .material import is_material_unwinnable, needs_loser_promotion

NORMAL, REWARD, PUNISH = 0, 1, 2
_NO_REWARD_AFTER = 400


class BudgetExhausted(Exception):
    """The global node or time budget ran out."""


def _target_squares(board: chess.Board, winner: chess.Color) -> tuple[int, int, int, int]:
    """Targets for (W king, W other piece, loser king, loser other piece): a mating corner set-up."""
    w_bishops = board.bishops & board.occupied_co[winner]
    dark = bool(w_bishops & DARK) or (not w_bishops and bool(board.bishops & board.occupied_co[not winner] & LIGHT))
    # corner h8 (dark): W king to h6, W pieces to h8, loser king to h8, loser pieces to g8 (the block)
    targets = [chess.H6, chess.H8, chess.H8, chess.G8]
    if not dark:
        targets = [t ^ 7 for t in targets]  # the light corner a8
    if winner == chess.BLACK:
        targets = [t ^ 63 for t in targets]
    return targets[0], targets[1], targets[2], targets[3]


def _nb_blocked_pawns(board: chess.Board) -> int:
    return ((board.pawns & board.occupied_co[chess.WHITE]) << 8 & board.pawns & board.occupied_co[chess.BLACK]).bit_count()


def _has_lonely_pawns(board: chess.Board) -> bool:
    white = board.pawns & board.occupied_co[chess.WHITE] & ~chess.BB_RANK_7 & ~chess.BB_RANK_8
    black = board.pawns & board.occupied_co[chess.BLACK] & ~chess.BB_RANK_1 & ~chess.BB_RANK_2
    files_w = 0
    files_b = 0
    for sq in chess.scan_forward(white):
        files_w |= 1 << (sq & 7)
    for sq in chess.scan_forward(black):
        files_b |= 1 << (sq & 7)
    return files_w != files_b


def _semi_blocked_target(board: chess.Board) -> int | None:
    """A square between a white pawn and a black pawn facing it two ranks up, if any."""
    between = ((board.pawns & board.occupied_co[chess.WHITE]) << 8) & ((board.pawns & board.occupied_co[chess.BLACK]) >> 8)
    between &= chess.BB_ALL
    return chess.lsb(between) if between else None


class HelpmateSearch:
    """One helpmate search for ``winner`` from ``board`` (the board is copied)."""

    def __init__(self, board: chess.Board, winner: chess.Color, node_limit: int, deadline: float) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.loser = not winner
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.local_nodes = 0
        self.local_limit = 0
        self.max_depth = 0
        self.interrupted = False
        self.use_tt = True
        self.tt: dict[object, int] = {}
        """Position key -> iteration number * 65536 + plies of depth it was searched with."""
        self.iteration_number = 0
        self.line: list[chess.Move] = []
        self.mate: list[chess.Move] | None = None

    # -- driving ----------------------------------------------------------

    def iteration(self, max_depth: int, local_limit: int, use_tt: bool = True) -> bool:
        """One depth-limited pass; True when a mate was found (``self.mate``)."""
        self.max_depth = max_depth
        self.local_limit = local_limit
        self.local_nodes = 0
        self.interrupted = False
        self.use_tt = use_tt
        self.iteration_number += 1
        self.line = []
        return self._find(0, False, False)

    def deepen(self, local_limit: int = 10_000, start: int = 2, stop: int = 1000) -> bool | None:
        """Iterative deepening: True = mate found, False = no helpmate exists, None = cut off."""
        for max_depth in range(start, stop + 1):
            if self.iteration(max_depth, local_limit):
                return True
            if not self.interrupted:
                return False
        return None

    # -- the search -------------------------------------------------------

    def _find(self, depth: int, past_progress: bool, was_semi_blocked: bool) -> bool:
        board = self.board
        winner = self.winner
        moves_left = self.max_depth - depth
        if self.use_tt:
            key = board._transposition_key()
            seen = self.tt.get(key)
            if seen is not None and seen & 0xFFFF >= moves_left:
                if seen >> 16 != self.iteration_number:
                    # searched in an earlier (cut-off) pass: this pass proves nothing about it
                    self.interrupted = True
                return False
        if is_material_unwinnable(board, winner):
            return False
        turn = board.turn
        if depth >= self.max_depth or self.local_nodes >= self.local_limit:
            if turn != winner and board.is_check() and not any(board.generate_legal_moves()):
                self.mate = list(self.line)
                return True
            self.interrupted = True
            return False
        moves = list(board.generate_legal_moves())
        if not moves:
            if turn != winner and board.is_check():
                self.mate = list(self.line)
                return True
            return False
        if self.use_tt:
            self.tt[key] = (self.iteration_number << 16) | moves_left
        if self.nodes >= self.node_limit or (self.nodes & 1023 == 0 and time.monotonic() > self.deadline):
            raise BudgetExhausted

        winners_turn = turn == winner
        need_promotion = not winners_turn and needs_loser_promotion(board, winner)
        t_wking, t_wpiece, t_lking, t_lpiece = _target_squares(board, winner)
        only_pawns_bishops = not (board.knights | board.rooks | board.queens)
        semi_mode = only_pawns_bishops and _nb_blocked_pawns(board) >= 4 and not _has_lonely_pawns(board)
        semi_target = _semi_blocked_target(board) if semi_mode else None
        semi_blocked = semi_target is not None
        enemy = board.occupied_co[not turn]
        ep = board.ep_square
        many_loser_bishops = (board.bishops & board.occupied_co[self.loser]).bit_count() > 1
        rewards_on = len(self.line) <= _NO_REWARD_AFTER

        scored: list[tuple[int, chess.Move]] = []
        for move in moves:
            frm = move.from_square
            to = move.to_square
            kind = board.piece_type_at(frm)
            is_capture = bool(enemy & chess.BB_SQUARES[to]) or (kind == chess.PAWN and to == ep)
            if kind == chess.KING:
                target = t_wking if winners_turn else t_lking
                approach = KING_DISTANCE[to][target] < KING_DISTANCE[frm][target]
            else:
                target = t_wpiece if winners_turn else t_lpiece
                approach = kind == chess.KNIGHT and KNIGHT_DISTANCE[to][target] < KNIGHT_DISTANCE[frm][target]
            variation = NORMAL
            if winners_turn:
                if is_capture or approach or (kind == chess.PAWN and ((frm >> 3) >= 4 if turn else (frm >> 3) <= 3)):
                    variation = REWARD
            else:
                if need_promotion:
                    heavy = move.promotion == chess.QUEEN or move.promotion == chess.ROOK
                    variation = REWARD if kind == chess.PAWN and not heavy else PUNISH
                if approach:
                    variation = REWARD
                elif is_capture:
                    variation = PUNISH
            if semi_mode:
                if semi_blocked or was_semi_blocked:
                    if is_capture and winners_turn:
                        variation = REWARD
                    elif kind == chess.KING:
                        variation = NORMAL
                        if semi_target is not None and KING_DISTANCE[to][semi_target] < KING_DISTANCE[frm][semi_target]:
                            variation = REWARD
                    else:
                        variation = PUNISH
                elif many_loser_bishops and (
                    approach or (kind == chess.BISHOP and KING_DISTANCE[to][target] < KING_DISTANCE[frm][target])
                ):
                    variation = REWARD
            if not rewards_on and variation == REWARD:
                variation = NORMAL
            scored.append((variation, move))

        # rewarded moves first: the same tree, but mates are met sooner
        scored.sort(key=lambda item: item[0] != REWARD)
        max_depth = self.max_depth
        line = self.line
        for variation, move in scored:
            if variation == REWARD:
                new_depth = depth
            elif variation == PUNISH:
                new_depth = min(max_depth, depth + 3)
            else:
                new_depth = depth if past_progress else depth + 1
            board.push(move)
            line.append(move)
            self.nodes += 1
            self.local_nodes += 1
            found = self._find(new_depth, variation == REWARD, semi_blocked or was_semi_blocked)
            line.pop()
            board.pop()
            if found:
                return True
        return False
