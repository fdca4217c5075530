"""PDN move numbers as evidence (issue 34, class 1, checkers): ``12.`` is the first mover's (Red's, Black's in
the older books) 12th move, ``12...`` White's. A move left off the score is a gap at the ply of the next move,
and no ruling rests on a move nobody wrote.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.checkers.pdn import read_game
from adjudicator.checkers.replay import replay_checkers, replay_pdn
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from tests.cli_runs import run_in_process

SKIPPED_WHITE = "1. 11-15 23-19 2. 8-11 3. 9-13 22-18 *"
"""White's 2nd move is not written: in order, 9-13 would be White's, and White has no piece on 9."""


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("game", "checkers")
    case.setdefault("ruleset", "acf")
    case.setdefault("claim", "illegal-move")
    case.setdefault("claimant", "white")
    return rule(parse_case(case), book)


def test_a_move_left_off_the_score_is_a_gap_at_the_next_moves_ply() -> None:
    replay = replay_checkers(SKIPPED_WHITE)
    (gap,) = replay.numbering_gaps
    assert (gap.ply, gap.token, gap.written) == (4, "9-13", "3.")
    assert [s.to_json(("red", "white")) for s in gap.missing] == [{"number": 2, "side": "white"}]
    assert any(note.startswith("ply 4: the move number 3. before 9-13 skips: White's move 2") for note in replay.notes)
    assert replay.to_json()["numbering_gaps"][0]["missing"] == [{"ply": 4, "number": 2, "side": "white"}]


def test_numbers_glued_to_their_moves_are_read_too() -> None:
    game = read_game("1.11-15 23-19 2.8-11 22-17 3...9-13 *")
    assert [m.number for m in game.moves] == ["1.", None, "2.", None, "3..."]
    (gap,) = replay_checkers("1.11-15 23-19 2.8-11 22-17 3...9-13 *").numbering_gaps
    assert gap.ply == 5 and [(s.number, s.first) for s in gap.missing] == [(3, True)]


def test_a_well_numbered_score_has_no_gap() -> None:
    assert replay_checkers("1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 *").numbering_gaps == ()
    assert replay_checkers("11-15 23-19 8-11 22-17 *").numbering_gaps == ()  # no numbers, nothing to weigh


def test_a_move_that_is_illegal_only_because_of_a_gap_is_not_ruled(book: RulesetBook) -> None:
    result = ruling(book, record=SKIPPED_WHITE, claimant="red")  # Red claims "White's" 9-13 (ply 4 in order)
    assert result.verdict == "deferred" and result.result is None and result.adjustments == ()
    assert result.evidence["missing_moves"] == [{"ply": 4, "number": 2, "side": "white"}]
    assert "White's move 2 (2...)" in result.instructions[0]


def test_the_missing_move_given_by_the_td_completes_the_score(book: RulesetBook) -> None:
    result = ruling(book, record=SKIPPED_WHITE, claimant="red", missing_moves="2... 26-23")
    assert result.verdict == "rejected"  # 11-15 23-19 8-11 26-23 9-13 22-18: every move legal
    assert any("2... 26-23" in r for r in result.reasons)


def test_a_slip_in_the_numbers_with_every_move_legal_is_ruled_and_named(book: RulesetBook) -> None:
    # 3. 22-17 is numbered as Red's, but in order it is White's 2nd, and legal
    result = ruling(book, record="1. 11-15 23-19 2. 8-11 3. 22-17 9-13 *")
    assert result.verdict == "rejected"
    assert any("the numbers are a slip" in r for r in result.reasons)


def test_the_replay_command_shows_the_gap() -> None:
    proc = run_in_process(["replay", "--game", "checkers", "-"], stdin=SKIPPED_WHITE + "\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["numbering_gaps"][0]["ply"] == 4


def test_check_games_reports_the_gap_as_a_finding() -> None:
    text = f'[Event "a"]\n[Result "*"]\n{SKIPPED_WHITE}\n'
    proc = run_in_process(["check-games", "--game", "checkers", "-"], stdin=text)
    line = json.loads(proc.stdout.splitlines()[0])
    gap = next(f for f in line["findings"] if f["code"] == "numbering-gap")
    assert gap["ply"] == 4 and gap["evidence"]["missing"] == [{"ply": 4, "number": 2, "side": "white"}]


def test_a_draw_mark_before_the_last_move_is_noted_and_the_moves_after_it_are_the_games(book: RulesetBook) -> None:
    record = "1. 11-15 23-19 2. 8-11 22-17 1-1 3. 9-13 17-14 *"
    replay = replay_checkers(record)
    assert len(replay.plies) == 6 and replay.result is None
    ((ply, note),) = replay.result_marks
    assert ply == 5 and note.startswith("1-1 is written after ply 4 (22-17)") and "conflicts" in note
    result = ruling(book, record=record, claimant="red")
    assert result.verdict == "rejected" and any(r.startswith("Ply 5: 1-1 is written") for r in result.reasons)


def test_a_result_then_the_first_movers_1_is_still_the_next_game() -> None:
    assert [len(r.plies) for r in replay_pdn("1. 11-15 23-19 1-0 1. 9-13 22-18 *")] == [2, 2]
