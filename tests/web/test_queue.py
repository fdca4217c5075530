"""The task queue with its real parts (issue 12): Debian's redis-server on a free loopback port, two
``python3 -m adjudicator worker`` processes and the web app, sharing one SQLite file, with the real
Stockfish doing the work (a 3,000,000-node adjudication takes a few seconds: a job that can be
watched, killed and cancelled half-way).

- an engine claim entered on the web is ruled on by a worker, its progress shown on the case page;
- a worker SIGKILLed mid-job leaves the job to the other worker, which rules on it once;
- a cancel from the web process stops the job on its worker;
- a committee recommendation computed by a worker is the one computed in-process;
- ``check-games`` gives the same lines through the workers as in its own process.
- a game check started on the web (an upload, and a stored collection picked again) runs on the
  workers and gives the report ``check-games`` gives in its own process.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.cli_runs import LOADED_BY_CHECK_GAMES
from tests.web.opened_apps import opened
from web import create_app
from web.config import PROJECT_ROOT
from web.queue.rows import claim_job_id
from web.tables.jobs import JobRow
from web.tables.rulings import CaseRow, RulingRow, notes_for_case

pytestmark = [pytest.mark.engine, pytest.mark.slow]

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
MIDDLEGAME = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
"""An opening position: the engine has to search its whole node budget (no tablebase, no book)."""
KRK = "8/8/8/4k3/8/8/4K3/7R w - - 0 1"
NODES = re.compile(r"([\d,]+) of ([\d,]+) nodes")
"""A search's progress report: nodes searched of its budget (engines.chess.stockfish.progress_message)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def _config(folder: Path) -> Path:
    """config.toml with a slow adjudication, absolute data paths, a short lease and the shared database."""
    text = (PROJECT_ROOT / "config.toml").read_text()
    first = "nodes = 100000                       # first search"
    ceiling = "max_nodes = 1000000                  # scores between the bands"
    assert first in text and ceiling in text, "config.toml's adjudication budget lines changed"
    text = text.replace(first, "nodes = 3000000  # first search").replace(ceiling, "max_nodes = 30000000  #")
    for name in ("syzygy", "gaviota", "checkers-db"):
        text = text.replace(f'"data/{name}"', json.dumps(str(PROJECT_ROOT / "data" / name)))
    text = text.replace('url = "sqlite:///instance/adjudicator.db"', f'url = "sqlite:///{folder / "shared.db"}"')
    for key, value in (("heartbeat_seconds", "0.5"), ("lease_seconds", "3"), ("wait_seconds", "60")):
        text, count = re.subn(rf"^{key} = \S+", f"{key} = {value}", text, count=1, flags=re.MULTILINE)
        assert count == 1, f"config.toml has no [queue] {key}"
    path = folder / "config.toml"
    path.write_text(text)
    return path


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log: Path
    name: str = ""

    def is_ready(self) -> bool:
        return "ready." in self.log.read_text(errors="replace")


