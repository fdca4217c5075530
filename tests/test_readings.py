"""One reading of a record, chosen by rule, never by convenience (adjudicator/chess/readings.py, FIDE C.3).

FIDE C.3 lets each player write the piece letters of their own language. The
reading is: the case's language; else the ruleset's ``record.language``; else
English whenever English reads every token (an illegal move is still a reading);
another language only when English cannot read a token. Never the reading with
fewer illegal moves. Where another full reading would change the verdict, both
are shown; where the rule cannot choose, the claim is deferred.
"""

from __future__ import annotations

import copy
from typing import Any

import chess
import pytest

from adjudicator.chess.replay import replay_chess
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook, RulesetError
from adjudicator.ruling import Ruling

# Only K and B letters: English reads 2.Bb5 as the f1 bishop passing the e2 pawn (illegal);
# German letters read B as a pawn (Bauer), so the same token is the legal 2.b5.
KING_AND_BISHOP = "1. b4 e5 2. Bb5 Ke7"
# S is the knight in German and the bishop in Czech and Russian: 2.Sa3 is Nb1-a3 (legal)
# or Bc1-a3 through the b2 pawn (illegal). English cannot read S at all.
S_FOR_KNIGHT_OR_BISHOP = "1. e3 d6 2. Sa3 e5"


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("game", "chess")
    case.setdefault("ruleset", "fide-standard")
    return rule(parse_case(case), book)


def test_english_is_the_reading_whenever_english_reads_every_token(book: RulesetBook) -> None:
    replay = replay_chess(KING_AND_BISHOP)
    assert replay.language == "en" and replay.reading == "english"
    reference = chess.Board()
    reference.push_san("b4")
    reference.push_san("e5")
    assert replay.plies[2].move == chess.Move(chess.F1, chess.B5) and not replay.plies[2].is_legal
    assert replay.plies[2].move not in reference.legal_moves  # python-chess: the bishop cannot pass e2


def test_an_illegal_move_that_another_full_reading_keeps_legal_defers_the_claim(book: RulesetBook) -> None:
    # English reads 2.Bb5 as the f1 bishop passing e2 (illegal); German letters read the legal 2.b5: the
    # German reading keeps every move legal, so the verdict hangs on the letters (issue 34, class 3)
    decided = ruling(book, claim="illegal-move", claimant="black", record=KING_AND_BISHOP, alleged_illegal_ply=3)
    assert decided.verdict == "deferred" and decided.result is None and not decided.adjustments
    english, german = decided.evidence["alternative_readings"]
    assert english == {"language": "en", "rule": "english", "verdict": "upheld", "result": None}
    assert german["language"] == "de" and german["verdict"] == "rejected" and german["keeps_record_legal"]
    assert german["first_difference"] == {"ply": 3, "token": "Bb5", "this_reading": "2.Bf1-b5", "that_reading": "2.b5"}
    assert "never chosen silently" in decided.reasons[0] and "language" in decided.instructions[0]


def test_a_reading_that_invents_an_illegal_move_is_named_and_the_ruling_stands(book: RulesetBook) -> None:
    # English reads every move legally (3.Bxf7+, the bishop); in German letters B is a pawn, and 3.Bxf7+ a
    # pawn capture no pawn can make: that reading invents an illegal move, so the ruling stands
    record = "1. e4 e5 2. Bc4 Bc5 3. Bxf7+ Kxf7"
    decided = ruling(book, claim="illegal-move", claimant="black", record=record, alleged_illegal_ply=5)
    assert decided.verdict == "rejected"
    english, german = decided.evidence["alternative_readings"]
    assert english["verdict"] == "rejected"
    assert german["language"] == "de" and german["verdict"] == "upheld" and not german["keeps_record_legal"]
    assert any("German" in reason and "English reads every move" in reason for reason in decided.reasons)


def test_the_case_language_is_the_only_reading(book: RulesetBook) -> None:
    decided = ruling(
        book, claim="illegal-move", claimant="black", record=KING_AND_BISHOP, alleged_illegal_ply=3, language="de"
    )
    assert decided.verdict == "rejected"
    assert "alternative_readings" not in decided.evidence
    assert decided.evidence["record_reading"] == {"language": "de", "rule": "stated"}


