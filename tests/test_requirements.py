"""A claim's required facts: a slip on the form is refused, naming the field, before any ruling."""

from __future__ import annotations

from adjudicator.requirements import missing_facts, position_errors

FEN = "4k3/8/8/8/8/8/8/4K2R b K - 0 1"


def test_a_flag_claim_with_no_flag_down_is_refused_on_the_flagged_field() -> None:
    case = {"claim": "flag", "claimant": "white", "fen": FEN, "clock": {"white": "0:01:00", "flagged": []}}
    assert [e.field for e in missing_facts(case)] == ["clock.flagged"]


def test_a_flag_claim_with_the_flag_ticked_has_its_facts() -> None:
    case = {"claim": "flag", "fen": FEN, "clock": {"white": "0:01:00", "black": "0:00:00", "flagged": ["black"]}}
    assert missing_facts(case) == []


def test_a_flag_claim_without_the_flagged_list_keeps_the_zero_clock_rule() -> None:
    # the contract: with no clock.flagged, a side whose clock reads 0 is taken as flagged
    case = {"claim": "flag", "fen": FEN, "clock": {"white": "0:01:00", "black": "0:00:00"}}
    assert missing_facts(case) == []


def test_a_player_s_draw_claim_needs_the_claimant() -> None:
    for claim in ("threefold-repetition", "fifty-move", "insufficient-losing-chances"):
        errors = missing_facts({"claim": claim, "fen": FEN})
        assert [e.field for e in errors] == ["claimant"], claim
        assert errors[0].code == "missing_field"


def test_an_adjudication_and_an_illegal_move_need_no_claimant() -> None:
    assert missing_facts({"claim": "unfinished-game", "fen": FEN}) == []
    assert missing_facts({"claim": "illegal-move", "fen": FEN}) == []


def test_a_position_entered_alone_must_be_reachable_in_a_legal_game() -> None:
    for claim in ("fifty-move", "flag", "unfinished-game"):
        errors = position_errors({"game": "chess", "claim": claim, "fen": "8/8/8/8/8/8/8/K7 w - - 0 1"})
        assert [(e.code, e.field, e.message) for e in errors] == [
            ("invalid_fen", "fen", "fen is not a legal position: Black has no king")], claim
    assert position_errors({"game": "chess", "claim": "flag", "fen": FEN}) == []


def test_the_board_after_a_record_may_show_the_illegal_move_it_is_about() -> None:
    # 1. e4 f6 2. Qh5 (check) Nc6 3. ...: Black left his king in check; the board now is that impossible position,
    # and it is cross-checked against the record (replay.check_fen), not refused here
    left_in_check = "r1bqkbnr/ppppp1pp/2n2p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3"
    case = {"game": "chess", "claim": "illegal-move", "record": "1. e4 f6 2. Qh5+ Nc6", "fen": left_in_check}
    assert position_errors({**case, "record": ""}) != [], "the same position alone is refused"
    assert position_errors(case) == []
    assert position_errors({"game": "checkers", "claim": "flag", "fen": "W:W21:B1"}) == []
