"""The engine wrapper: real Stockfish evidence, reproducibility, progress and cancel, and faults.

Faults use tiny fake UCI engines (tests/fake_engines) and a real Stockfish killed
mid-search; every one must end in a clear error or a retried result, never a hung call.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from typing import Any

import chess
import pytest

from adjudicator.chess.analysis import AnalysisLimits, EngineUnavailable
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from engines import build_services
from engines.chess.stockfish import EngineSettings, StockfishPool, find_stockfish
from tests.fake_engines import command
from tests.web.waits import until

pytestmark = pytest.mark.engine


class UserCancelled(Exception):
    """What a caller's progress callback raises to cancel (the web job raises its own)."""

ROOK_ENDING = "8/5k2/8/3r4/8/8/2R5/5K2 b - - 0 60"
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"


def settings(
    cmd: tuple[str, ...] | None = None, timeout: float = 20.0, start: float = 20.0, pool: int = 1
) -> EngineSettings:
    return EngineSettings(
        command=cmd or (find_stockfish(),), pool_size=pool, timeout_seconds=timeout, start_timeout_seconds=start
    )


@pytest.fixture()
def pool() -> Any:
    engine = StockfishPool(settings())
    yield engine
    engine.close()


def test_stockfish_is_found_where_debian_puts_it() -> None:
    path = find_stockfish()
    assert os.access(path, os.X_OK)


def test_a_configured_path_that_is_not_an_engine_is_a_clear_error() -> None:
    with pytest.raises(EngineUnavailable, match="not an executable"):
        find_stockfish("/nonexistent/stockfish")


def test_evidence_names_the_engine_its_settings_and_its_line(pool: StockfishPool) -> None:
    board = chess.Board(MIDDLEGAME)
    evidence = pool.analyse(board, AnalysisLimits(nodes=20_000, deterministic=True))
    assert evidence.engine.startswith("Stockfish")
    assert evidence.version[0].isdigit()
    options = dict(evidence.options)
    assert options["Threads"] == "1" and options["UCI_ShowWDL"] == "True"
    assert evidence.depth > 0 and evidence.nodes >= 20_000
    assert evidence.wdl is not None and sum(evidence.wdl) == 1000
    assert evidence.pv and board.is_legal(chess.Move.from_uci(evidence.pv[0]))
    assert evidence.pv_san[0] == board.san(chess.Move.from_uci(evidence.pv[0]))
    data = evidence.to_json()
    assert data["limits"] == {"nodes": 20_000, "seconds": None, "deterministic": True}
    assert "seconds" not in data  # wall time varies between runs; it is not evidence


def test_deterministic_analysis_gives_identical_numbers_on_a_fresh_or_reused_engine(pool: StockfishPool) -> None:
    board = chess.Board(MIDDLEGAME)
    limits = AnalysisLimits(nodes=30_000, deterministic=True)
    first = pool.analyse(board, limits).to_json()
    pool.analyse(chess.Board(ROOK_ENDING), limits)  # something else in between fills the hash
    second = pool.analyse(board, limits).to_json()
    other = StockfishPool(settings())
    try:
        third = other.analyse(board, limits).to_json()
    finally:
        other.close()
    assert first == second == third


def test_the_same_case_ruled_twice_in_deterministic_mode_gives_identical_evidence(
    config: dict[str, Any], book: RulesetBook
) -> None:
    case = parse_case({"ruleset": "fide-standard", "claim": "unfinished-game", "fen": MIDDLEGAME})
    runs = []
    for _ in range(2):
        services = build_services(config, deterministic=True, tablebases=False)
        try:
            runs.append(rule(case, book, services).to_json())
        finally:
            services.close()
    assert runs[0] == runs[1]
    assert runs[0]["evidence"]["engine"][0]["limits"]["deterministic"] is True


