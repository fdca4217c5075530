"""Shared fixtures: the project's configuration, rulesets, the test data and the installed tablebases."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from adjudicator.rulesets import RulesetBook

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = ROOT / "tests" / "data"  # public data copied into the repository (tests/data/README.md)
SYZYGY = ROOT / "data" / "syzygy"  # installed from PyPI by .ci/install.d/20-tablebases.sh
GAVIOTA = ROOT / "data" / "gaviota"

RANDOM_PASS = "random-pass"
"""The hypothesis profile of the property tests' second pass (tests/test_property_seeds.py): random examples
from the seed given with ``--hypothesis-seed``, whatever the environment, and no example database, so that
the seed alone replays a failure."""
settings.register_profile(
    RANDOM_PASS, derandomize=False, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
if settings.default.derandomize is False:  # not hypothesis's CI profile (which has no deadline either)
    # random runs on a developer's machine, busy with other work: a slow example is not a failure (the
    # 200 ms default deadline failed tests under load); what a seed finds still is
    settings.register_profile("local", settings.default, deadline=None)
    settings.load_profile("local")


@pytest.fixture(scope="session")
def config() -> dict[str, Any]:
    with (ROOT / "config.toml").open("rb") as handle:
        data = tomllib.load(handle)
    data["_root"] = str(ROOT)
    return data


@pytest.fixture(scope="session")
def book(config: dict[str, Any]) -> RulesetBook:
    return RulesetBook.from_config(config)


@pytest.fixture(scope="session")
def test_data() -> Path:
    return TEST_DATA


@pytest.fixture(scope="session")
def tablebase_dirs() -> tuple[Path, Path]:
    """The 3-4 piece Syzygy and 3-piece Gaviota tables the set-up installs (Syzygy folder, Gaviota folder)."""
    syzygy = len(list(SYZYGY.glob("*.rtb[wz]")))
    gaviota = len(list(GAVIOTA.glob("*.gtb.cp4")))
    if syzygy < 70 or gaviota < 5:
        pytest.fail(f"tablebases missing ({syzygy} of 70 Syzygy files in {SYZYGY}, {gaviota} of 5 Gaviota files "
                    f"in {GAVIOTA}): run bash .ci/install.d/20-tablebases.sh", pytrace=False)
    return SYZYGY, GAVIOTA


_RUNNING_TEST = ["(collection)"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    _RUNNING_TEST[0] = item.nodeid
    try:
        return (yield)
    finally:
        _RUNNING_TEST[0] = f"(after {item.nodeid})"


def pytest_configure(config: pytest.Config) -> None:
    """Every thread is stamped with the test during which it started, so that a thread left running at the end
    names the test (or its module's fixtures) that left it."""
    import threading

    start = threading.Thread.start

    def stamped_start(thread: threading.Thread) -> None:
        thread.started_in = _RUNNING_TEST[0]  # type: ignore[attr-defined]
        start(thread)

    threading.Thread.start = stamped_start  # type: ignore[method-assign]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run that leaves a thread running fails, and names the test during which each such thread started.

    Python's exit joins every non-daemon thread: an app a test never shut down keeps its job pool's threads,
    and a Stockfish it left open keeps python-chess's event-loop thread ("SimpleEngine (pid=N)") for ever; two
    full runs passed every test and then never exited. Such engines are closed here once named, so that the
    failed run ends instead of hanging."""
    import gc
    import sys
    import threading
    import time

    import chess.engine

    def running() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]

    # a thread ending on its own (a pool finishing its last task) is not a leak: waited for; the deadline only
    # bounds the wait for one that never ends (a leak), it is no threshold a good run could miss
    deadline = time.monotonic() + 120
    while running() and time.monotonic() < deadline:
        time.sleep(0.05)  # the poll's interval: the threads' end, not the time, ends the wait
    left = running()
    if not left:
        return
    names = ", ".join(f"{t.name} (started in {getattr(t, 'started_in', '?')})" for t in left)
    sys.stderr.write(f"\nthreads still running at the end of the run: {names}\n")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
    for found in gc.get_objects():
        if isinstance(found, chess.engine.SimpleEngine):
            try:
                found.close()
            except Exception as exc:  # an engine already gone: nothing to close
                sys.stderr.write(f"closing a leaked engine: {exc!r}\n")