@dataclass
class Queue:
    app: Flask
    client: FlaskClient
    env: dict[str, str]
    workers: list[Worker] = field(default_factory=list)

    def row(self, case_id: int) -> JobRow | None:
        with self.app.extensions["db_sessions"]() as session:
            return session.get(JobRow, claim_job_id(case_id))

    def rulings(self, case_id: int) -> list[RulingRow]:
        with self.app.extensions["db_sessions"]() as session:
            return list(session.query(RulingRow).filter(RulingRow.case_id == case_id))

    def alive(self) -> list[Worker]:
        return [w for w in self.workers if w.process.poll() is None]

    def claim(self) -> int:
        """Enter an engine claim on the web; the case's id."""
        response = self.client.post("/claims", data={"game": "chess", "ruleset": "fide-standard",
                                                      "claim": "unfinished-game", "fen": MIDDLEGAME})
        assert response.status_code == 303, response.text
        found = re.search(r"/cases/(\d+)$", response.headers["Location"])
        assert found, response.headers["Location"]
        return int(found.group(1))

    def running(self, case_id: int) -> JobRow:
        """Wait until a worker has reported progress on the case's job (it is half-way, not just taken)."""
        return _wait(lambda: (r := self.row(case_id)) is not None and r.status == "running"
                     and (r.fraction or 0) > 0 and r, 30, f"progress on case {case_id}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture(scope="module")
def queue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Queue]:
    if not os.access(REDIS_SERVER, os.X_OK):
        pytest.fail(f"redis-server is not installed at {REDIS_SERVER}: run `bash .ci/install` "
                    "(APT_PACKAGES installs Debian's redis-server)")
    folder = tmp_path_factory.mktemp("queue")
    config = _config(folder)
    port = _free_port()
    redis = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(folder)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(config), "ADJUDICATOR_BROKER_URL": f"redis://127.0.0.1:{port}/0",
           "PYTHONPATH": str(PROJECT_ROOT)}
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    saved = {k: os.environ.get(k) for k in ("ADJUDICATOR_BROKER_URL", "ADJUDICATOR_DATABASE_URL")}
    processes: list[subprocess.Popen[bytes]] = [redis]
    app = None
    try:
        def pong() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    return sock.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        _wait(pong, 10, "redis-server to answer")
        os.environ["ADJUDICATOR_BROKER_URL"] = env["ADJUDICATOR_BROKER_URL"]
        os.environ.pop("ADJUDICATOR_DATABASE_URL", None)
        app = opened(create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                          "CONFIG_PATH": str(config)}))  # migrates the shared database first
        assert app.extensions["adjudicator"].remote is not None
        found = Queue(app, app.test_client(), env)
        for number in (1, 2):
            log = folder / f"worker{number}.log"
            with log.open("wb") as handle:
                process = subprocess.Popen([sys.executable, "-m", "adjudicator", "worker"], cwd=PROJECT_ROOT,
                                           env=env, stdout=subprocess.PIPE, stderr=handle)
            processes.append(process)
            found.workers.append(Worker(process, log))
        for worker in found.workers:
            assert worker.process.stdout is not None
            line = worker.process.stdout.readline()
            assert line, worker.log.read_text()
            worker.name = json.loads(line)["worker"]
            _wait(worker.is_ready, 30, f"worker {worker.name} to connect")
        yield found
    finally:
        for process in reversed(processes):
            _stop(process)
        if app is not None:
            app.extensions["adjudicator"].shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def test_an_engine_claim_is_ruled_on_by_a_worker_with_its_progress_on_the_page(queue: Queue) -> None:
    case_id = queue.claim()
    row = queue.running(case_id)
    assert row.worker in {w.name for w in queue.workers}  # a worker, not the web process, runs it
    page = queue.client.get(f"/cases/{case_id}")
    assert page.status_code == 200
    shown = re.search(r'<progress id="job-progress" max="100" value="(\d+)"', page.text)
    assert shown and int(shown.group(1)) > 0, page.text  # the worker's progress, read from the database
    assert "engine depth" in page.text
    # the deadline only bounds a hang: a 3,000,000-node search takes seconds idle, minutes beside busy processes
    done = _wait(lambda: (r := queue.row(case_id)) is not None and r.is_finished and r, 600, "the ruling")
    assert done.status == "done", done.error
    [ruling] = queue.rulings(case_id)
    assert done.ruling_id == ruling.id and ruling.verdict == "adjudicated"
    assert queue.client.get(f"/cases/{case_id}").headers["Location"].endswith(f"/rulings/{ruling.id}")


