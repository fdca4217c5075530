"""One job family (issue 38, item 2): claims, committee analyses and collection checks are jobs of one runner.

A queue worker runs a job row through the one registry of kinds (:func:`web.kinds.job_kinds`), on a real
SQLite database migrated as the app migrates it; the worker here is the ``adjudicator worker`` runtime called
directly with the job's id, as Celery calls it (the broker's side is tested with redis-server and worker
processes in ``test_queue.py``). A job delivered twice does its work once; a row naming a kind no worker runs
fails with the reason instead of waiting for ever.
"""

from __future__ import annotations

import ast
import json
import threading
import time
from collections.abc import Callable
from typing import cast

import pytest
from sqlalchemy import event, update
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from engines.collection import check_part_texts
from tests.web.waits import HANG_SECONDS, until
from web.config import PROJECT_ROOT, load_config
from web.kinds import job_kinds
from web.queue import QueueSettings, rows
from web.queue.collection import read_result
from web.queue.local import InProcess
from web.queue.worker import Runtime
from web.runner import POOLS, JobCancelled, JobKind, Kinds, Runner, Tracker, Work
from web.tables.jobs import JobRow
from web.tables.rulings import CaseRow, RulingRow, add_case

QUICK = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
         "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"}




def _worker(sessions: sessionmaker[Session]) -> Runtime:
    config = load_config()
    return Runtime(config, sessions, QueueSettings(), publish=lambda _job_id: None, kinds=job_kinds())


def _queue(sessions: sessionmaker[Session], job_id: str, kind: str, *, case_id: int | None = None,
           payload: object = None) -> None:
    with sessions() as session:
        session.add(rows.new_row(job_id, kind, case_id=case_id, payload=payload))
        session.commit()


def test_the_runner_runs_claims_committee_analyses_and_collection_checks() -> None:
    kinds = job_kinds()
    assert set(kinds) == {"claim", "recommend", "check-chunk"}
    assert all(kind.pool in POOLS for kind in kinds.values())
    assert Runner({"web": {"check_workers": 2}}).size("check") == 2, "[web] check_workers sizes the check pool"


