"""An app shutting down while a job runs: what the job may still start, and what its case says.

A server stops (a restart, a deploy) while a background claim is between being taken and asking for its
engines. Engines started then belong to nothing that will close them: one such Stockfish kept its thread,
and the process, alive after the test run that made it (CI on bed4d9f). The real claim and the real
engine are used; the only thing the test controls is the order: the job is held just after it is taken
until the app has shut down.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

from adjudicator.services import ServicesClosed
from tests.web.conftest import make_app
from tests.web.waits import until
from web.queue import rows
from web.tables.jobs import JobRow
from web.tables.rulings import notes_for_case, ruling_for_case

RECORD = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"


def _engine_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("SimpleEngine") and t.is_alive()]


def test_an_app_shut_down_starts_no_engines_for_anyone(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    adjudicator = app.extensions["adjudicator"]
    adjudicator.shutdown()
    with pytest.raises(ServicesClosed, match="shutting down"):
        adjudicator.services()
    with pytest.raises(ServicesClosed, match="shutting down"):
        adjudicator.in_process.runtime.services()  # the in-process worker asks the app


def test_a_job_that_asks_for_its_engines_after_the_app_shut_down_starts_none_and_its_case_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken, go_on = threading.Event(), threading.Event()
    take = rows.take

    def held(*args: Any) -> Any:
        taken.set()
        go_on.wait(120)  # a bound on a hang only: the test sets it once the app is shut down
        return take(*args)

    monkeypatch.setattr(rows, "take", held)
    app = make_app(tmp_path)
    adjudicator = app.extensions["adjudicator"]
    before = set(_engine_threads())
    response = app.test_client().post("/claims", data={
        "game": "chess", "ruleset": "fide-standard", "claimant": "white", "claim": "unfinished-game",
        "record": RECORD,
    })
    assert response.status_code == 303
    case_id = int(re.fullmatch(r"/cases/(\d+)", response.headers["Location"]).group(1))  # type: ignore[union-attr]
    until(taken.is_set, "the job to be taken by the in-process worker")
    adjudicator.shutdown()
    go_on.set()

    def ended() -> JobRow | None:
        with adjudicator.sessions() as session:
            row = session.get(JobRow, rows.claim_job_id(case_id))
            return row if row is not None and row.status not in ("queued", "running") else None

    row = until(ended, "the job to end")
    assert row.status == "failed"
    assert "shutting down" in (row.error_json or "")
    with adjudicator.sessions() as session:
        assert ruling_for_case(session, case_id) is None
        notes = [(note.kind, note.message) for note in notes_for_case(session, case_id)]
    assert any(kind == "failed" and "shutting down" in text for kind, text in notes), notes
    assert set(_engine_threads()) <= before, "an engine was started for an app that had shut down"


def test_the_entry_board_of_an_app_shut_down_still_answers_without_starting_an_engine(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.extensions["adjudicator"].shutdown()
    before = set(_engine_threads())
    answer = app.test_client().get("/claims/candidates", query_string={"fen": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"})
    assert answer.status_code == 200
    assert answer.get_json()["candidates"], "the heuristic still ranks the moves"
    assert "move_entry" not in app.extensions, "nothing is kept that the shut-down app would never close"
    assert set(_engine_threads()) <= before