def test_check_games_gives_the_same_lines_through_the_workers(queue: Queue, tmp_path: Path) -> None:
    from tests.test_check_games import CHESS_GAMES

    path = tmp_path / "event.pgn"
    path.write_text("".join(CHESS_GAMES.values()) * 13, encoding="utf-8")  # 130 games: one part of the file

    def check(*extra: str) -> list[dict[str, Any]]:
        done = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path), *extra],
                              cwd=PROJECT_ROOT, env=queue.env, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()
        *games, summary = [json.loads(line) for line in done.stdout.decode().splitlines()]
        return [*games, {k: v for k, v in summary["summary"].items() if k != "seconds"}]

    here = check("--workers", "1")  # this process
    with queue.app.extensions["db_sessions"]() as session:
        before = session.query(JobRow).filter(JobRow.kind == "check-chunk").count()
    through = check()  # ADJUDICATOR_BROKER_URL is set: the workers
    assert through == here
    assert [g["index"] for g in through[:-1]] == list(range(1, 131))
    assert sum(bool(g["findings"]) for g in through[:-1]) == 13 * 8  # the collection's eight wrong games, each time
    with queue.app.extensions["db_sessions"]() as session:  # the parts' rows are gone once read
        assert session.query(JobRow).filter(JobRow.kind == "check-chunk").count() == before == 0
    import redis  # deferred: only this test reads the broker itself

    # the workers' signals that a part ended (web.queue.remote.signal_done) are taken or deleted; one that came
    # after its part's row was read expires
    client = redis.Redis.from_url(queue.env["ADJUDICATOR_BROKER_URL"])
    try:
        assert all(0 < client.ttl(key) <= 600 for key in client.keys("adjudicator:done:*"))
    finally:
        client.close()


BROKER_UNUSED = ("flask", "werkzeug", "jinja2", "alembic", "celery", "kombu", "billiard", "web.runner",
                 "web.kinds", "web.queue.worker", "web.queue.part_job", "web.failures", "adjudicator.documents",
                 "sqlalchemy", "web.db", "web.tables", "web.queue.rows")
"""What ``check-games`` with a broker has no use for (issue 40): the web app's libraries, SQLAlchemy and every
table (the job rows go through the database's driver, web.queue.direct; SQLAlchemy and Alembic only where the
database is behind its migrations), Celery and Kombu (a Redis broker's tasks are pushed as Celery writes them), the
job runner and the workers' side, the map of every failure."""


def test_check_games_with_a_broker_loads_no_web_app_celery_or_worker_module(queue: Queue, tmp_path: Path) -> None:
    # the cause of a fast start with a broker: the command imports only what it uses (the time: bench/)
    from tests.test_check_games import CHESS_GAMES

    path = tmp_path / "event.pgn"
    path.write_text("".join(CHESS_GAMES.values()), encoding="utf-8")
    code = LOADED_BY_CHECK_GAMES
    done = subprocess.run([sys.executable, "-c", code, str(path), *BROKER_UNUSED], cwd=PROJECT_ROOT,
                          env=queue.env, capture_output=True, timeout=120)
    assert json.loads(done.stderr.decode().splitlines()[-1]) == {"status": 0, "loaded": []}, done.stderr.decode()
    here = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path), "--workers", "1"],
                          cwd=PROJECT_ROOT, env=queue.env, capture_output=True, timeout=120)
    without_seconds = [line for line in done.stdout.decode().splitlines() if '"summary"' not in line]
    assert without_seconds == [line for line in here.stdout.decode().splitlines() if '"summary"' not in line]
    assert len(without_seconds) == len(CHESS_GAMES)


