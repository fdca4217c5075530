"""``adjudicator watch SOURCE --ruleset ID [--once]`` (web/commands/watch.py; docs/watch.md).

A round folder followed as it is written (the fivefold line arrives after the move that makes it), ``--once``,
bad input, and a PGN URL served by a local HTTP server (loopback only) that answers 200 with an ETag, then
304 to If-None-Match, then fails: the watch keeps its copy, says ``source-unavailable`` once, and withdraws it
when the server answers again. The URL copy's alerts under the five rulesets of tests/test_watch_round.py.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from adjudicator.rulesets import RulesetBook
from adjudicator.watch import Watcher, WatchState
from tests.cli_runs import ROOT
from tests.watch_round import SHUFFLE, game_file, pgn
from web.watch.source import Source, SourceError, backoff

WAIT = 60.0
"""Seconds to wait for a state before the test fails (a state, never a fixed sleep)."""


class Lines:
    """A running ``adjudicator watch``: its JSON lines as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "watch", *args], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        """Every line up to and including the first that ``wanted`` accepts."""
        seen: list[dict[str, Any]] = []
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no such line within {WAIT} s; seen {seen}") from None
            seen.append(line)
            if wanted(line):
                return seen

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture()
def follow() -> Iterator[Callable[..., Lines]]:
    started: list[Lines] = []

    def start(*args: str) -> Lines:
        started.append(Lines(*args))
        return started[-1]

    yield start
    for lines in started:
        lines.stop()


def test_a_followed_folder_gets_the_fivefold_after_the_move(tmp_path: Path, follow: Callable[..., Lines]) -> None:
    path = tmp_path / game_file(1)
    path.parent.mkdir(parents=True)
    path.write_text(pgn(SHUFFLE[:15], 1, "Anna", "Boris"))
    watch = follow(str(tmp_path), "--ruleset", "fide-standard", "--interval", "0.2")
    first = watch.until(lambda line: line["ply"] == 11)
    assert [line["kind"] for line in first] == ["threefold-available"] * 4
    path.write_text(pgn(SHUFFLE[:16], 1, "Anna", "Boris"))
    fivefold = watch.until(lambda line: line["kind"] == "fivefold")[-1]
    assert fivefold == {
        "board": 1, "round": 3, "game": "r3:Anna|Boris", "kind": "fivefold", "action": "act", "ply": 16,
        "move": "8...Ng8", "rule_refs": ["FIDE 9.6.1"], "players": ["Anna", "Boris"], "withdrawn": False,
        "reason": fivefold["reason"],
    }
    assert "fifth time" in fivefold["reason"]


