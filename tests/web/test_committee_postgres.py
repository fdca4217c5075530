"""The committee on PostgreSQL: concurrent votes on many cases, each decided once, the audit chain unbroken.

Starts a throw-away cluster from Debian's ``postgresql`` package (skips where
there is none). Under READ COMMITTED the case row is locked for each vote, so the
third vote always sees the other two and decides.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, small_budgets

from web import create_app

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def postgres_url() -> Iterator[str]:
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    initdb = shutil.which("initdb") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))), None)
    if initdb is None:
        pytest.skip("PostgreSQL is not installed (Debian package postgresql)")
    bindir = Path(initdb).resolve().parent
    workdir = Path(tempfile.mkdtemp(prefix="committee-pg-"))
    data, port = workdir / "data", _free_port()
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        if shutil.which("runuser") is None or subprocess.run(["id", "postgres"], capture_output=True).returncode:
            pytest.skip("running as root without a postgres user")
        shutil.chown(workdir, "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    try:
        subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-w", "-t", "60", "-l",
                        str(workdir / "log"), "-o",
                        f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                       check=True, capture_output=True, timeout=90)
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        pytest.skip(f"PostgreSQL could not start here: {exc}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(workdir, ignore_errors=True)


def test_concurrent_votes_on_postgresql(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", postgres_url)
    small_budgets(monkeypatch)
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False})
    maker = app.extensions["db_sessions"]
    assert maker.kw["bind"].dialect.name == "postgresql"
    td = add_user(app, "tina", "td")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    client = app.test_client()
    cases = [client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
             for _ in range(8)]

    def vote(job: tuple[int, str]) -> int:
        case_id, member = job
        response = app.test_client().post(f"/api/v1/committee-cases/{case_id}/votes", json={"result": "1-0"},
                                          headers=bearer(members[member]))
        return response.status_code

    jobs = [(case_id, member) for case_id in cases for member in members] * 2  # every vote sent twice
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(vote, jobs))
    assert sorted(statuses) == [201] * 24 + [409] * 24
    for case_id in cases:
        body = client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(td)).json
        assert (body["status"], body["votes_cast"], body["result"]) == ("decided", 3, "1-0")
    from web.audit import verify

    with maker() as session:
        report = verify(session)
    assert report.is_intact, report.to_json()
    assert report.entries == 4 + 2 * 8 + 3 * 8 + 8
    maker.kw["bind"].dispose()
