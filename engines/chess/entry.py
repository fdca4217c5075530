"""What the move-entry board asks of the engines: an opening book's moves and the engine's few best
moves at a small budget, for :func:`adjudicator.chess.candidates.rank` (issue 21).

The candidate engine is a Stockfish pool of its own (one process, one thread, a small hash), apart
from the rulings' pool: a candidate list must never wait behind a thirty-second adjudication, and
a ruling never waits for a candidate list. When no engine can be had, or it fails, the candidates
come from the book and the heuristic alone (the TD loses some one-tap moves, nothing else).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import chess
import chess.engine
import chess.polyglot

from adjudicator.chess.analysis import EngineUnavailable
from adjudicator.chess.candidates import SHOWN, Candidate, rank
from adjudicator.chess.replay import RepetitionKey
from engines.chess.stockfish import _FAILURES, EngineSettings, StockfishPool, find_stockfish

DEBIAN_BOOK = "/usr/share/games/gnuchess/book.bin"
"""Debian's ``gnuchess-book``: GNU Chess's opening book in Polyglot format (public domain)."""

DEFAULT_NODES = 300
"""The engine's budget per candidate list: a few milliseconds. Measured by bench/entry.py on 80 lichess games
(2,819 plies): 300 nodes find the written move among the eight candidates in 86.4 % of the plies, 1000 nodes in
83.2 %, 100 in 78.1 %, 500 in 85.8 % (issue 37); on 9 masters' games 300 and 1000 nodes are alike."""


class OpeningBook:
    """A Polyglot opening book: the moves it knows in a position, by weight."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._reader = chess.polyglot.open_reader(self.path)
        self._lock = threading.Lock()

    @classmethod
    def find(cls, configured: str | None = None) -> OpeningBook | None:
        """The configured book, else Debian's; None when there is none (an empty string: no book)."""
        path = Path(configured).expanduser() if configured else Path(DEBIAN_BOOK)
        if configured == "" or not path.is_file():
            return None
        try:
            return cls(path)
        except OSError:
            return None

    def moves(self, board: chess.Board) -> list[chess.Move]:
        """The book's moves in ``board``, heaviest first (none: an empty list)."""
        with self._lock:
            entries = list(self._reader.find_all(board))
        entries.sort(key=lambda entry: (-entry.weight, entry.move.uci()))
        return [entry.move for entry in entries]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._reader.close()


class CandidateEngine(StockfishPool):
    """A Stockfish pool whose one question is "your ``count`` best moves after ``nodes`` nodes"."""

    @classmethod
    def from_config(cls, engines: Mapping[str, Any]) -> CandidateEngine:
        """One process of the configured Stockfish with a one-thread, 16 MB set-up and a 5 s hard limit.

        :raises EngineUnavailable: no Stockfish here.
        """
        binary = find_stockfish(str(engines.get("stockfish") or "") or None)
        return cls(EngineSettings(command=(binary,), pool_size=1, threads=1, hash_mb=16,
                                  timeout_seconds=5.0, start_timeout_seconds=5.0))

    def top_moves(self, board: chess.Board, nodes: int = DEFAULT_NODES, count: int = SHOWN) -> list[chess.Move]:
        """The engine's ``count`` best moves (MultiPV), best first; one restart after a failure.

        :raises EngineUnavailable: the engine failed twice or could not start.
        """
        if not any(board.generate_legal_moves()):
            return []
        deadline = time.monotonic() + self.settings.timeout_seconds
        process = self._acquire(deadline)
        failures: list[str] = []
        try:
            for _attempt in range(2):
                try:
                    if process is None:
                        process = self._start()
                    process.configure({"Threads": 1, "Hash": self.settings.hash_mb})
                    # the position alone (a record's null move cannot go to the engine, and the moves
                    # before it change nothing in a few-node search)
                    infos = process.engine.analyse(board.copy(stack=False), chess.engine.Limit(nodes=nodes),
                                                   multipv=count)
                    return [info["pv"][0] for info in infos if info.get("pv")]
                except _FAILURES as exc:
                    failures.append(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
                if process is not None:
                    self._discard(process)
                    process = None
            raise EngineUnavailable("the candidate engine failed twice: " + "; ".join(failures))
        finally:
            self._idle.put(process)


class Candidates:
    """The candidate moves of a position: the book and the engine, ranked by
    :func:`adjudicator.chess.candidates.rank`. Thread-safe; :meth:`close` ends the engine."""

    def __init__(self, engine: CandidateEngine | None, book: OpeningBook | None, nodes: int = DEFAULT_NODES) -> None:
        self.engine = engine
        self.book = book
        self.nodes = nodes
        self.engine_problem: str | None = None
        """Why the last list had no engine moves (None: it had them, or no engine is configured)."""

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Candidates:
        """``[entry]``: ``book`` (a Polyglot file; empty: none; unset: Debian's gnuchess-book when
        installed), ``engine_nodes`` (0: no engine); the engine is ``[engines].stockfish``."""
        entry = config.get("entry", {})
        nodes = int(entry.get("engine_nodes", DEFAULT_NODES))
        engine: CandidateEngine | None = None
        if nodes > 0:
            try:
                engine = CandidateEngine.from_config(config.get("engines", {}))
            except EngineUnavailable:
                engine = None
        book_path = entry.get("book")
        return cls(engine, OpeningBook.find(None if book_path is None else str(book_path)), nodes)

    def warm_up(self) -> None:
        """Start the engine (and load its network) before the first list that needs it; failures are
        the first list's to report."""
        if self.engine is not None:
            with contextlib.suppress(Exception):
                self.engine.top_moves(chess.Board(), 1, 1)

    def rank(self, board: chess.Board, earlier: list[RepetitionKey], last_move: chess.Move | None = None,
             count: int = SHOWN) -> tuple[Candidate, ...]:
        book = self.book.moves(board) if self.book is not None else []
        engine: list[chess.Move] = []
        # an engine is asked about positions that can arise in a game only (a position after an illegal
        # move, the side not to move in check, say, may crash it): those get the book and the heuristic
        if self.engine is not None and len(book) < count and board.is_valid():
            try:
                engine = self.engine.top_moves(board, self.nodes, count)
                self.engine_problem = None
            except EngineUnavailable as exc:
                self.engine_problem = str(exc)
        return rank(board, earlier, book, engine, last_move, count)

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
        if self.book is not None:
            self.book.close()
