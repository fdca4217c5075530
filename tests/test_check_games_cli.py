"""``adjudicator check-games``: the contract's lines for a collection, streamed, compressed or not, over workers.

Runs the real command on small collections built here (the games of tests/test_check_games.py): one line
per game in file order, a summary line, the same output from .gz, .bz2, .zst and standard input, the same
output with two worker processes as in one, and exit 2 with an ``{"error"}`` for bad input. Standard input,
two workers and a missing file go through a real ``python3 -m adjudicator`` process, the rest through
``web.cli.main`` in this process (tests/cli_runs.py: the same command without a second of start-up each).
"""

from __future__ import annotations

import bz2
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import zstandard

from tests.cli_runs import LOADED_BY_CHECK_GAMES, run_in_process_bytes
from tests.test_check_games import CHECKERS_CLEAN, CHECKERS_NO_MOVES, CHESS_GAMES

ROOT = Path(__file__).resolve().parent.parent
COLLECTION = "".join(CHESS_GAMES.values())
EXPECTED_CODES = [
    [], ["time-forfeit-unwinnable"], [], ["dead-position"], ["fivefold"], ["seventy-five-moves"],
    ["checkmate-mismatch"], ["stalemate-mismatch"], ["illegal-move"], ["unreadable"],
]


def run(*args: str, stdin: bytes = b"", process: bool = False) -> subprocess.CompletedProcess[bytes]:
    """``adjudicator check-games *args``: in this process (tests/cli_runs.py), or as a real process."""
    if not process:
        return run_in_process_bytes(["check-games", *args], stdin=stdin)
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", "check-games", *args],
        input=stdin, capture_output=True, cwd=ROOT, timeout=300,
    )


