"""Bounded work for a game collection (issue 23): uploads and streams are inflated within the limits of
``[collections]`` (bytes once inflated, line length, games) and stop at the limit with a clear 413 or 422,
on the checks page and in ``adjudicator check-games``; a cancel is honoured within seconds while the
games are counted; one large upload does not hold the event's other checks back. Each refusal is
asserted by its cause, not its time (how fast: bench/): how many bytes were inflated when the bomb was
stopped, and for a cancel, that the count stopped before its end.

The bombs are the issue's: a 194 kB gzip of one 200 MB line (before: over ten minutes and 2.5 GB in
``check-games``), a 99 kB zstd file that inflates to over a gigabyte (before: accepted, its count
blocked the one check thread, a cancel took 376 s), and a zstd file of hundreds of thousands of tiny
games.
"""

from __future__ import annotations

import functools
import io
import json
import re
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
import zstandard
from committee_support import add_user
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.web.conftest import make_app
from tests.web.test_checks_web import COLLECTION, PASSWORD, finished
from web.commands import check_games
from web.commands.check_games import LimitExceeded, Limits, scan
from web.config import PROJECT_ROOT
from web.tables.checks import GameCheck
from web.tables.collections import GameCollection

TINY_GAME = b'[Event "bomb"]\n\n1. e4 e5 1-0\n\n'


@functools.cache
def line_bomb() -> bytes:
    """gzip of one line of 200 MB (``1. e4e4e4...``): 194 kB."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [compressor.compress(b"1. ")]
    piece = b"e4" * 500_000
    parts.extend(compressor.compress(piece) for _ in range(200))
    parts.append(compressor.flush())
    return b"".join(parts)


@functools.cache
def game_bomb(games: int) -> bytes:
    """zstd of ``games`` tiny games (27 bytes each): a gigabyte in under 100 kB at 40 million."""
    compressor = zstandard.ZstdCompressor(level=3).compressobj()
    block = TINY_GAME * 40_000
    parts = [compressor.compress(block) for _ in range(games // 40_000)]
    parts.append(compressor.compress(TINY_GAME * (games % 40_000)))
    parts.append(compressor.flush())
    return b"".join(parts)


@pytest.fixture
def app(tmp_path: Path) -> Any:
    application = make_app(tmp_path)
    yield application
    application.extensions["adjudicator"].shutdown()
    application.extensions["game_checks"].shutdown()


def td(app: Flask) -> FlaskClient:
    add_user(app, "tina", "td", password=PASSWORD)
    client = app.test_client()
    assert client.post("/login", data={"name": "tina", "password": PASSWORD}).status_code == 303
    return client


def upload(client: FlaskClient, data: bytes, name: str) -> Any:
    return client.post("/events/default/checks", data={"ruleset": "fide-standard",
                                                       "collection": (io.BytesIO(data), name)})


def kept(app: Flask) -> int:
    with app.extensions["db_sessions"]() as session:
        return session.query(GameCollection).count()


def check_row(app: Flask, location: str) -> GameCheck:
    with app.extensions["db_sessions"]() as session:
        found = session.get(GameCheck, int(location.rsplit("/", 1)[1]))
        assert found is not None
        return found


def command(tmp_path: Path, path: Path, **collections: int) -> subprocess.CompletedProcess[bytes]:
    """``adjudicator check-games PATH`` with ``[collections]`` set as given (the timeout only bounds a hang)."""
    text = (PROJECT_ROOT / "config.toml").read_text()
    for key, value in collections.items():
        text, count = re.subn(rf"^{key} = \S+", f"{key} = {value}", text, count=1, flags=re.MULTILINE)
        assert count == 1, key
    config = tmp_path / "config.toml"
    config.write_text(text)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT), "ADJUDICATOR_CONFIG": str(config),
           "ADJUDICATOR_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}"}
    return subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path)], capture_output=True,
                          env=env, cwd=PROJECT_ROOT, timeout=300)


class Counted(io.RawIOBase):
    """An inflated stream that counts the bytes read from it."""

    def __init__(self, stream: Any, counts: list[int]) -> None:
        self.stream, self.counts = stream, counts
        counts.append(0)

    def read(self, size: int = -1) -> bytes:
        chunk = bytes(self.stream.read(size))
        self.counts[-1] += len(chunk)
        return chunk

    def close(self) -> None:
        self.stream.close()
        super().close()


@pytest.fixture
def inflated(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes inflated from each collection the checks (web) and ``check-games`` (run here) opened."""
    from web.checks import runner

    counts: list[int] = []
    for module, name in ((check_games, "open_stored"), (check_games, "open_collection"), (runner, "open_stored")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, real=real: Counted(real(*args), counts))
    return counts


