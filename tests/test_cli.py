"""The command line of the contract: JSON out, exit 2 with a named field on bad input."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runs import run_in_process

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str = "", process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator *args``: in this process (tests/cli_runs.py), or as a real process."""
    if not process:
        return run_in_process(args, stdin=stdin)
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


@pytest.mark.parametrize(
    ("stdin", "field"),
    [
        ("{not json", "case"),
        ('{"ruleset": "nope", "claim": "flag"}', "ruleset"),
        ('{"ruleset": "acf", "claim": "threefold-repetition"}', "ruleset"),
        ('{"ruleset": "fide-standard", "claim": "forty-move"}', "claim"),
        # hostile documents (issue 11): exit 2 naming the field, never an internal error
        ('{"ruleset": "fide-standard", "claim": "flag", "alleged_illegal_ply": ' + "9" * 5000 + "}",
         "alleged_illegal_ply"),
        ('{"ruleset": "fide-standard", "claim": "flag", "clock": ' + "[" * 100_000 + "]" * 100_000 + "}",
         "clock"),
        ('{"ruleset": "fide-standard", "claim": "flag", "note": "a\\u0000b"}', "note"),
        ('{"ruleset": "fide-standard", "claim": "flag", "clock": {"white": 1e400}}', "clock.white"),
    ],
    ids=lambda value: value[:40],
)
def test_bad_case_exits_2_naming_the_field(stdin: str, field: str) -> None:
    proc = run("rule", "-", stdin=stdin)
    assert proc.returncode == 2, proc.stderr
    body = json.loads(proc.stdout)
    assert body["error"]["field"] == field
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("adjudicator: ")


def test_missing_file_is_a_clear_error() -> None:
    proc = run("rule", "/nonexistent/case.json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["field"] == "case"


def test_unknown_command_is_a_usage_error() -> None:
    proc = run("frobnicate", process=True)
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "usage"


def test_the_programs_door_ends_as_python_would_only_faster() -> None:
    """``web.cli.entry`` (the ``adjudicator`` script and ``python -m adjudicator``) skips the collector's last walk
    over every module's objects, and nothing else of the exit: the ``atexit`` handlers run, what was printed is
    all there, and the exit status is main's, for a good command and a bad one."""
    door = ("import atexit, gc, sys\nfrom web import cli\n"
            "atexit.register(lambda: print('atexit ran', 'frozen' if gc.get_freeze_count() else 'walked',\n"
            "                              flush=True))\n"
            "sys.argv = ['adjudicator', *sys.argv[1:]]\nraise SystemExit(cli.entry())")
    good = subprocess.run([sys.executable, "-c", door, "rulesets", "check"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    printed, last = good.stdout.splitlines()
    assert good.returncode == 0 and last == "atexit ran frozen"
    checked = json.loads(printed)
    assert checked["problems"] == [] and "fide-standard" in checked["rulesets"]
    bad = subprocess.run([sys.executable, "-c", door, "rule", "no-such-file.json"], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and bad.stdout.splitlines()[-1] == "atexit ran frozen"
    assert json.loads(bad.stdout.splitlines()[0])["error"]["field"]
    script = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'adjudicator = "web.cli:entry"' in script  # the installed script is the same door


def test_a_command_leaves_the_cycle_collector_on_whether_it_ends_well_or_not() -> None:
    """The collector is paused only while a command loads (``web.cli.loading``), never for its work."""
    assert gc.isenabled()
    assert run("rulesets", "check").returncode == 0 and gc.isenabled()
    assert run("check-games", "no-such-file.pgn").returncode == 2 and gc.isenabled()
    assert run("check-games", "--workers", "0", "no-such-file.pgn").returncode == 2 and gc.isenabled()
