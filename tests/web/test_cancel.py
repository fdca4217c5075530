"""One cancel (issue 38, item 2): a job of every kind is stopped by one call, :meth:`web.runner.Runner.cancel` on
its job id, whichever process runs it, and its state in the database ends ``cancelled``.

The kinds: an engine claim without a broker (a row of the jobs table, on the in-process worker, cancelled from
this web process or from another on the same database); a quick claim ruled on in this process's memory; a
claim, a committee analysis and a part of a collection check waiting in the ``jobs`` table for a worker (as on
the broker); a collection check (its row in ``game_checks``), running on the ``check`` pool, waiting, or left
by a process that stopped. The broker's workers hearing the same cancel at their heartbeat: ``test_queue.py``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.web import fake_claims
from tests.web.conftest import make_app
from tests.web.test_collection_limits import check_row, game_bomb, td, upload
from tests.web.test_web_rulings import rule
from tests.web.waits import until
from web.commands.check_games import Limits
from web.queue import rows
from web.tables.checks import GameCheck
from web.tables.jobs import JobRow
from web.tables.rulings import add_case, notes_for_case, ruling_for_case

"""Only bounds a hang: every wait ends on the state it waits for."""
CASE = {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game", "claimant": "white",
        "record": "1. Nf3 Nf6 2. Ng1 Ng8 *"}


@pytest.fixture
def app(tmp_path: Any) -> Iterator[Flask]:
    application = make_app(tmp_path)
    yield application
    application.extensions["adjudicator"].shutdown()
    application.extensions["game_checks"].shutdown()




def test_an_engine_claim_without_a_broker_is_a_job_of_the_jobs_table(app: Flask, stand_ins: dict[str, str]) -> None:
    """The slow claim (an engine claim, no broker) is held mid-search on the in-process worker: its row in the
    jobs table is the claim kind's, running, with the analysis's progress; the runner's cancel of ``case:<id>``
    is written there and heard at the worker's next heartbeat; its case is noted cancelled, no ruling."""
    fake_claims.HOLD.clear()
    case_id = int(rule(app.test_client(), stand_ins["slow"], follow=False).rsplit("/", 1)[1])
    adjudicator = app.extensions["adjudicator"]
    sessions = app.extensions["db_sessions"]
    row = until(lambda: _row_running(sessions, rows.claim_job_id(case_id)), "the claim's row running")
    assert (row.kind, row.case_id) == ("claim", case_id)
    assert adjudicator.runner.cancel(rows.claim_job_id(case_id)) == "running"  # heard at the next heartbeat
    fake_claims.HOLD.set()
    until(lambda: adjudicator.job(case_id).state == "cancelled", "the cancel honoured")
    with sessions() as session:
        assert ruling_for_case(session, case_id) is None
        assert [note.kind for note in notes_for_case(session, case_id)] == ["cancelled"]
        ended = session.get(JobRow, rows.claim_job_id(case_id))
        assert ended is not None and (ended.status, ended.cancel_requested) == ("cancelled", True)


def _row_running(sessions: Any, job_id: str) -> JobRow | None:
    """The job's row once its worker wrote the analysis's progress into it (at a heartbeat)."""
    with sessions() as session:
        row = session.get(JobRow, job_id)
        return row if row is not None and row.status == "running" and "nodes" in row.message else None


def test_a_second_web_process_shows_an_engine_claims_progress_and_cancels_it(
        tmp_path: Any, app: Flask, stand_ins: dict[str, str]) -> None:
    """Two web processes on one SQLite file (two app instances): the claim entered on the first runs on its
    in-process worker; the second's page shows its progress from the row, and a cancel posted to the second
    (with the submitter's session) stops it on the first. The first's page then says Cancelled too."""
    fake_claims.HOLD.clear()
    first = app.test_client()
    job_url = rule(first, stand_ins["slow"], follow=False)
    case_id = int(job_url.rsplit("/", 1)[1])
    other = make_app(tmp_path)  # the same database file
    try:
        second = other.test_client()
        cookie = first.get_cookie("session")
        assert cookie is not None
        second.set_cookie("session", cookie.value)  # the submitter, whose request lands on the other process
        shown = until(lambda: _widget_with(second, job_url, "1,000 of 40,000 nodes"), "the progress on the second")
        assert "Cancel" in shown
        response = second.post(f"{job_url}/cancel", headers={"HX-Request": "true"})
        assert response.status_code == 200
        fake_claims.HOLD.set()
        until(lambda: _widget_with(first, job_url, "Cancelled"), "the first process's page saying Cancelled")
        assert _widget_with(second, job_url, "Cancelled")
        with app.extensions["db_sessions"]() as session:
            assert ruling_for_case(session, case_id) is None
            assert [note.kind for note in notes_for_case(session, case_id)] == ["cancelled"]
    finally:
        fake_claims.HOLD.set()
        other.extensions["adjudicator"].shutdown()
        other.extensions["game_checks"].shutdown()


