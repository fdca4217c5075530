"""A claim's required facts: a slip on the form is refused, naming the field, before any ruling."""

from __future__ import annotations

from adjudicator.requirements import missing_facts

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
