"""No stuck job (issue 23): jobs queued on a redis-server without persistence that is killed.

Real parts: Debian's redis-server (``--save "" --appendonly no``, as in the issue), the web app with
``ADJUDICATOR_BROKER_URL`` and ``python3 -m adjudicator worker``. Before, every job queued when the
broker died stayed ``queued`` for good.

- The broker comes back empty: each lost job is sent again within ``requeue_seconds`` and a worker
  rules on it (``done``); its row counts two sendings.
- The broker stays away: each lost job fails within ``give_up_seconds`` (plus a sweep), and its page
  says why and that it was given up.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask

from tests.web.opened_apps import opened
from tests.web.test_queue import KRK, REDIS_SERVER, _config, _free_port, _stop, _wait
from web import create_app
from web.config import PROJECT_ROOT
from web.queue.recovery import LOST
from web.queue.rows import claim_job_id
from web.tables.jobs import JobRow

pytestmark = [pytest.mark.slow]

REQUEUE, GIVE_UP = 2.0, 8.0


@dataclass
class Broker:
    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no", "--dir", str(self.folder)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        _wait(lambda: _pings(client), 10, "redis-server to answer")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def _pings(client: object) -> bool:
    import redis

    try:
        return bool(client.ping())  # type: ignore[attr-defined]
    except redis.RedisError:
        return False


@dataclass
class World:
    app: Flask
    broker: Broker
    env: dict[str, str]

    def claim(self) -> int:
        """An engine claim entered on the web (a KRK ending: the worker answers from the tablebase at once)."""
        response = self.app.test_client().post("/claims", data={"game": "chess", "ruleset": "fide-standard",
                                                                "claim": "unfinished-game", "fen": KRK})
        assert response.status_code == 303, response.text
        found = re.search(r"/cases/(\d+)$", response.headers["Location"])
        assert found
        return int(found.group(1))

    def row(self, case_id: int) -> JobRow:
        with self.app.extensions["db_sessions"]() as session:
            found = session.get(JobRow, claim_job_id(case_id))
            assert found is not None
            return found

    def worker(self, log: Path) -> subprocess.Popen[bytes]:
        with log.open("wb") as handle:
            process = subprocess.Popen([sys.executable, "-m", "adjudicator", "worker"], cwd=PROJECT_ROOT,
                                       env=self.env, stdout=subprocess.PIPE, stderr=handle)
        assert process.stdout is not None
        assert json.loads(process.stdout.readline())["worker"]
        _wait(lambda: "ready." in log.read_text(errors="replace"), 30, "the worker to connect")
        return process


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("lost")
    config = _config(folder)
    text = config.read_text()
    for key, value in (("requeue_seconds", REQUEUE), ("give_up_seconds", GIVE_UP)):
        text, count = re.subn(rf"^{key} = \S+", f"{key} = {value}", text, count=1, flags=re.MULTILINE)
        assert count == 1, f"config.toml has no [queue] {key}"
    config.write_text(text)
    broker = Broker(_free_port(), folder)
    broker.start()
    url = f"redis://127.0.0.1:{broker.port}/0"
    env = {**__import__("os").environ, "ADJUDICATOR_CONFIG": str(config), "ADJUDICATOR_BROKER_URL": url,
           "PYTHONPATH": str(PROJECT_ROOT)}
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADJUDICATOR_BROKER_URL", url)
        patch.delenv("ADJUDICATOR_DATABASE_URL", raising=False)
        app = opened(create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                          "CONFIG_PATH": str(config)}))
    try:
        yield World(app, broker, env)
    finally:
        app.extensions["adjudicator"].shutdown()
        if broker.process is not None and broker.process.poll() is None:
            _stop(broker.process)


def test_a_check_waiting_for_the_workers_stops_within_seconds_of_a_cancel(world: World) -> None:
    """A game check on the queue waits for its parts' results; a cancel cuts the wait short (no worker runs
    yet, so the part would wait ``[queue] wait_seconds``), and the parts' rows are gone."""
    from engines.collection import text_parts
    from web.queue.collection import check_parts_on_queue
    from web.queue.remote import Stopped

    remote = world.app.extensions["adjudicator"].remote
    asked: list[bool] = []

    def stop() -> bool:
        asked.append(True)
        return True

    # without the stop the wait would end at [queue] wait_seconds in a QueueTimeout, not in Stopped
    with pytest.raises(Stopped):
        list(check_parts_on_queue(text_parts(['[Event "x"]\n\n1. e4 e5 1-0\n'], 64), game="chess",
                                  ruleset="fide-standard", remote=remote, stop=stop))
    assert asked == [True], "the first look at the cancel ended the wait"
    with world.app.extensions["db_sessions"]() as session:
        assert session.query(JobRow).filter(JobRow.kind == "check-chunk").count() == 0


