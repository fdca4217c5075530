"""The position a claim judges: the record's end, or the one FIDE 7.5.1 reinstates."""

from __future__ import annotations

import chess
import pytest

from adjudicator.chess.positions import judged_position, position_problem
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook


def case(**fields: object) -> object:
    return parse_case({"ruleset": "fide-standard", "claim": "flag", **fields})


def test_a_legal_record_is_judged_at_its_end() -> None:
    position = judged_position(case(record="1. e4 e5 2. Nf3"))
    assert position.field == "record" and position.reinstated is None and position.notes() == ()
    assert position.board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


def test_a_king_walked_into_check_is_taken_back() -> None:
    position = judged_position(case(record="1. e4 f5 2. Qh5 Kf7"))
    assert position.problem == "the side not to move is in check"
    assert position.reinstated is not None and position.reinstated.number == 4
    assert position.board.fen() == "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"
    assert "2...Ke8-f7 (ply 4) was illegal" in position.notes()[0]
    assert position.instructions() == (f"Reinstate the position before 2...Ke8-f7 ({position.board.fen()}).",)


def test_after_a_king_is_taken_the_first_illegal_move_that_broke_the_position_is_undone() -> None:
    """Ply 5 takes the king, ply 4 left it in check: the position after ply 3 is the last a legal game had."""
    position = judged_position(case(record="1. e4 f5 2. Qh5 Kf7 3. Qxf7"))
    assert position.problem == "Black has no king"
    assert position.reinstated is not None and position.reinstated.number == 4


def test_an_earlier_illegal_move_that_left_a_legal_position_stands() -> None:
    """1...Bf8-h6 jumps over the g7 pawn: illegal, but the position is possible, so nothing is reinstated."""
    position = judged_position(case(record="1. e4 Bf8-h6 2. d4"))
    assert position.reinstated is None


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"fen": "8/8/8/3kK3/8/8/8/8 w - - 0 1"}, "fen"),
        ({"start_fen": "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"}, "start_fen"),
        ({"record": '[FEN "4k3/8/8/8/8/8/8/2K1K1K1 w - - 0 1"]\n\n1. Kc1-b1'}, "record"),
        ({"record": "1. Kc1-b1", "start_fen": "4k3/8/8/8/8/8/8/2K1K1K1 w - - 0 1"}, "start_fen"),
        ({}, "record"),
    ],
)
def test_no_legal_position_to_judge_names_the_field(fields: dict[str, str], field: str) -> None:
    with pytest.raises(ContractError) as caught:
        judged_position(case(**fields))
    assert caught.value.field == field


def test_position_problem_ignores_castling_rights_and_ep_that_do_not_fit() -> None:
    assert position_problem(chess.Board("4k3/8/8/8/8/8/8/4K3 w KQkq e6 0 1")) is None
    assert position_problem(chess.Board("4k3/8/8/8/8/8/8/2K1K3 w - - 0 1")) == "a side has more than one king"


TWO_WHITE_KINGS = '[FEN "4k3/8/8/8/8/8/8/K6K w - - 0 1"]\n[SetUp "1"]\n\n1. Ka2 Kd8 2. Ka1 Ke8 3. Ka2 Kd8 4. Ka1 Ke8'
NO_BLACK_KING = '[FEN "8/8/8/8/8/8/8/K7 w - - 0 1"]\n\n1. Ka2'


@pytest.mark.parametrize("claim", ["threefold-repetition", "fifty-move", "illegal-move"])
@pytest.mark.parametrize(("record", "problem"), [(TWO_WHITE_KINGS, "a side has more than one king"),
                                                 (NO_BLACK_KING, "Black has no king")])
def test_a_claim_on_the_record_as_played_is_refused_when_no_legal_game_reaches_its_start(
        book: RulesetBook, claim: str, record: str, problem: str) -> None:
    """FIDE 3.10.1: a record from a position with two white kings (or no black king) is no game of chess; the
    repetition, the move count and an illegal move are not ruled on it (it was upheld as a threefold draw)."""
    with pytest.raises(ContractError) as caught:
        rule(parse_case({"ruleset": "fide-standard", "claim": claim, "claimant": "white", "record": record}), book)
    assert caught.value.code == "illegal_position" and caught.value.field == "record"
    assert str(caught.value).endswith(f"no legal game reaches: {problem}")


def test_a_move_rule_claim_on_a_position_alone_is_refused_when_no_legal_game_reaches_it(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as caught:
        rule(parse_case({"ruleset": "fide-standard", "claim": "fifty-move", "claimant": "white",
                         "fen": "4k3/8/8/8/8/8/8/K6K w - - 99 80"}), book)
    assert caught.value.field == "fen" and "more than one king" in str(caught.value)
