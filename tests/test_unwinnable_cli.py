"""``adjudicator unwinnable``: the contract's FIDE 6.9 / 5.2.2 question on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from tests.cli_runs import run_in_process

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str = "", process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator unwinnable *args``: in this process (tests/cli_runs.py), or as a real process."""
    if not process:
        return run_in_process(["unwinnable", *args], stdin=stdin)
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", "unwinnable", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


def mates(fen: str, helpmate: list[str], winner: chess.Color) -> bool:
    board = chess.Board(fen)
    for uci in helpmate:
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.turn != winner and board.is_checkmate()


def test_rook_can_mate_and_the_helpmate_proves_it() -> None:
    fen = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
    proc = run(fen, "--color", "white", process=True)
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout)
    assert body["unwinnable"] is False
    assert body["method"]
    assert mates(fen, body["helpmate"], chess.WHITE)


def test_bare_king_cannot_mate() -> None:
    body = json.loads(run("8/8/8/4k3/8/8/8/KR6 w - - 0 1", "--color", "black").stdout)
    assert body == {**body, "unwinnable": True, "helpmate": None}


def test_batch_answers_line_by_line_and_survives_bad_lines() -> None:
    lines = [
        "8/8/1k6/p1p1p1p1/PpPpPpPp/1P1P1P1P/4B3/3K4 b - - 0 1 white",
        "not a fen",
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1",  # no colour: the side not to move (Black) would be the winner
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1 purple",
        "",
        "8/8/8/4k3/8/2b5/8/KB6 w - - 0 1 white",
    ]
    proc = run("-", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["unwinnable"] is True and out[0]["method"] == "blockade"
    assert out[1]["error"]["field"] == "fen" and out[1]["error"]["line"] == 2
    assert out[2]["unwinnable"] is True and out[2]["color"] == "black"
    assert out[3]["error"]["field"] == "color" and out[3]["error"]["line"] == 4
    assert out[4]["unwinnable"] is False
    assert mates("8/8/8/4k3/8/2b5/8/KB6 w - - 0 1", out[4]["helpmate"], chess.WHITE)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["8/8/8/8/8/8/8/8 w - - 0 1", "--color", "white"], "fen"),
        (["rnbqkbnr/pppppppp/8/8 w"], "fen"),
        (["8/8/8/4k3/8/8/8/KR6 w - - 0 1", "--color", "green"], "color"),
        (["7k/8/8/8/8/8/8/4K2R w - - 0 1", "--color", "white"], "fen"),  # Black in check with White to move
    ],
)
def test_bad_input_exits_2_naming_the_field(args: list[str], field: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    body = json.loads(proc.stdout)
    assert body["error"]["field"] == field
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("fen", "problem"),
    [
        ("QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/k6K b - - 0 1", "more than 16 pieces"),
        ("4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1", "more than 8 pawns"),
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", None),  # a legal position: answered
    ],
)
def test_positions_are_checked_as_rule_checks_them(fen: str, problem: str | None) -> None:
    """``unwinnable`` refuses what ``rule`` refuses (issue 11: it used to answer a position with 40 queens)."""
    proc = run(fen, "--color", "white")
    rule = subprocess.run(
        [sys.executable, "-m", "adjudicator", "rule", "-"], capture_output=True, text=True, cwd=ROOT, timeout=120,
        input=json.dumps({"ruleset": "fide-standard", "claim": "flag", "claimant": "white", "fen": fen,
                          "clock": {"flagged": ["black"]}}),
    )
    if problem is None:
        assert proc.returncode == 0 and rule.returncode == 0, (proc.stdout, rule.stdout)
        return
    assert proc.returncode == 2 and rule.returncode == 2
    mine, theirs = json.loads(proc.stdout)["error"], json.loads(rule.stdout)["error"]
    assert problem in mine["message"] and mine["field"] == "fen"
    assert (mine["code"], mine["message"]) == (theirs["code"], theirs["message"])
