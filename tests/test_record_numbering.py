"""The record's move numbers as evidence (issue 34, class 1): a gap is reported with its ply and both readings,
and no ruling rests on a move nobody wrote.

FIDE 8.1.1: each player records the moves "move after move"; the numbers say which side moved (``12.``
White's 12th, ``12...`` Black's). The scoresheets below are the slips players make: a move not written,
a record that starts with Black's move, a number written twice.
"""

from __future__ import annotations

import json
from typing import Any

import chess
import pytest

from adjudicator.chess.movetext import split_games
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from tests.cli_runs import run_in_process

SKIPPED_BLACK = "1. Nf3 Nf6 2. Nc3 3. e3 d6"
"""Black's 2nd move is not written: in order, e3 would be Black's (e7-e3, illegal)."""
NAJDORF = ("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 8. f3 Be7 9. Qd2 O-O "
           "10. O-O-O Nbd7")
"""A Najdorf scoresheet where Black's 7th move (7...Be6) was never written."""


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("ruleset", "fide-standard")
    case.setdefault("claim", "illegal-move")
    return rule(parse_case(case), book)


# -- the gaps, found by the numbers --------------------------------------------------------------


def test_a_skipped_black_move_is_a_gap_at_the_ply_of_the_next_move() -> None:
    replay = replay_chess(SKIPPED_BLACK, allow_unreadable=True)
    (gap,) = replay.numbering_gaps
    assert (gap.ply, gap.token, gap.written, gap.kind) == (4, "e3", "3.", "missing-move")
    assert [(s.number, s.first) for s in gap.missing] == [(2, False)]
    # both readings, in words: the tokens in order, and the record with a move missing
    assert "read in order, e3 is Black's move 2" in gap.text and "by its number, e3 is White's move 3" in gap.text
    shown = replay.to_json()
    assert shown["numbering_gaps"][0]["missing"] == [{"ply": 4, "number": 2, "side": "black"}]
    assert shown["numbering_gaps"][0]["readings"] == {"in_order": "2... e3", "numbered": "2... ? 3. e3"}
    assert {"ply": 4, "token": "e3", "kind": "numbering-gap", "note": gap.text} in shown["notes"]


@pytest.mark.parametrize("record, ply, missing", [
    ("1... e5 2. Nf3 Nc6", 1, [(1, "white")]),  # the record starts with Black's move from the initial position
    ("1. e4 2... c6 3. d4 d5", 2, [(1, "black"), (2, "white")]),  # 2... straight after White's first move
    (NAJDORF, 14, [(7, "black")]),
])
def test_the_numbers_name_the_missing_moves(record: str, ply: int, missing: list[tuple[int, str]]) -> None:
    (gap,) = replay_chess(record, allow_unreadable=True).numbering_gaps
    assert gap.ply == ply
    assert [(s.number, "white" if s.first else "black") for s in gap.missing] == missing


def test_a_set_up_position_with_white_to_move_whose_record_starts_with_black() -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 23"
    record = f'[SetUp "1"]\n[FEN "{fen}"]\n\n23... Kf8 24. Re2 *'
    (gap,) = replay_chess(record, allow_unreadable=True).numbering_gaps
    assert gap.ply == 1 and [(s.number, s.first) for s in gap.missing] == [(23, True)]


def test_a_set_up_position_numbers_from_its_first_numbered_move() -> None:
    # a set-up position's FEN often says move 1: only the side of the first numbered move is weighed
    record = '[FEN "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1"]\n\n41. Re2 Kf8 42. Re3 *'
    assert replay_chess(record).numbering_gaps == ()


def test_a_number_written_twice_is_a_repeat_with_no_move_missing() -> None:
    (gap,) = replay_chess("1. e4 e5 2. Nf3 Nc6 2. Bb5 a6", allow_unreadable=True).numbering_gaps
    assert (gap.ply, gap.kind, gap.missing) == (5, "repeated-number", ())
    assert "repeats" in gap.text


@pytest.mark.parametrize("record", [
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
    "1. e4 e5 2. Nf3 2... Nc6 3. Bb5 *",  # Black's move numbered after a comment or a break: no gap
    "1. e4 {best by test} 1... e5 2. Nf3 *",
    "e4 e5 Nf3 Nc6 *",  # no numbers: nothing to weigh
    "1 e4 e5 2 Nf3 Nc6 *",  # bare numbers say no side
])
def test_numbers_that_follow_the_moves_are_no_gap(record: str) -> None:
    assert replay_chess(record).numbering_gaps == ()


