"""The command line: ``adjudicator replay --game checkers`` and ``adjudicator rule`` on checkers cases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from adjudicator.checkers import replay_games
from adjudicator.checkers.board import Position
from engines.checkers.database import EndgameDatabase
from tests.cli_runs import run_in_process

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, stdin: str | None = None, process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator *args``: in this process (tests/cli_runs.py), or as a real process."""
    if not process:
        return run_in_process(args, stdin=stdin or "")
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", *args], input=stdin, capture_output=True, text=True, cwd=ROOT,
        timeout=120,
    )


def test_replay_games_gives_the_contract_shape_per_game(test_data: Path) -> None:
    text = (test_data / "checkers" / "tinsley.pdn").read_text()
    games = replay_games(text)
    assert len(games) == 724
    out = games[540].to_json()
    assert set(out) >= {"plies", "start_fen", "final_fen", "illegal", "unreadable", "repetitions", "counter"}
    assert out["illegal"][0]["ply"] == 123


def test_a_game_with_a_bad_fen_is_an_error_line_and_the_others_go_on() -> None:
    text = '[FEN "Q:W1"]\n1-5 *\n\n[Event "ok"]\n1. 11-15 23-19 *\n'
    out = [g.to_json() for g in replay_games(text)]
    assert out[0]["error"]["game"] == 1 and out[0]["error"]["field"] == "record.FEN"
    assert out[1]["plies"] == 2


def test_rule_on_a_checkers_case_from_the_command_line() -> None:
    case = {
        "game": "checkers", "ruleset": "acf", "claim": "threefold-repetition", "claimant": "white",
        "start_fen": "B:WK27:BK6", "record": "6-10 27-23 10-6", "intended_move": "23-27",
    }
    done = _run("rule", "-", stdin=json.dumps(case))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "rejected"


def test_a_bad_checkers_fen_exits_2_naming_the_field() -> None:
    case = {"game": "checkers", "ruleset": "acf", "claim": "unfinished-game", "fen": "B:W33:B1"}
    done = _run("rule", "-", stdin=json.dumps(case))
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "fen"


def test_build_db_refuses_seven_pieces() -> None:
    done = _run("build-db", "--pieces", "7")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "pieces"


def test_build_db_refuses_no_worker() -> None:
    done = _run("build-db", "--pieces", "3", "--workers", "0")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "workers"


def test_build_db_with_two_workers_builds_a_database_that_answers_and_is_consistent(tmp_path: Path) -> None:
    done = _run("build-db", "--pieces", "3", "--workers", "2", "--folder", str(tmp_path), "--verify", "--quiet",
                process=True)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["pieces"] == 3 and summary["verify"]["consistent"] is True
    assert summary["verify"]["positions"] == 199_520  # both sides present, as the pure-Python prototype counted
    probe = EndgameDatabase.open(tmp_path).probe(Position.from_fen("B:WK14:BK1,K32"))
    assert probe is not None and probe.is_win
