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
        occ = board.occupied_co
        pawns = board.pawns
        knights = board.knights
        bishops = board.bishops
        turn = board.turn
        key = (occ[0], occ[1], pawns, knights, bishops, board.rooks, board.queens, turn, board.ep_square,
               board.castling_rights)
        if self.use_tt:
            seen = self.tt.get(key)
            if seen is not None and seen & 0xFFFF >= moves_left:
                if seen >> 16 != self.iteration_number:
                    # searched in an earlier (cut-off) pass: this pass proves nothing about it
                    self.interrupted = True
                return False
        w_occ = occ[winner]
        if not w_occ & (pawns | board.rooks | board.queens) and is_material_unwinnable(board, winner):
            return False
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
        # the mating corner: dark when W has a dark bishop, or no bishop while the loser has a light one
        w_bishops = bishops & w_occ
        dark = bool(w_bishops & DARK) or (not w_bishops and bool(bishops & occ[not winner] & LIGHT))
        flip = (0 if dark else 7) ^ (0 if winner else 63)
        if winners_turn:
            king_target, piece_target = chess.H6 ^ flip, chess.H8 ^ flip
        else:
            king_target, piece_target = chess.H8 ^ flip, chess.G8 ^ flip
        semi_mode = False
        semi_target = None
        many_loser_bishops = False
        if not (knights | board.rooks | board.queens) and pawns:
            semi_mode = _nb_blocked_pawns(board) >= 4 and not _has_lonely_pawns(board)
            if semi_mode:
                semi_target = _semi_blocked_target(board)
                many_loser_bishops = (bishops & occ[not winner]).bit_count() > 1
        semi_blocked = semi_target is not None
        enemy = occ[not turn]
        ep = board.ep_square
        rewards_on = len(self.line) <= _NO_REWARD_AFTER
        kings = board.kings
        push_rank_ok = (chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7) if turn else (
            chess.BB_RANK_4 | chess.BB_RANK_3 | chess.BB_RANK_2)

        rewarded: list[chess.Move] = []
        others: list[tuple[int, chess.Move]] = []
        for move in moves:
            frm = move.from_square
            to = move.to_square
            frm_bb = 1 << frm
            if frm_bb & kings:
                kind = chess.KING
                approach = KING_DISTANCE[to][king_target] < KING_DISTANCE[frm][king_target]
            elif frm_bb & knights:
                kind = chess.KNIGHT
                approach = KNIGHT_DISTANCE[to][piece_target] < KNIGHT_DISTANCE[frm][piece_target]
            else:
                kind = chess.PAWN if frm_bb & pawns else chess.BISHOP if frm_bb & bishops else chess.ROOK
                approach = False
            is_capture = bool(enemy & (1 << to)) or (kind == chess.PAWN and to == ep)
            variation = NORMAL
            if winners_turn:
                if is_capture or approach or (kind == chess.PAWN and frm_bb & push_rank_ok):
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
                    approach
                    or (kind == chess.BISHOP and KING_DISTANCE[to][piece_target] < KING_DISTANCE[frm][piece_target])
                ):
                    variation = REWARD
            if variation == REWARD and rewards_on:
                rewarded.append(move)
            else:
                others.append((NORMAL if variation == REWARD else variation, move))

        # rewarded moves first: the same tree, but mates are met sooner
        max_depth = self.max_depth
        line = self.line
        child_semi = semi_blocked or was_semi_blocked
        for move in rewarded:
            board.push(move)
            line.append(move)
            self.nodes += 1
            self.local_nodes += 1
            found = self._find(depth, True, child_semi)
            line.pop()
            board.pop()
            if found:
                return True
        normal_depth = depth if past_progress else depth + 1
        punish_depth = min(max_depth, depth + 3)
        for variation, move in others:
            board.push(move)
            line.append(move)
            self.nodes += 1
            self.local_nodes += 1
            found = self._find(punish_depth if variation == PUNISH else normal_depth, False, child_semi)
            line.pop()
            board.pop()
            if found:
                return True
        return False
