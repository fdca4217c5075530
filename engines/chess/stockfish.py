"""Stockfish (or any UCI engine) behind one wrapper: a small pool, limits, a hard timeout, restarts.

Implements :class:`adjudicator.chess.analysis.Analyst`. Every analysis runs under a node
and/or time limit *and* a hard wall-clock timeout; an idle engine is checked to be alive
before it is handed out (one that died in the pool is replaced without costing the
retry); an engine that crashes or hangs is killed and restarted once, and if the retry fails too the caller gets
:class:`~adjudicator.chess.analysis.EngineUnavailable` with the reason. Deterministic mode
(committee and appeal work) runs one thread with the hash cleared and a node limit
only, so a re-run gives identical numbers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import queue
import shutil
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.engine

from adjudicator.chess.analysis import AnalysisLimits, EngineEvidence, EngineUnavailable
from adjudicator.services import Progress, ServicesClosed

DEBIAN_PATH = "/usr/games/stockfish"
"""Where Debian's ``stockfish`` package puts the binary (not on root's PATH)."""

POLL_SECONDS = 0.05

RECORDED_DEFAULTS = ("EvalFile", "Use NNUE", "MultiPV", "Syzygy50MoveRule", "SyzygyProbeDepth", "SyzygyProbeLimit")
"""Options left at the engine's defaults that still shape its numbers; the evidence records them."""


def find_stockfish(configured: str | None = None) -> str:
    """The engine binary: the configured path, else ``stockfish`` on PATH, else Debian's /usr/games.

    :raises EngineUnavailable: none of them exists.
    """
    if configured:
        path = Path(configured).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
        found = shutil.which(configured)
        if found:
            return found
        raise EngineUnavailable(f"[engines].stockfish names {configured!r}, which is not an executable file")
    found = shutil.which("stockfish")
    if found:
        return found
    if os.access(DEBIAN_PATH, os.X_OK):
        return DEBIAN_PATH
    raise EngineUnavailable("Stockfish is not installed: not on PATH and not at /usr/games/stockfish")


