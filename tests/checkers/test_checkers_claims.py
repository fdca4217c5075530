"""Draw claims and illegal-move claims in checkers, walked ply by ply (cases.md section G)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling


def _rule(book: RulesetBook, **fields: Any) -> Ruling:
    data = {"game": "checkers", "ruleset": "acf", **fields}
    return rule(parse_case(data), book)


def _p42_record() -> str:
    """Red shuffles a king, advances the man 6-10 on his 62nd move, and shuffles on to his 80th move."""
    red = ["5-9" if n % 2 else "9-5" for n in range(1, 62)] + ["6-10"]
    red += ["9-5" if n % 2 else "5-9" for n in range(63, 81)]
    white = ["27-24" if n % 2 else "24-27" for n in range(1, 80)]
    moves = [m for pair in zip(red, [*white, ""], strict=True) for m in pair if m]
    return '[FEN "B:WK27,K31,K32:BK1,K5,6"]\n' + " ".join(moves) + " *"


def _p43_record() -> str:
    """White's king jumps 30x23; then forty king moves each, ending in B:WK14,K23:BK1,K32."""
    moves = ["30x23"]
    for n in range(40):
        moves += ["32-28", "14-18"] if n % 2 == 0 else ["28-32", "18-14"]
    return '[FEN "W:WK14,K30:BK1,K32,26"]\n' + " ".join(moves) + " *"


def test_p42_a_man_move_within_the_last_forty_moves_defeats_the_claim(book: RulesetBook) -> None:
    ruling = _rule(book, claim="forty-move", claimant="black", record=_p42_record())
    assert ruling.verdict == "rejected" and ruling.result is None
    assert ruling.evidence["last_reset_move"] == "6-10"
    assert ruling.evidence["last_reset_ply"] == 123  # Red's 62nd move
    assert "Red's move 62" in ruling.reasons[0]
    assert "Play continues." in ruling.instructions


def test_p43_forty_king_moves_each_after_the_last_capture_is_a_draw(book: RulesetBook) -> None:
    record = _p43_record()
    ruling = _rule(book, claim="forty-move", claimant="red", record=record, fen="B:WK14,K23:BK1,K32")
    assert ruling.verdict == "upheld" and ruling.result == "1/2-1/2"
    assert ruling.evidence["plies_without_man_move_or_capture"] == 80
    assert ruling.evidence["notes"] == []  # the record's end is the position on the board


def test_p43_one_move_short_is_not_enough(book: RulesetBook) -> None:
    record = _p43_record().replace(" 18-14 *", " *")
    ruling = _rule(book, claim="forty-move", claimant="white", record=record)
    assert ruling.verdict == "rejected"
    assert ruling.evidence["moves_since"] == {"red": 40, "white": 39}


def test_p44_repetition_claimed_for_the_second_occurrence_is_rejected(book: RulesetBook) -> None:
    ruling = _rule(
        book, claim="threefold-repetition", claimant="white", start_fen="B:WK27:BK6",
        record="6-10 27-23 10-6", intended_move="23-27",
    )
    assert ruling.verdict == "rejected" and ruling.result is None
    assert ruling.evidence["occurrences"] == [0, 4]
    assert "second" in ruling.reasons[0]


def test_p44_after_one_more_cycle_the_announced_move_makes_the_third_occurrence(book: RulesetBook) -> None:
    ruling = _rule(
        book, claim="threefold-repetition", claimant="white", start_fen="B:WK27:BK6",
        record="6-10 27-23 10-6 23-27 6-10 27-23 10-6", intended_move="23-27",
    )
    assert ruling.verdict == "upheld" and ruling.result == "1/2-1/2"
    assert ruling.evidence["occurrences"] == [0, 4, 8]


def test_a_repetition_claim_by_the_side_not_to_move_with_a_move_is_rejected(book: RulesetBook) -> None:
    ruling = _rule(book, claim="threefold-repetition", claimant="red", start_fen="B:WK27:BK6",
                   record="6-10 27-23 10-6", intended_move="23-27")
    assert ruling.verdict == "rejected"
    assert "only the player about to move" in ruling.reasons[0]


def test_an_announced_move_that_is_not_legal_makes_the_claim_incorrect(book: RulesetBook) -> None:
    ruling = _rule(book, claim="threefold-repetition", claimant="white", start_fen="B:WK27:BK6",
                   record="6-10 27-23 10-6", intended_move="23-28")
    assert ruling.verdict == "rejected"
    assert "cannot be played" in ruling.reasons[0]


def test_an_intended_move_that_is_not_a_move_names_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as info:
        _rule(book, claim="threefold-repetition", claimant="white", start_fen="B:WK27:BK6",
              record="6-10 27-23 10-6", intended_move="twenty-three")
    assert info.value.field == "intended_move"


def _traditional_book(book_config: dict[str, Any]) -> RulesetBook:
    config = copy.deepcopy(book_config)
    config["rulesets"]["acf"]["move_rule"]["count"] = "traditional"
    return RulesetBook.from_config(config)