def test_the_later_numbers_are_read_from_the_gap_on() -> None:
    # after the gap, 4. Be2 agrees with the numbers as they now go: one gap, not one per move
    gaps = replay_chess("1. Nf3 Nf6 2. Nc3 3. e3 d6 4. Be2 e5", allow_unreadable=True).numbering_gaps
    assert [g.ply for g in gaps] == [4]


# -- rulings ---------------------------------------------------------------------------------------


def test_an_illegal_move_only_there_because_of_a_gap_is_not_penalised(book: RulesetBook) -> None:
    result = ruling(book, claimant="white", record=SKIPPED_BLACK)
    assert result.verdict == "deferred" and result.result is None
    assert result.adjustments == () and not any("reinstate" in i for i in result.instructions)
    assert result.evidence["missing_moves"] == [{"ply": 4, "number": 2, "side": "black"}]
    assert result.evidence["in_order_ruling"]["verdict"] == "upheld"  # what the tokens in order would give
    assert "Black's move 2 (2...)" in result.instructions[0] and "missing_moves" in result.instructions[0]
    assert "FIDE 8.1.1" in result.rule_refs


def test_the_missing_move_given_by_the_td_is_read_into_the_record(book: RulesetBook) -> None:
    result = ruling(book, claimant="white", record=SKIPPED_BLACK, missing_moves="2... e6")
    assert result.verdict == "rejected"  # 1.Nf3 Nf6 2.Nc3 e6 3.e3 d6: every move legal
    assert any("2... e6" in r and "missing_moves" in r for r in result.reasons)


def test_the_td_may_say_no_move_is_missing_and_then_the_moves_are_read_in_order(book: RulesetBook) -> None:
    result = ruling(book, claimant="white", record=SKIPPED_BLACK, missing_moves="none")
    assert result.verdict == "upheld" and result.evidence["ply"] == 4
    assert any("the TD finds no move missing" in r for r in result.reasons)


def test_a_missing_move_the_record_does_not_leave_out_is_refused_naming_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as refused:
        ruling(book, claimant="white", record=SKIPPED_BLACK, missing_moves="5... Nc6")
    assert refused.value.field == "missing_moves" and "Black's move 2" in refused.value.message


def test_a_record_starting_with_blacks_move_is_not_ruled_on_a_white_pawn_jumping(book: RulesetBook) -> None:
    result = ruling(book, claimant="black", record="1... e5 2. Nf3 Nc6")
    assert result.verdict == "deferred"
    assert result.evidence["missing_moves"] == [{"ply": 1, "number": 1, "side": "white"}]


def test_a_token_unreadable_only_after_a_gap_defers_instead_of_refusing(book: RulesetBook) -> None:
    # in order, 3. Nd4 is Black's knight from f6: it cannot reach d4; by its number it is White's (c3-d4? f3-d4)
    result = ruling(book, claim="threefold-repetition", claimant="white", record="1. Nf3 Nf6 2. Nc3 3. Nd4 Nc6")
    assert result.verdict == "deferred" and result.evidence["missing_moves"][0]["side"] == "black"


def test_a_token_unreadable_after_a_gap_the_td_finds_no_move_missing_is_refused_as_unreadable(
    book: RulesetBook,
) -> None:
    # missing_moves: none reads the moves in order, and in order 3. Nd4 cannot be read: the record's error, as
    # without a gap (once a deferral with nothing left to ask)
    with pytest.raises(ContractError) as refused:
        ruling(book, claim="threefold-repetition", claimant="white", record="1. Nf3 Nf6 2. Nc3 3. Nd4 Nc6",
               missing_moves="none")
    assert (refused.value.code, refused.value.field) == ("unreadable_record", "record")
    assert "ply 4 ('Nd4')" in refused.value.message


def test_a_record_english_reads_up_to_its_gap_is_not_read_in_other_letters_that_break_a_move_before_it(
    book: RulesetBook,
) -> None:
    # Black's 2nd move deleted (a property seed found it): in order English reads 2. Nh3 legally, then stops
    # after the gap; Romanian letters (N: nebun, a bishop) read every token, with 2. Bf1-h3 illegal before the
    # gap. The gap's token may be unreadable only because of the missing move: English stays, the claim defers
    record = "1. a4 h5 2. Nh3 3. c3 d6 4. e3 Rh7 5. a5 Nd7"
    replay = replay_chess(record, allow_unreadable=True)
    assert (replay.language, replay.reading) == ("en", "english")
    result = ruling(book, claimant="black", record=record)
    assert result.verdict == "deferred" and result.evidence["missing_moves"][0] == {"ply": 4, "number": 2,
                                                                                    "side": "black"}


