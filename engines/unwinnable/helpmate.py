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
from typing import Any

import chess

from .bitboards import DARK, KING_DISTANCE, KNIGHT_DISTANCE, LIGHT
from .material import is_material_unwinnable, material_dead, needs_loser_promotion
from .movegen import legal_moves

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


_DEAD, _MATE, _LIVE = 0, 1, 2
"""Facts of a position that do not depend on the path: no mate can follow, W has mated, or neither."""

Key = tuple[int, int, int, int, int, int, int, bool, int | None, int]


def _key(board: chess.Board) -> Key:
    occ = board.occupied_co
    return (occ[0], occ[1], board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.turn,
            board.ep_square, board.castling_rights)


def _child_key(key: Key, move: chess.Move, kind: int) -> Key:
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


def _in_check(key: Key) -> bool:
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


class _Snapshot:
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


class _Node:
    """A position's classified moves (rewarded first) and the keys of the positions they lead to.

    Each child is ``[variation, move, moving piece type, key of the position after it or None]``.
    """

    __slots__ = ("children", "semi_blocked", "snapshot")

    def __init__(self, children: list[list[Any]], semi_blocked: bool,
                 snapshot: _Snapshot) -> None:
        self.children = children
        self.semi_blocked = semi_blocked
        self.snapshot = snapshot


