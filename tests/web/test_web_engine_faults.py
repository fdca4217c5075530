"""An analysis that cannot be done is an error, never a stored ruling without a result (issue 11).

The engine is one of the tiny misbehaving UCI engines of tests/fake_engines (it crashes
on ``go``, hangs on ``go``, or never finishes its handshake), or the real Stockfish for
the case that works. The API answers 503 ``engine_unavailable`` and stores no ruling;
the command line exits 3 with the same JSON error.
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

from tests.fake_engines import command
from tests.web.conftest import make_app
from web.config import PROJECT_ROOT
from web.tables.rulings import CaseNote, RulingRow

pytestmark = pytest.mark.engine

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"
CASE = {"ruleset": "fide-standard", "claim": "unfinished-game", "fen": MIDDLEGAME}


def config_with_engine(tmp_path: Path, fake: str | None) -> Path:
    """config.toml with ``[engines] stockfish`` set to a fake engine (None: the real one) and short limits."""
    stockfish = ""
    if fake is not None:
        script = tmp_path / f"{fake}-engine"
        script.write_text("#!/bin/sh\nexec " + " ".join(f"'{part}'" for part in command(fake)) + "\n")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        stockfish = str(script)
    text = (PROJECT_ROOT / "config.toml").read_text()
    text = text.replace('stockfish = ""', f'stockfish = "{stockfish}"', 1)
    text = text.replace("timeout_seconds = 30", "timeout_seconds = 2", 1)
    text = text.replace("start_timeout_seconds = 10", "start_timeout_seconds = 2", 1)
    text = text.replace('syzygy = ["data/syzygy"]', f'syzygy = ["{PROJECT_ROOT / "data/syzygy"}"]', 1)
    text = text.replace('gaviota = ["data/gaviota"]', f'gaviota = ["{PROJECT_ROOT / "data/gaviota"}"]', 1)
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def app_with(tmp_path: Path, fake: str | None) -> Flask:
    return make_app(tmp_path, CONFIG_PATH=str(config_with_engine(tmp_path, fake)))


def stored(app: Flask) -> tuple[int, list[str]]:
    with app.extensions["db_sessions"]() as session:
        rulings = session.query(RulingRow).count()
        notes = [note.kind for note in session.query(CaseNote)]
    return rulings, notes


@pytest.mark.parametrize("fake", ["crash", "hang", "silent"])
def test_an_engine_that_fails_gives_503_and_stores_no_ruling(tmp_path: Path, fake: str) -> None:
    app = app_with(tmp_path, fake)
    try:
        response = app.test_client().post("/api/v1/rulings", json=CASE)
        assert response.status_code == 503, response.get_json()
        error = response.get_json()["error"]
        assert error["code"] == "engine_unavailable"
        assert "engine" in error["message"]
        rulings, notes = stored(app)
        assert rulings == 0  # no "adjudicated, result null, confidence 0" in the append-only store
        assert notes == ["failed"]  # the case is kept with why it was not ruled on
    finally:
        app.extensions["adjudicator"].shutdown()


def test_with_a_working_engine_the_same_case_is_ruled_and_stored(tmp_path: Path) -> None:
    app = app_with(tmp_path, None)
    try:
        response = app.test_client().post("/api/v1/rulings", json={**CASE, "fen": "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"})
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["result"] == "1-0"
        assert stored(app) == (1, [])
    finally:
        app.extensions["adjudicator"].shutdown()


def test_the_command_line_exits_3_with_a_json_error(tmp_path: Path) -> None:
    config = config_with_engine(tmp_path, "crash")
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(config)}
    proc = subprocess.run([sys.executable, "-m", "adjudicator", "rule", "-"], input=json.dumps(CASE),
                          capture_output=True, text=True, cwd=PROJECT_ROOT, env=env, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert json.loads(proc.stdout)["error"]["code"] == "engine_unavailable"
    assert "Traceback" not in proc.stderr
