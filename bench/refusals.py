"""How fast hostile input is refused (issue 41: the figures the tests no longer hold to a wall clock).

The tests assert each refusal by its cause (tests/web/test_hostile_input.py, tests/test_reading_notes.py,
tests/web/test_collection_limits.py, tests/web/test_auth_throttle.py); this prints the seconds, in this
process, best and median of ``--runs``:

- a record of ``1. `` and one 1.9 M-character token, refused by ``POST /api/v1/rulings`` (before: 83-89 s);
- a 200,000 to 1,000,000-character token read by the chess reader (unreadable for its length);
- a gzip of one 200 MB line and a zstd of 1.08 GB, refused by the upload's scan;
- a log-in with a wrong password for a real user and one with an unknown name (before: 256 ms and 7 ms).

    python3 bench/refusals.py [--runs 5]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from web.commands.check_games import CollectionError, Limits, scan  # noqa: E402


def line_bomb() -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = b"e4" * 500_000
    return b"".join([compressor.compress(b"1. "), *(compressor.compress(piece) for _ in range(200)),
                     compressor.flush()])


def zstd_bomb(games: int = 40_000_000) -> bytes:
    import zstandard

    compressor = zstandard.ZstdCompressor(level=3).compressobj()
    block = b'[Event "bomb"]\n\n1. e4 e5 1-0\n\n' * 40_000
    return b"".join([*(compressor.compress(block) for _ in range(games // 40_000)), compressor.flush()])


def timed(what: str, runs: int, action: Callable[[], object]) -> None:
    seconds = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - began)
    print(f"{what:<62} best {min(seconds) * 1000:9.1f} ms  median {statistics.median(seconds) * 1000:9.1f} ms")


def refused(data: bytes, name: str) -> None:
    try:
        scan(data, name, Limits())
    except CollectionError:
        return
    raise AssertionError(f"{name} was not refused")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    from adjudicator.chess.replay import _first_game, replay_chess

    def read(text: str) -> None:
        _first_game.cache_clear()  # each run reads afresh
        replay_chess(text, allow_unreadable=True)
    from web import create_app
    from web.tables.users import create_user

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                          "WTF_CSRF_ENABLED": False, "DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.db'}",
                          "SECURITY": {"login_failures_per_name": 10**6, "login_failures_per_address": 10**6}})
        client = app.test_client()
        case = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
                "record": "1. " + "N" * 1_900_000}

        def single_token() -> None:
            assert client.post("/api/v1/rulings", json=case).status_code == 422

        timed("1.9 M-character single-token record, POST /api/v1/rulings", runs, single_token)
        for token in ("N" + "!" * 200_000 + "a", "Nf3" * 100_000, "x" * 1_000_000):
            timed(f"a {len(token):,}-character token read by the chess reader", runs,
                  functools.partial(read, f"1. e4 e5 2. {token}"))
        line, zstd = line_bomb(), zstd_bomb()
        timed(f"gzip of one 200 MB line ({len(line):,} bytes), upload scan", runs, lambda: refused(line, "b.pgn.gz"))
        timed(f"zstd of 1.08 GB ({len(zstd):,} bytes), upload scan", max(1, runs // 2),
              lambda: refused(zstd, "b.pgn.zst"))
        with app.extensions["db_sessions"]() as session:
            create_user(session, "carol", "td", "carol-password")
            session.commit()
        names = iter(range(10**6))

        def log_in(name: str) -> None:
            answer = client.post("/login", data={"name": name, "password": "not-the-password"})
            assert answer.status_code == 401, answer.status_code

        timed("log-in, wrong password for a real user", runs, lambda: log_in("carol"))
        timed("log-in, unknown name", runs, lambda: log_in(f"nobody-{next(names)}"))
        app.extensions["adjudicator"].shutdown()


if __name__ == "__main__":
    main()