def test_the_rulesets_default_language_comes_before_english(config: dict[str, Any]) -> None:
    local = copy.deepcopy(config)
    local["rulesets"]["german-open"] = {
        "extends": "fide-standard", "title": "A German open", "record": {"language": "de"},
    }
    book = RulesetBook.from_config(local)
    decided = ruling(book, ruleset="german-open", claim="illegal-move", claimant="black",
                     record=KING_AND_BISHOP, alleged_illegal_ply=3)
    assert decided.verdict == "rejected" and decided.evidence["record_reading"]["language"] == "de"
    # the case's own language still comes first
    stated = ruling(book, ruleset="german-open", claim="illegal-move", claimant="black",
                    record=KING_AND_BISHOP, alleged_illegal_ply=3, language="en")
    assert stated.verdict == "upheld"


def test_a_ruleset_default_language_the_reader_does_not_know_is_an_error_naming_the_ruleset(
    config: dict[str, Any],
) -> None:
    local = copy.deepcopy(config)
    local["rulesets"]["typo-open"] = {"extends": "fide-standard", "title": "x", "record": {"language": "german"}}
    with pytest.raises(RulesetError) as err:  # at start-up, before any case is ruled under it
        RulesetBook.from_config(local)
    assert err.value.key == "rulesets.typo-open.record.language" and "german" in err.value.problem


def test_two_readings_the_rule_cannot_choose_between_defer_the_claim_with_both_outcomes(
    book: RulesetBook,
) -> None:
    replay = replay_chess(S_FOR_KNIGHT_OR_BISHOP)
    assert replay.reading == "undecided" and not replay.is_reading_decided
    decided = ruling(
        book, claim="illegal-move", claimant="black", record=S_FOR_KNIGHT_OR_BISHOP, alleged_illegal_ply=3
    )
    assert decided.verdict == "deferred" and decided.result is None and not decided.adjustments
    first, other = decided.evidence["alternative_readings"]
    assert {first["language"], first["verdict"]} == {"de", "rejected"}
    assert other["verdict"] == "upheld" and other["first_difference"]["that_reading"] == "2.Bc1-a3"
    assert decided.instructions and "language" in decided.instructions[0]


def test_readings_that_give_the_same_verdict_do_not_defer_the_claim(book: RulesetBook) -> None:
    decided = ruling(book, claim="threefold-repetition", claimant="white", record=S_FOR_KNIGHT_OR_BISHOP)
    assert decided.verdict == "rejected"
    assert "alternative_readings" not in decided.evidence
    # the readings are listed (issue 34: where every reading gives the same verdict, rule and list them)
    assert decided.evidence["same_verdict_readings"][0] == "de" and len(decided.evidence["same_verdict_readings"]) == 2
    assert any("rejected read either way" in reason for reason in decided.reasons)


def test_languages_that_read_the_letters_alike_are_one_reading() -> None:
    # C is the knight in French, Spanish, Italian and Portuguese: one reading, not four
    replay = replay_chess("1. Cf3 Cf6 2. Cc3 Cc6")
    assert replay.reading == "only" and not replay.alternatives and not replay.illegal
    assert replay.final_board.piece_at(chess.C6) == chess.Piece(chess.KNIGHT, chess.BLACK)


def test_a_foreign_letter_in_an_english_record_is_unreadable_not_silently_translated() -> None:
    replay = replay_chess("1. e4 e5 2. Nf3 Sc6 3. Bb5 a6", allow_unreadable=True)
    (bad,) = replay.unreadable
    assert (bad.ply, bad.token) == (4, "Sc6") and "Nc6" in bad.candidates
    assert len(replay.plies) == 3


def test_when_no_reading_gets_through_the_first_unreadable_token_of_the_furthest_reading_is_reported() -> None:
    # a German record with a slip at ply 7: English would stop at ply 3 (S is no English letter)
    replay = replay_chess("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Qh9 Sf6", allow_unreadable=True)
    assert replay.language == "de" and replay.reading == "furthest"
    assert [(u.ply, u.token) for u in replay.unreadable] == [(7, "Qh9")]


def test_a_stated_language_the_reader_does_not_know_is_an_error_naming_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as err:
        ruling(book, claim="illegal-move", claimant="black", record=KING_AND_BISHOP, language="klingon")
    assert err.value.field == "language"
