"""The unwinnability analysis: can a side checkmate by ANY series of legal moves?

FIDE 6.9 (flag fall: the game is drawn if the opponent cannot checkmate by any
series of legal moves), A.5.3 and B.3 (rapid, blitz), and 5.2.2 (dead position:
neither side can). The steps, cheapest first, each able to end the analysis:

1. forced moves: while the side to move has one legal move, play it; a forced
   line that repeats a position can never lead anywhere else (unwinnable);
2. terminal positions: checkmate by W (winnable), stalemate or W mated (unwinnable);
3. the asymmetric material rule (:mod:`.material`);
4. when the helpmate kernel runs compiled (:mod:`.certificate`): its short pass
   (where most helpmates of real games are found), the blockade analysis of the
   position (:mod:`.blockade`), then the rest of its search; a certificate is a
   helpmate it finds within its node budget and that replays to mate move by move; a
   certificate ends the analysis (winnable). Without one, the kernel visits every
   reachable position if there are few enough (its closure: no mate among them is
   a proof; a mate gives a line, checked the same way). Otherwise the steps below
   go on as they would without the kernel;
5. a short helpmate search (nominal depth 2, a small node budget): shallow
   mates are found, and a tree this small is searched to its end (a proof);
6. the blockade analysis (:mod:`.blockade`) of the position, then of every
   position one move later (with forced moves played), before any deep search;
7. iterative-deepening helpmate search (:mod:`.helpmate`) over the first moves
   the blockade analysis could not settle; once a first stretch of it has
   failed, every reachable position is visited if there are few enough
   (the *closure*: no mate among them is a proof, a mate gives the line),
   and a second deepening tries the moves in the other order on a part of
   the budget (a mate it finds is the answer; else the first search goes on).

The result is three-valued: unwinnable (a proof), winnable (with a helpmate
that replays to mate), or undecided when the node or time budget runs out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import chess

from adjudicator.services import MateSearch

from .blocked import is_blockade_unwinnable
from .certificate import COMPILED, deep_certificate, legal_move_count, quick_certificate, visit_reachable
from .helpmate import BudgetExhausted, HelpmateSearch
from .material import is_material_unwinnable

_MAX_DEPTH = 1000
"""Deepest nominal depth of the helpmate search."""


class PositionError(ValueError):
    """The board is not a chess position the analysis can rule on (missing king, king en prise...)."""


_FATAL = (
    chess.STATUS_NO_WHITE_KING
    | chess.STATUS_NO_BLACK_KING
    | chess.STATUS_TOO_MANY_KINGS
    | chess.STATUS_OPPOSITE_CHECK
    | chess.STATUS_PAWNS_ON_BACKRANK
    | chess.STATUS_EMPTY
)


def check_position(board: chess.Board) -> None:
    """Raise :class:`PositionError` unless ``board`` is a position kings and pawns could stand in."""
    status = board.status()
    if status & _FATAL:
        problems = []
        if status & (chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_EMPTY):
            problems.append("each side needs exactly one king")
        if status & chess.STATUS_TOO_MANY_KINGS:
            problems.append("a side has more than one king")
        if status & chess.STATUS_OPPOSITE_CHECK:
            problems.append("the side not to move is in check")
        if status & chess.STATUS_PAWNS_ON_BACKRANK:
            problems.append("a pawn stands on the first or last rank")
        raise PositionError("not a legal position: " + "; ".join(problems))


@dataclass(frozen=True)
class DeadPosition:
    """FIDE 5.2.2: the game is drawn when neither player can checkmate by any series of legal moves."""

    white: MateSearch
    black: MateSearch

    rule_refs: tuple[str, ...] = ("FIDE 5.2.2",)

    @property
    def reasons(self) -> tuple[str, ...]:
        """One sentence per side, as an arbiter would put it."""
        out = []
        for name, found in (("White", self.white), ("Black", self.black)):
            if found.unwinnable is True:
                out.append(f"{name} cannot checkmate by any series of legal moves ({found.method}).")
            elif found.unwinnable is False:
                line = " ".join(found.helpmate or ())
                out.append(f"{name} can still checkmate, for instance: {line or 'the position is mate'}.")
            else:
                out.append(f"Whether {name} can checkmate is undecided within the analysis budget ({found.method}).")
        return tuple(out)

    @property
    def is_dead(self) -> bool | None:
        """True: dead position; False: some side can still mate; None: undecided within the budget."""
        if self.white.unwinnable is False or self.black.unwinnable is False:
            return False
        if self.white.unwinnable and self.black.unwinnable:
            return True
        return None


def _two_or_more(board: chess.Board) -> tuple[chess.Move | None, bool]:
    """The first legal move, and whether there is a second one."""
    first: chess.Move | None = None
    for move in board.generate_legal_moves():
        if first is not None:
            return first, True
        first = move
    return first, False


def _forced_line(board: chess.Board) -> tuple[list[chess.Move], bool]:
    """Plays single legal moves on ``board``; returns them and whether the line repeated a position."""
    played, repeated, _ = forced_moves(board)
    return played, repeated


def forced_moves(board: chess.Board) -> tuple[list[chess.Move], bool, bool]:
    """:func:`_forced_line`, and whether the side to move at its end has a legal move."""
    played: list[chess.Move] = []
    seen = {board._transposition_key()}
    while True:
        move, more = _two_or_more(board)
        if move is None or more:
            return played, False, move is not None
        board.push(move)
        played.append(move)
        key = board._transposition_key()
        if key in seen:
            return played, True, True
        seen.add(key)


def game_over_for(board: chess.Board, color: chess.Color) -> bool:
    """The side to move has no legal move: True (unwinnable for ``color``) unless ``color`` has mated."""
    return not (board.turn != color and board.is_check())


def replays_to_mate(board: chess.Board, moves: list[str] | tuple[str, ...], winner: chess.Color) -> bool:
    """The UCI ``moves`` are legal from ``board`` and end with ``winner`` giving checkmate."""
    test = board.copy(stack=False)
    for uci in moves:
        move = chess.Move.from_uci(uci)
        if move not in test.legal_moves:
            return False
        test.push(move)
    return test.turn != winner and test.is_checkmate()


class UnwinnabilityAnalyser:
    """The helpmate oracle (``adjudicator.services.MateOracle``) for FIDE 6.9 and 5.2.2.

    ``node_limit`` and ``time_limit`` (seconds of this process's processor time,
    so that a busy machine does not change a verdict) bound each query; when
    either runs out the answer is undecided (``unwinnable=None``), which never
    turns a loss into a draw by itself.
    """

    def __init__(
        self,
        node_limit: int = 400_000,
        time_limit: float = 5.0,
        quick_nodes: int = 150,
        iteration_nodes: int = 10_000,
        first_stretch: int = 40_000,
        closure_positions: int = 30_000,
        other_order_nodes: int = 100_000,
        certificate_nodes: int | None = None,
        kernel_closure_positions: int = 500_000,
        use_kernel: bool = COMPILED,
    ) -> None:
        """``certificate_nodes``: the helpmate kernel's budget (step 4; default five times
        ``node_limit``: a kernel node costs about a twentieth of a Python search node);
        ``kernel_closure_positions``: when no certificate is found, the kernel visits every
        reachable position if there are at most this many (no mate among them: unwinnable);
        ``use_kernel``: run step 4 (by default when the kernel is compiled: as plain Python
        it is slower than the search of the later steps, which then decide alone)."""
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.quick_nodes = quick_nodes
        self.iteration_nodes = iteration_nodes
        self.first_stretch = first_stretch
        self.closure_positions = closure_positions
        self.other_order_nodes = other_order_nodes
        self.certificate_nodes = 5 * node_limit if certificate_nodes is None else certificate_nodes
        self.kernel_closure_positions = kernel_closure_positions
        self.use_kernel = use_kernel

    def is_dead_position(self, board: chess.Board) -> DeadPosition:
        """FIDE 5.2.2: the analysis for both colours."""
        return DeadPosition(white=self.search(board, chess.WHITE), black=self.search(board, chess.BLACK))

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch:
        """Can ``color`` checkmate from ``board`` by any series of legal moves (FIDE 6.9)?

        A board that is no legal position (a king missing, the side not to move in
        check, ...) gets an undecided answer naming the problem: the arbiter rules.
        """
        try:
            check_position(board)
        except PositionError as exc:
            return MateSearch(color=color, unwinnable=None, helpmate=None, method=f"illegal-position: {exc}")
        work = board.copy(stack=False)
        deadline = time.process_time() + self.time_limit
        nodes = 0
        kernel_nodes = 0

        def result(unwinnable: bool | None, method: str, line: list[chess.Move] | None = None) -> MateSearch:
            helpmate = None
            if unwinnable is False and line is not None:
                helpmate = tuple(m.uci() for m in line)
            return MateSearch(color=color, unwinnable=unwinnable, helpmate=helpmate, method=method,
                              nodes=nodes + kernel_nodes)

        # 1-2. forced moves, terminal positions (two legal moves or more, counted by the kernel: none)
        count = legal_move_count(work) if self.use_kernel else None
        prefix: list[chess.Move] = []
        if count is not None and count >= 2:
            repeated, has_move = False, True
        else:
            prefix, repeated, has_move = forced_moves(work)
        if repeated:
            return result(True, "forced-repetition")
        terminal = None if has_move else game_over_for(work, color)
        if terminal is not None:
            return result(terminal, "checkmate" if terminal is False else "terminal", prefix)
        # 3. material
        if is_material_unwinnable(work, color):
            return result(True, "material")
        # 4. the kernel's short pass (most helpmates of real games), the blockade of the position
        #    itself, then the rest of the kernel's search: a certificate. (The short pass first
        #    changes no verdict: a checked helpmate and a blockade proof cannot both exist.)
        blocked: bool | None = None
        if self.use_kernel:
            first = quick_certificate(work, color, self.certificate_nodes)
            kernel_nodes = first.certificate.nodes  # reported with the search's; the search keeps its own budget
            if first.certificate.line is None:
                blocked = is_blockade_unwinnable(work, color)
                if blocked:
                    return result(True, "blockade")
            certificate = deep_certificate(work, first)
            kernel_nodes = certificate.nodes
            if certificate.line is not None:
                helpmate = tuple(m.uci() for m in prefix) + certificate.line
                return MateSearch(color=color, unwinnable=False, helpmate=helpmate, method="certificate",
                                  nodes=kernel_nodes)
            reachable = visit_reachable(work, color, self.kernel_closure_positions)
            kernel_nodes += reachable.nodes
            if reachable.mate_reachable is False:
                return result(True, "closure")
            if reachable.mate_reachable and reachable.line is not None:
                helpmate = tuple(m.uci() for m in prefix) + reachable.line
                return MateSearch(color=color, unwinnable=False, helpmate=helpmate, method="closure",
                                  nodes=kernel_nodes)
        # 5. a short exhaustive search: small trees are settled, shallow mates found
        probe = HelpmateSearch(work, color, self.node_limit, deadline)
        try:
            found = probe.iteration(2, self.quick_nodes, use_tt=False)
        except BudgetExhausted:
            nodes = probe.nodes
            return result(None, "budget")
        nodes = probe.nodes
        if found:
            assert probe.mate is not None
            return result(False, "search", prefix + probe.mate)
        if not probe.interrupted:
            return result(True, "search")
        # 6. blockade analysis, of the position and of every position one move later
        if blocked is None and is_blockade_unwinnable(work, color):
            return result(True, "blockade")
        moves = list(work.generate_legal_moves())
        open_moves: list[chess.Move] = []
        for move in moves:
            work.push(move)
            if not self._settled_after(work, color):
                open_moves.append(move)
            work.pop()
        if not open_moves:
            return result(True, "blockade")
        # 7. iterative-deepening helpmate search, over the first moves still open; when a first
        #    stretch of it fails, visit every reachable position if there are few (a proof either way)
        roots: list[tuple[list[chess.Move], HelpmateSearch]] = []
        if len(open_moves) == len(moves):
            roots.append(([], HelpmateSearch(work, color, 0, deadline, share=probe)))
        else:
            for move in open_moves:
                work.push(move)
                roots.append(([move], HelpmateSearch(work, color, 0, deadline, share=probe)))
                work.pop()
        proved = 0
        closure_tried = False
        for first_moves, deep in roots:
            while deep.next_depth <= _MAX_DEPTH:
                before = deep.nodes
                deep.node_limit = deep.nodes + self.node_limit - nodes
                try:
                    verdict = deep.deepen(self.iteration_nodes, stop=deep.next_depth)
                except BudgetExhausted:
                    nodes += deep.nodes - before
                    return result(None, "budget")
                nodes += deep.nodes - before
                if verdict is True:
                    assert deep.mate is not None
                    return result(False, "search", [*prefix, *first_moves, *deep.mate])
                if verdict is False:
                    proved += 1
                    break
                if not closure_tried and nodes >= self.first_stretch:
                    closure_tried = True
                    visit = HelpmateSearch(work, color, 0, deadline, share=probe)
                    closure = visit.exhaust(self.closure_positions)
                    if closure is False:
                        return result(True, "closure")
                    if closure is True:
                        assert visit.mate is not None
                        return result(False, "closure", prefix + visit.mate)
                    other = self._other_order(work, color, deadline, probe, self.node_limit - nodes)
                    nodes += other.nodes
                    if other.mate is not None:
                        return result(False, "search", prefix + other.mate)
        if proved == len(roots):
            return result(True, "search" if len(roots) == 1 else "blockade+search")
        return result(None, "budget")

    def _other_order(
        self, board: chess.Board, color: chess.Color, deadline: float, probe: HelpmateSearch, budget: int
    ) -> HelpmateSearch:
        """A second iterative deepening from the root with the moves in the other order (rewarded
        first), on a part of the budget: where the first order stalls this one often meets the
        mate early. Only a mate found is used (``.mate``); the first search goes on otherwise."""
        other = HelpmateSearch(board, color, min(self.other_order_nodes, budget), deadline, share=probe, by_kind=False)
        try:
            while other.next_depth <= _MAX_DEPTH:
                if other.deepen(self.iteration_nodes, stop=other.next_depth) is not None:
                    break
        except BudgetExhausted:
            pass
        return other

    @staticmethod
    def _terminal(board: chess.Board, color: chess.Color) -> bool | None:
        """Unwinnable (True), won (False) or not over (None) when the side to move has no move."""
        move, _ = _two_or_more(board)
        if move is not None:
            return None
        return not (board.turn != color and board.is_check())

    def _settled_after(self, board: chess.Board, color: chess.Color) -> bool:
        """After one move: do forced moves, the end of the game or the blockade prove W cannot mate?"""
        forced, repeated, has_move = forced_moves(board)
        try:
            if repeated:
                return True
            terminal = None if has_move else game_over_for(board, color)
            if terminal is not None:
                return terminal
            return is_blockade_unwinnable(board, color)
        finally:
            for _ in forced:
                board.pop()
