"""``adjudicator replay``: the contract's Replay output, one line per game; bad input exits 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from web.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEYS = [
    "plies", "start_fen", "final_fen", "illegal", "unreadable", "repetitions", "counter",
    "language", "alternative_readings",
]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", "replay", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


def test_one_object_per_game_in_the_contract_shape() -> None:
    text = (
        '[Event "a"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n'
        '[Event "b"]\n\n1. e4 e5 2. Bc1-d3 Nc6 3. Nx7 *\n'
    )
    proc = run("-", stdin=text)
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
