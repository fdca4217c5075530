"""``check-games`` and ``replay`` print the same lines with the compiled reader as without it (issue 26).

The real commands in subprocesses, on one file: a random-seeded sample of
tests/test_bulk_reader.py's games (some the compiled reader reads, some it leaves to the
lenient reader) and the messy games of tests/test_check_games.py. Run once as installed
and once with :data:`adjudicator.chess.bulk.COMPILED` turned off, as the product runs where
the reader was not compiled (no C compiler at install: every game goes to the lenient
reader), the output must be the same, line for line.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import adjudicator.chess.bulk as bulk
from tests.cli_runs import run_in_process_bytes
from tests.test_bulk_reader import SEED, random_game
from tests.test_check_games import CHESS_GAMES

ROOT = Path(__file__).resolve().parent.parent
WITHOUT_COMPILED_READER = (
    "import adjudicator.chess.bulk as b; b.COMPILED = False; from web.cli import main; raise SystemExit(main())"
)


def run(compiled: bool, *args: str, process: bool = False) -> tuple[int, list[dict[str, Any]]]:
    """``adjudicator *args`` with the compiled reader or without it: in this process (tests/cli_runs.py), or as a
    real process (as a user runs it; what several worker processes need)."""
    if process:
        head = ["-m", "adjudicator"] if compiled else ["-c", WITHOUT_COMPILED_READER]
        proc = subprocess.run([sys.executable, *head, *args], capture_output=True, cwd=ROOT, timeout=300)
    else:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(bulk, "COMPILED", compiled and bulk.COMPILED)
            proc = run_in_process_bytes(args)
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    for line in out:
        if "summary" in line:
            line["summary"].pop("seconds")  # the one field that may differ between runs
    return proc.returncode, out


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(SEED)
    games = [random_game(rng, n) for n in range(60)] + list(CHESS_GAMES.values())
    rng.shuffle(games)
    games += games[:12]  # the same records again: check-games splits each as it counts it, and checks each once
    path = tmp_path_factory.mktemp("bulk") / "collection.pgn"
    path.write_text("".join(games), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [
    ["replay"], ["replay", "--language", "de"], ["check-games", "--workers", "1"], ["check-games", "--workers", "2"],
])
def test_a_command_prints_the_same_lines_without_the_compiled_reader(collection: Path, command: list[str]) -> None:
    assert bulk.COMPILED, "the bulk record reader is not compiled: run .ci/install"
    name, *options = command
    process = "--workers" in options and options[options.index("--workers") + 1] != "1"
    fast = run(True, name, str(collection), *options, process=process)
    lenient = run(False, name, str(collection), *options, process=process)
    assert len(fast[1]) >= 60
    assert fast == lenient, f"seed {SEED} (ADJUDICATOR_BULK_SEED={SEED} runs it again)"
