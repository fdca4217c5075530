"""The organiser's side of the rulebook: ``adjudicator rulesets check`` and the generated reference."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from adjudicator.rulebook.chess import Repetition
from adjudicator.rulebook.common import Ruleset
from adjudicator.rulebook.options import options
from tests.cli_runs import run_in_process
from web.settings import reference

ROOT = Path(__file__).resolve().parent.parent
CONFIG = (ROOT / "config.toml").read_text(encoding="utf-8")
MY_OPEN = """
[rulesets.my-open]
extends = "fide-rapid"
title = "My Open"

[rulesets.my-open.repetition]
claim_occurences = 4

[rulesets.my-open.flag]
both_flags = "drawn"
"""


def run(*args: str, stdin: str = "", env: dict[str, str] | None = None,
        process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator *args``: in this process (tests/cli_runs.py), or as a real process (always with ``env``:
    the whole environment)."""
    if not process and env is None:
        return run_in_process(args, stdin=stdin)
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", *args], input=stdin, capture_output=True, text=True, cwd=ROOT,
        timeout=120, env=env,
    )


def test_the_committed_reference_is_current() -> None:
    committed = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    assert committed == reference(), "run: adjudicator rulesets reference > docs/rulesets.md"


def test_the_reference_lists_every_option_of_every_section_with_its_default() -> None:
    text = reference()
    assert "### `[rulesets.<id>.flag.refs]`" in text and "### `[rulesets.<id>.lowder]`" in text
    for name in options(Repetition):
        assert f"| `{name}` |" in text
    assert '| `claim_occurrences` | whole number | `3` |' in text
    assert "| `no_win_test` | " in text and "**required**" in text
    assert 'required when `mode = "variation-14h"`' in text
    assert "| `warning_at_seconds` | whole number | `move_limit_seconds - 10` |" in text
    assert all(f"| `{name}` |" in text for name in options(Ruleset) if name not in ("committee", "time_control"))


def test_rulesets_check_passes_the_shipped_configuration() -> None:
    proc = run("rulesets", "check", "config.toml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    body = json.loads(proc.stdout)
    assert body["problems"] == [] and "fide-standard" in body["rulesets"] and "acf" in body["rulesets"]


def test_rulesets_check_reports_every_problem_of_an_organisers_file_naming_its_key() -> None:
    proc = run("rulesets", "check", "-", stdin=CONFIG + MY_OPEN)
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_ruleset" and error["field"] == "rulesets.my-open.repetition.claim_occurences"
    assert [p["field"] for p in error["problems"]] == [
        "rulesets.my-open.repetition.claim_occurences", "rulesets.my-open.flag.both_flags",
    ]
    assert "did you mean claim_occurrences?" in error["problems"][0]["message"]
    assert proc.stderr.startswith("adjudicator: 2 problems") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


def test_a_misspelt_key_stops_the_start_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "event.toml"
    config.write_text(CONFIG + MY_OPEN, encoding="utf-8")
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(config)}
    proc = run("rule", "-", stdin='{"ruleset": "fide-standard", "claim": "flag"}', env=env)
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_ruleset" and error["field"] == "rulesets.my-open.repetition.claim_occurences"


def test_rulesets_check_of_a_file_that_is_not_toml_exits_2() -> None:
    proc = run("rulesets", "check", "-", stdin="[rulesets\n")
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["code"] == "invalid_config"
    missing = run("rulesets", "check", "/nonexistent/event.toml")
    assert missing.returncode == 2 and json.loads(missing.stdout)["error"]["field"] == "file"
