"""Vote throughput and latency of the Committee API on the real server, and audit verification time.

Usage: ``python bench/committee.py [--cases N] [--threads T]``. Starts
``python3 -m adjudicator serve`` (waitress) on 127.0.0.1 with a temp SQLite
database (WAL, synchronous=FULL), opens a few checkers cases through the server with
the configured analysis (``--open`` of them; the time includes the deterministic
search), opens N more directly with a 3000-node search, sends every member's vote
on those from T threads, and prints votes per second, median / p95 / max latency
per vote, and the time ``audit verify`` takes over the whole trail.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.rulesets import RulesetBook  # noqa: E402
from web.commands.store import command_session  # noqa: E402
from web.committee.service import open_case  # noqa: E402
from web.config import load_config  # noqa: E402
from web.tables.users import create_user  # noqa: E402

MEMBERS = ("m1", "m2", "m3")


def call(method: str, url: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, json.loads(response.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--open", type=int, default=3, help="cases opened through the server (full analysis)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-committee-"))
    url = f"sqlite:///{workdir / 'bench.db'}"
    tokens: dict[str, str] = {}
    config = load_config()
    config["database"] = {"url": url}
    small = {**config, "checkers": {**config.get("checkers", {}), "search_nodes": 3000}}
    case = {"game": "checkers", "ruleset": "acf-master-division", "claim": "unfinished-game",
            "fen": "B:W21,22,23,K30:B9,10,11", "members": list(MEMBERS)}
    cases: list[int] = []
    with command_session(config) as session:
        users = {}
        for name, role in (("tina", "td"), *((m, "committee") for m in MEMBERS)):
            users[name], tokens[name], _ = create_user(session, name, role, "password-123")
        session.commit()
        for _ in range(args.cases):
            cases.append(open_case(session, case, users["tina"], RulesetBook.from_config(small), small).id)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "ADJUDICATOR_DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        open_times = []
        for _ in range(args.open):
            start = time.perf_counter()
            call("POST", f"{base}/api/v1/committee-cases", tokens["tina"], case)
            open_times.append(time.perf_counter() - start)

        def vote(job: tuple[int, str]) -> float:
            start = time.perf_counter()
            status, _ = call("POST", f"{base}/api/v1/committee-cases/{job[0]}/votes", tokens[job[1]],
                             {"result": "1-0", "comment": "bench"})
            assert status == 201
            return time.perf_counter() - start

        jobs = [(c, m) for c in cases for m in MEMBERS]
        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.threads) as pool:
            latencies = sorted(pool.map(vote, jobs))
        wall = time.perf_counter() - start
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    from web.audit import verify

    with command_session({"database": {"url": url}}) as session:
        start = time.perf_counter()
        report = verify(session)
        verify_time = time.perf_counter() - start
    ms = 1000.0
    nodes = config.get("checkers", {}).get("search_nodes")
    if open_times:
        print(f"case opened through the server with the configured analysis ({nodes}-node checkers search): "
              f"median {statistics.median(open_times):.2f} s over {len(open_times)}")
    print(f"votes: {len(jobs)} from {args.threads} threads in {wall:.2f} s = {len(jobs) / wall:.1f} votes/s")
    print(f"vote latency: median {statistics.median(latencies) * ms:.1f} ms, "
          f"p95 {latencies[int(0.95 * (len(latencies) - 1))] * ms:.1f} ms, max {latencies[-1] * ms:.1f} ms")
    print(f"audit verify: {report.entries} entries in {verify_time * ms:.0f} ms, intact={report.is_intact}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