def test_traditional_count_without_notice_starts_the_referees_count(config: dict[str, Any]) -> None:
    book = _traditional_book(config)
    ruling = _rule(book, claim="forty-move", claimant="red", record=_p43_record())
    assert ruling.verdict == "deferred"
    assert ruling.evidence["count_side"] == "white"
    assert ruling.evidence["count_requested_ply"] == 81


def test_traditional_count_restarts_on_a_conceded_strengthening(config: dict[str, Any]) -> None:
    book = _traditional_book(config)
    record = _p43_record()
    done = _rule(book, claim="forty-move", claimant="red", record=record, count_requested_ply=1)
    assert done.verdict == "upheld" and done.evidence["moves_counted"] == 40
    conceded = _rule(
        book, claim="forty-move", claimant="red", record=record, count_requested_ply=1, strengthening_plies=[21]
    )
    assert conceded.verdict == "rejected"
    assert conceded.evidence["moves_counted"] == 30


def test_a_missed_jump_is_corrected_when_claimed_before_the_reply(book: RulesetBook) -> None:
    record = '[FEN "W:W23,30:B18,1"]\n30-26'
    ruling = _rule(book, claim="illegal-move", claimant="red", record=record)
    assert ruling.verdict == "upheld" and ruling.result is None
    assert ruling.evidence["ply"] == 1
    assert "23x14" in ruling.instructions[1]


def test_a_missed_jump_stands_once_the_opponent_has_replied(book: RulesetBook) -> None:
    record = '[FEN "W:W23,30:B18,1"]\n30-26 1-5'
    ruling = _rule(book, claim="illegal-move", claimant="red", record=record)
    assert ruling.verdict == "rejected"
    assert "the move stands" in ruling.reasons[-1]


def test_an_illegal_move_claim_without_a_claimant_is_the_offenders_opponents(book: RulesetBook) -> None:
    # Red's 15-11 steps a man backwards; Red is to move again after White's 22-18, yet the claim is
    # White's (the side wronged), not an error saying Red claims against his own move
    ruling = _rule(book, claim="illegal-move", record="11-15 23-19 15-11 22-18")
    assert ruling.evidence["ply"] == 3 and "backwards" in ruling.reasons[0]
    assert "White has since replied" in ruling.reasons[1]


def test_an_illegal_move_claim_on_a_legal_record_is_rejected(book: RulesetBook) -> None:
    ruling = _rule(book, claim="illegal-move", claimant="white", record="11-15 23-19 8-11")
    assert ruling.verdict == "rejected"
    assert ruling.reasons == ("Every move of the record is legal.",)


def test_an_event_penalty_for_an_incorrect_claim_is_applied_to_the_opponents_clock(config: dict[str, Any]) -> None:
    strict = copy.deepcopy(config)
    strict["rulesets"]["acf"]["incorrect_claim"] = {"opponent_bonus_seconds": 60, "penalty": "automatic"}
    ruling = _rule(
        RulesetBook.from_config(strict), claim="threefold-repetition", claimant="white", start_fen="B:WK27:BK6",
        record="6-10 27-23 10-6", intended_move="23-27",
    )
    assert ruling.verdict == "rejected"
    assert [a.to_json() for a in ruling.adjustments] == [
        {"side": "red", "seconds": 60, "reason": "incorrect claim by white"}
    ]
    lenient = copy.deepcopy(strict)
    lenient["rulesets"]["acf"]["incorrect_claim"]["penalty"] = "discretionary"
    ruling = _rule(
        RulesetBook.from_config(lenient), claim="forty-move", claimant="white", record=_p42_record(),
    )
    assert ruling.adjustments == () and any("may add 60 s" in i for i in ruling.instructions)


@pytest.mark.parametrize("claim", ["forty-move", "threefold-repetition", "illegal-move", "unfinished-game"])
def test_a_record_with_an_unreadable_move_is_an_error_naming_the_ply_not_a_ruling_on_the_moves_before_it(
    book: RulesetBook, claim: str
) -> None:
    """33-29 is no square pair of the board: the replay stops there, so no claim may rule on what came before."""
    with pytest.raises(ContractError) as caught:
        _rule(book, claim=claim, claimant="white", record="1. 11-15 23-19 2. 8-11 33-29")
    assert caught.value.field == "record"
    assert "ply 4 ('33-29')" in caught.value.message and "22-17" in caught.value.message


@pytest.mark.parametrize("token", ["foo", "9x", ")"])
def test_a_word_or_a_stray_mark_in_the_move_text_is_an_error_naming_its_ply_too(book: RulesetBook, token: str) -> None:
    """Such tokens used to be skipped and the claim ruled on the record without them."""
    with pytest.raises(ContractError) as caught:
        _rule(book, claim="forty-move", claimant="white", record=f"1. 11-15 23-19 2. {token} 22-17 *")
    assert caught.value.field == "record"
    assert f"ply 3 ({token!r}) cannot be read as a move" in caught.value.message