def test_a_part_whose_worker_died_before_holding_its_row_is_sent_again(world: World) -> None:
    """Issue 40: a collection's part is held in its row only at its worker's first heartbeat (one commit per
    part). A worker killed before that leaves the row queued and its message delivered, unacknowledged, which
    the broker gives back only after its visibility timeout (an hour): the sweep takes such a message, delivered
    longer ago than ``[queue] lease_seconds``, as lost, and sends the part again."""
    from web.queue import QUEUE_NAME, QueueSettings
    from web.queue.recovery import held_ids, recover

    remote = world.app.extensions["adjudicator"].remote
    job_id = "check:died:0"
    remote.submit(job_id, "check-chunk", {"game": "chess", "ruleset": "fide-standard", "records": []})
    # a "worker": takes the message as Celery's consumer does (kombu, not acknowledged), then is SIGKILLed
    code = ("import os, signal, sys\n"
            "from web.queue import QueueSettings, make_celery\n"
            "app = make_celery(sys.argv[1], QueueSettings())\n"
            "with app.connection_for_read() as connection:\n"
            f"    message = connection.default_channel.basic_get({QUEUE_NAME!r}, no_ack=False)\n"
            "    while not message.headers['id'].startswith(sys.argv[2] + '#'):  # an earlier test's, its row gone\n"
            "        message.ack()\n"
            f"        message = connection.default_channel.basic_get({QUEUE_NAME!r}, no_ack=False)\n"
            "    print(message.headers['id'], flush=True)\n"
            "    os.kill(os.getpid(), signal.SIGKILL)\n")
    died = subprocess.run([sys.executable, "-c", code, remote.url, job_id], cwd=PROJECT_ROOT, env=world.env,
                          capture_output=True, timeout=60)
    assert died.returncode == -signal.SIGKILL and died.stdout.decode().startswith(job_id + "#"), died.stderr
    assert job_id in (held_ids(remote.url) or set()), "delivered and unacknowledged: the broker holds it"
    assert job_id not in (held_ids(remote.url, delivered_within=0.0) or set()), "but not as a recent delivery"
    with world.app.extensions["db_sessions"]() as session:  # queued for longer than requeue_seconds
        session.query(JobRow).filter(JobRow.id == job_id).update({"published_at": JobRow.published_at - 60})
        session.commit()
    sent: list[str] = []
    settings = QueueSettings(requeue_seconds=REQUEUE)
    sessions = world.app.extensions["db_sessions"]
    assert recover(sessions, settings, lambda: held_ids(remote.url, 30.0), sent.append) == {}, \
        "delivered within the lease: a worker may be about to hold it"
    assert recover(sessions, settings, lambda: held_ids(remote.url, 0.0), sent.append) == {job_id: "sent"}
    assert sent == [job_id]
    with world.app.extensions["db_sessions"]() as session:
        session.query(JobRow).filter(JobRow.id == job_id).delete()
        session.commit()


def test_jobs_queued_on_a_broker_that_dies_are_sent_again_and_ruled_on(world: World, tmp_path: Path) -> None:
    cases = [world.claim() for _ in range(3)]  # no worker yet: the three wait in the broker
    assert {world.row(c).status for c in cases} == {"queued"}
    world.broker.kill()  # without persistence: the three messages are gone
    world.broker.start()
    worker = world.worker(tmp_path / "worker.log")
    try:
        # the deadline only bounds a hang; that each job was sent again once, not more, is publications == 2
        done = _wait(lambda: all(world.row(c).is_finished for c in cases) and [world.row(c) for c in cases],
                     REQUEUE * 3 + 300, "the lost jobs to be ruled on")
        assert [row.status for row in done] == ["done"] * 3, [row.error for row in done]
        assert all(row.publications == 2 for row in done)  # sent once, lost, sent again once
        page = world.app.test_client().get(f"/cases/{cases[0]}")
        assert page.status_code == 303 and "/rulings/" in page.headers["Location"]
    finally:
        _stop(worker)


def test_jobs_queued_on_a_broker_that_stays_away_fail_with_the_reason(world: World) -> None:
    cases = [world.claim() for _ in range(2)]
    assert {world.row(c).status for c in cases} == {"queued"}
    world.broker.kill()  # and it does not come back
    # the deadlines only bound a hang: that the jobs waited [queue] give_up_seconds first is the message
    seen_waiting = _wait(lambda: LOST not in world.row(cases[0]).message and world.row(cases[0]).message,
                         GIVE_UP + 120, "the page to say the queue cannot be reached")
    assert "cannot be reached now" in seen_waiting
    failed = _wait(lambda: all(world.row(c).is_finished for c in cases) and [world.row(c) for c in cases],
                   GIVE_UP + REQUEUE * 3 + 300, "the lost jobs to fail")
    for row in failed:
        assert row.status == "failed" and row.error is not None
        assert row.error["code"] == "queue_unavailable" and "given up" in row.error["message"]
    page = world.app.test_client().get(f"/cases/{cases[0]}").get_data(as_text=True)
    assert "No ruling:" in page and "the task queue lost this job and cannot be reached" in page