def test_a_broker_check_cut_short_leaves_no_part_behind(queue: Queue, tmp_path: Path) -> None:
    """A check that ends early (here past ``[collections] max_games``: the same for a closed pipe or Ctrl-C) says why
    and deletes its parts' rows before it closes its database connection: none is left queued for the workers."""
    from tests.test_check_games import CHESS_GAMES

    path = tmp_path / "event.pgn"
    path.write_text("".join(CHESS_GAMES.values()) * 13, encoding="utf-8")  # 130 games, in three parts
    config = tmp_path / "config.toml"
    text = Path(queue.env["ADJUDICATOR_CONFIG"]).read_text()
    config.write_text(re.sub(r"^max_games = \S+", "max_games = 70", text, count=1, flags=re.MULTILINE))
    done = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path)], cwd=PROJECT_ROOT,
                          env={**queue.env, "ADJUDICATOR_CONFIG": str(config)}, capture_output=True, timeout=120)
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 2 and json.loads(lines[-1])["error"]["code"] == "too_many_games", done.stderr.decode()
    assert len(lines) == 71, "the games up to the limit, then the error"
    assert done.stderr.decode().splitlines() == [json.loads(lines[-1])["error"]["message"].join(
        ("adjudicator: ", " (file)"))], "nothing but the error: no exception ignored on the way out"
    with queue.app.extensions["db_sessions"]() as session:
        assert session.query(JobRow).filter(JobRow.kind == "check-chunk").count() == 0


def test_a_task_pushed_without_celery_is_the_message_celery_sends(queue: Queue) -> None:
    """``check-games`` sends its parts to a Redis broker without loading Celery (web.queue.remote.task_message):
    the message is Celery's own for the same task, but for what Celery makes up each time (the sender, the reply
    address, the delivery tag); the workers running it is test_check_games_gives_the_same_lines_through_the_workers."""
    import redis

    from web.queue import QUEUE_NAME, TASK_NAME, QueueSettings, make_celery
    from web.queue.remote import task_message

    url = queue.env["ADJUDICATOR_BROKER_URL"].rsplit("/", 1)[0] + "/1"  # not the workers' database
    made_up = {("headers", "origin"), ("properties", "reply_to"), ("properties", "delivery_tag")}

    def fixed(message: bytes | str) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(message)
        for part, key in made_up:
            found[part].pop(key)
        return found

    client = redis.Redis.from_url(url)
    try:
        make_celery(url, QueueSettings()).send_task(TASK_NAME, args=["check:x:0"], task_id="check:x:0#0123abcd")
        [celerys] = client.lrange(QUEUE_NAME, 0, -1)
        assert fixed(celerys) == fixed(task_message("check:x:0", "check:x:0#0123abcd"))
    finally:
        client.flushdb()
        client.close()


def test_a_part_a_worker_cannot_read_goes_out_again_as_text_and_so_do_the_later_ones(
        queue: Queue, tmp_path: Path) -> None:
    """A plain file's part names the file and its byte range; a worker that cannot read it (one on another
    machine) fails the chunk with ``part_unreadable``, and the command sends that part, and every later one,
    as text: the lines are those of the texts checked in one process."""
    from engines.collection import Part, check_part, numbered
    from tests.test_check_games import CHESS_GAMES
    from web.config import load_config
    from web.queue.collection import check_parts_on_queue

    texts = list(CHESS_GAMES.values())
    gone = {"file": str(tmp_path / "elsewhere.pgn"), "size": 1, "mtime_ns": 1, "start": 0, "end": 1}
    found = [Part(tuple(texts[:4]), {"records": texts[:4]}), Part(tuple(texts[4:7]), gone),
             Part(tuple(texts[7:]), gone)]
    sent: list[dict[str, Any]] = []
    remote = queue.app.extensions["adjudicator"].remote
    submit = remote.submit

    def noted(job_id: str, kind: str, payload: Any) -> None:  # the payloads the workers got, in the order sent
        sent.append(dict(payload))
        submit(job_id, kind, payload)

    remote.submit = noted
    try:
        through = list(numbered(check_parts_on_queue(found, game="chess", ruleset="fide-standard", remote=remote)))
        sent_then = ["file" in payload for payload in sent]
        sent.clear()
        one_by_one = list(numbered(check_parts_on_queue(found, game="chess", ruleset="fide-standard", remote=remote,
                                                        in_flight=1)))
    finally:
        remote.submit = submit
    config = load_config()
    here = list(numbered(check_part({"game": "chess", "ruleset": "fide-standard", "config": config,
                                     "records": part.texts}) for part in found))
    assert through == one_by_one == here and len(here) == len(texts)
    assert sent_then == [False, True, True, False, False]  # both sent before the first failure came back, again
    assert ["file" in payload for payload in sent] == [False, True, False, False]  # after it, as text at once
    with queue.app.extensions["db_sessions"]() as session:
        assert session.query(JobRow).filter(JobRow.kind == "check-chunk").count() == 0


