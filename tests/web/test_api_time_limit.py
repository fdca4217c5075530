"""A running ruling stops when its request's time limit ends (issue 39, item 2), for an anonymous client: the
API answers 503 ``not_ready``, the analysis is stopped at its next step and the case is kept with a
``cancelled`` note (never a lost case). A TD's token lets a long analysis go on, to be read later. Real
Stockfish, given a search far longer than the API waits."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.web.committee_support import add_user, bearer
from tests.web.conftest import make_app
from web.config import PROJECT_ROOT
from web.queue.rows import claim_job_id
from web.tables.jobs import JobRow
from web.tables.rulings import CaseNote

pytestmark = pytest.mark.engine

CASE = {"ruleset": "fide-standard", "claim": "unfinished-game",
        "fen": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    text = (PROJECT_ROOT / "config.toml").read_text()
    first = "nodes = 100000                       # first search"
    assert first in text
    text = text.replace(first, "nodes = 500000000                    # first search", 1)  # minutes of search
    ceiling = "max_nodes = 1000000                  # scores"
    assert ceiling in text
    text = text.replace(ceiling, "max_nodes = 500000000                # scores", 1)
    for folder in ("syzygy", "gaviota"):
        text = text.replace(f'{folder} = ["data/{folder}"]', f'{folder} = ["{PROJECT_ROOT / "data" / folder}"]', 1)
    (tmp_path / "config.toml").write_text(text)
    app = make_app(tmp_path, CONFIG_PATH=str(tmp_path / "config.toml"))
    app.extensions["adjudicator"].api_timeout_seconds = 1.0
    yield app
    app.extensions["adjudicator"].shutdown()


def notes(app: Flask) -> list[tuple[int, str]]:
    with app.extensions["db_sessions"]() as session:
        return [(note.case_id, note.kind) for note in session.query(CaseNote)]


def wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + 60  # bounds a hang only: the analysis stops at its next progress step
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"no {what} within a minute"
        time.sleep(0.1)


def test_an_anonymous_analysis_stops_with_its_request_and_the_case_is_kept(app: Flask) -> None:
    response = app.test_client().post("/api/v1/rulings", json=CASE)
    assert response.status_code == 503
    error = response.get_json()["error"]
    assert error["code"] == "not_ready" and "stopped" in error["message"]
    case_id = int(error["message"].split("case ", 1)[1].split(" ", 1)[0])
    wait_for(lambda: (case_id, "cancelled") in notes(app), "cancelled note")
    job = app.extensions["adjudicator"].job(case_id)
    assert job is not None and job.is_finished


def test_a_tds_long_analysis_goes_on_after_the_request(app: Flask) -> None:
    token = add_user(app, "tina", "td")
    response = app.test_client().post("/api/v1/rulings", json=CASE, headers=bearer(token))
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "not_ready"
    adjudicator = app.extensions["adjudicator"]
    cases = [case_id for case_id, job in list(adjudicator._jobs.items()) if not job.is_finished]
    assert len(cases) == 1
    case_id = cases[0]
    with app.extensions["db_sessions"]() as session:  # an engine claim: its state is its row in the jobs table
        row = session.get(JobRow, claim_job_id(case_id))
        assert row is not None and not row.is_finished and not row.cancel_requested, "still analysing"
    adjudicator.runner.cancel(claim_job_id(case_id))  # the TD cancels it on its page
    wait_for(lambda: adjudicator.job(case_id).is_finished, "cancel")
