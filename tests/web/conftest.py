"""Fixtures for the web tests: an app on a temporary SQLite file, a test client, a live
server (werkzeug, threaded, 127.0.0.1 only) and Debian's Chromium through Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.chess.claims import table as chess_claims
from tests.parts import missing
from tests.web import fake_claims, opened_apps
from tests.web.migrated import migrated
from tests.web.opened_apps import opened
from web import create_app
from web.db import make_engine, make_sessionmaker, migrate

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The claims the web machinery is tested with: "quick" is the real threefold-repetition claim (it
    rules on the tests' record ``1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8`` for real); only the
    failures are stand-ins (tests/web/fake_claims.py): "slow" (unfinished-game) stands for a search
    that runs to its time limit, "broken" (illegal-move) for a crash in a claim module."""
    monkeypatch.setitem(chess_claims.CLAIMS, "unfinished-game", fake_claims.SlowClaim.rule)
    monkeypatch.setitem(chess_claims.CLAIMS, "illegal-move", fake_claims.BrokenClaim.rule)
    yield {"quick": "threefold-repetition", "slow": "unfinished-game", "broken": "illegal-move"}
    fake_claims.HOLD.set()  # a test that held the slow claim and failed does not hold the next one
    for application in opened_apps.MADE or []:  # before the real claims come back: no job of an app the test
        # made runs one (a module fixture's app lives on: its tests cancel or wait for their slow jobs)
        application.extensions["adjudicator"].shutdown()


@pytest.fixture(autouse=True)
def _apps_shut_down() -> Iterator[None]:
    """The apps a test made (through :func:`opened`) are shut down when it ends."""
    opened_apps.MADE = []
    yield
    made, opened_apps.MADE = opened_apps.MADE, None
    for application in made:
        application.extensions["adjudicator"].shutdown()


@pytest.fixture(scope="module", autouse=True)
def _module_apps_shut_down(request: pytest.FixtureRequest) -> Iterator[None]:
    """A module whose fixtures made an app and did not shut it down fails, named, at its end (the app is then
    shut down here): its threads and engines would outlive the module, and one such engine once kept a run
    from exiting."""
    opened_apps.LASTING = []
    yield
    made, opened_apps.LASTING = opened_apps.LASTING, []
    left = [application for application in made if not application.extensions["adjudicator"].is_shut_down]
    for application in left:
        application.extensions["adjudicator"].shutdown()
    if left:
        pytest.fail(f"{request.module.__name__}: {len(left)} app(s) made by its fixtures were never shut down",
                    pytrace=False)


def make_app(tmp_path: Path, **overrides: Any) -> Flask:
    """An app on ``tmp_path``'s SQLite file (a copy of the migrated template when it is new: tests/web/migrated.py),
    or on ``overrides``' database."""
    if "DATABASE_URL" not in overrides:
        migrated(tmp_path / "web.db")
    settings = {
        "TESTING": True,
        "WTF_CSRF_ENABLED": False,
        "SECRET_KEY": "test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'web.db'}",
        "RATELIMIT_ENABLED": False,  # one test client is many users: tests/web/test_limits.py turns it on
    }
    settings.update(overrides)
    return opened(create_app(settings))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    application = make_app(tmp_path)
    yield application
    application.extensions["adjudicator"].shutdown()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def sessions(tmp_path: Path) -> Iterator[sessionmaker[Session]]:
    """Sessions on a database of the test's own at head, without an app (the queue's workers have none)."""
    engine = make_engine(f"sqlite:///{migrated(tmp_path / 'jobs.db')}")
    migrate(engine)
    yield make_sessionmaker(engine)
    engine.dispose()


def serve(application: Flask) -> Iterator[str]:
    """``application`` served by a threaded werkzeug server on 127.0.0.1:<free port>: its address, until closed."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, application, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    application.extensions["adjudicator"].shutdown()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app with CSRF on, served by a threaded werkzeug server on 127.0.0.1:<free port>."""
    yield from serve(make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False))