def test_a_check_started_on_the_web_runs_on_the_workers_and_gives_the_in_process_report(
        queue: Queue, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An upload on the checks page, then the same stored collection picked again: both checks' chunks
    are done by the workers (the web process only reads the file and stores the lines), and the
    report is the one ``check-games`` gives in its own process."""
    from committee_support import add_user

    from tests.test_check_games import CHESS_GAMES
    from tests.web.test_checks_web import PASSWORD, finished, without_seconds
    from web.tables.collections import GameCollection

    data = ("".join(CHESS_GAMES.values()) * 13).encode()  # 130 games: three chunks
    path = tmp_path / "event.pgn"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path), "--workers", "1"],
                          cwd=PROJECT_ROOT, env=queue.env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    here = [json.loads(line) for line in done.stdout.decode().splitlines()]  # in-process

    remote = queue.app.extensions["adjudicator"].remote
    assert queue.app.extensions["game_checks"].remote is remote
    chunks: dict[str, str | None] = {}
    read = remote.jobs.ended

    def ended(job_id: str) -> Any:  # the ends the web process reads back: who finished each chunk
        found = read(job_id)
        if found is not None:
            with queue.app.extensions["db_sessions"]() as session:
                job = session.get(JobRow, job_id)
            if job is not None and job.kind == "check-chunk":
                chunks[job_id] = job.worker
        return found

    monkeypatch.setattr(remote.jobs, "ended", ended)
    add_user(queue.app, "tq", "td", password=PASSWORD)
    client = queue.app.test_client()
    assert client.post("/login", data={"name": "tq", "password": PASSWORD}).status_code == 303
    names = {w.name for w in queue.alive()}

    def through_the_workers(response: Any) -> list[dict[str, Any]]:
        assert response.status_code == 303, response.text
        chunks.clear()
        report = finished(client, response.headers["Location"], 120)
        assert f"<strong>{13 * 8}</strong> of 130 games with findings" in report
        assert len(chunks) == 3 and set(chunks.values()) <= names, (chunks, names)  # every chunk, by a worker
        body = client.get(f"{response.headers['Location']}/games.jsonl").get_data(as_text=True)
        return [json.loads(line) for line in body.splitlines()]

    uploaded = through_the_workers(client.post("/events/default/checks", data={
        "ruleset": "fide-standard", "collection": (io.BytesIO(data), "event.pgn")}))
    assert without_seconds(uploaded) == without_seconds(here)
    with queue.app.extensions["db_sessions"]() as session:
        [kept] = session.query(GameCollection).filter(GameCollection.filename == "event.pgn").all()
        assert kept.size == len(data)
        leftover = session.query(JobRow).filter(JobRow.kind == "check-chunk").count()
    picked = through_the_workers(client.post("/events/default/checks", data={
        "ruleset": "fide-standard", "collection_id": str(kept.id)}))
    assert without_seconds(picked) == without_seconds(here)
    assert leftover == 0  # the chunks' rows are gone once read


def test_a_worker_killed_mid_job_leaves_the_job_to_the_other(queue: Queue) -> None:
    assert len(queue.alive()) == 2
    case_id = queue.claim()
    row = queue.running(case_id)
    [victim] = [w for w in queue.workers if w.name == row.worker]
    victim.process.send_signal(signal.SIGKILL)
    victim.process.wait(10)
    done = _wait(lambda: (r := queue.row(case_id)) is not None and r.is_finished and r, 45,
                 "the other worker to finish the job")
    assert done.status == "done", done.error
    assert done.worker != victim.name and done.worker in {w.name for w in queue.alive()}
    assert done.attempts == 1  # given up by the dead worker once, then ruled on
    assert len(queue.rulings(case_id)) == 1
    # the dead worker's unacknowledged message comes back one day: a task for a case ruled on does nothing
    queue.app.extensions["adjudicator"].remote.publish(claim_job_id(case_id))
    said = f"job {claim_job_id(case_id)}: finished or held by another worker; nothing to do"
    _wait(lambda: any(said in w.log.read_text(errors="replace") for w in queue.alive()), 120,
          "a worker to take the message sent again and leave the finished job alone")
    assert len(queue.rulings(case_id)) == 1
    assert queue.row(case_id).ruling_id == done.ruling_id  # type: ignore[union-attr]


def test_a_cancel_from_the_web_stops_the_job_on_its_worker(queue: Queue) -> None:
    """The cancel stops the search where it is (at the worker's next heartbeat), not at the end of its
    budget: the job's last progress report counts fewer nodes than the search was given."""
    case_id = queue.claim()
    queue.running(case_id)
    _wait(lambda: NODES.search((queue.row(case_id) or JobRow()).message or ""), 120, "a report of nodes searched")
    response = queue.client.post(f"/cases/{case_id}/cancel")
    assert response.status_code == 303
    # the deadline only bounds a hang
    ended = _wait(lambda: (r := queue.row(case_id)) is not None and r.is_finished and r, 120, "the cancel")
    assert ended.status == "cancelled"
    searched = NODES.search(ended.message)
    assert searched, ended.message
    assert int(searched.group(1).replace(",", "")) < int(searched.group(2).replace(",", "")), ended.message
    assert queue.rulings(case_id) == []
    page = queue.client.get(f"/cases/{case_id}")
    assert "Cancelled." in page.text
    with queue.app.extensions["db_sessions"]() as session:
        assert [n.kind for n in notes_for_case(session, case_id)] == ["cancelled"]
        assert session.get(CaseRow, case_id) is not None  # the case stays, without a ruling


def test_a_job_started_on_the_runner_runs_once_on_a_worker_its_progress_read_from_its_row(queue: Queue) -> None:
    """The one runner (issue 38): a job of a kind started in the web process goes to the broker's workers; its
    row is its state, and a second start of the same job runs nothing."""
    import uuid

    runner = queue.app.extensions["adjudicator"].runner
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game", "fen": KRK}
    job_id = f"recommend:{uuid.uuid4().hex}"
    runner.start("recommend", job_id, {"case": data})
    # the deadline only bounds a hang
    shown = _wait(lambda: (p := runner.progress(job_id)) is not None and p.is_finished and p, 600, "the job's end")
    assert (shown.state, shown.percent) == ("done", 100)
    with queue.app.extensions["db_sessions"]() as session:
        row = session.get(JobRow, job_id)
    assert row.worker in {w.name for w in queue.workers} and row.result["ruling"]["result"] == "1-0"
    runner.start("recommend", job_id, {"case": data})  # started again (a double submit): nothing runs again
    with queue.app.extensions["db_sessions"]() as session:
        again = session.get(JobRow, job_id)
    assert (again.status, again.finished_at, again.publications) == ("done", row.finished_at, row.publications)


def test_a_committee_recommendation_from_a_worker_is_the_one_computed_here(queue: Queue) -> None:
    from adjudicator.contract import parse_case
    from web.committee.service import recommend_here

    data = {"game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game", "fen": KRK}
    remote = queue.app.extensions["adjudicator"].remote
    found = remote.run("recommend", {"case": data}, timeout=40)
    here, note, _settings = recommend_here(parse_case(data), queue.app.extensions["rulesets"],
                                           queue.app.config["ADJUDICATOR"])
    assert found["ruling"] is not None and found["note"] == note
    for key in ("verdict", "result", "rule_refs"):
        assert found["ruling"][key] == here[key]  # type: ignore[index]
    assert found["ruling"]["result"] == "1-0"