def lines(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    assert proc.returncode == 0, proc.stderr.decode()
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def without_seconds(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The output with the summary's running time taken out (the one field that may differ between runs)."""
    *games, summary = out
    return [*games, {"summary": {k: v for k, v in summary["summary"].items() if k != "seconds"}}]


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("collection") / "event.pgn"
    path.write_text(COLLECTION, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def expected(plain: Path) -> list[dict[str, Any]]:
    return lines(run(str(plain)))


def test_one_line_per_game_in_file_order_then_the_summary(expected: list[dict[str, Any]]) -> None:
    *games, summary = expected
    assert [g["index"] for g in games] == list(range(1, len(CHESS_GAMES) + 1))
    assert [list(g) for g in games] == [["index", "headers", "recorded_result", "lawful_result", "findings"]] * len(
        games
    )
    assert [sorted({f["code"] for f in g["findings"]}) for g in games] == EXPECTED_CODES
    assert games[1]["lawful_result"] == "1/2-1/2" and games[1]["recorded_result"] == "0-1"
    assert games[1]["findings"][0]["article"] == "FIDE 6.9"
    assert set(summary) == {"summary"}
    assert summary["summary"]["games"] == len(CHESS_GAMES)
    assert summary["summary"]["with_findings"] == sum(1 for codes in EXPECTED_CODES if codes)
    assert summary["summary"]["seconds"] >= 0


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".zst"])
def test_compressed_collections_are_read_by_suffix(
    suffix: str, tmp_path: Path, expected: list[dict[str, Any]]
) -> None:
    data = COLLECTION.encode()
    packed = {
        ".gz": gzip.compress, ".bz2": bz2.compress, ".zst": zstandard.ZstdCompressor().compress,
    }[suffix](data)
    path = tmp_path / f"event.pgn{suffix}"
    path.write_bytes(packed)
    assert without_seconds(lines(run(str(path)))) == without_seconds(expected)


def test_standard_input_plain_or_compressed(expected: list[dict[str, Any]]) -> None:
    assert without_seconds(lines(run("-", stdin=COLLECTION.encode(), process=True))) == without_seconds(expected)
    assert without_seconds(lines(run("-", stdin=gzip.compress(COLLECTION.encode()), process=True))) == without_seconds(
        expected)


def test_two_workers_give_the_same_output_as_one(tmp_path: Path) -> None:
    # enough games for several chunks (64 records each), so the order of results is really tested
    path = tmp_path / "big.pgn"
    path.write_text(COLLECTION * 30, encoding="utf-8")
    one = lines(run(str(path)))
    two = lines(run(str(path), "--workers", "2", process=True))
    assert len(one) == 30 * len(CHESS_GAMES) + 1
    assert without_seconds(two) == without_seconds(one)
    assert [g["index"] for g in two[:-1]] == list(range(1, 30 * len(CHESS_GAMES) + 1))


def test_a_us_ruleset_and_a_checkers_collection(plain: Path, tmp_path: Path) -> None:
    us = lines(run(str(plain), "--ruleset", "uschess"))
    assert [sorted({f["code"] for f in g["findings"]}) for g in us[:-1]][4:6] == [[], []]  # 14K: the TD's choice
    pdn = tmp_path / "match.pdn"
    pdn.write_text(CHECKERS_CLEAN + CHECKERS_NO_MOVES, encoding="utf-8")
    for args in (("--game", "checkers"), ("--ruleset", "acf")):
        out = lines(run(str(pdn), *args))
        assert [[f["code"] for f in g["findings"]] for g in out[:-1]] == [[], ["no-moves-mismatch"]]


def test_latin_1_lines_are_read(tmp_path: Path) -> None:
    path = tmp_path / "old.pgn"
    path.write_bytes(CHESS_GAMES["clean"].replace('"W"', '"Müller"').encode("latin-1"))
    (game, _summary) = lines(run(str(path)))
    assert game["headers"]["White"] == "Müller"


def test_text_before_the_first_game_is_shown_as_what_it_is_never_skipped() -> None:
    clean = CHESS_GAMES["clean"].encode()
    out = lines(run("-", stdin=b"; exported by the club\n\n" + clean))
    assert [g["findings"] for g in out[:-1]] == [[]]  # a comment holds no game
    out = lines(run("-", stdin=b"Games of round 3\n\n" + clean))
    assert [[f["code"] for f in g["findings"]] for g in out[:-1]] == [["unreadable"], []]
    assert out[0]["findings"][0]["evidence"]["token"] == "Games"


def error_of(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert proc.returncode == 2, proc.stdout.decode()
    body: dict[str, Any] = json.loads(proc.stdout.decode().splitlines()[-1])
    assert "Traceback" not in proc.stderr.decode()
    return dict(body["error"])


def test_bad_input_exits_2_with_an_error(tmp_path: Path) -> None:
    assert error_of(run(str(tmp_path / "missing.pgn"), process=True))["code"] == "unreadable_input"
    binary = tmp_path / "image.pgn"
    binary.write_bytes(bytes(range(256)) * 4)
    assert error_of(run(str(binary)))["code"] == "not_a_collection"
    prose = tmp_path / "notes.pgn"
    prose.write_text("Dear arbiter, the games follow next week.\n", encoding="utf-8")
    assert error_of(run(str(prose)))["code"] == "not_a_collection"
    assert error_of(run("-", stdin=b""))["code"] == "not_a_collection"
    fake = tmp_path / "event.pgn.gz"
    fake.write_text(COLLECTION, encoding="utf-8")
    error = error_of(run(str(fake)))
    assert error["code"] == "unreadable_input" and error["field"] == "file"
    assert error_of(run(str(tmp_path / "x.pgn"), "--workers", "0"))["field"] == "workers"
    assert error_of(run("-", "--ruleset", "nonesuch", stdin=COLLECTION.encode()))["field"] == "ruleset"
    assert error_of(run("-", "--ruleset", "acf", "--game", "chess", stdin=COLLECTION.encode()))["field"] == "ruleset"


def test_a_stream_that_breaks_after_some_games_gives_their_lines_then_the_error(tmp_path: Path) -> None:
    games = "".join(COLLECTION.replace('"test"', f'"round {n}"') for n in range(100))  # 1,000 games
    whole = gzip.compress(games.encode())
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(whole[: len(whole) // 2])
    proc = run(str(path))
    assert proc.returncode == 2
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert out[-1]["error"]["code"] == "unreadable_input"
    assert len(out) > 1 and [g["index"] for g in out[:-1]] == list(range(1, len(out)))


UNUSED_MODULES = ("flask", "sqlalchemy", "celery", "alembic", "kombu", "pydantic", "adjudicator.documents",
                  "web.failures")
"""The web floor's and the queue's libraries, pydantic and the contract's models (a case's schema: the rulesets and
the settings are plain checked dataclasses, ``adjudicator.rulebook.options``) and the map of every failure (an
error's): a check on one machine without an error has no use for them (issue 40)."""


def test_a_check_without_a_broker_loads_no_web_queue_or_schema_library(plain: Path) -> None:
    # the cause of a fast start: the command imports only what it uses (the time itself is bench/check_games.py's)
    code = LOADED_BY_CHECK_GAMES
    env = {key: value for key, value in os.environ.items() if not key.startswith("ADJUDICATOR_BROKER")}
    proc = subprocess.run([sys.executable, "-c", code, str(plain), *UNUSED_MODULES], capture_output=True,
                          cwd=ROOT, env=env, timeout=300)
    assert json.loads(proc.stderr.decode().splitlines()[-1]) == {"status": 0, "loaded": []}
    findings = [line["findings"] for line in lines(proc)[:-1]]
    assert [[finding["code"] for finding in found] for found in findings] == EXPECTED_CODES


def test_a_path_that_is_a_pipe_is_read_once_as_standard_input_is(tmp_path: Path,
                                                                  expected: list[dict[str, Any]]) -> None:
    """A named pipe (as ``check-games <(zcat event.pgn.gz)`` gives) holds its games once: they are all checked
    (measured as they are read), not read away by the measuring pass and then missed ("contains no game")."""
    fifo = tmp_path / "event.fifo"
    os.mkfifo(fifo)
    with subprocess.Popen([sys.executable, "-m", "adjudicator", "check-games", str(fifo)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        with fifo.open("wb") as writer:
            writer.write(COLLECTION.encode())
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:  # before: the second opening waited for a writer for ever
            proc.kill()
            pytest.fail("check-games waited on the pipe for a second reading")
    found = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert without_seconds(lines(found)) == without_seconds(expected)
