"""An app shutting down while a job runs: what the job may still start, and where it goes (back on the queue,
for the next server to rule).

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


def _engine_threads() -> set[threading.Thread]:
    """python-chess's event-loop threads, one per running engine (as objects: their names repeat)."""
    return {t for t in threading.enumerate() if t.name.startswith("SimpleEngine") and t.is_alive()}


def test_an_app_shut_down_starts_no_engines_for_anyone(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    adjudicator = app.extensions["adjudicator"]
    adjudicator.shutdown()
    with pytest.raises(ServicesClosed, match="shutting down"):
        adjudicator.services()
    with pytest.raises(ServicesClosed, match="shutting down"):
        adjudicator.in_process.runtime.services()  # the in-process worker asks the app


def test_a_job_that_asks_for_its_engines_after_the_app_shut_down_starts_none_and_the_next_server_rules_it(
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
    before = _engine_threads()
    response = app.test_client().post("/claims", data={
        "game": "chess", "ruleset": "fide-standard", "claimant": "white", "claim": "unfinished-game",
        "record": RECORD,
    })
    assert response.status_code == 303
    case_id = int(re.fullmatch(r"/cases/(\d+)", response.headers["Location"]).group(1))  # type: ignore[union-attr]
    until(taken.is_set, "the job to be taken by the in-process worker")
    adjudicator.shutdown()
    go_on.set()

    def row_now() -> JobRow:
        with adjudicator.sessions() as session:
            row: JobRow | None = session.get(JobRow, rows.claim_job_id(case_id))
            assert row is not None
            return row

    def put_back() -> JobRow | None:
        found = row_now()
        return found if found.worker is None and found.attempts == 1 else None

    row = until(put_back, "the job to be put back")
    assert row.status == "queued", "back on the queue: neither failed (the TD would enter it again) nor ruled"
    assert "server stopped" in row.message
    with adjudicator.sessions() as session:
        assert ruling_for_case(session, case_id) is None
        assert [note.kind for note in notes_for_case(session, case_id)] == []
    assert _engine_threads() <= before, "an engine was started for an app that had shut down"

    monkeypatch.setattr(rows, "take", take)
    following = make_app(tmp_path)  # the server started again
    assert following.test_client().get(f"/cases/{case_id}").status_code == 200

    def ruled() -> JobRow | None:
        with following.extensions["adjudicator"].sessions() as session:
            found: JobRow | None = session.get(JobRow, rows.claim_job_id(case_id))
            return found if found is not None and found.status == "done" else None

    until(ruled, "the next server to rule the claim")
    with following.extensions["adjudicator"].sessions() as session:
        assert ruling_for_case(session, case_id) is not None


def test_the_entry_board_of_an_app_shut_down_still_answers_without_starting_an_engine(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.extensions["adjudicator"].shutdown()
    before = _engine_threads()
    answer = app.test_client().get("/claims/candidates", query_string={"fen": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"})
    assert answer.status_code == 200
    assert answer.get_json()["candidates"], "the heuristic still ranks the moves"
    assert "move_entry" not in app.extensions, "nothing is kept that the shut-down app would never close"
    assert _engine_threads() <= before


def test_a_claim_posted_to_an_app_shut_down_is_refused_or_noted_and_starts_no_thread(tmp_path: Path) -> None:
    """A request that comes in while the server stops: a quick claim is refused with 503 (nothing was stored;
    the TD sends it again); a background claim's case, already stored, is noted failed with the reason, never
    left queued for a worker that will not come. No job pool is started again (its threads would be left)."""
    app = make_app(tmp_path)
    adjudicator = app.extensions["adjudicator"]
    client = app.test_client()
    adjudicator.shutdown()
    threads = set(threading.enumerate())
    quick = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claimant": "white",
                                         "claim": "threefold-repetition", "record": RECORD})
    assert quick.status_code == 503 and quick.headers["Retry-After"]
    assert "shutting down" in quick.get_data(as_text=True)
    background = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claimant": "white",
                                              "claim": "unfinished-game", "record": RECORD})
    assert background.status_code == 303
    case_id = int(background.headers["Location"].rsplit("/", 1)[1])
    with adjudicator.sessions() as session:
        row = session.get(JobRow, rows.claim_job_id(case_id))
        assert row is not None and row.status == "failed" and "shutting down" in (row.error_json or "")
        assert any(note.kind == "failed" for note in notes_for_case(session, case_id))
    assert set(threading.enumerate()) <= threads, "a thread was started for an app that had shut down"


def test_a_quick_claim_that_begins_after_the_app_shut_down_ends_failed_saying_why(tmp_path: Path) -> None:
    """The quick pool took the claim before the shutdown and began it after (the order forced by running the
    pool's work here): it ends failed with the reason and a note on its stored case, never 'running' for ever."""
    from adjudicator.contract import parse_case
    from web.claim_jobs import Job

    app = make_app(tmp_path)
    adjudicator = app.extensions["adjudicator"]
    data = {"game": "chess", "ruleset": "fide-standard", "claimant": "white", "claim": "threefold-repetition",
            "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"}
    job = Job(case=parse_case(data), data=data, meta={}, source="web", is_background=False)
    adjudicator.shutdown()
    adjudicator._run(job)  # what the quick pool's thread runs
    assert job.state == "failed" and job.error is not None and "shutting down" in job.error["message"]
    assert job.case_id is not None, "the case is kept, with the reason"
    with adjudicator.sessions() as session:
        assert any(note.kind == "failed" and "shutting down" in note.message
                   for note in notes_for_case(session, job.case_id))
