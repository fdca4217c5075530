"""No claim lost when the server stops (the embedded default: SQLite, no broker).

A TD's server is restarted, or killed, during a round. A background claim it had stored and not started
(waiting behind a long analysis in its engine pool), or was running when it was killed, must be ruled once a
server of that database serves again; before, it stayed "waiting to start" for good. The claims and the engine
are real. The test forces only the circumstances: the engine pool busy (it occupies its threads), and a
server's process that dies while it holds a job (a real process, ended by ``os._exit``).
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.web.conftest import make_app
from tests.web.waits import until
from web.config import PROJECT_ROOT
from web.queue import rows
from web.queue.worker import is_gone, worker_name
from web.tables.jobs import JobRow
from web.tables.rulings import ruling_for_case

RECORD = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"

HOLDER = """
import os, sys
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker
from web.queue import rows
from web.queue.worker import worker_name

sessions = sessionmaker(create_engine(sys.argv[1]))
assert rows.take(sessions, sys.argv[2], worker_name()) is not None
print("taken", flush=True)
if sys.argv[3] == "die":
    os._exit(9)
sys.stdin.read()
"""
"""A server's process holding a job: it wins the job's row as a worker does, then dies, or lives on."""


def _waiting(tmp_path: Path) -> tuple[Flask, int, threading.Event]:
    """A server whose engine pool is busy (every thread held until the event is set) takes a background claim:
    that server, the case, and the event."""
    first = make_app(tmp_path)
    adjudicator = first.extensions["adjudicator"]
    busy = threading.Event()
    for _ in range(adjudicator.runner.size("engine")):
        adjudicator.runner.submit("engine", busy.wait, 120)  # a bound on a hang only: the test sets it
    response = first.test_client().post("/claims", data={
        "game": "chess", "ruleset": "fide-standard", "claimant": "white", "claim": "unfinished-game",
        "record": RECORD,
    })
    assert response.status_code == 303
    case_id = int(re.fullmatch(r"/cases/(\d+)", response.headers["Location"]).group(1))  # type: ignore[union-attr]
    assert _row(first, case_id).status == "queued"
    return first, case_id, busy


def _left_queued(tmp_path: Path) -> tuple[Flask, int]:
    """The server of :func:`_waiting` stops before the claim starts: that server (shut down) and the case."""
    first, case_id, busy = _waiting(tmp_path)
    first.extensions["adjudicator"].shutdown()
    busy.set()
    assert _row(first, case_id).status == "queued"
    return first, case_id


def _row(app: Flask, case_id: int) -> JobRow:
    with app.extensions["adjudicator"].sessions() as session:
        row: JobRow | None = session.get(JobRow, rows.claim_job_id(case_id))
        assert row is not None
        return row


def _ruled(app: Flask, case_id: int) -> JobRow:
    def ended() -> JobRow | None:
        row = _row(app, case_id)
        return row if row.status not in ("queued", "running") else None

    row = until(ended, "the claim to be ruled")
    assert row.status == "done", row.error_json
    with app.extensions["adjudicator"].sessions() as session:
        assert ruling_for_case(session, case_id) is not None
    return row


@pytest.fixture
def holder() -> Iterator[list[subprocess.Popen[str]]]:
    made: list[subprocess.Popen[str]] = []
    yield made
    for process in made:
        if process.poll() is None:
            process.kill()
        process.communicate()


def _hold(holder: list[subprocess.Popen[str]], stopped: Flask, case_id: int, fate: str) -> subprocess.Popen[str]:
    url = str(stopped.config["DATABASE_URL"])
    process = subprocess.Popen([sys.executable, "-c", HOLDER, url, rows.claim_job_id(case_id), fate],
                               cwd=PROJECT_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    holder.append(process)
    assert process.stdout is not None and process.stdout.readline().strip() == "taken"
    return process


def test_a_claim_a_stopped_server_never_started_is_ruled_when_the_next_one_serves(tmp_path: Path) -> None:
    _first, case_id = _left_queued(tmp_path)
    second = make_app(tmp_path)  # the server started again, on the same database
    assert second.test_client().get(f"/cases/{case_id}").status_code == 200
    row = _ruled(second, case_id)
    assert row.attempts == 0


def test_a_claim_whose_server_was_killed_while_ruling_is_ruled_again_at_once(
    tmp_path: Path, holder: list[subprocess.Popen[str]]
) -> None:
    first, case_id = _left_queued(tmp_path)
    dead = _hold(holder, first, case_id, "die")
    dead.wait()
    assert _row(first, case_id).status == "running"  # as a killed server leaves it
    second = make_app(tmp_path)
    assert second.test_client().get(f"/cases/{case_id}").status_code == 200
    row = _ruled(second, case_id)
    assert row.attempts == 1, "taken back once, without waiting for the lease"


def test_a_claim_another_live_server_is_ruling_is_left_to_it(
    tmp_path: Path, holder: list[subprocess.Popen[str]]
) -> None:
    first, case_id = _left_queued(tmp_path)
    _hold(holder, first, case_id, "live")
    second = make_app(tmp_path)
    assert second.test_client().get(f"/cases/{case_id}").status_code == 200
    row = _row(second, case_id)
    assert row.status == "running" and row.attempts == 0 and row.worker is not None
    assert not row.worker.startswith(f"{socket.gethostname()}:{os.getpid()}:")


def test_a_claim_waiting_in_a_live_servers_pool_is_left_to_it(tmp_path: Path) -> None:
    """A second server of the same database (started by mistake, or one of several behind a proxy) takes nothing
    from a live one: its waiting claim is ruled by the server that took it, its page never saying it was left."""
    first, case_id, busy = _waiting(tmp_path)
    second = make_app(tmp_path)
    assert second.test_client().get(f"/cases/{case_id}").status_code == 200
    row = _row(second, case_id)
    assert row.status == "queued" and "stopped" not in row.message
    busy.set()
    row = _ruled(first, case_id)
    assert row.worker == first.extensions["adjudicator"].in_process.runtime.name and row.attempts == 0


def test_a_worker_is_known_gone_only_when_its_process_on_this_machine_has_ended() -> None:
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True)
    host = worker_name().split(":")[0]
    assert is_gone(f"{host}:{ended.stdout.strip()}:0123abcd")
    assert not is_gone(f"another-machine:{ended.stdout.strip()}:0123abcd"), "elsewhere: the lease tells"
    assert not is_gone("a name of another form")
    earlier = f"{host}:{os.getpid()}:0123abcd"
    assert is_gone(earlier), "this process's id, no such worker here: an earlier process with the same id"


def test_a_worker_of_this_process_is_gone_once_stopped(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    runtime = app.extensions["adjudicator"].in_process.runtime
    assert not is_gone(runtime.name)
    app.extensions["adjudicator"].shutdown()
    assert is_gone(runtime.name)


def test_a_take_up_the_database_refused_is_tried_again_at_the_next_request(tmp_path: Path) -> None:
    _first, case_id = _left_queued(tmp_path)
    second = make_app(tmp_path)
    database = sqlite3.connect(tmp_path / "web.db")
    database.execute("ALTER TABLE jobs RENAME TO jobs_away")  # the jobs cannot be read a moment
    database.commit()
    assert second.test_client().get("/").status_code in (200, 302), "the request goes on"
    database.execute("ALTER TABLE jobs_away RENAME TO jobs")
    database.commit()
    database.close()
    assert second.test_client().get(f"/cases/{case_id}").status_code == 200
    _ruled(second, case_id)