def test_progress_is_reported_and_a_raise_cancels_the_search(pool: StockfishPool) -> None:
    seen: list[float] = []

    def progress(done: float, message: str) -> None:
        seen.append(done)
        if len(seen) >= 2:
            raise UserCancelled("user pressed cancel")

    with pytest.raises(UserCancelled):
        pool.analyse(chess.Board(MIDDLEGAME), AnalysisLimits(nodes=50_000_000), progress=progress)
    assert len(seen) == 2, "the search stopped at the raise: no report after it"
    assert all(0.0 <= f < 1.0 for f in seen)  # stopped long before the 50M nodes asked for
    # the engine is still usable afterwards
    evidence = pool.analyse(chess.Board(ROOK_ENDING), AnalysisLimits(nodes=5_000))
    assert evidence.nodes >= 5_000


def test_progress_reaches_completion(pool: StockfishPool) -> None:
    seen: list[tuple[float, str]] = []
    pool.analyse(chess.Board(MIDDLEGAME), AnalysisLimits(nodes=300_000), progress=lambda f, m: seen.append((f, m)))
    assert seen[-1][0] == 1.0
    assert [f for f, _ in seen] == sorted(f for f, _ in seen)


def test_progress_says_depth_nodes_score_and_the_current_best_line(pool: StockfishPool) -> None:
    seen: list[tuple[float, str]] = []
    board = chess.Board(ROOK_ENDING)  # Black to move: the line starts "60... "
    pool.analyse(board, AnalysisLimits(nodes=300_000), progress=lambda f, m: seen.append((f, m)))
    reports = [(f, m) for f, m in seen if "best line" in m]
    assert reports, seen
    done, message = reports[-1]
    found = re.fullmatch(r"engine depth (\d+), ([\d,]+) of 300,000 nodes, (White [+-]\d+\.\d\d|\w+ mates in \d+); "
                         r"best line (60\.\.\. .+)", message)
    assert found, message
    assert int(found.group(2).replace(",", "")) / 300_000 == pytest.approx(done, abs=0.01), "the bar is the nodes"
    replay = board.copy()
    for word in found.group(4).split():
        if not word[0].isdigit():
            replay.push_san(word)  # every move of the line is legal, in order
    assert 1 <= len(replay.move_stack) <= 6


def test_an_engine_that_hangs_is_killed_and_reported_within_the_limit() -> None:
    hanging = StockfishPool(settings(command("hang"), timeout=1.0))
    try:
        with pytest.raises(EngineUnavailable, match="hard limit"):  # the limit, not the hang, ended the wait
            hanging.analyse(chess.Board(), AnalysisLimits(nodes=1_000))
        assert hanging.pids() == []  # the hung processes were killed
    finally:
        hanging.close()


def test_an_engine_that_never_finishes_its_handshake_is_reported() -> None:
    silent = StockfishPool(settings(command("silent"), start=1.0))
    try:
        with pytest.raises(EngineUnavailable, match="did not start"):  # the start limit ended the wait
            silent.analyse(chess.Board(), AnalysisLimits(nodes=1_000))
        assert silent.pids() == []
    finally:
        silent.close()


@pytest.mark.filterwarnings("ignore:coroutine 'AnalysisResult.wait' was never awaited")  # the dead engine's loop
def test_an_engine_that_crashes_is_restarted_once_then_reported() -> None:
    crashing = StockfishPool(settings(command("crash"), timeout=5.0))
    try:
        with pytest.raises(EngineUnavailable, match="failed twice"):
            crashing.analyse(chess.Board(), AnalysisLimits(nodes=1_000))
    finally:
        crashing.close()


def test_stockfish_killed_mid_analysis_is_restarted_and_the_analysis_retried(pool: StockfishPool) -> None:
    board = chess.Board(MIDDLEGAME)
    pool.analyse(board, AnalysisLimits(nodes=1_000))  # the process is running now
    (victim,) = pool.pids()

    killed: list[int] = []

    def kill_at_the_first_report(done: float, message: str) -> None:  # the search is under way
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    evidence = pool.analyse(board, AnalysisLimits(nodes=None, seconds=1.5), progress=kill_at_the_first_report)
    assert killed and evidence.depth > 0
    assert pool.pids() and victim not in pool.pids()