def test_an_illegal_move_before_the_gap_is_ruled_and_the_slip_named(book: RulesetBook) -> None:
    # 2.Bg5 jumps the d2 pawn (illegal, ply 3); Black's 3rd move is not written later (ply 6)
    record = "1. e4 e5 2. Bg5 Nc6 3. Nf3 4. d3"  # in order, 4. d3 is Black's d7-d3: illegal too
    replay = replay_chess("1. e4 e5 2. Bg5 Nc6", allow_unreadable=True)
    assert not replay.plies[2].is_legal
    result = ruling(book, claimant="black", record=record)
    assert result.verdict == "upheld" and result.evidence["ply"] == 3
    assert any("ruling rests on moves before it" in r for r in result.reasons)
    assert result.evidence["numbering_gaps"][0]["ply"] == 6


def test_a_missing_move_that_moves_the_us_chess_window_defers_even_an_earlier_illegal_move(
    book: RulesetBook
) -> None:
    """US Chess 11A corrects an illegal move among each player's last ten moves (11B: earlier ones stand). 2.Bg5
    (ply 3) has 19 plies after it as written, one short of 20; with Black's 10th move, which the numbers say is
    not written, it has 20, and stands."""
    shuffle = " ".join(f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8" for n in (3, 5, 7))
    record = f"1. e4 e5 2. Bg5 Nc6 {shuffle} 9. Nf3 Nf6 10. Ng1 11. d3 Nf3 12. Ng8"
    assert len(replay_chess(record).plies) == 22
    fide = ruling(book, claimant="black", record=record)
    assert fide.verdict == "upheld" and fide.evidence["ply"] == 3  # FIDE 7.5.1: any time during the game
    us = ruling(book, ruleset="uschess", claimant="black", record=record)
    assert us.verdict == "deferred" and us.adjustments == ()
    assert any("correction window" in r for r in us.reasons)
    assert us.evidence["missing_moves"] == [{"ply": 20, "number": 10, "side": "black"}]


def test_a_slip_in_the_numbers_with_every_move_legal_in_order_is_ruled_and_named(book: RulesetBook) -> None:
    # 3. Nc6 is numbered as White's 3rd, but in order it is Black's b8-c6 and the game goes on legally
    result = ruling(book, claimant="white", record="1. Nf3 Nf6 2. Nc3 3. Nc6 4. e4 e5")
    assert result.verdict == "rejected"
    assert any("the numbers are a slip" in r for r in result.reasons)
    assert result.evidence["numbering_gaps"][0]["ply"] == 4


def test_the_replay_command_shows_the_gap_with_its_ply() -> None:
    proc = run_in_process(["replay", "-"], stdin=SKIPPED_BLACK + "\n")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["numbering_gaps"][0]["ply"] == 4 and shown["numbering_gaps"][0]["written"] == "3."
    assert any(n["kind"] == "numbering-gap" and n["ply"] == 4 for n in shown["notes"])


def test_check_games_reports_the_gap_as_a_finding() -> None:
    text = f'[Event "a"]\n[Result "*"]\n\n{SKIPPED_BLACK} *\n'
    proc = run_in_process(["check-games", "-"], stdin=text)
    line = json.loads(proc.stdout.splitlines()[0])
    gap = next(f for f in line["findings"] if f["code"] == "numbering-gap")
    assert gap["ply"] == 4 and gap["evidence"]["missing"] == [{"ply": 4, "number": 2, "side": "black"}]


def test_every_move_number_is_kept_with_its_move() -> None:
    (game,) = split_games("1. e4 e5 2. Nf3 2... Nc6 3.Bb5")
    assert [(m.text, m.number) for m in game.moves] == [
        ("e4", "1."), ("e5", None), ("Nf3", "2."), ("Nc6", "2..."), ("Bb5", "3."),
    ]
    assert chess.Board().fullmove_number == 1


def test_two_missing_moves_are_given_in_one_field_in_the_records_own_numbering(book: RulesetBook) -> None:
    record = "1. e4 2... c6 3. d4 d5"
    result = ruling(book, claimant="black", record=record, missing_moves="1... e5 2. Nf3")
    assert result.verdict == "rejected" and "numbering_gaps" not in result.evidence
    assert result.evidence["missing_moves_given"] == "1... e5 2. Nf3"
    with pytest.raises(ContractError) as unnumbered:
        ruling(book, claimant="black", record=record, missing_moves="e5 Nf3")
    assert unnumbered.value.field == "missing_moves" and "number each missing move" in unnumbered.value.message
