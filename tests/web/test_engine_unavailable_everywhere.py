"""One contract, one answer: an engine that cannot start is ``engine_unavailable`` whether the claim is
ruled in the serving process or by a queue worker (issue 24; through the queue it once came back as
``ruling_failed``, the worker's copy of the job runner lacking that branch).

The engine is a binary that exits at once (it cannot start); the queue is the real thing: Debian's
redis-server on a free loopback port and one ``python3 -m adjudicator worker`` process sharing the
app's SQLite file.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from tests.web.conftest import make_app
from tests.web.test_queue import REDIS_SERVER, _free_port, _stop, _wait
from web.config import PROJECT_ROOT
from web.tables.jobs import JobRow
from web.tables.rulings import CaseNote, RulingRow

pytestmark = pytest.mark.slow

CASE = {"ruleset": "fide-standard", "claim": "unfinished-game",
        "fen": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"}


def _config(folder: Path) -> Path:
    """config.toml whose Stockfish is a program that exits at once, with the database in ``folder``."""
    engine = folder / "no-engine"
    engine.write_text("#!/bin/sh\nexit 1\n")
    engine.chmod(engine.stat().st_mode | stat.S_IXUSR)
    text = (PROJECT_ROOT / "config.toml").read_text()
    for old, new in (('stockfish = ""', f'stockfish = "{engine}"'),
                     ("start_timeout_seconds = 10", "start_timeout_seconds = 2"),
                     ('url = "sqlite:///instance/adjudicator.db"', f'url = "sqlite:///{folder / "shared.db"}"')):
        assert old in text, f"config.toml no longer has {old}"
        text = text.replace(old, new, 1)
    for name in ("syzygy", "gaviota", "checkers-db"):
        text = text.replace(f'"data/{name}"', json.dumps(str(PROJECT_ROOT / "data" / name)))
    path = folder / "config.toml"
    path.write_text(text)
    return path


def _answer(app: Flask) -> tuple[int, str, int, list[str]]:
    """The API's status and error code for the case, and what was stored: rulings, the case's notes."""
    response = app.test_client().post("/api/v1/rulings", json=CASE)
    with app.extensions["db_sessions"]() as session:
        rulings = session.query(RulingRow).count()
        notes = [note.kind for note in session.query(CaseNote)]
    return response.status_code, response.get_json()["error"]["code"], rulings, notes


def test_in_process(tmp_path: Path) -> None:
    app = make_app(tmp_path, CONFIG_PATH=str(_config(tmp_path)))
    assert app.extensions["adjudicator"].remote is None
    assert _answer(app) == (503, "engine_unavailable", 0, ["failed"])


def test_through_the_queue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config(tmp_path)
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        monkeypatch.setenv("ADJUDICATOR_BROKER_URL", url)
        monkeypatch.delenv("ADJUDICATOR_DATABASE_URL", raising=False)
        app = make_app(tmp_path, CONFIG_PATH=str(config), DATABASE_URL=f"sqlite:///{tmp_path / 'shared.db'}")
        assert app.extensions["adjudicator"].remote is not None  # the database is migrated: the worker may start
        env = {**os.environ, "ADJUDICATOR_CONFIG": str(config), "PYTHONPATH": str(PROJECT_ROOT)}
        log = tmp_path / "worker.log"
        with log.open("wb") as handle:
            worker = subprocess.Popen([sys.executable, "-m", "adjudicator", "worker"], cwd=PROJECT_ROOT, env=env,
                                      stdout=subprocess.DEVNULL, stderr=handle)
        _wait(lambda: "ready." in log.read_text(errors="replace") or worker.poll() is not None, 60, "the worker")
        assert worker.poll() is None, log.read_text()
        assert _answer(app) == (503, "engine_unavailable", 0, ["failed"])
        with app.extensions["db_sessions"]() as session:
            (row,) = session.query(JobRow).all()
            assert row.status == "failed" and row.worker is not None  # a worker ran it, not the web process
            assert row.error is not None and row.error["code"] == "engine_unavailable"
    finally:
        if worker is not None:
            _stop(worker)
        _stop(redis)
