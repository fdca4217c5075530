"""Threefold repetition (FIDE 9.2, US Chess 14C): cases P01-P06, P27, P28 walked ply by ply."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.chess.claims.repetition import can_claim_threefold, occurrences_of
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
P03 = "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8"
P04_START = "4k1n1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"
P04 = "1... d5 2. Nf3 Nh6 3. Ng1 Ng8 4. Nf3 Nh6 5. Ng1 Ng8"


def numbered(sans: list[str], first: int = 1) -> str:
    out = []
    for i, san in enumerate(sans):
        if i % 2 == 0:
            out.append(f"{first + i // 2}.")
        out.append(san)
    return " ".join(out)


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("claim", "threefold-repetition")
    return rule(parse_case(case), book)


def test_p01_walk_the_shuffle_ply_by_ply() -> None:
    """The start position stands at plies 0, 4 and 8; only at ply 8 may White claim."""
    for ply in range(1, len(SHUFFLE) + 1):
        replay = replay_chess(numbered(SHUFFLE[:ply]))
        assert len(replay.plies) == ply
        expected = {4: [0, 4], 8: [0, 4, 8]}.get(ply)
        if expected:
            assert occurrences_of(replay, replay.keys[-1]) == expected
        assert can_claim_threefold(replay) == (ply == 8)


def test_p01_threefold_on_the_board_is_a_draw(book: RulesetBook) -> None:
    result = ruling(
        book, ruleset="fide-standard", claimant="white", record=numbered(SHUFFLE),
        fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
    )
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert result.evidence["occurrences"] == [0, 4, 8]
    assert {"FIDE 9.2.2", "FIDE 9.2.3", "FIDE 9.5.2"} <= set(result.rule_refs)
    assert not result.adjustments


@pytest.mark.parametrize("ruleset", ["fide-standard", "uschess"])
def test_p02_p28_written_move_completes_the_third_occurrence(book: RulesetBook, ruleset: str) -> None:
    result = ruling(
        book, ruleset=ruleset, claimant="black", record=numbered(SHUFFLE[:7]), intended_move="Ng8",
        fen="rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4",
    )
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert result.evidence["occurrences"] == [0, 4, 8]
    assert "the written move 4...Ng8 is not played" in result.instructions
    expected = {"FIDE 9.2.1"} if ruleset == "fide-standard" else {"US Chess 14C", "US Chess 14C2"}
    assert expected <= set(result.rule_refs)


def test_p03_castling_rights_differ_so_the_claim_fails(book: RulesetBook) -> None:
    replay = replay_chess(P03)
    # after 1...e5 the same pieces stood on the same squares, but with KQkq
    assert replay.fen_at(2).split()[0] == replay.fen_at(10).split()[0]
    assert occurrences_of(replay, replay.keys[-1]) == [6, 10]
    result = ruling(
        book, ruleset="fide-standard", claimant="white", record=P03,
        clock={"white": "0:31:00", "black": "0:28:00"},
        fen="rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 8 6",
    )
    assert result.verdict == "rejected" and result.result is None
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)]
    assert any("0:28:00 becomes 0:30:00" in i for i in result.instructions)
    assert any("draw offer" in i for i in result.instructions)
    assert any("castling rights" in r for r in result.reasons)
    assert {"FIDE 9.2.3", "FIDE 9.5.3", "FIDE 9.1.2.3"} <= set(result.rule_refs)


def test_p04a_en_passant_makes_the_first_occurrence_different(book: RulesetBook) -> None:
    replay = replay_chess(P04, P04_START)
    # after 1...d5, exd6 e.p. was legal: not the same position as after 3...Ng8 and 5...Ng8
    assert replay.keys[1] != replay.keys[5] == replay.keys[9]
    assert replay.fen_at(1).split()[:4] == ["4k1n1/8/8/3pP3/8/8/8/4K1N1", "w", "-", "d6"]
    result = ruling(
        book, ruleset="fide-standard", claimant="white", record=P04, start_fen=P04_START,
        fen="4k1n1/8/8/3pP3/8/8/8/4K1N1 w - - 8 6",
    )
    assert result.verdict == "rejected"
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)]
    assert any("exd6" in r and "9.2.3.1" in r for r in result.reasons)


def test_p04b_written_nf3_would_repeat_for_the_third_time(book: RulesetBook) -> None:
    result = ruling(
        book, ruleset="fide-standard", claimant="white", record=P04, start_fen=P04_START, intended_move="Nf3"
    )
    assert result.verdict == "upheld" and result.evidence["occurrences"] == [2, 6, 10]


def test_p05_rapid_penalty_is_one_minute(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-rapid", claimant="white", record=P03, clock={"white": 600, "black": 500})
    assert result.verdict == "rejected"
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 60)]
    assert "FIDE A.3" in result.rule_refs


def test_p06_touched_piece_loses_the_right_to_claim_on_this_move(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="white", record=numbered(SHUFFLE), touched_piece=True)
    assert result.verdict == "rejected" and result.result is None
    assert not result.adjustments
    assert any("must move the touched piece" in i for i in result.instructions)
    assert "FIDE 9.4" in result.rule_refs


def test_only_the_player_having_the_move_may_claim(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="black", record=numbered(SHUFFLE))
    assert result.verdict == "rejected" and not result.adjustments


def test_illegal_written_move_is_an_incorrect_claim(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="white", record=P03, intended_move="Ke3")
    assert result.verdict == "rejected"
    assert any("another move" in i and "king" in i for i in result.instructions)
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)]


def test_unreadable_written_move_names_the_field(book: RulesetBook) -> None:
    from adjudicator.contract import ContractError

    with pytest.raises(ContractError) as err:
        ruling(book, ruleset="fide-standard", claimant="white", record=P03, intended_move="Zz9")
    assert err.value.field == "intended_move"


def test_us_chess_penalty_is_at_the_tds_discretion(book: RulesetBook) -> None:
    result = ruling(book, ruleset="uschess", claimant="white", record=P03)
    assert result.verdict == "rejected" and not result.adjustments
    assert any("the TD may add 2:00 to Black's clock" in i for i in result.instructions)


def test_p27_no_draw_offer_rule_does_not_bar_a_claim(book: RulesetBook) -> None:
    record = numbered(SHUFFLE, first=18)
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 18"
    result = ruling(book, ruleset="us-senior", claimant="white", record=record, start_fen=start)
    assert replay_chess(record, start).final_board.fullmove_number == 22
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert "FIDE 9.1.1" in result.rule_refs
    assert any("not a draw agreement" in r for r in result.reasons)


def test_record_and_fen_that_disagree_are_reported(book: RulesetBook) -> None:
    from adjudicator.contract import ContractError

    with pytest.raises(ContractError) as err:
        ruling(book, ruleset="fide-standard", claimant="white", record=numbered(SHUFFLE),
               fen="rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 8 5")
    assert err.value.field == "fen" and err.value.code == "record_mismatch"
    assert "f3 is empty in the record but white knight in fen" in err.value.message


def test_us_14c4_claim_after_moving_without_pressing_the_clock(book: RulesetBook) -> None:
    record = numbered(SHUFFLE)  # 4...Ng8 made by Black: the start position for the third time
    fide = ruling(book, ruleset="fide-standard", claimant="black", record=record, clock_not_pressed=True)
    assert fide.verdict == "rejected" and not fide.adjustments  # FIDE: only the player having the move
    us = ruling(book, ruleset="uschess", claimant="black", record=record, clock_not_pressed=True)
    assert us.verdict == "upheld" and us.result == "1/2-1/2"


# ---------------------------------------------------------------- 9.2.2 with a written move; a position alone

SHUFFLED_TWICE = numbered(SHUFFLE)  # the start position stands at plies 0, 4 and 8, White to move


def python_chess_board(sans: list[str]) -> Any:
    import chess

    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


@pytest.mark.parametrize("ruleset,articles", [("fide-standard", {"FIDE 9.2.2"}), ("uschess", {"US Chess 14C"})])
def test_9_2_2_the_position_on_the_board_for_the_third_time_draws_whatever_move_was_written(
    book: RulesetBook, ruleset: str, articles: set[str]
) -> None:
    """9.2: the claim is correct when the position "has just appeared" for the third time (9.2.2; US 14C);
    a written move that repeats nothing is not played and cannot take that away."""
    board = python_chess_board(SHUFFLE)
    assert board.is_repetition(3) and board.can_claim_threefold_repetition()  # python-chess, the oracle
    result = ruling(book, ruleset=ruleset, claimant="white", record=SHUFFLED_TWICE, intended_move="e4")
    assert (result.verdict, result.result) == ("upheld", "1/2-1/2")
    assert articles <= set(result.rule_refs) and not result.adjustments
    assert result.evidence["occurrences"] == [0, 4, 8] and result.evidence["intended_move"] == "e4"
    assert "the written move 5.e4 is not played" in result.instructions


def test_9_2_1_a_written_move_is_still_judged_when_the_board_shows_only_two_occurrences(book: RulesetBook) -> None:
    """9.2.1: with the position on the board standing twice, only the written move can complete the claim."""
    sans = SHUFFLE[:4]
    assert not python_chess_board(sans).is_repetition(3)
    wrong = ruling(book, ruleset="fide-standard", claimant="white", record=numbered(sans), intended_move="e4")
    assert wrong.verdict == "rejected" and [(a.side, a.seconds) for a in wrong.adjustments] == [("black", 120)]
    right = ruling(book, ruleset="fide-standard", claimant="black", record=numbered(SHUFFLE[:7]),
                   intended_move="Ng8")
    assert right.verdict == "upheld" and "FIDE 9.2.1" in right.rule_refs


def test_a_threefold_claim_from_a_position_alone_needs_the_record(book: RulesetBook) -> None:
    """A FEN shows no repetitions, so a threefold claim on it cannot be proven: an error naming the record."""
    with pytest.raises(ContractError) as caught:
        ruling(book, ruleset="fide-standard", claimant="white", fen="8/8/4k3/8/8/8/4K3/R7 w - - 12 80")
    assert caught.value.field == "record" and caught.value.code == "missing_field"


def test_a_stalemate_given_as_a_fen_ended_the_game_as_its_record_shows(book: RulesetBook) -> None:
    """5.2.1: a stalemate ends the game; the claim changes nothing, from the FEN as from the record (no penalty)."""
    import chess

    start = "7k/5Q2/8/6K1/8/8/8/8 w - - 10 70"
    board = chess.Board(start)
    board.push_san("Kg6")
    assert board.is_stalemate()  # python-chess, the oracle
    from_fen = ruling(book, ruleset="fide-standard", claimant="black", fen=board.fen())
    from_record = ruling(book, ruleset="fide-standard", claimant="black", start_fen=start, record="70. Kg6")
    for result in (from_fen, from_record):
        assert (result.verdict, result.result, result.adjustments) == ("upheld", "1/2-1/2", ())
        assert "FIDE 5.2.1" in result.rule_refs


def test_a_claim_without_the_written_move_that_would_have_completed_it_says_so_and_names_the_move(
        book: RulesetBook) -> None:
    """9.2.1: Black, on move after 4. Ng1, claims without writing 4...Ng8, which would bring the start position
    about the third time. The claim is rejected (on the board the position stands twice), and the ruling says
    that writing 4...Ng8 would have made it correct."""
    result = ruling(book, ruleset="fide-standard", claimant="black", record=numbered(SHUFFLE[:7]))
    assert result.verdict == "rejected"
    assert result.evidence["completing_moves"] == ["Ng8"]
    said = " ".join(result.reasons)
    assert "Had Black written 4...Ng8" in said and "would have been correct" in said
    assert "FIDE 9.2.1" in result.rule_refs
    white = ruling(book, ruleset="fide-standard", claimant="white", record=numbered(SHUFFLE[:7]))
    assert "completing_moves" not in white.evidence, "only the player on move can write the move"
    short = ruling(book, ruleset="fide-standard", claimant="white", record=numbered(SHUFFLE[:2]))
    assert "completing_moves" not in short.evidence, "no move would make it the third time"
