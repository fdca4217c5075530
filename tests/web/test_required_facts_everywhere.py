"""One check of a claim's required facts for every way in (adjudicator.requirements.examine): the
JSON API answers a slip with 422 and the command line exits 2, each with the contract's JSON error
naming the field, as the claim form does; nothing is stored for a refused slip. The outcomes the
contract and the public cases define are kept: a flag claim with time on both clocks is rejected,
a game ended by fivefold repetition is drawn with nobody claiming."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.cli_runs import run_in_process
from web.tables.rulings import CaseNote, CaseRow, RulingRow

ROOT = Path(__file__).resolve().parents[2]
FEN = "4k3/8/8/8/8/8/8/4K2R b K - 0 1"
SHUFFLE = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
SHUFFLE_5 = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(4))

SLIPS: list[tuple[str, dict[str, Any], str]] = [
    ("no flag ticked", {"ruleset": "fide-standard", "claim": "flag", "claimant": "white", "fen": FEN,
                        "clock": {"white": "0:01:10", "black": "0:00:00", "flagged": []}}, "clock.flagged"),
    ("no claimant on a threefold claim", {"ruleset": "fide-standard", "claim": "threefold-repetition",
                                          "record": SHUFFLE}, "claimant"),
    ("no claimant on an ILC claim (engine work)", {"ruleset": "fide-standard-guidelines-iii",
                                                   "claim": "insufficient-losing-chances",
                                                   "fen": "8/8/8/4k3/8/8/3NK3/8 b - - 0 60",
                                                   "clock": {"white": 300, "black": 90}}, "claimant"),
    ("a position no game reaches", {"ruleset": "fide-standard", "claim": "flag", "fen": "8/8/8/8/8/8/8/K7 w - - 0 1",
                                    "clock": {"white": 0, "black": 60, "flagged": ["white"]}}, "fen"),
    ("13 checkers pieces", {"game": "checkers", "ruleset": "acf", "claim": "flag", "fen": "B:W1-13:B20",
                            "clock": {"red": 10, "white": 0, "flagged": ["white"]}}, "fen"),
]
KEPT: list[tuple[str, dict[str, Any], str]] = [
    ("flag claim, time on both clocks", {"ruleset": "fide-standard", "claim": "flag", "claimant": "white",
                                         "fen": FEN, "clock": {"white": 70, "black": 30}}, "rejected"),
    ("fivefold, nobody claims (P11)", {"ruleset": "fide-standard", "claim": "fifty-move", "record": SHUFFLE_5},
     "upheld"),
]


def stored(app: Flask) -> tuple[int, int, int]:
    with app.extensions["db_sessions"]() as session:
        return tuple(session.scalar(select(func.count()).select_from(t)) or 0  # type: ignore[return-value]
                     for t in (CaseRow, RulingRow, CaseNote))


@pytest.mark.parametrize(("name", "case", "field"), SLIPS, ids=[s[0] for s in SLIPS])
def test_the_api_refuses_a_slip_with_422_naming_the_field_and_stores_nothing(
    app: Flask, client: FlaskClient, name: str, case: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/rulings", json=case)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert error["field"] == field and error["message"], name
    assert stored(app) == (0, 0, 0), "a refused slip leaves no case, ruling or note"


@pytest.mark.parametrize(("name", "case", "verdict"), KEPT, ids=[k[0] for k in KEPT])
def test_the_api_keeps_the_outcomes_the_contract_defines(
    app: Flask, client: FlaskClient, name: str, case: dict[str, Any], verdict: str
) -> None:
    response = client.post("/api/v1/rulings", json=case)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["verdict"] == verdict, name
    assert stored(app)[:2] == (1, 1)


def test_the_api_lists_every_problem_of_a_slip_at_once(client: FlaskClient) -> None:
    case = {"ruleset": "fide-standard", "claim": "threefold-repetition", "fen": "8/8/8/8/8/8/8/K7 w - - 0 1",
            "clock": {"white": "1:99:00"}}
    body = client.post("/api/v1/rulings", json=case).get_json()
    assert body["error"]["field"] == "clock.white"
    assert [e["field"] for e in body["errors"]] == ["clock.white", "fen", "claimant"]
    single = client.post("/api/v1/rulings", json=SLIPS[0][1]).get_json()
    assert "errors" not in single, "one problem: the contract's plain error body"


def test_the_form_refuses_the_same_slips_on_the_same_fields(app: Flask, client: FlaskClient) -> None:
    form = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "record": SHUFFLE}
    page = client.post("/claims", data=form)
    assert page.status_code == 422 and 'id="claimant-error"' in page.get_data(as_text=True)
    nobody = client.post("/claims", data={**form, "claim": "fifty-move", "record": SHUFFLE_5})
    assert nobody.status_code == 303, "a game ended by fivefold repetition needs nobody's claim (FIDE 9.6.1)"
    assert stored(app)[:2] == (1, 1)


def run(*args: str, stdin: str = "", process: bool = False) -> subprocess.CompletedProcess[str]:
    """``adjudicator *args``: in this process (tests/cli_runs.py), or as a real process."""
    if not process:
        return run_in_process(args, stdin=stdin)
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=180)


def test_the_command_line_exits_2_on_each_slip_naming_the_field() -> None:
    for name, case, field in SLIPS:
        proc = run("rule", "-", stdin=json.dumps(case))
        assert proc.returncode == 2, (name, proc.stdout, proc.stderr)
        body = json.loads(proc.stdout)
        assert body["error"]["code"] in ("missing_field", "invalid_fen") and body["error"]["field"] == field, name
        assert proc.stderr.startswith("adjudicator: ") and proc.stderr.count("\n") == 1, name
        assert "Traceback" not in proc.stderr


def test_the_command_line_rules_where_the_contract_gives_a_ruling() -> None:
    for name, case, verdict in KEPT:
        proc = run("rule", "-", stdin=json.dumps(case))
        assert proc.returncode == 0, (name, proc.stdout, proc.stderr)
        assert json.loads(proc.stdout)["verdict"] == verdict, name


def test_a_batch_answers_a_slip_with_an_error_line_and_goes_on(tmp_path: Path) -> None:
    lines = [SLIPS[0][1], KEPT[0][1], SLIPS[1][1]]
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(json.dumps(c) for c in lines) + "\n")
    proc = run("rule", "--jsonl", str(batch), process=True)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o.get("error", {}).get("field") for o in out] == ["clock.flagged", None, "claimant"]
    assert out[0]["error"]["line"] == 1 and out[1]["verdict"] == "rejected" and out[2]["error"]["line"] == 3


def test_the_api_takes_the_players_and_round_nobody_gave_from_the_records_tags(app: Flask,
                                                                             client: FlaskClient) -> None:
    record = '[Round "5"]\n[White "Ann Alpha"]\n[Black "Bob Beta"]\n\n' + SHUFFLE
    body = client.post("/api/v1/rulings", json={"ruleset": "fide-standard", "claim": "threefold-repetition",
                                                "claimant": "white", "record": record}).get_json()
    page = client.get(f"/rulings/{body['id']}").get_data(as_text=True)
    assert "Ann Alpha – Bob Beta" in page and "Round 5" in page, "the ruling page names them, as the form's do"
    assert "Ann Alpha" in client.get("/history?player=alpha").get_data(as_text=True)
    typed = client.post("/api/v1/rulings", json={"ruleset": "fide-standard", "claim": "threefold-repetition",
                                                 "claimant": "white", "record": record,
                                                 "meta": {"first_player": "A. Alpha", "second_player": "B. Beta"}})
    assert "A. Alpha – B. Beta" in client.get(f"/rulings/{typed.get_json()['id']}").get_data(as_text=True)
