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
from .positions import Key, Snapshot, child_key, in_check, position_key, set_board

NORMAL, REWARD, PUNISH = 0, 1, 2
_NO_REWARD_AFTER = 400
_MAX_LINE = 700
"""Longest line searched (plies): keeps the recursion within Python's limit."""


class BudgetExhausted(Exception):
    """The global node or time budget ran out."""


def _nb_blocked_pawns(board: chess.Board) -> int:
    white = board.pawns & board.occupied_co[chess.WHITE]
    return (white << 8 & board.pawns & board.occupied_co[chess.BLACK]).bit_count()


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
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    between = (white << 8) & (black >> 8)
    between &= chess.BB_ALL
    return chess.lsb(between) if between else None


def _not_a_pawn(entry: list[Any]) -> bool:
    return bool(entry[2] != chess.PAWN)


def _kind(entry: list[Any]) -> int:
    return int(entry[2])


_DEAD, _MATE, _LIVE = 0, 1, 2
"""Facts of a position that do not depend on the path: no mate can follow, W has mated, or neither."""

class _Node:
    """A position's classified moves (rewarded first) and the keys of the positions they lead to.

    Each child is ``[variation, move, moving piece type, key of the position after it or None]``.
    """

    __slots__ = ("children", "mates_looked_for", "semi_blocked", "snapshot")

    def __init__(self, children: list[list[Any]], semi_blocked: bool,
                 snapshot: Snapshot) -> None:
        self.children = children
        self.semi_blocked = semi_blocked
        self.snapshot = snapshot
        self.mates_looked_for = False
        """W to move: every child was checked for a mate once (none is one)."""


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
        by_kind: bool = True,
    ) -> None:
        """``deadline``: in ``time.process_time()`` seconds (this process's processor time, so a
        busy machine does not change the verdict); ``share``: an earlier search for the same
        winner whose expanded positions may be reused; ``by_kind``: the order moves are tried
        in (see :meth:`_expand`)."""
        self.by_kind = by_kind
        self.board = board.copy(stack=False)
        self.winner = winner
        self.loser = not winner
        self.node_limit = node_limit
        self.deadline = deadline
        self.time_check = 0
        self.nodes = 0
        self.local_nodes = 0
        self.local_limit = 0
        self.max_depth = 0
        self.interrupted = False
        """The last pass was cut off somewhere (depth or node limit)."""
        self.stale = False
        """The last pass skipped positions searched in an earlier pass (so it proves nothing alone)."""
        self.use_tt = True
        self.tt: dict[Key, int] = {}
        """Position key -> iteration number * 65536 + plies of depth it was searched with."""
        self.iteration_number = 0
        self.next_depth = 2
        """The depth of the next iterative-deepening pass."""
        self.facts: dict[Key, int] = {}
        self.expanded: tuple[dict[Key, _Node], dict[Key, _Node]] = ({}, {})
        if share is not None and share.winner == winner:
            self.facts = share.facts  # facts do not depend on the order of moves
            if share.by_kind == by_kind:
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
        self.stale = False
        self.use_tt = use_tt
        self.iteration_number += 1
        self.line = []
        return self._find(0, False, False, position_key(self.board))

    def deepen(self, local_limit: int = 10_000, stop: int = 1000) -> bool | None:
        """Iterative deepening: True = mate found, False = no helpmate exists, None = cut off.

        Raises :class:`BudgetExhausted` when the node or time budget runs out; the
        board is then put back and a later call (with a larger ``node_limit``)
        goes on from the pass that was cut short.
        """
        root = Snapshot(self.board)
        try:
            return self._deepen(local_limit, stop)
        except BudgetExhausted:
            root.restore(self.board)
            self.board.clear_stack()
            self.tt.clear()  # the pass cut short must be searched again in full
            raise

    def _deepen(self, local_limit: int, stop: int) -> bool | None:
        for max_depth in range(self.next_depth, stop + 1):
            self.next_depth = max_depth
            if self.iteration(max_depth, local_limit):
                return True
            if not self.interrupted and self.stale:
                # no cut-off, but earlier passes stood in for some positions: repeat the pass on its own
                self.tt.clear()
                if self.iteration(max_depth, local_limit):
                    return True
            if not self.interrupted and not self.stale:
                return False
        self.next_depth = stop + 1
        return None

    def exhaust(self, max_positions: int) -> bool | None:
        """Visits every position reachable from the root (no depth limit) while there are few of them.

        True: a position where W has mated is reachable (the line to it is left in
        ``self.mate``); False: every reachable position was visited and none is
        such a mate (a proof of unwinnability); None: more than ``max_positions``
        positions, or the time budget ran out.
        """
        board = self.board
        root = position_key(board)
        root_snapshot = Snapshot(board)
        parents: dict[Key, tuple[Key, chess.Move] | None] = {root: None}
        stack = [(root, root_snapshot)]
        expanded = self.expanded[False]

        def line_to(key: Key) -> list[chess.Move]:
            line: list[chess.Move] = []
            step = parents[key]
            while step is not None:
                line.append(step[1])
                step = parents[step[0]]
            line.reverse()
            return line

        try:
            while stack:
                key, snapshot = stack.pop()
                snapshot.restore(board)
                fact = self.facts.get(key)
                if fact is None:
                    fact = self._leaf_facts(key)
                if fact == _MATE:
                    self.mate = line_to(key)
                    return True
                if fact == _DEAD:
                    continue
                node = expanded.get(key) or self.expanded[True].get(key)
                if node is None:
                    node = self._expand(False)
                    if node is None:
                        self.facts[key] = _DEAD
                        continue
                    expanded[key] = node
                if len(parents) > self.time_check:
                    if time.process_time() > self.deadline:
                        return None
                    self.time_check = len(parents) + 1000
                for entry in node.children:
                    child = entry[3]
                    if child is None:
                        child = entry[3] = child_key(key, entry[1], entry[2])
                    if child in parents:
                        continue
                    parents[child] = (key, entry[1])
                    if len(parents) > max_positions:
                        return None
                    fact = self.facts.get(child)
                    if fact is None:
                        fact = self._key_facts(child)
                    if fact == _DEAD:
                        continue
                    if fact == _MATE:
                        self.mate = line_to(child)
                        return True
                    known = expanded.get(child)
                    if known is not None:
                        stack.append((child, known.snapshot))
                        continue
                    set_board(board, child)
                    stack.append((child, Snapshot(board)))
                    node.snapshot.restore(board)
                    self.nodes += 1
            return False
        finally:
            root_snapshot.restore(board)

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
                    self.stale = True  # searched in an earlier pass, which may have been cut off
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
        if depth >= max_depth or self.local_nodes >= self.local_limit or len(self.line) > _MAX_LINE:
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
        if self.nodes >= self.node_limit:
            raise BudgetExhausted
        if self.nodes >= self.time_check:
            if time.process_time() > self.deadline:
                raise BudgetExhausted
            self.time_check = self.nodes + 2000

        board = self.board
        line = self.line
        facts = self.facts
        if not node.mates_looked_for and board.turn == self.winner:
            mate = self._mate_in_one(node, key)
            if mate is not None:
                self.mate = [*line, mate]
                return True
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
                child = entry[3] = child_key(key, move, kind)
            if use_tt:
                seen = tt.get(child)
                if seen is not None and seen & 0xFFFF >= max_depth - new_depth:
                    if seen >> 16 != iteration_number:
                        self.stale = True
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
                set_board(board, child)
            line.append(move)
            found = self._find(new_depth, rewarded, child_semi, child)
            line.pop()
            node.snapshot.restore(board)
            if found:
                return True
        return False

    def _mate_in_one(self, node: _Node, key: Key) -> chess.Move | None:
        """W to move at ``node``: a move that mates at once, looked for before any line is followed.

        Only checking moves are tried (from the child's key); a depth-first pass would otherwise
        follow a whole subtree under the first move before meeting a mate one move away.
        """
        node.mates_looked_for = True
        board = self.board
        facts = self.facts
        for entry in node.children:
            child = entry[3]
            if child is None:
                child = entry[3] = child_key(key, entry[1], entry[2])
            fact = facts.get(child)
            if fact is None:
                fact = self._key_facts(child)
                if fact is None:  # the loser is in check: is it mate?
                    self.nodes += 1
                    set_board(board, child)
                    fact = self._leaf_facts(child)
                    node.snapshot.restore(board)
            if fact == _MATE:
                return entry[1]  # type: ignore[no-any-return]
        return None

    def _key_facts(self, key: Key) -> int | None:
        """Dead (material) or live, from the key alone; None when a board is needed (the loser is in check)."""
        black, white, pawns, knights, bishops, rooks, queens, turn, _, _ = key
        w_occ, l_occ = (white, black) if self.winner else (black, white)
        if not w_occ & (pawns | rooks | queens) and material_dead(w_occ, l_occ, pawns, knights, bishops, rooks):
            fact = _DEAD
        elif turn != self.winner and in_check(key):
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
        # the same tree in a better order, so that mates are met sooner: rewarded moves first, and
        # within each group pawn moves first (W's pawns head for promotion, the loser's make blockers;
        # on real game positions this order needs about a third less processor time)
        # The same tree in either order; the order decides how soon a mate is met. By kind (pawns,
        # knights, bishops, rooks, queens, king, as Stockfish generates them, which CHA follows):
        # better on real game positions and long blocked lines. Rewarded moves first (pawn moves
        # first within each group): better where the loser's king must walk into a corner.
        if self.by_kind:
            children = rewarded + others
            children.sort(key=_kind)
        else:
            if winners_turn:
                rewarded.sort(key=_not_a_pawn)
            others.sort(key=_not_a_pawn)
            children = rewarded + others
        return _Node(children, semi_blocked, Snapshot(board))
