"""``adjudicator rule`` (web/commands/rule.py): a real file is read as python-chess reads it, and ``--jsonl``
streams.

Run as the real command line in a child process, as a client runs it.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPEATED = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
"""The start position stands for the third time after Black's 4th move (FIDE 9.2.2)."""


def threefold(record: str, claimant: str = "white") -> dict[str, Any]:
    return {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": claimant,
            "record": record}


def rule(case: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", "rule", "-"], input=json.dumps(case),
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize(
    "record",
    [
        f'[Event "Engine match"]\n[WhiteType "human"]\n[BlackType "program"]\n[Black-Elo "2800"]\n\n{REPEATED} *',
        f"[pgn]{REPEATED}[/pgn]",
        f'[pgn][Event "Forum post"]\n[Site "?"]\n\n{REPEATED} *[/pgn]',
    ],
    ids=["tag names outside the standard", "a [pgn] wrapper", "a [pgn] wrapper around tags"],
)
def test_a_record_from_a_real_file_is_ruled_not_refused(record: str) -> None:
    # issue 20: `rule` exited 2 (`unreadable_record`) on these; python-chess and scalachess read them
    proc = rule(threefold(record))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ruling = json.loads(proc.stdout)
    assert ruling["verdict"] == "upheld" and ruling["result"] == "1/2-1/2"


def _lines(stream: IO[str]) -> queue.Queue[str]:
    """The lines a child writes, as they come (read by a thread, so that a test can wait with a limit)."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in iter(stream.readline, ""):
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_jsonl_from_standard_input_answers_each_case_before_the_next_is_written() -> None:
    # issue 20: `rule --jsonl -` read all of standard input first, so a client waiting for its ruling hung
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "rule", "--jsonl", "-"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    rulings = _lines(proc.stdout)
    try:
        proc.stdin.write(json.dumps(threefold(REPEATED)) + "\n")
        proc.stdin.flush()
        first = json.loads(rulings.get(timeout=90))  # standard input is still open
        assert first["claim"] == "threefold-repetition" and first["verdict"] == "upheld"

        proc.stdin.write("{not json\n")  # a bad line: its error line, and the batch goes on
        proc.stdin.flush()
        error = json.loads(rulings.get(timeout=90))
        assert error["error"]["line"] == 2 and error["error"]["field"] == "line 2"

        proc.stdin.write(json.dumps(threefold("1. Nf3 Nf6 2. Ng1 Ng8")) + "\n")
        proc.stdin.flush()
        third = json.loads(rulings.get(timeout=90))
        assert third["verdict"] == "rejected"
        assert proc.poll() is None  # still waiting for the next line
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0 and rulings.empty()


@pytest.mark.parametrize("claim", [{"claim": "illegal-move", "record": "1. e4 e5 2. f4 Qh4+ 3. Nc3"},
                                   {"claim": "unfinished-game", "fen": "8/8/3k4/8/8/8/3KQ3/8 w - - 0 70"}],
                         ids=["illegal-move", "unfinished-game"])
def test_a_time_control_nobody_can_read_exits_2_naming_the_field(claim: dict[str, Any]) -> None:
    # the walk-through: these two claims stored "40/90+30/30+30" where flag and ILC refused it
    proc = rule({"game": "chess", "ruleset": "fide-standard", **claim, "time_control": "40/90+30/30+30"})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_time_control" and error["field"] == "time_control"