def test_closing_the_services_ends_the_engine_processes(config: dict[str, Any]) -> None:
    services = build_services(config, tablebases=False)
    assert services.engine is not None
    services.engine.analyse(chess.Board(), AnalysisLimits(nodes=1_000))
    pids = services.engine.pids()  # type: ignore[attr-defined]
    assert pids
    services.close()
    deadline = time.monotonic() + 10  # polled; the deadline only bounds a hang
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def test_an_engine_still_starting_when_the_pool_closes_is_ended_too(tmp_path: Any) -> None:
    """Closing the services (an app shutting down) while a job is starting an engine: the job gets a clear
    error and the engine it was starting is quit, never left running (its python-chess thread kept a whole
    test run from exiting)."""
    started, go_on = tmp_path / "started", tmp_path / "go-on"
    slow = StockfishPool(settings((*command("slow_start"), str(started), str(go_on)), start=20.0))
    outcome: list[BaseException | None] = []

    def analyse() -> None:
        try:
            slow.analyse(chess.Board(), AnalysisLimits(nodes=1_000))
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    job = threading.Thread(target=analyse)
    job.start()
    until(started.exists, "the fake engine to start")
    slow.close()  # while the engine holds its handshake: the order is forced, not timed
    go_on.touch()  # the engine finishes starting now, for a closed pool
    job.join(timeout=30)  # a hang bound only
    assert not job.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], EngineUnavailable), outcome
    assert "closed" in str(outcome[0])
    until(lambda: not _engine_threads(), "the engine's thread to end")
    assert _engine_threads() == [], "an engine started for a closed pool is still running"


def _engine_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("SimpleEngine") and t.is_alive()]


def test_a_missing_engine_is_an_error_never_a_ruling_without_a_result(
    config: dict[str, Any], book: RulesetBook
) -> None:
    broken = {**config, "engines": {**config["engines"], "stockfish": "/nonexistent/stockfish"}}
    services = build_services(broken, tablebases=False)
    try:
        case = parse_case({"ruleset": "fide-standard", "claim": "unfinished-game", "fen": MIDDLEGAME})
        with pytest.raises(EngineUnavailable, match="/nonexistent/stockfish"):
            rule(case, book, services)
    finally:
        services.close()


def test_an_engine_that_died_idle_in_the_pool_is_replaced_and_the_retry_is_kept(pool: StockfishPool) -> None:
    """The idle engine is killed; the fresh one is killed mid-search too: the one retry must still be there."""
    board = chess.Board(MIDDLEGAME)
    pool.analyse(board, AnalysisLimits(nodes=1_000))
    (idle,) = pool.pids()
    os.kill(idle, signal.SIGKILL)
    killed: list[int] = []

    def kill_the_fresh_one_mid_search(done: float, message: str) -> None:  # at its first report
        fresh = [pid for pid in pool.pids() if pid != idle]
        if fresh and not killed:
            os.kill(fresh[0], signal.SIGKILL)
            killed.append(fresh[0])

    evidence = pool.analyse(board, AnalysisLimits(nodes=None, seconds=1.5), progress=kill_the_fresh_one_mid_search)
    assert killed, "no fresh engine was started"
    assert evidence.depth > 0
    assert idle not in pool.pids() and killed[0] not in pool.pids()


def test_a_live_idle_engine_is_handed_out_again(pool: StockfishPool) -> None:
    board = chess.Board(MIDDLEGAME)
    pool.analyse(board, AnalysisLimits(nodes=1_000))
    before = pool.pids()
    pool.analyse(board, AnalysisLimits(nodes=1_000))
    assert pool.pids() == before  # the liveness check keeps a healthy engine


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie still answers kill 0; reap it if it is our child
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True