def command_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, path: Path) -> tuple[int, dict[str, Any]]:
    """``adjudicator check-games PATH`` run in this process (so its inflated bytes are counted): its exit
    code and its last line."""
    import contextlib

    from web.cli import main

    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check-games", str(path)])
    return code, json.loads(out.getvalue().splitlines()[-1])


def test_a_gzip_line_bomb_is_refused_at_the_line_limit(app: Flask, tmp_path: Path, inflated: list[int],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """200 MB in one line: the upload and the command stop within the line limit and one chunk the scan
    inflates (1 MiB), not after the line."""
    client = td(app)
    refused = upload(client, line_bomb(), "bomb.pgn.gz")
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "line 1 of bomb.pgn.gz is longer than 100,000 bytes" in page
    assert "e4" * 11 not in page  # the line's first 20 characters at most
    assert kept(app) == 0  # not kept
    within = 100_000 + check_games.SCAN_CHUNK  # the line limit, and at most one chunk of the scan
    assert inflated and max(inflated) <= within, f"inflated {inflated} of 200,000,003 bytes"
    path = tmp_path / "bomb.pgn.gz"
    path.write_bytes(line_bomb())
    code, last = command_here(monkeypatch, tmp_path, path)
    assert code == 2 and last["error"]["code"] == "line_too_long"
    assert len(inflated) > 1 and max(inflated) <= within, f"the command inflated {inflated} of 200,000,003 bytes"


def test_a_zstd_bomb_is_refused_at_the_inflated_limit(app: Flask, tmp_path: Path, inflated: list[int]) -> None:
    """1.08 GB once inflated: the upload stops within one chunk past the 100 MB limit."""
    data = game_bomb(40_000_000)  # 1.08 GB once inflated
    assert len(data) < 150_000
    client = td(app)
    refused = upload(client, data, "bomb.pgn.zst")
    assert refused.status_code == 413
    assert "holds more than 100,000,000 bytes once inflated" in refused.get_data(as_text=True)
    assert kept(app) == 0
    assert inflated and max(inflated) <= 100_000_000 + check_games.SCAN_CHUNK, f"inflated {inflated} of 1.08 GB"
    assert max(inflated) > 100_000_000, "refused at the limit, not before"
    path = tmp_path / "bomb.pgn.zst"
    path.write_bytes(data)
    done = command(tmp_path, path, max_games=10**9)
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout.decode().splitlines()[-1])["error"]["code"] == "too_large"


def test_a_zstd_game_bomb_stops_at_the_game_limit_before_its_games_are_checked(app: Flask, tmp_path: Path) -> None:
    app.extensions["game_checks"].limits = Limits(games=5_000)
    client = td(app)
    accepted = upload(client, game_bomb(200_000), "games.pgn.zst")  # 5.4 MB: within the bytes and lines
    assert accepted.status_code == 303
    report = finished(client, accepted.headers["Location"], 120)
    assert "The check failed:" in report and "more than 5,000 games" in report
    row = check_row(app, accepted.headers["Location"])
    assert row.status == "failed" and row.error is not None and row.error["code"] == "too_many_games"
    assert row.games == 0  # refused while counting: no game was checked
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(game_bomb(200_000))
    done = command(tmp_path, path, max_games=100)
    assert done.returncode == 2, done.stderr
    *lines, last = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert last["error"]["code"] == "too_many_games" and len(lines) <= 100  # a stream stops at the limit


