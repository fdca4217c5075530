"""Per-client budgets on the costly routes (issue 39, item 2): an anonymous client past its budget gets 429
with Retry-After, on the API (the contract's JSON error) and the pages; another client, a logged-in TD and a
token's user are counted apart; the counts live in redis when a broker is configured."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.web.conftest import make_app
from web.limits import DEFAULTS, GROUPS

QUICK = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
         "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"}
CANDIDATES = "/claims/candidates?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b%20KQkq%20-%200%201"
BUDGETS = {"rulings_anonymous": 3, "rulings_user": 5, "entry_anonymous": 4}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, LIMITS=BUDGETS)
    yield app
    app.extensions["adjudicator"].shutdown()


def rule(app: Flask, address: str = "198.51.100.7",
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], dict[str, object]]:
    response = app.test_client().post("/api/v1/rulings", json=QUICK, headers=headers or {},
                                      environ_base={"REMOTE_ADDR": address})
    return response.status_code, dict(response.headers), json.loads(response.data or b"{}")


def test_an_anonymous_client_past_its_budget_gets_429_with_retry_after(app: Flask) -> None:
    assert [rule(app)[0] for _ in range(3)] == [201, 201, 201]
    status, headers, body = rule(app)
    assert status == 429 and int(headers["Retry-After"]) > 0
    error = body["error"]
    assert isinstance(error, dict) and error["code"] == "too_many_requests" and "3 a minute" in str(error["message"])


def test_another_address_has_its_own_budget(app: Flask) -> None:
    for _ in range(4):
        rule(app, "198.51.100.7")
    assert rule(app, "203.0.113.9")[0] == 201


def test_a_users_budget_is_their_own_and_larger(app: Flask) -> None:
    from tests.web.committee_support import add_user

    token = add_user(app, "tina", "td")
    for _ in range(4):
        rule(app)  # the address's anonymous budget is spent
    mine = [rule(app, headers={"Authorization": f"Bearer {token}"})[0] for _ in range(6)]
    assert mine == [201] * 5 + [429], "the token's user: five a minute, whatever the address spent"


def test_the_form_and_the_entry_board_are_budgeted_too(app: Flask) -> None:
    client = app.test_client()
    asked = [client.get(CANDIDATES, environ_base={"REMOTE_ADDR": "192.0.2.1"}).status_code for _ in range(5)]
    assert asked[:4] == [200] * 4 and asked[4] == 429
    page = client.get(CANDIDATES, environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert page.status_code == 429 and "Retry-After" in page.headers


def test_every_group_has_both_budgets_and_its_routes_exist(app: Flask) -> None:
    assert {name.rsplit("_", 1)[0] for name in DEFAULTS} == set(GROUPS)
    assert all(endpoint in app.view_functions for endpoints in GROUPS.values() for endpoint in endpoints)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """Debian's redis-server on a free loopback port (the broker the budgets share when one is configured)."""
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.access(server, os.X_OK):
        pytest.fail(f"redis-server is not installed at {server}: run `bash .ci/install`")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(200):
            try:
                if client.ping():
                    break
            except redis.exceptions.ConnectionError:
                process.poll()
                assert process.returncode is None, "redis-server exited"
                threading.Event().wait(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_web_processes_sharing_a_broker_share_the_counts(tmp_path: Path, redis_url: str) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = make_app(tmp_path / "one", RATELIMIT_ENABLED=True, LIMITS=BUDGETS, RATELIMIT_STORAGE_URI=redis_url)
    two = make_app(tmp_path / "two", RATELIMIT_ENABLED=True, LIMITS=BUDGETS, RATELIMIT_STORAGE_URI=redis_url)
    try:
        assert [rule(one)[0], rule(two)[0], rule(one)[0]] == [201, 201, 201]
        assert rule(two)[0] == 429, "the second process saw the first one's requests"
    finally:
        one.extensions["adjudicator"].shutdown()
        two.extensions["adjudicator"].shutdown()