def _widget_with(client: Any, job_url: str, text: str) -> str | None:
    widget = client.get(job_url, headers={"HX-Request": "true"}).get_data(as_text=True)
    return widget if text in widget else None


def test_a_quick_claim_ruled_in_this_process_is_cancelled_by_its_job_id(app: Flask, stand_ins: dict[str, str]) -> None:
    """A quick claim (one the TD waits for) that outlasts the wait runs on in this process's memory, with no row
    in the jobs table: the runner's cancel of ``case:<id>`` stops it at its next progress report."""
    adjudicator = app.extensions["adjudicator"]
    adjudicator.background_claims, adjudicator.inline_seconds = (), 0.01  # the slow claim ruled as a quick one
    fake_claims.HOLD.clear()
    case_id = int(rule(app.test_client(), stand_ins["slow"], follow=False).rsplit("/", 1)[1])
    until(lambda: (job := adjudicator.job(case_id)) is not None and job.state == "running" and "nodes" in job.message,
           "the claim running")
    assert adjudicator.runner.cancel(rows.claim_job_id(case_id)) == "running"  # it hears it at its next report
    fake_claims.HOLD.set()
    until(lambda: adjudicator.job(case_id).state == "cancelled", "the cancel honoured")
    with app.extensions["db_sessions"]() as session:
        assert ruling_for_case(session, case_id) is None
        assert [note.kind for note in notes_for_case(session, case_id)] == ["cancelled"]
        assert session.get(JobRow, rows.claim_job_id(case_id)) is None  # nothing else holds its state


def test_a_queued_job_of_every_kind_in_the_jobs_table_ends_at_once(app: Flask) -> None:
    """A claim, a committee analysis and a collection check's part that no worker took yet end cancelled at
    once; the claim's case says so."""
    sessions = app.extensions["db_sessions"]
    with sessions() as session:
        case_id = add_case(session, CASE, {}, "web", 1, None).id
        session.add_all([rows.new_row(rows.claim_job_id(case_id), "claim", case_id=case_id),
                         rows.new_row("recommend:1", "recommend", payload={"case": CASE}),
                         rows.new_row("check-chunk:1", "check-chunk", payload={"texts": []})])
        session.commit()
    runner = app.extensions["adjudicator"].runner
    for job_id in (rows.claim_job_id(case_id), "recommend:1", "check-chunk:1"):
        assert runner.cancel(job_id) == "cancelled", job_id
    with sessions() as session:
        ended = {row.id: (row.status, row.cancel_requested, row.finished_at is not None)
                 for row in session.query(JobRow)}
        assert ended == {job_id: ("cancelled", True, True)
                         for job_id in (rows.claim_job_id(case_id), "recommend:1", "check-chunk:1")}
        assert [(n.kind, n.message) for n in notes_for_case(session, case_id)] == [("cancelled", rows.CANCELLED_NOTE)]
    assert runner.cancel(rows.claim_job_id(case_id)) == "cancelled", "a second cancel changes nothing"
    assert runner.cancel("recommend:2") is None, "no such job"


def test_a_running_collection_check_is_cancelled_by_its_job_id(app: Flask) -> None:
    """A check counting a large file on the check pool: the runner's cancel of ``check:<id>`` is read at its next
    write; its row ends cancelled with no game checked."""
    app.extensions["game_checks"].limits = Limits(games=10**7)  # counted for minutes: the cancel comes first
    client = td(app)
    location = upload(client, game_bomb(3_000_000), "season.pgn.zst").headers["Location"]
    until(lambda: "counting" in check_row(app, location).message, "the check counting")
    check_id = int(location.rsplit("/", 1)[1])
    assert app.extensions["adjudicator"].runner.cancel(rows.check_job_id(check_id)) == "running"
    until(lambda: check_row(app, location).status == "cancelled", "the cancel honoured")
    row = check_row(app, location)
    assert row.cancel_requested and row.games == 0 and row.message == "cancelled by the TD"


def test_a_check_nothing_works_on_ends_at_once(app: Flask) -> None:
    """A check still waiting for the pool, and one whose process stopped (silent for longer than a running check
    ever is) end cancelled at the cancel; a finished check stays as it ended."""
    now = time.time()
    sessions = app.extensions["db_sessions"]
    with sessions() as session:
        checks = [GameCheck(event_id=1, filename="round1.pgn", game="chess", ruleset="fide-standard", status=status,
                            created_at=updated, updated_at=updated)
                  for status, updated in (("queued", now), ("running", now - 3600), ("done", now))]
        session.add_all(checks)
        session.commit()
        waiting, silent, finished = (check.id for check in checks)
    runner = app.extensions["adjudicator"].runner
    assert runner.cancel(rows.check_job_id(waiting)) == "cancelled"
    assert runner.cancel(rows.check_job_id(silent)) == "cancelled"
    assert runner.cancel(rows.check_job_id(finished)) == "done"
    with sessions() as session:
        found = [session.get(GameCheck, i) for i in (waiting, silent, finished)]
        assert [check.status if check else None for check in found] == ["cancelled", "cancelled", "done"]
