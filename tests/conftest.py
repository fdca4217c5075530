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


def pytest_unconfigure(config: pytest.Config) -> None:
    """Diagnostics only: the threads that would keep this process from exiting (Python's exit joins every
    non-daemon thread, and a job pool's thread blocked in a job never ends). A final run once passed every test
    and then did not exit; this prints where such threads wait, and closes the engines left open (below)."""
    import faulthandler
    import sys
    import threading

    alive = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if alive:
        sys.stderr.write(f"\nthreads still running at the end of the run: {', '.join(t.name for t in alive)}\n")
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    # A Stockfish left open by an app some test did not shut down keeps python-chess's non-daemon event-loop
    # thread ("SimpleEngine (pid=N)") running, and Python's exit waits for it for ever (two full runs did). The
    # leak is named above; the engines are closed here so that the run ends with its result.
    import gc

    import chess.engine

    for found in gc.get_objects():
        if isinstance(found, chess.engine.SimpleEngine):
            try:
                found.close()
            except Exception as exc:  # an engine already gone: nothing to close
                sys.stderr.write(f"closing a leaked engine: {exc!r}\n")
