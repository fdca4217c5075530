"""A claim's required facts: a slip on the form is refused, naming the field, before any ruling."""

from __future__ import annotations

import pytest

from adjudicator.requirements import CaseRefused, checked_case, missing_facts, position_errors, refusals
from adjudicator.rulesets import RulesetBook

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


def test_an_ilc_claim_always_needs_the_claimant() -> None:
    errors = missing_facts({"claim": "insufficient-losing-chances", "fen": FEN})
    assert [(e.code, e.field) for e in errors] == [("missing_field", "claimant")]


def test_a_draw_claim_whose_ruling_turns_on_the_claimant_is_refused_without_it(book: RulesetBook) -> None:
    shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"  # P01: only White, on move, may claim
    cases = [
        {"ruleset": "fide-standard", "claim": "threefold-repetition", "record": shuffle},
        {"ruleset": "fide-standard", "claim": "fifty-move", "fen": "8/8/4k3/8/8/2b5/4K3/R7 w - - 100 120"},  # P07
        {"ruleset": "uschess", "claim": "fifty-move", "fen": FEN},
        {"game": "checkers", "ruleset": "acf", "claim": "threefold-repetition", "start_fen": "B:WK27:BK6",
         "record": "6-10 27-23 10-6", "intended_move": "23-27"},  # P44: the written move is White's
    ]
    for case in cases:
        problems = refusals(case, book)
        assert [(p.code, p.field) for p in problems] == [("missing_field", "claimant")], case
        assert "the ruling depends on who claims" in problems[0].message
        with pytest.raises(CaseRefused) as refused:
            checked_case(case, book)
        assert refused.value.to_json() == {"error": {"code": "missing_field", "field": "claimant",
                                                     "message": problems[0].message}}
        assert refusals({**case, "claimant": "white"}, book) == []


def _p43_record() -> str:
    """White's king jumps 30x23; then forty king moves each, ending in B:WK14,K23:BK1,K32 (cases.md P43)."""
    moves = ["30x23"]
    for n in range(40):
        moves += ["32-28", "14-18"] if n % 2 == 0 else ["28-32", "18-14"]
    return '[FEN "W:WK14,K30:BK1,K32,26"]\n' + " ".join(moves) + " *"


def test_the_public_cases_where_nobody_claims_are_still_ruled(book: RulesetBook) -> None:
    shuffle5 = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(4))
    nobody = [
        {"ruleset": "fide-standard", "claim": "fifty-move", "start_fen": "6k1/8/8/8/8/8/5K2/7R b - - 149 130",
         "record": "130... Kf7"},  # P09: 75 moves
        {"ruleset": "fide-standard", "claim": "fifty-move", "start_fen": "7k/8/6K1/8/8/8/8/R7 w - - 149 150",
         "record": "150. Ra8#"},  # P10: mate on the 75th move
        {"ruleset": "fide-standard", "claim": "fifty-move", "record": shuffle5},  # P11: fivefold
        {"ruleset": "uschess", "claim": "fifty-move", "record": shuffle5},  # P35: the TD may declare a draw
        {"game": "checkers", "ruleset": "acf", "claim": "forty-move", "record": _p43_record(),
         "fen": "B:WK14,K23:BK1,K32"},  # P43: forty king moves each, a draw whoever claims
    ]
    for case in nobody:
        assert refusals(case, book) == [], case
        assert checked_case(case, book).claimant is None


def test_every_problem_is_found_at_once_and_the_first_names_its_field(book: RulesetBook) -> None:
    case = {"ruleset": "fide-standard", "claim": "threefold-repetition", "fen": "8/8/8/8/8/8/8/K7 w - - 0 1",
            "clock": {"white": "1:99:00"}}
    problems = refusals(case, book)
    assert [p.field for p in problems] == ["clock.white", "fen", "claimant"]
    with pytest.raises(CaseRefused) as refused:
        checked_case(case, book)
    body = refused.value.to_json()
    assert body["error"]["field"] == "clock.white"
    assert [e["field"] for e in body["errors"]] == ["clock.white", "fen", "claimant"]


def test_a_ruleset_of_the_other_game_is_refused_before_anything_is_ruled(book: RulesetBook) -> None:
    problems = refusals({"game": "checkers", "ruleset": "fide-standard", "claim": "flag",
                         "clock": {"red": 0, "flagged": ["red"]}}, book)
    assert [(p.code, p.field) for p in problems] == [("invalid_field", "ruleset")]
    assert [p.field for p in refusals({"ruleset": "fide-standard", "claim": "forty-move"}, book)] == ["claim"]


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


def test_a_checkers_position_entered_alone_must_be_one_a_game_can_have() -> None:
    for fen, why in (("B:W1-13:B20", "White has 13 pieces"), ("B:W21:B30", "Red has a man on square 30"),
                     ("B:W2:B12", "White has a man on square 2"), ("X:W1:B2", "starts with B or W")):
        errors = position_errors({"game": "checkers", "claim": "flag", "fen": fen})
        assert [(e.code, e.field) for e in errors] == [("invalid_fen", "fen")] and why in errors[0].message, fen
    assert position_errors({"game": "checkers", "claim": "flag", "fen": "B:W21:BK30"}) == []
    assert position_errors({"game": "checkers", "claim": "flag", "fen": "B:W21:B30", "record": "1. 30-26"}) == []


# A time control no one can read: one reader (adjudicator.clocks.parse_time_control) for every claim that reads one.
UNREADABLE = ("40/90+30/30+30", "zzz+30")


@pytest.mark.parametrize("control", UNREADABLE)
@pytest.mark.parametrize(
    "case",
    [
        {"claim": "illegal-move", "record": "1. e4 e5 2. f4 Qh4+ 3. Nc3"},
        {"claim": "unfinished-game", "fen": FEN},
        {"claim": "flag", "fen": FEN, "clock": {"white": 0, "black": 60, "flagged": ["white"]}},
        {"claim": "insufficient-losing-chances", "claimant": "white", "fen": FEN, "clock": {"white": 60, "black": 60}},
    ],
    ids=lambda case: case["claim"] if isinstance(case, dict) else None,
)
def test_an_unreadable_time_control_is_refused_for_every_claim_that_reads_one(
    book: RulesetBook, case: dict[str, object], control: str
) -> None:
    with pytest.raises(CaseRefused) as refused:
        checked_case({**case, "ruleset": "fide-standard", "time_control": control}, book)
    assert refused.value.code == "invalid_time_control" and refused.value.field == "time_control"


def test_the_time_control_is_refused_with_the_other_problems_at_once(book: RulesetBook) -> None:
    problems = refusals({"claim": "insufficient-losing-chances", "ruleset": "fide-standard", "fen": FEN,
                         "time_control": "zzz+30"}, book)
    assert {(p.code, p.field) for p in problems} >= {("missing_field", "claimant"),
                                                     ("invalid_time_control", "time_control")}


def test_a_readable_or_blank_time_control_is_no_problem(book: RulesetBook) -> None:
    for control in ("G/90+30", "40/5400+30:1800+30", "G/30;d5", "?", "-", "  "):
        case = {"claim": "unfinished-game", "ruleset": "fide-standard", "fen": FEN, "time_control": control}
        assert not [p for p in refusals(case, book) if p.field == "time_control"], control
