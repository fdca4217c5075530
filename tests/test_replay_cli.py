"""``adjudicator replay``: the contract's Replay output, one line per game; bad input exits 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runs import run_in_process
from web.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEYS = [
    "plies", "start_fen", "final_fen", "illegal", "unreadable", "repetitions", "counter",
    "language", "notation", "notations", "alternative_readings", "notes", "numbering_gaps",
]


def run(*args: str, stdin: str = "", process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator replay *args``: in this process (tests/cli_runs.py), or as a real process."""
    if not process:
        return run_in_process(["replay", *args], stdin=stdin)
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", "replay", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


def test_one_object_per_game_in_the_contract_shape() -> None:
    text = (
        '[Event "a"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n'
        '[Event "b"]\n\n1. e4 e5 2. Bc1-d3 Nc6 3. Nx7 *\n'
    )
    proc = run("-", stdin=text, process=True)
    assert proc.returncode == 0, proc.stderr
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert list(first) == KEYS and list(second) == KEYS
    assert first["plies"] == 8 and first["counter"] == 8
    assert {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "plies": [0, 4, 8]} in first[
        "repetitions"
    ]
    assert second["plies"] == 4
    assert second["illegal"] == [{"ply": 3, "move": "Bc1-d3", "reason": "a bishop cannot move from c1 to d3"}]
    assert second["unreadable"][0]["ply"] == 5 and second["unreadable"][0]["token"] == "Nx7"
    assert second["final_fen"] == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/3B4/PPPP1PPP/RN1QKBNR w KQkq - 2 3"


def in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, list[dict[str, object]], str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["replay", *args])
    out = capsys.readouterr()
    return status, [json.loads(line) for line in out.out.splitlines()], out.err


def test_language_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.pgn"
    path.write_text("1. e4 e5 2. Sf3 Sc6", encoding="utf-8")
    status, lines, _ = in_process(monkeypatch, capsys, str(path), "--language", "de")
    assert status == 0
    assert str(lines[0]["final_fen"]).startswith("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2")


@pytest.mark.parametrize(
    ("args", "stdin", "field"),
    [
        (["-"], "", "file"),
        (["/nonexistent.pgn"], "", "file"),
        (["-", "--language", "xx"], "1. e4", "language"),
        (["-"], '[FEN "nonsense"]\n1. e4', "record"),
        (["-", "--start-fen", "nonsense"], "1. e4", "start_fen"),
    ],
)
def test_bad_input_exits_2_naming_the_field(
    args: list[str], stdin: str, field: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, err = in_process(monkeypatch, capsys, *args, stdin=stdin)
    assert status == 2, lines
    body = lines[-1]["error"]
    assert isinstance(body, dict) and body["field"] == field
    assert err.startswith("adjudicator: ") and "Traceback" not in err


def test_checkers_records_go_to_the_checkers_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, _ = in_process(
        monkeypatch, capsys, "-", "--game", "checkers", stdin='[Event "a"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'
    )
    try:
        import adjudicator.checkers.replay  # noqa: F401
    except ModuleNotFoundError:
        assert status == 2
        assert lines[0]["error"]["field"] == "game"  # type: ignore[index]
    else:
        assert status == 0
        assert lines[0]["plies"] == 4 and str(lines[0]["final_fen"]).startswith("B:")


PEAK = """
import resource, subprocess, sys
proc = subprocess.run([sys.executable, "-m", "adjudicator", "replay", *sys.argv[1:]], capture_output=True, text=True)
sys.stdout.write(proc.stdout)
sys.stderr.write(f"{proc.returncode} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
"""


def replay_measured(*args: str) -> tuple[int, list[dict[str, object]], int]:
    """Exit status, output lines, and the peak memory (kB) of ``adjudicator replay`` alone."""
    proc = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    status, peak = proc.stderr.split()[-2:]
    return int(status), [json.loads(line) for line in proc.stdout.splitlines()], int(peak)


@pytest.mark.slow
def test_a_40_mb_collection_streams_in_flat_memory(tmp_path: Path) -> None:
    """Issue 11: a 50 MB PGN took 1.67 GB; the file is now read game by game."""
    game = '[Event "big €"]\n[White "a"]\n[Black "b"]\n\n1. e4 {' + "analyse € " * 10_000 + "} e5 2. Nf3 Nc6 1-0\n\n"
    path = tmp_path / "big.pgn"
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(400):
            handle.write(game)
    assert path.stat().st_size > 40_000_000
    status, lines, peak = replay_measured(str(path))
    assert status == 0 and len(lines) == 400
    assert all(line["plies"] == 4 for line in lines)
    assert peak < 80_000, f"{peak} kB: the file was held in memory"  # the text alone would be 80 MB


def test_a_game_beyond_the_limit_is_an_error_line_and_the_next_game_is_read(tmp_path: Path) -> None:
    from adjudicator.chess.stream import MAX_GAME_CHARS

    path = tmp_path / "mixed.pgn"
    huge = '[Event "huge"]\n\n1. e4 {' + ("x" * 1000 + "\n") * (MAX_GAME_CHARS // 1000 + 10) + "} e5 1-0\n\n"
    path.write_text('[Event "one"]\n\n1. d4 d5 1/2-1/2\n\n' + huge + "1. e4 e5 0-1\n" + "z" * 3_000_000 +
                    '\n\n[Event "three"]\n\n1. c4 c5 *\n')
    proc = run(str(path))
    assert proc.returncode == 2
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    # one, huge (skipped), the tagless game after it, a 3 MB line of one word (skipped), three
    assert [line.get("plies") for line in lines] == [2, None, 2, None, 2]
    assert [line["error"]["game"] for line in lines if "error" in line] == [2, 4]
    assert all(line["error"]["code"] == "record_too_long" for line in lines if "error" in line)
    assert "game 2" in proc.stderr


def test_a_start_fen_is_checked_as_rule_checks_it() -> None:
    proc = run("-", "--start-fen", "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/k6K w - - 0 1", stdin="1. Kb2 *\n")
    assert proc.returncode == 2
    error = json.loads(proc.stdout)["error"]
    assert error["field"] == "start_fen" and "more than 16 pieces" in error["message"]