@pytest.fixture
def live_engine_server(tmp_path: Path) -> Iterator[str]:
    """The app with a large engine node budget for adjudication (the search takes seconds)."""
    from werkzeug.serving import make_server

    from web.config import PROJECT_ROOT

    text = (PROJECT_ROOT / "config.toml").read_text()
    text = text.replace("nodes = 100000                       # first search", "nodes = 1000000  # first search", 1)
    config = tmp_path / "engine.toml"
    config.write_text(text)
    application = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False, CONFIG_PATH=str(config))
    server = make_server("127.0.0.1", 0, application, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    application.extensions["adjudicator"].shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        missing(f"Chromium ({CHROMIUM})", "Debian package chromium (.ci/install)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        _bound_hangs(instance)
        yield instance
        instance.close()


HANG_BOUND_MS = 180_000
"""How long any Playwright wait or ``expect`` may take before the test fails (issue 41). It bounds a
hang only: each wait is for a state the page must reach, and on a loaded machine (two CPU-bound
processes beside the suite) it comes late, not never; Playwright's own 30 s (5 s for ``expect``)
failed good runs there. Timings belong to ``bench/``."""


def _bound_hangs(browser: Any) -> None:
    """Give every context the browser opens, and every ``expect``, :data:`HANG_BOUND_MS`."""
    from playwright.sync_api import expect

    expect.set_options(timeout=HANG_BOUND_MS)
    opened = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> Any:
        context = opened(*args, **kwargs)
        context.set_default_timeout(HANG_BOUND_MS)
        context.set_default_navigation_timeout(HANG_BOUND_MS)
        return context

    browser.new_context = new_context


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390x844 phone screen."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def shot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throw-away PostgreSQL cluster (Debian's postgresql) for the run: the URL of its ``postgres`` database.
    Tests get a database of their own in it (:func:`postgres_url`); a cluster takes a second or two to start."""
    with postgres_cluster() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """An empty PostgreSQL database for this test only (``CREATE DATABASE`` in the run's cluster), dropped after.

    Yields the contract's URL form (``postgresql://``), which ``web.db`` gives to psycopg.
    """
    with postgres_database(postgres_server) as url:
        yield url


@pytest.fixture(scope="module")
def postgres_module_url(postgres_server: str) -> Iterator[str]:
    """As :func:`postgres_url`, one database for a whole test module."""
    with postgres_database(postgres_server) as url:
        yield url


@contextlib.contextmanager
def postgres_database(server: str) -> Iterator[str]:
    """A new empty database in the cluster at ``server`` (from ``template0``, as ``initdb`` made ``postgres``):
    its URL; dropped afterwards with whatever connections are still open to it."""
    import uuid

    import psycopg

    name = f"test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield f"{server.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """Start a throw-away PostgreSQL cluster; its URL; stopped and removed afterwards (skips where there is none)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg", "PyPI package psycopg (pip install -e '.[dev]', .ci/install)")
    initdb = shutil.which("initdb") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))), None)
    if initdb is None:
        missing("PostgreSQL (initdb)", "Debian package postgresql (.ci/install)")
    bindir = Path(initdb).resolve().parent
    workdir = Path(tempfile.mkdtemp(prefix="adjudicator-pg-"))
    data = workdir / "data"
    port = _free_port()
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        if shutil.which("runuser") is None or subprocess.run(["id", "postgres"], capture_output=True).returncode:
            missing("PostgreSQL's postgres user (running as root)", "Debian package postgresql makes it (.ci/install)")
        shutil.chown(workdir, "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    try:
        subprocess.run(
            [*run_as, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        subprocess.run(
            [
                *run_as,
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-w",
                "-t",
                "60",
                "-l",
                str(workdir / "log"),
                "-o",
                f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off",
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=90,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        missing(f"a PostgreSQL cluster that starts ({exc})", "Debian package postgresql (.ci/install)")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(workdir, ignore_errors=True)