class HelpmateSearch:
    """One helpmate search for ``winner`` from ``board`` (the board is copied).

    Positions are expanded once: their legal moves, classified, and the keys of
    the positions they lead to are kept, so later passes of the iterative
    deepening walk the known tree without generating moves again, and skip a
    known child (transposition, dead end, mate) without touching the board.
    """

    def __init__(
        self,
        board: chess.Board,
        winner: chess.Color,
        node_limit: int,
        deadline: float,
        share: HelpmateSearch | None = None,
    ) -> None:
        """``share``: an earlier search for the same winner whose expanded positions may be reused."""
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
        self.tt: dict[Key, int] = {}
        """Position key -> iteration number * 65536 + plies of depth it was searched with."""
        self.iteration_number = 0
        self.facts: dict[Key, int] = {}
        self.expanded: tuple[dict[Key, _Node], dict[Key, _Node]] = ({}, {})
        if share is not None and share.winner == winner:
            self.facts = share.facts
            self.expanded = share.expanded
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
        return self._find(0, False, False, _key(self.board))

    def deepen(self, local_limit: int = 10_000, start: int = 2, stop: int = 1000) -> bool | None:
        """Iterative deepening: True = mate found, False = no helpmate exists, None = cut off."""
        for max_depth in range(start, stop + 1):
            if self.iteration(max_depth, local_limit):
                return True
            if not self.interrupted:
                return False
        return None

    # -- the search -------------------------------------------------------

    def _leaf_facts(self, key: Key) -> int:
        """Dead (material), W has mated, or live; computed from the board standing at ``key``."""
        board = self.board
        if not board.occupied_co[self.winner] & (board.pawns | board.rooks | board.queens) and is_material_unwinnable(
            board, self.winner
        ):
            fact = _DEAD
        elif board.turn != self.winner and board.is_check() and not any(board.generate_legal_moves()):
            fact = _MATE
        else:
            fact = _LIVE
        self.facts[key] = fact
        return fact

    def _find(self, depth: int, past_progress: bool, was_semi_blocked: bool, key: Key) -> bool:
        """Search from the position on the board (whose key is ``key``)."""
        moves_left = self.max_depth - depth
        tt = self.tt
        use_tt = self.use_tt
        if use_tt:
            seen = tt.get(key)
            if seen is not None and seen & 0xFFFF >= moves_left:
                if seen >> 16 != self.iteration_number:
                    self.interrupted = True  # searched in an earlier, cut-off pass: proves nothing now
                return False
        fact = self.facts.get(key)
        if fact is None:
            fact = self._leaf_facts(key)
        if fact == _DEAD:
            return False
        if fact == _MATE:
            self.mate = list(self.line)
            return True
        max_depth = self.max_depth
        if depth >= max_depth or self.local_nodes >= self.local_limit:
            self.interrupted = True
            return False
        node = self.expanded[was_semi_blocked].get(key)
        if node is None:
            node = self._expand(was_semi_blocked)
            if node is None:
                self.facts[key] = _DEAD  # no legal move and not mated: stalemate, or W is mated
                return False
            self.expanded[was_semi_blocked][key] = node
        if use_tt:
            tt[key] = (self.iteration_number << 16) | moves_left
        if self.nodes >= self.node_limit or (self.nodes & 1023 == 0 and time.monotonic() > self.deadline):
            raise BudgetExhausted

        board = self.board
        line = self.line
        facts = self.facts
        child_semi = node.semi_blocked or was_semi_blocked
        rewards_on = len(line) <= _NO_REWARD_AFTER
        normal_depth = depth if past_progress else depth + 1
        punish_depth = min(max_depth, depth + 3)
        iteration_number = self.iteration_number
        children = node.children
        for entry in children:
            variation, move, kind, child = entry
            rewarded = variation == REWARD and rewards_on
            new_depth = depth if rewarded else punish_depth if variation == PUNISH else normal_depth
            self.nodes += 1
            self.local_nodes += 1
            # what is known of the child decides without touching the board
            if child is None:
                child = entry[3] = _child_key(key, move, kind)
            if use_tt:
                seen = tt.get(child)
                if seen is not None and seen & 0xFFFF >= max_depth - new_depth:
                    if seen >> 16 != iteration_number:
                        self.interrupted = True
                    continue
            fact = facts.get(child)
            if fact is None:
                fact = self._key_facts(child)
            if fact is not None:
                if fact == _DEAD:
                    continue
                if fact == _MATE:
                    self.mate = [*line, move]
                    return True
                if new_depth >= max_depth or self.local_nodes >= self.local_limit:
                    self.interrupted = True
                    continue
            known = self.expanded[child_semi].get(child)
            if known is not None:
                known.snapshot.restore(board)
            else:
                board.push(move)
            line.append(move)
            found = self._find(new_depth, rewarded, child_semi, child)
            line.pop()
            if known is not None:
                node.snapshot.restore(board)
            else:
                board.pop()
            if found:
                return True
        return False

    def _key_facts(self, key: Key) -> int | None:
        """Dead (material) or live, from the key alone; None when a board is needed (the loser is in check)."""
        black, white, pawns, knights, bishops, rooks, queens, turn, _, _ = key
        w_occ, l_occ = (white, black) if self.winner else (black, white)
        if not w_occ & (pawns | rooks | queens) and material_dead(w_occ, l_occ, pawns, knights, bishops, rooks):
            fact = _DEAD
        elif turn != self.winner and _in_check(key):
            return None
        else:
            fact = _LIVE
        self.facts[key] = fact
        return fact

    def _expand(self, was_semi_blocked: bool) -> _Node | None:
        """The classified legal moves of the position on the board (None: it has none)."""
        board = self.board
        moves = legal_moves(board)
        if not moves:
            return None
        winner = self.winner
        occ = board.occupied_co
        pawns = board.pawns
        knights = board.knights
        bishops = board.bishops
        turn = board.turn
        w_occ = occ[winner]
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
        kings = board.kings
        rooks = board.rooks
        push_rank_ok = (chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7) if turn else (
            chess.BB_RANK_4 | chess.BB_RANK_3 | chess.BB_RANK_2)

        rewarded: list[list[Any]] = []
        others: list[list[Any]] = []
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
                kind = (chess.PAWN if frm_bb & pawns else chess.BISHOP if frm_bb & bishops
                        else chess.ROOK if frm_bb & rooks else chess.QUEEN)
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
            (rewarded if variation == REWARD else others).append([variation, move, kind, None])
        # rewarded moves first: the same tree, but mates are met sooner
        return _Node(rewarded + others, semi_blocked, _Snapshot(board))
