"""Load on the web app as the README serves it: N clients posting claims for D seconds.

Starts ``python3 -m adjudicator serve --host 127.0.0.1 --port P`` as a subprocess (a
fresh SQLite file in a temporary folder, so the TD's database is left alone), then
runs N threads, each posting cases to ``POST /api/v1/rulings`` over its own
keep-alive connection. Cases are claims that need no engine (threefold repetition,
fifty-move, illegal move), taken in turn. Prints p50/p90/p99/max latency, the
throughput and the error count (anything but 201 is an error).

    python3 bench/web.py [--clients 20] [--seconds 60]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = [
    {
        "ruleset": "fide-standard",
        "claim": "threefold-repetition",
        "claimant": "white",
        "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
    },
    {
        "ruleset": "fide-rapid",
        "claim": "threefold-repetition",
        "claimant": "black",
        "record": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 "
        "10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6",
        "intended_move": "Bg7",
    },
    {
        "ruleset": "fide-standard",
        "claim": "fifty-move",
        "claimant": "white",
        "record": "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7 7. Rc1 c6 8. Bd3 dxc4 9. Bxc4 Nd5",
    },
    {
        "ruleset": "uschess",
        "claim": "illegal-move",
        "claimant": "black",
        "record": "1. e4 e5 2. Ke3 Nc6",
    },
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(port: int, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/v1/openapi.json")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer within a minute")


def client(port: int, stop_at: float, offset: int, latencies: list[float], errors: list[str],
           finished: list[float]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    bodies = [json.dumps(case).encode() for case in CASES]
    index = offset
    while time.monotonic() < stop_at:
        body = bodies[index % len(bodies)]
        index += 1
        started = time.perf_counter()
        try:
            connection.request("POST", "/api/v1/rulings", body=body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            data = response.read()
            elapsed = time.perf_counter() - started
            if response.status != 201:
                errors.append(f"{response.status}: {data[:200]!r}")
            else:
                latencies.append(elapsed)
                finished.append(time.monotonic())
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--threads", type=int, default=8, help="waitress threads (serve --threads)")
    args = parser.parse_args()

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="adjudicator-bench-") as folder:
        env = dict(os.environ, ADJUDICATOR_DATABASE_URL=f"sqlite:///{folder}/bench.db")
        command = [
            sys.executable,
            "-m",
            "adjudicator",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--threads",
            str(args.threads),
        ]
        log_path = Path(folder) / "server.log"
        log = log_path.open("wb")
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_ready(port, server)
            for case in CASES:  # warm up, and check every case is ruled on at all
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request(
                    "POST", "/api/v1/rulings", body=json.dumps(case), headers={"Content-Type": "application/json"}
                )
                response = connection.getresponse()
                if response.status != 201:
                    print(f"warning: {case['claim']} answers {response.status}: {response.read()[:200]!r}")
            latencies: list[float] = []
            finished: list[float] = []
            errors: list[str] = []
            stop_at = time.monotonic() + args.seconds
            threads = [
                threading.Thread(target=client, args=(port, stop_at, i, latencies, errors, finished), daemon=True)
                for i in range(args.clients)
            ]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.monotonic() - started
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()
            server_log = log_path.read_text(errors="replace").splitlines()
    count = len(latencies)
    print(
        f"web bench: {args.clients} clients, {args.seconds:.0f} s, waitress threads {args.threads}, "
        f"{os.cpu_count()} CPUs (shared machine: figures are noisy)"
    )
    if count:
        print(f"requests ok: {count}  throughput: {count / wall:.1f}/s")
        print(
            f"latency ms: p50 {1000 * statistics.median(latencies):.1f}  p90 {1000 * percentile(latencies, 0.90):.1f}  "
            f"p99 {1000 * percentile(latencies, 0.99):.1f}  max {1000 * max(latencies):.1f}"
        )
        slow = sorted((lat, end - started) for lat, end in zip(latencies, finished, strict=True) if lat > 0.5)
        if slow:  # stalls: when in the run the slowest requests ended (a disk sync, a pause of the server)
            moments = sorted({int(at) for _, at in slow})
            when = ", ".join(map(str, moments[:10]))
            print(f"over 500 ms: {len(slow)} requests, ending in second(s) {when} of the run")
    print(f"errors: {len(errors)}")
    for line in sorted(set(errors))[:5]:
        print(f"  {line}")
    problems = [line for line in server_log if "Error" in line or "error" in line]
    if problems:
        print(f"server log: {len(problems)} error lines, the first: {problems[0][:300]}")
    return 0 if not errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