def test_once_reads_once_and_exits_0(tmp_path: Path) -> None:
    (tmp_path / "games.pgn").write_text(pgn(SHUFFLE, 1, "Anna", "Boris"))
    done = subprocess.run([sys.executable, "-m", "adjudicator", "watch", str(tmp_path), "--ruleset", "uschess",
                           "--once"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(x["kind"], x["action"], x["ply"]) for x in lines][-1] == ("fivefold", "may-act", 16)


@pytest.mark.parametrize(("args", "field"), [
    (["--ruleset", "nope", "--once"], "ruleset"),
    (["--ruleset", "fide-standard", "--once", "--interval", "0"], "interval"),
])
def test_bad_input_exits_2_naming_the_field(tmp_path: Path, args: list[str], field: str) -> None:
    done = subprocess.run([sys.executable, "-m", "adjudicator", "watch", str(tmp_path), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == field


def test_a_single_pgn_file_is_a_source_and_a_file_of_another_kind_is_refused_by_name(tmp_path: Path) -> None:
    """A board's software rewriting one PGN in place: the file itself may be named, not only its folder."""
    game = tmp_path / "games.pgn"
    game.write_text(pgn(SHUFFLE, 1, "Anna", "Boris"))
    done = subprocess.run([sys.executable, "-m", "adjudicator", "watch", str(game), "--ruleset", "fide-standard",
                           "--once"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(x["kind"], x["action"], x["ply"]) for x in lines][-1] == ("fivefold", "act", 16)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a game")
    refused = subprocess.run([sys.executable, "-m", "adjudicator", "watch", str(notes), "--ruleset", "fide-standard",
                              "--once"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2
    error = json.loads(refused.stdout)["error"]
    assert error["field"] == "source" and "is not a game file" in error["message"]


def test_a_missing_folder_with_once_is_an_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "adjudicator", "watch", str(tmp_path / "none"), "--ruleset",
                           "fide-standard", "--once"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "source"


ROUND = pgn(SHUFFLE, 1, "Anna", "Boris") + pgn(["e4", "c5", "Nf3", "d6", "Bc4", "Nf6"], 3, "Elif", "Femi",
                                                 clocks=[600, 590, 300, 580, 0, 570])


class Server:
    """A round's PGN on 127.0.0.1: 200 with an ETag, 304 to If-None-Match, or 503 while ``failing``."""

    def __init__(self) -> None:
        self.failing = threading.Event()
        self.not_modified = threading.Event()
        self.answers: list[int] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if server.failing.is_set():
                    code = 503
                elif self.headers.get("If-None-Match") == '"round-3"':
                    code = 304
                else:
                    code = 200
                server.answers.append(code)
                if code == 304:
                    server.not_modified.set()
                self.send_response(code)
                if code == 200:
                    body = ROUND.encode()
                    self.send_header("ETag", '"round-3"')
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    self.send_header("Content-Length", "0")
                    self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/round-3.pgn"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture()
def server() -> Iterator[Server]:
    found = Server()
    yield found
    found.close()


URL_EXPECTED = {
    "fide-standard": [("threefold-available", "claimable"), ("fivefold", "act"), ("flag-down", "act")],
    "fide-rapid": [("threefold-available", "claimable"), ("fivefold", "act"), ("flag-down", "do-not-call")],
    "uschess": [("threefold-available", "claimable"), ("fivefold", "may-act"), ("flag-down", "do-not-call")],
    "sabah-active30": [("threefold-available", "claimable"), ("fivefold", "act"), ("flag-down", "do-not-call")],
    "calchess-scholastic": [("threefold-available", "claimable"), ("fivefold", "may-act"),
                            ("flag-down", "do-not-call")],
}


@pytest.mark.parametrize("ruleset_id", sorted(URL_EXPECTED))
def test_a_pgn_url_that_answers_304_and_then_fails(ruleset_id: str, book: RulesetBook, server: Server) -> None:
    source = Source(server.url)
    watcher = Watcher(book[ruleset_id])  # type: ignore[arg-type]
    alerts, state = watcher.watch(source.read(), WatchState())
    kinds = [(a.kind, a.action) for a in alerts if a.kind != "threefold-available" or a.ply == 8]
    assert kinds == URL_EXPECTED[ruleset_id]
    again, state = watcher.watch(source.read(), state)
    assert again == [] and server.answers == [200, 304]
    server.failing.set()
    with pytest.raises(SourceError, match="503"):
        source.read()
    assert state.standing()  # the last copy's alerts stand


def test_the_command_backs_off_and_says_the_source_failed(server: Server, follow: Callable[..., Lines]) -> None:
    watch = follow(server.url, "--ruleset", "fide-standard", "--interval", "0.2")
    watch.until(lambda line: line["kind"] == "flag-down")
    assert server.not_modified.wait(WAIT)  # asked again with If-None-Match: 304, the copy kept, no new line
    server.failing.set()
    down = watch.until(lambda line: line["kind"] == "source-unavailable")[-1]
    assert down["action"] == "check-board" and down["board"] is None and "503" in down["reason"]
    server.failing.clear()
    back = watch.until(lambda line: line["kind"] == "source-unavailable")[-1]
    assert back["withdrawn"] is True


def test_backoff_grows_to_a_minute() -> None:
    assert backoff(0, 2.0) == 2.0
    assert [backoff(n, 2.0) for n in (1, 2, 3, 4, 5)] == [2.0, 20.0, 40.0, 60.0, 60.0]


def test_a_checkers_pdn_folder_under_acf(tmp_path: Path) -> None:
    from tests.test_watch_games import PDN

    (tmp_path / "round-2").mkdir()
    (tmp_path / "round-2" / "round.pdn").write_text(PDN)
    done = subprocess.run([sys.executable, "-m", "adjudicator", "watch", str(tmp_path), "--ruleset", "acf", "--once"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    [line] = [json.loads(x) for x in done.stdout.splitlines()]
    assert (line["board"], line["kind"], line["action"], line["ply"]) == (4, "flag-down", "act", 4)
    assert line["players"] == ["Red Player", "White Player"]