def test_a_cancel_while_counting_stops_the_count_and_other_checks_go_on(app: Flask) -> None:
    """A cancel stops the count where it is: the row says cancelled with no total (the count never
    reached the file's end, 3,000,000 games) and no game checked. The deadlines only bound a hang."""
    app.extensions["game_checks"].limits = Limits(games=10**7)
    client = td(app)
    large = upload(client, game_bomb(3_000_000), "season.pgn.zst")  # 81 MB, minutes to count
    assert large.status_code == 303
    deadline = time.monotonic() + 120
    while "counting" not in check_row(app, large.headers["Location"]).message:
        assert time.monotonic() < deadline, "the large check never started counting"
        time.sleep(0.2)
    small = upload(client, COLLECTION, "round1.pgn")
    report = finished(client, small.headers["Location"], 240)  # checked while the large one counts
    assert "games with findings" in report
    assert check_row(app, large.headers["Location"]).status == "running"
    assert client.post(f"{large.headers['Location']}/cancel").status_code == 303
    deadline = time.monotonic() + 120
    while check_row(app, large.headers["Location"]).status != "cancelled":
        assert time.monotonic() < deadline, "the cancel was never honoured"
        time.sleep(0.1)
    row = check_row(app, large.headers["Location"])
    assert row.total is None, "the count stopped before the end of the file"
    assert row.games == 0 and row.message == "cancelled by the TD"


@settings(max_examples=300, deadline=None)
@given(text=st.binary(max_size=60).map(lambda b: bytes(b"ab\n"[x % 3] for x in b)), limit=st.integers(1, 8),
       chunk=st.integers(1, 9))
def test_the_upload_scan_finds_the_first_line_over_the_limit_whatever_the_chunks(text: bytes, limit: int,
                                                                                 chunk: int) -> None:
    """The scan measures lines at the decompressor's speed, in chunks; it names the same line a plain
    reading would, wherever the chunks cut."""
    long = [n for n, line in enumerate(text.split(b"\n"), start=1) if len(line) > limit]
    saved = check_games.SCAN_CHUNK
    check_games.SCAN_CHUNK = chunk
    try:
        scan(text, "x.pgn", Limits(line_bytes=limit))
        found = None
    except LimitExceeded as exc:
        found = int(exc.message.split()[1].replace(",", ""))
    finally:
        check_games.SCAN_CHUNK = saved
    assert found == (long[0] if long else None)


@settings(max_examples=300, deadline=None)
@given(text=st.binary(max_size=60).map(lambda b: bytes(b"ab\n"[x % 3] for x in b)), limit=st.integers(1, 8),
       block=st.integers(1, 9))
def test_a_line_too_long_at_a_blocks_end_is_named_by_its_number(tmp_path_factory: pytest.TempPathFactory,
                                                                 text: bytes, limit: int, block: int) -> None:
    """A file read a block of lines at a time (a file the scan measured, changed since) stops at a line over the
    limit that a block ends inside, naming that line by its number (counted only then), and never names a line
    within the limit."""
    lines = text.split(b"\n")
    long = {n for n, line in enumerate(lines, start=1) if len(line) > limit}
    path = tmp_path_factory.mktemp("blocks") / "x.pgn"
    path.write_bytes(text)
    saved = check_games.BLOCK
    check_games.BLOCK = block
    try:
        with path.open("rb") as stream:
            read = b"".join(check_games.blocks(stream, str(path), Limits(line_bytes=limit)))
        found = None
    except LimitExceeded as exc:
        found = int(exc.message.split()[1].replace(",", ""))
    finally:
        check_games.BLOCK = saved
    if found is None:
        assert read == text
    else:
        assert found in long