def test_a_claim_delivered_twice_is_ruled_on_once(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        case_id = add_case(session, QUICK, {}, "api").id
        session.commit()
    job_id = rows.claim_job_id(case_id)
    _queue(sessions, job_id, "claim", case_id=case_id)
    worker = _worker(sessions)
    worker.run(job_id)
    with sessions() as session:
        row = session.get(JobRow, job_id)
        assert row is not None and row.status == "done" and row.ruling_id is not None
        assert session.get(RulingRow, row.ruling_id) is not None
        session.execute(update(JobRow).where(JobRow.id == job_id).values(status="queued"))
        session.commit()
    worker.run(job_id)  # the broker delivers the task again (a worker died before acknowledging it)
    with sessions() as session:
        rulings = session.query(RulingRow).filter(RulingRow.case_id == case_id).all()
        assert len(rulings) == 1, "the second delivery finds the ruling and rules on nothing"
        assert session.get(JobRow, job_id).status == "done"  # type: ignore[union-attr]
        assert session.get(CaseRow, case_id) is not None


def _commits(sessions: sessionmaker[Session]) -> list[str]:
    """The commits made on the database of ``sessions`` from now on (SQLAlchemy's ``commit`` event)."""
    made: list[str] = []
    event.listen(sessions.kw["bind"], "commit", lambda _connection: made.append("commit"))
    return made


def test_a_collection_part_gives_its_games_lines_in_one_commit(sessions: sessionmaker[Session]) -> None:
    """Issue 40: a part's worker writes its row once (the result, and that it holds it, in one commit), and the
    lines it keeps are read back as written, the very lines this process writes for the same records."""
    record = '[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    wrong = '[Event "y"]\n[Result "1/2-1/2"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1/2-1/2\n'
    task = {"game": "chess", "ruleset": "fide-standard", "records": [record, wrong, record + "\n" + wrong]}
    _queue(sessions, "check:test:0", "check-chunk", payload=task)
    worker = _worker(sessions)
    commits = _commits(sessions)
    worker.run("check:test:0")
    assert commits == ["commit"], "one commit for the part: no commit of its own to win the row first"
    with sessions() as session:
        row = session.get(JobRow, "check:test:0")
        assert row is not None and row.status == "done", row and row.error
        assert row.worker == worker.name
        here = check_part_texts({**task, "config": load_config()})
        assert read_result(row.result_json) == here and here["games"] == [1, 1, 2]
        assert row.result["lines"] == [json.loads(line) for line in here["texts"]]  # one JSON document still
        assert here["texts"][1] != here["texts"][0]  # a finding: the draw recorded after a mate
        session.execute(update(JobRow).where(JobRow.id == "check:test:0").values(status="cancelled"))
        session.commit()
    commits.clear()
    worker.run("check:test:0")  # delivered again after the row ended (a cancel, another worker's result)
    assert commits == [], "an ended part is read, never written again"
    with sessions() as session:
        assert session.get(JobRow, "check:test:0").status == "cancelled"  # type: ignore[union-attr]


def test_a_part_still_at_work_at_a_heartbeat_is_held_there_so_a_silent_worker_loses_it(
        sessions: sessionmaker[Session]) -> None:
    """A part's worker does not win its row before it starts; the heartbeat wins the parts still at work (in its
    own one write), so a worker that falls silent half-way through a long part leaves it to another
    (:func:`web.queue.rows.reap`), as it does any job."""
    seen: list[tuple[str, str | None]] = []

    def long_part(job: Work) -> None:
        host = cast(Runtime, job.host)
        host.beat()
        with sessions() as session:
            row = session.get(JobRow, job.job_id)
            assert row is not None
            seen.append((row.status, row.worker))
        job.end("done", result={"texts": [], "games": []})

    kinds = Kinds([JobKind("check-chunk", long_part, pool="check", wins_row_first=False)])
    worker = Runtime(load_config(), sessions, QueueSettings(), publish=lambda _job_id: None, kinds=kinds)
    _queue(sessions, "check:test:1", "check-chunk", payload={})
    worker.run("check:test:1")
    assert seen == [("running", worker.name)]
    with sessions() as session:
        row = session.get(JobRow, "check:test:1")
        assert row is not None and (row.status, row.worker) == ("done", worker.name)
        assert row.started_at is not None and row.finished_at is not None and row.started_at <= row.finished_at
        session.execute(update(JobRow).where(JobRow.id == "check:test:1").values(status="running",
                                                                                heartbeat_at=time.time() - 60))
        session.commit()
    assert rows.reap(sessions, 30, 3) == ["check:test:1"], "a part held by a silent worker goes back to the queue"


def test_a_job_of_a_kind_no_worker_runs_fails_with_the_reason(sessions: sessionmaker[Session]) -> None:
    _queue(sessions, "export:1", "export")
    _worker(sessions).run("export:1")
    with sessions() as session:
        row = session.get(JobRow, "export:1")
        assert row is not None and row.status == "failed"
        assert row.error is not None and row.error["message"] == "the job failed: UnknownJobKind"


def test_a_cancel_stops_the_work_at_its_next_progress_report() -> None:
    tracker = Tracker()
    tracker.progress(0.25, "a quarter")
    assert (tracker.fraction, tracker.message) == (0.25, "a quarter")
    tracker.cancelled.set()
    with pytest.raises(JobCancelled):
        tracker.progress(0.5, "half")
    assert tracker.fraction == 0.25


def test_nothing_imports_a_private_name_from_the_commands() -> None:
    """What a command shares with the web is public, in a module both import (the collection's head test is
    adjudicator.collection.head_records)."""
    found = []
    for package in ("adjudicator", "engines", "web", "bench"):
        for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("web.commands."):
                    found += [f"{path.relative_to(PROJECT_ROOT)}: {node.module}.{alias.name}"
                              for alias in node.names if alias.name.startswith("_")]
    assert found == []


def test_every_progress_widget_is_the_one_fragment() -> None:
    templates = PROJECT_ROOT / "web" / "templates"
    users = sorted(str(path.relative_to(templates)) for path in templates.rglob("*.html")
                   if 'import progress' in path.read_text(encoding="utf-8"))
    assert {"checks/_progress.html", "rulings/_job.html"} <= set(users), "a claim's and a check's widget"
    bars = sorted(str(path.relative_to(templates)) for path in templates.rglob("*.html")
                  if "<progress" in path.read_text(encoding="utf-8"))
    assert bars == ["jobs/_progress.html"], "a job's bar is drawn by the one fragment only"






def test_a_new_kind_runs_in_process_with_its_progress_and_cancel_in_its_row(sessions: sessionmaker[Session]) -> None:
    """A kind the app does not have yet: one module's work and a line in the registry. Started without a broker,
    it runs on this process's pool, its progress and its cancel go through its row, as on a worker."""
    reached = threading.Event()

    def work(job: Work) -> None:
        job.tracker.progress(0.5, f"half of {job.payload['what']}")
        reached.set()
        job.tracker.cancelled.wait(HANG_SECONDS)  # the TD's cancel, read from the row by the heartbeat
        job.tracker.progress(0.6, "never reported")

    config = {**load_config(), "queue": {"heartbeat_seconds": 0.2, "lease_seconds": 5}}
    runner = Runner(config, None, sessions)
    worker = InProcess(runner, config, sessions, Kinds([JobKind("export", work)]),
                       cast(Callable[[], Services], lambda: None), RulesetBook.from_config(config))
    try:
        runner.start("export", "export:1", {"what": "the sheets"})
        shown = until(lambda: (p := runner.progress("export:1")) and p.percent == 50 and p, "progress in the row")
        assert (shown.state, shown.stage) == ("running", "half of the sheets") and reached.is_set()
        assert runner.cancel("export:1") == "running"
        until(lambda: (p := runner.progress("export:1")) and p.state == "cancelled", "the cancel honoured")
        runner.start("export", "export:1", {"what": "the sheets"})  # started again: the job is not run twice
        assert runner.progress("export:1").state == "cancelled"  # type: ignore[union-attr]
        runner.start("export", "export:2", {"what": "nothing"})
        assert runner.cancel("export:2") in ("cancelled", "running")  # queued: ends at once; taken: at its beat
        until(lambda: (p := runner.progress("export:2")) and p.state == "cancelled", "the second cancel")
    finally:
        runner.shutdown()
        worker.stop()
