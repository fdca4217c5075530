"""Hostile load against the served app (issue 39): 8 anonymous clients at once, each posting a 1.9 MB record of
legal moves to ``POST /api/v1/rulings`` again and again, while one client asks for the log-in page.

Starts ``python3 -m adjudicator serve`` on 127.0.0.1 (a fresh SQLite file in a temporary folder) and prints the
log-in page's latency (p50, p99, max), what the hostile requests got (422 refused by the count, 429 past the
budget), and the server's CPU seconds. The hostile clients come from 127.0.0.1 like the log-in page's: with the
per-address budget, most of their requests are 429. ``--no-budget`` sets ``[limits] rulings_anonymous = 0`` to
see what the record-length count alone gives.

    python3 bench/hostile.py [--seconds 20] [--clients 8] [--no-budget]
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHUFFLE = ("Nf3", "Nf6", "Ng1", "Ng8")


def long_record(plies: int = 250_000) -> str:
    words: list[str] = []
    for ply in range(plies):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(SHUFFLE[ply % 4])
    return " ".join(words) + " *"


def _bench_web() -> Any:
    """bench/web.py, loaded by its path (its name would be the project's web package's): its free port and its
    wait for the served app."""
    spec = importlib.util.spec_from_file_location("bench_web", Path(__file__).resolve().parent / "web.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--no-budget", action="store_true")
    args = parser.parse_args()
    body = json.dumps({"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                       "claimant": "white", "record": long_record()}).encode()
    with tempfile.TemporaryDirectory() as folder:
        config = (ROOT / "config.toml").read_text()
        if args.no_budget:
            config = config.replace("rulings_anonymous = 20", "rulings_anonymous = 0")
        (Path(folder) / "config.toml").write_text(config.replace('url = "sqlite:///instance/adjudicator.db"',
                                                                 f'url = "sqlite:///{folder}/bench.db"'))
        helpers = _bench_web()
        port = helpers.free_port()
        env = {**os.environ, "ADJUDICATOR_CONFIG": str(Path(folder) / "config.toml"), "PYTHONPATH": str(ROOT)}
        env.pop("ADJUDICATOR_BROKER_URL", None)
        env.pop("ADJUDICATOR_DATABASE_URL", None)
        server = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1", "--port",
                                   str(port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            helpers.wait_ready(port, server)
            began_cpu = cpu_seconds(server.pid)
            stop = time.monotonic() + args.seconds
            answers: Counter[int] = Counter()
            lock = threading.Lock()

            def hostile() -> None:
                while time.monotonic() < stop:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    try:
                        connection.request("POST", "/api/v1/rulings", body=body,
                                           headers={"Content-Type": "application/json"})
                        status = connection.getresponse().status
                    except OSError:
                        status = 0
                    finally:
                        connection.close()
                    with lock:
                        answers[status] += 1

            latencies: list[float] = []

            def login_page() -> None:
                while time.monotonic() < stop:
                    began = time.perf_counter()
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    connection.request("GET", "/login")
                    response = connection.getresponse()
                    response.read()
                    connection.close()
                    assert response.status == 200
                    latencies.append(time.perf_counter() - began)
                    time.sleep(0.05)

            threads = [threading.Thread(target=hostile) for _ in range(args.clients)]
            threads.append(threading.Thread(target=login_page))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            used = cpu_seconds(server.pid) - began_cpu
        finally:
            server.terminate()
            server.wait(20)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"hostile clients: {args.clients}, {args.seconds:g} s, budget {'off' if args.no_budget else 'on'}")
    print(f"hostile answers: {dict(sorted(answers.items()))} (422: refused by the count; 429: past the budget)")
    print(f"server CPU: {used:.1f} s in {args.seconds:g} s")
    print(f"log-in page: {len(latencies)} requests, p50 {statistics.median(latencies) * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms (goal: p99 under 300 ms)")


if __name__ == "__main__":
    main()
