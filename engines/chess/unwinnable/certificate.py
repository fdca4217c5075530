"""Certificates of winnability (FIDE 6.9, 5.2.2): a helpmate found by the kernel, checked move by move.

A position is winnable for W when some series of legal moves ends in checkmate by W.
:func:`find_certificate` asks the helpmate kernel (:mod:`.kernel`, compiled to C when
``setup.py`` could build it) for such a series within a node budget, then replays it on
the kernel's board with a second reading of the rules (each move checked by how its
piece moves, not looked up among generated moves) and requires a checkmate by W at its
end. Only a line that passes is returned; a search that finds none proves nothing.

The kernel does not use python-chess; the tests check its move generator (perft) and
its replay against python-chess, and every certificate of the public and real sets
against python-chess's own replay.
"""

from __future__ import annotations

import importlib.util
import threading
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import chess

from . import kernel as _loaded

_HERE = Path(__file__).parent


def _kernel() -> ModuleType:
    """The compiled kernel when it was built from the source now beside it (setup.py records the
    source's CRC-32 in kernel_build.txt), else kernel.py as plain Python."""
    if not _loaded.COMPILED:
        return _loaded
    source = (_HERE / "kernel.py").read_bytes() + (_HERE / "kernel.pxd").read_bytes()
    try:
        built = (_HERE / "kernel_build.txt").read_text(encoding="utf-8").strip()
    except OSError:
        built = ""
    if built == f"{zlib.crc32(source):08x}":
        return _loaded
    warnings.warn("the compiled helpmate kernel is older than kernel.py: using kernel.py as plain Python "
                  "(run .ci/install to rebuild it)", RuntimeWarning, stacklevel=2)
    spec = importlib.util.spec_from_file_location("engines.chess.unwinnable._kernel_source", _HERE / "kernel.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kernel = _kernel()

COMPILED: bool = bool(kernel.COMPILED)
"""The kernel runs as C (the extension built by setup.py from the source beside it), not as plain Python."""

_LOCK = threading.Lock()
"""The kernel keeps its board in module state: one search at a time in a process."""

_UCI_SQUARES = [chess.SQUARE_NAMES[i & 63] + chess.SQUARE_NAMES[i >> 6] for i in range(4096)]
"""A kernel move's from- and to-square in UCI, by its low 12 bits."""
_UCI_PROMOTION = ("", "", "n", "b", "r", "q", "", "")


@dataclass(frozen=True)
class Certificate:
    """A helpmate for ``winner`` that replayed to checkmate (UCI moves), and the nodes searched."""

    winner: chess.Color
    line: tuple[str, ...] | None
    nodes: int
    rule_refs: tuple[str, ...] = ("FIDE 6.9", "FIDE 5.2.2")


def kernel_position(board: chess.Board) -> tuple[list[int], int, int, int] | None:
    """The kernel's form of ``board`` (bitboards, turn, en-passant square, castling bits), or
    None for a position it does not model (Chess960 castling)."""
    if board.chess960:
        return None
    rights = board.castling_rights and board.clean_castling_rights()
    castling = 0
    for bit, flag in ((chess.BB_H1, 1), (chess.BB_A1, 2), (chess.BB_H8, 4), (chess.BB_A8, 8)):
        if rights & bit:
            castling |= flag
            rights &= ~bit
    if rights:
        return None
    occ = board.occupied_co
    bitboards = [occ[chess.BLACK], occ[chess.WHITE], board.pawns, board.knights, board.bishops, board.rooks,
                 board.queens, board.kings]
    ep = board.ep_square if board.ep_square is not None else -1
    return bitboards, int(board.turn), ep, castling


def uci(move: int) -> str:
    """A kernel move in UCI (castling as the king's two-square step, as python-chess writes it)."""
    return _UCI_SQUARES[move & 4095] + _UCI_PROMOTION[(move >> 12) & 7]


def uci_line(line: list[int]) -> tuple[str, ...]:
    """A kernel line in UCI (:func:`uci` move by move)."""
    return tuple([_UCI_SQUARES[m & 4095] + _UCI_PROMOTION[(m >> 12) & 7] for m in line])


def find_certificate(board: chess.Board, winner: chess.Color, node_limit: int) -> Certificate:
    """A checked helpmate for ``winner`` from ``board`` within ``node_limit`` nodes, if the kernel finds one.

    ``board`` must be a legal position (:func:`.analyser.check_position`); it is not changed.
    """
    first = quick_certificate(board, winner, node_limit)
    return first.certificate if first.is_final else deep_certificate(board, first)


@dataclass(frozen=True)
class QuickCertificate:
    """The kernel's short pass (the first stage of :func:`find_certificate`): its certificate, and
    whether the deepening may still find one (``is_final`` False), with what is left of the budget."""

    certificate: Certificate
    is_final: bool
    node_limit: int
    position: tuple[list[int], int, int, int] | None = None
    """The kernel's form of the board (:func:`kernel_position`), for the deepening."""


def quick_certificate(board: chess.Board, winner: chess.Color, node_limit: int) -> QuickCertificate:
    """The short pass of :func:`find_certificate` alone: most helpmates of real games are found here,
    before any costlier analysis; :func:`deep_certificate` goes on with the same search."""
    position = kernel_position(board)
    if position is None:
        return QuickCertificate(Certificate(winner, None, 0), True, node_limit)
    with _LOCK:
        kernel.load(*position)
        line, nodes, more = kernel.quick_pass(int(winner), node_limit)
        if line is None:
            return QuickCertificate(Certificate(winner, None, nodes), not more, node_limit, position)
        if not kernel.replays_to_mate(line, int(winner)):
            return QuickCertificate(Certificate(winner, None, nodes), True, node_limit)
    return QuickCertificate(Certificate(winner, uci_line(line), nodes), True, node_limit)


def deep_certificate(board: chess.Board, first: QuickCertificate) -> Certificate:
    """The iterative deepening of :func:`find_certificate` after its short pass ``first`` (from the same
    ``board``): the same search, hence the same line, as one call of :func:`find_certificate`."""
    winner = first.certificate.winner
    position = first.position
    if first.is_final or position is None:
        return first.certificate
    with _LOCK:
        kernel.load(*position)
        line, nodes = kernel.deepening(int(winner), first.node_limit, first.certificate.nodes)
        if line is None or not kernel.replays_to_mate(line, int(winner)):
            return Certificate(winner, None, nodes)
    return Certificate(winner, uci_line(line), nodes)


def legal_move_count(board: chess.Board) -> int | None:
    """How many legal moves the side to move has, by the kernel's generator (None: a position it
    does not model); the tests check that generator against python-chess."""
    position = kernel_position(board)
    if position is None:
        return None
    with _LOCK:
        kernel.load(*position)
        return int(kernel.legal_move_count())


@dataclass(frozen=True)
class Closure:
    """Every position reachable from a board, visited by the kernel (FIDE 6.9: "any series of legal moves").

    ``mate_reachable``: True, with a ``line`` that replayed to a mate by ``winner``; False, every
    reachable position was visited and none is such a mate (a proof that ``winner`` cannot mate);
    None, more than the budget of positions (nothing proved). ``nodes``: moves made.
    """

    winner: chess.Color
    mate_reachable: bool | None
    line: tuple[str, ...] | None
    nodes: int
    rule_refs: tuple[str, ...] = ("FIDE 6.9", "FIDE 5.2.2")


def visit_reachable(board: chess.Board, winner: chess.Color, max_positions: int) -> Closure:
    """The kernel's closure of ``board`` for ``winner`` (positions compared whole, not by hash; a
    position where ``winner``'s material can no longer mate, :mod:`.material`, is not expanded)."""
    position = kernel_position(board)
    if position is None:
        return Closure(winner, None, None, 0)
    with _LOCK:
        kernel.load(*position)
        verdict, line, nodes = kernel.closure(int(winner), max_positions)
        if verdict == 1:
            assert line is not None
            if not kernel.replays_to_mate(line, int(winner)):
                return Closure(winner, None, None, nodes)
            return Closure(winner, True, uci_line(line), nodes)
    return Closure(winner, False if verdict == 0 else None, None, nodes)