def pool_size_for_machine(configured: int = 0) -> int:
    """``configured`` when positive; otherwise half the cores, at least 1 and at most 4."""
    if configured > 0:
        return configured
    return max(1, min(4, (os.cpu_count() or 2) // 2))


@dataclass(frozen=True)
class EngineSettings:
    """How the engines are started and limited (``[engines]`` in config.toml)."""

    command: tuple[str, ...]
    pool_size: int = 1
    threads: int = 1
    hash_mb: int = 64
    timeout_seconds: float = 30.0
    """Hard limit on one analysis; past it the process is killed."""
    start_timeout_seconds: float = 10.0
    """Limit on starting the engine and on each command to it (the UCI handshake, options)."""
    syzygy_path: str = ""
    """Directories (os.pathsep-separated) passed to the engine's SyzygyPath; empty: none."""
    deterministic_hash_mb: int = 16

    @classmethod
    def from_config(cls, engines: Mapping[str, Any], syzygy_dirs: Sequence[str] = ()) -> EngineSettings:
        binary = find_stockfish(str(engines.get("stockfish") or "") or None)
        return cls(
            command=(binary,),
            pool_size=pool_size_for_machine(int(engines.get("pool_size", 0))),
            threads=max(1, int(engines.get("threads", 1))),
            hash_mb=max(1, int(engines.get("hash_mb", 64))),
            timeout_seconds=float(engines.get("timeout_seconds", 30)),
            start_timeout_seconds=float(engines.get("start_timeout_seconds", 10)),
            syzygy_path=os.pathsep.join(syzygy_dirs),
        )


class _Process:
    """One running engine process and the options last sent to it."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(
                list(settings.command), timeout=settings.start_timeout_seconds, setpgrp=True
            )
        except (OSError, chess.engine.EngineError, TimeoutError) as exc:
            why = str(exc) or type(exc).__name__
            raise EngineUnavailable(f"the engine {settings.command[0]!r} did not start: {why}") from exc
        self.name = self.engine.id.get("name", Path(settings.command[0]).name)
        self.options: dict[str, str] = {}
        known = self.engine.options
        self.defaults = {name: str(known[name].default) for name in RECORDED_DEFAULTS if name in known}

    @property
    def pid(self) -> int:
        return int(self.engine.transport.get_pid())

    def is_alive(self, timeout: float = 2.0) -> bool:
        """Whether the process still runs and answers ``isready`` within ``timeout`` seconds.

        An engine can die while idle in the pool (killed, out of memory); handing it out
        would spend the analysis's one retry on a process that was already gone.
        """
        try:
            if self.engine.protocol.returncode.done() or self.engine.transport.get_returncode() is not None:
                return False
            ping = asyncio.run_coroutine_threadsafe(self.engine.protocol.ping(), self.engine.protocol.loop)
            ping.result(timeout=timeout)
        except Exception:
            return False
        return True

    def configure(self, wanted: Mapping[str, str | int | bool]) -> None:
        known = self.engine.options
        send = {k: v for k, v in wanted.items() if k in known and self.options.get(k) != str(v)}
        if send:
            self.engine.configure(send)
            self.options.update({k: str(v) for k, v in send.items()})

    def clear_hash(self) -> None:
        if "Clear Hash" in self.engine.options:
            self.engine.configure({"Clear Hash": None})

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.engine.transport.kill()
        with contextlib.suppress(Exception):
            self.engine.close()

    def quit(self) -> None:
        try:
            self.engine.quit()
        except Exception:
            self.kill()
        else:
            with contextlib.suppress(Exception):
                self.engine.close()


class _Hang(Exception):
    pass


class PoolClosed(ServicesClosed):
    """The pool was closed (its app shutting down) before or while an engine was started for an analysis."""


class _Cancelled(Exception):
    """Carries the progress callback's own exception past the retry logic."""

    def __init__(self, reason: BaseException) -> None:
        super().__init__(str(reason))
        self.reason = reason


_FAILURES = (chess.engine.EngineError, EngineUnavailable, OSError, TimeoutError, concurrent.futures.CancelledError)
"""What a crashed, hung or unstartable engine raises through ``chess.engine``."""


class StockfishPool:
    """A pool of engine processes, started on first use; thread-safe; :meth:`close` ends them all."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        self._idle: queue.LifoQueue[_Process | None] = queue.LifoQueue()
        for _ in range(settings.pool_size):
            self._idle.put(None)  # a slot; the process starts when first needed
        self._lock = threading.Lock()
        self._live: set[_Process] = set()
        self._closed = False

    # -- pool management
    def _acquire(self, deadline: float) -> _Process | None:
        """An idle engine that is alive, or None (a slot: start one); a dead one is discarded here."""
        try:
            process = self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineUnavailable(
                f"every engine in the pool ({self.settings.pool_size}) stayed busy for "
                f"{self.settings.timeout_seconds:g} s"
            ) from None
        if process is not None and not process.is_alive(min(2.0, self.settings.start_timeout_seconds)):
            self._discard(process)  # died while idle: a fresh one starts, and the retry is still there
            return None
        return process

    def _start(self) -> _Process:
        """A new engine process, kept in the pool's live set; one that finished starting after the pool was
        closed is quit at once (it would otherwise run, with its python-chess thread, until the program ends)."""
        if self._closed:
            raise PoolClosed("the engine pool is closed")
        process = _Process(self.settings)
        with self._lock:
            closed = self._closed
            if not closed:
                self._live.add(process)
        if closed:
            process.quit()
            raise PoolClosed("the engine pool was closed while the engine started")
        return process

    def _discard(self, process: _Process) -> None:
        process.kill()
        with self._lock:
            self._live.discard(process)

    def pids(self) -> list[int]:
        """Process ids of the running engines (for monitoring and fault tests)."""
        with self._lock:
            return [p.pid for p in self._live]

    def close(self) -> None:
        """Quit every engine process (politely, then by force); an engine still starting is quit when it is up."""
        with self._lock:
            self._closed = True
            live, self._live = list(self._live), set()
        for process in live:
            process.quit()

    # -- analysis
    def analyse(
        self, board: chess.Board, limits: AnalysisLimits, *, progress: Progress | None = None
    ) -> EngineEvidence:
        """Analyse ``board`` within ``limits``; one restart after a crash or hang, then EngineUnavailable."""
        if limits.nodes is None and limits.seconds is None:
            raise ValueError("an analysis needs a node or a time limit")
        if limits.deterministic and limits.nodes is None:
            raise ValueError("deterministic analysis needs a node limit")
        if board.is_game_over(claim_draw=False) and not board.legal_moves:
            raise ValueError("the position has no legal moves: nothing to analyse")
        deadline = time.monotonic() + self.settings.timeout_seconds
        slot = self._acquire(deadline)
        process = slot
        failures: list[str] = []
        try:
            for _attempt in range(2):
                try:
                    if process is None:
                        process = self._start()
                    return self._run(process, board, limits, progress, deadline)
                except _Cancelled as cancelled:
                    raise cancelled.reason from None
                except PoolClosed:
                    raise
                except _Hang as exc:
                    failures.append(str(exc))
                except _FAILURES as exc:
                    failures.append(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
                except RuntimeError as exc:
                    if "loop is closed" not in str(exc):
                        raise
                    # the process died and python-chess closed its event loop before we spoke to it
                    failures.append("the engine process ended")
                if process is not None:
                    self._discard(process)
                    process = None
                # the retry gets a fresh hard limit of its own
                deadline = time.monotonic() + self.settings.timeout_seconds
            raise EngineUnavailable("the engine failed twice: " + "; ".join(failures))
        finally:
            self._idle.put(process)

    def _options(self, limits: AnalysisLimits) -> dict[str, str | int | bool]:
        options: dict[str, str | int | bool] = {"UCI_ShowWDL": True}
        if limits.deterministic:
            options.update(Threads=1, Hash=self.settings.deterministic_hash_mb)
        else:
            options.update(Threads=self.settings.threads, Hash=self.settings.hash_mb)
        options["SyzygyPath"] = self.settings.syzygy_path or "<empty>"
        return options

    def _run(
        self,
        process: _Process,
        board: chess.Board,
        limits: AnalysisLimits,
        progress: Progress | None,
        deadline: float,
    ) -> EngineEvidence:
        process.configure(self._options(limits))
        if limits.deterministic:
            process.clear_hash()
        limit = chess.engine.Limit(nodes=limits.nodes, time=limits.seconds)
        started = time.monotonic()
        # a new game object each time: ucinewgame, so nothing carries over between positions
        analysis = process.engine.analysis(board, limit, game=object(), info=chess.engine.INFO_ALL)
        loop = process.engine.protocol.loop
        finished = asyncio.run_coroutine_threadsafe(analysis.inner.wait(), loop)
        while True:
            try:
                finished.result(timeout=POLL_SECONDS)
                break
            except concurrent.futures.TimeoutError:
                pass
            if time.monotonic() > deadline:
                raise _Hang(f"no result within the hard limit of {self.settings.timeout_seconds:g} s")
            if progress is not None:
                info = analysis.info
                done = _fraction(info, limits, time.monotonic() - started)
                try:  # the engine's info is written by its own thread: a half-written report is skipped
                    message = progress_message(board, info, limits)
                except Exception:
                    message = f"engine depth {info.get('depth', 0)}"
                try:
                    progress(done, message)
                except BaseException as exc:
                    with contextlib.suppress(Exception):
                        analysis.stop()
                        finished.result(timeout=2.0)
                    raise _Cancelled(exc) from exc
        info = analysis.info
        seconds = time.monotonic() - started
        if progress is not None:
            with contextlib.suppress(Exception):
                progress(1.0, "engine analysis done")
        return _evidence(process, board, limits, info, seconds)


PROGRESS_PLIES = 6
"""How much of the engine's current best line a progress report shows."""


def progress_message(board: chess.Board, info: Mapping[str, Any], limits: AnalysisLimits) -> str:
    """What the search has done so far, in words: ``engine depth 14, 61,230 of 100,000 nodes, White +0.42;
    best line 1. Kf3 Kd5 2. Rh5+`` (the score from White's side; the line in SAN, as far as it is legal)."""
    nodes = int(info.get("nodes", 0))
    budget = f"{nodes:,} of {limits.nodes:,} nodes" if limits.nodes else f"{nodes:,} nodes"
    parts = [f"engine depth {int(info.get('depth', 0))}, {budget}"]
    score = info.get("score")
    if score is not None:
        white = score.white()
        if white.is_mate():
            mate = white.mate() or 0
            parts.append(f"{'White' if mate > 0 else 'Black'} mates in {abs(mate)}")
        else:
            parts.append(f"White {(white.score() or 0) / 100:+.2f}")
    line = _san_line(board, list(info.get("pv", []))[:PROGRESS_PLIES])
    text = ", ".join(parts)
    return f"{text}; best line {line}" if line else text


def _san_line(board: chess.Board, moves: list[chess.Move]) -> str:
    """``moves`` from ``board`` numbered as a scoresheet (``23... Kf7 24. Rh8``), up to the first illegal one."""
    replay = board.copy(stack=False)
    words: list[str] = []
    for move in moves:
        if move not in replay.legal_moves:
            break
        if replay.turn == chess.WHITE:
            words.append(f"{replay.fullmove_number}.")
        elif not words:
            words.append(f"{replay.fullmove_number}...")
        words.append(replay.san(move))
        replay.push(move)
    return " ".join(words)


def _fraction(info: Mapping[str, Any], limits: AnalysisLimits, elapsed: float) -> float:
    parts = []
    if limits.nodes:
        parts.append(min(1.0, int(info.get("nodes", 0)) / limits.nodes))
    if limits.seconds:
        parts.append(min(1.0, elapsed / limits.seconds))
    return max(parts) if parts else 0.0


def _evidence(
    process: _Process, board: chess.Board, limits: AnalysisLimits, info: Mapping[str, Any], seconds: float
) -> EngineEvidence:
    score = info.get("score")
    if score is None:
        raise chess.engine.EngineError("the engine reported no score")
    white = score.white()
    wdl = info.get("wdl")
    pv: list[chess.Move] = list(info.get("pv", []))
    san: list[str] = []
    replay = board.copy(stack=False)
    for move in pv:
        if move not in replay.legal_moves:
            break
        san.append(replay.san(move))
        replay.push(move)
    name = process.name
    version = name.split()[-1] if len(name.split()) > 1 else "unknown"
    return EngineEvidence(
        engine=name,
        version=version,
        options=tuple(sorted({**process.defaults, **process.options}.items())),
        limits=limits,
        fen=board.fen(),
        depth=int(info.get("depth", 0)),
        seldepth=int(info["seldepth"]) if "seldepth" in info else None,
        nodes=int(info.get("nodes", 0)),
        score_cp=white.score() if not white.is_mate() else None,
        mate=white.mate(),
        wdl=tuple(wdl.white()) if wdl is not None else None,
        pv=tuple(m.uci() for m in pv[: len(san)]),
        pv_san=tuple(san),
        seconds=seconds,
    )


class UnavailableAnalyst:
    """Stands in when no engine can be started here: every analysis raises the reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def analyse(
        self, board: chess.Board, limits: AnalysisLimits, *, progress: Progress | None = None
    ) -> EngineEvidence:
        raise EngineUnavailable(self.reason)

    def close(self) -> None:
        pass
