"""Insufficient losing chances and quickplay finishes: US 14H, FIDE Guidelines III, Sabah, CalChess.

Cases P23, P24, P25, P32, P33, P38 and P40 of shared/rules/cases.md, the preconditions each
procedure sets, and the app's own judgement of "cannot lose by normal means".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.chess.claims.losing_chances import clock_text, read_time_control
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Adjustment, Ruling, Verdict
from adjudicator.services import Services
from engines import build_services

ROOK_ENDING_BLACK_TO_MOVE = "8/5k2/8/3r4/8/8/2R5/5K2 b - - 0 60"
QUEEN_AGAINST_BARE_KING = "8/8/8/4k3/8/8/8/KQ6 b - - 0 80"  # Black, the bare king, to move


@pytest.fixture(scope="module")
def analysis(config: dict[str, Any], tablebase_dirs: tuple[Path, Path]) -> Any:
    services = build_services({**config, "tablebases": {"syzygy": [str(tablebase_dirs[0])]}}, deterministic=True)
    yield services
    services.close()


@pytest.fixture(scope="module")
def engine_only(config: dict[str, Any]) -> Any:
    services = build_services(config, deterministic=True, tablebases=False)
    yield services
    services.close()


def claim(book: RulesetBook, ruleset: str, claimant: str, services: Services | None = None, **fields: Any) -> Ruling:
    data = {"ruleset": ruleset, "claim": "insufficient-losing-chances", "claimant": claimant, **fields}
    ruling = rule(parse_case(data), book, services or Services())
    json.dumps(ruling.to_json())  # the contract's JSON, whatever the evidence
    return ruling


# ---------------------------------------------------------------- FIDE Guidelines III


@pytest.mark.engine
def test_p23_iii5_claim_in_a_level_rook_ending_is_a_draw(book: RulesetBook, analysis: Services) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "black", analysis, fen=ROOK_ENDING_BLACK_TO_MOVE,
                   clock={"white": "0:12:00", "black": "0:01:35"}, time_control="5400")
    assert ruling.verdict is Verdict.UPHELD and ruling.result == "1/2-1/2"
    assert ruling.rule_refs == ("FIDE Guidelines III.5.1",)
    assert ruling.evidence["finding"] == "clear" and ruling.evidence["finding_by"] == "app"
    assert ruling.evidence["method"] == "tablebase"  # proven, not recommended: the tables show the draw
    assert any("is proven (tablebase)" in reason for reason in ruling.reasons)


def test_p23_with_the_arbiters_own_finding(book: RulesetBook) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "black", fen=ROOK_ENDING_BLACK_TO_MOVE,
                   clock={"white": "0:12:00", "black": "0:01:35"}, td_finding="clear")
    assert ruling.result == "1/2-1/2" and ruling.adjustments == () and ruling.confidence == 1.0


def test_p24_postponed_the_opponent_may_get_two_minutes(book: RulesetBook) -> None:
    fields: dict[str, Any] = {"fen": ROOK_ENDING_BLACK_TO_MOVE, "clock": {"white": "0:12:00", "black": "0:01:35"},
                              "td_finding": "unclear"}
    ruling = claim(book, "fide-standard-guidelines-iii", "black", **fields)
    assert ruling.verdict is Verdict.DEFERRED and ruling.result is None
    assert ruling.adjustments == () and "may give White 0:02:00" in " ".join(ruling.reasons)
    given = claim(book, "fide-standard-guidelines-iii", "black", opponent_bonus=True, **fields)
    assert given.adjustments == (Adjustment("white", 120, "III.5.2: decision postponed"),)
    assert given.rule_refs == ("FIDE Guidelines III.5.2",)


def test_p24_after_the_flag_falls_the_arbiter_decides(book: RulesetBook) -> None:
    fields: dict[str, Any] = {"fen": "8/5k2/8/3r4/8/8/2R5/5K2 w - - 0 70", "postponed": True,
                              "clock": {"white": "0:10:00", "black": 0, "flagged": ["black"]}}
    shuffling = claim(book, "fide-standard-guidelines-iii", "black", td_finding="clear", **fields)
    assert shuffling.result == "1/2-1/2"
    trying = claim(book, "fide-standard-guidelines-iii", "black", td_finding="incorrect", **fields)
    assert trying.result == "1-0"


def test_p24_after_the_flag_a_bare_king_still_cannot_win(book: RulesetBook) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "white", fen="8/8/3k4/8/8/8/3KQ3/8 b - - 0 70",
                   postponed=True, td_finding="incorrect", clock={"white": 0, "black": 300, "flagged": ["white"]})
    assert ruling.result == "1/2-1/2" and ruling.rule_refs == ("FIDE 6.9",)


def test_p25_iii4_increment_request(book: RulesetBook) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "white", request="increment", time_control="3600",
                   clock={"white": "0:01:20", "black": "0:07:00"})
    assert ruling.verdict is Verdict.UPHELD and ruling.result is None
    assert ruling.adjustments == (Adjustment("black", 120, "III.4: increment granted, the opponent gets 2 minutes"),)
    assert "5 s increment" in ruling.instructions[0] and "0:09:00" in ruling.instructions[1]
    assert ruling.rule_refs == ("FIDE Guidelines III.4",)


def test_iii4_request_accepted_as_a_draw_offer(book: RulesetBook) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "white", request="increment", opponent_accepts_draw=True,
                   clock={"white": "0:01:20", "black": "0:07:00"})
    assert ruling.result == "1/2-1/2" and ruling.adjustments == ()


def test_iii5_rejected_claim_gives_the_opponent_two_minutes(book: RulesetBook) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "black", fen=ROOK_ENDING_BLACK_TO_MOVE,
                   clock={"white": "0:12:00", "black": "0:01:35"}, td_finding="incorrect")
    assert ruling.verdict is Verdict.REJECTED
    assert ruling.adjustments == (Adjustment("white", 120, "III.5.3: claim rejected"),)
    assert "0:14:00" in ruling.reasons[-1]


@pytest.mark.parametrize(
    ("ruleset", "fields", "why"),
    [
        ("fide-standard-guidelines-iii", {"clock": {"white": 600, "black": 120}}, "under 0:02:00"),
        ("fide-standard-guidelines-iii", {"clock": {"white": 600, "black": 90}, "time_control": "3600+5"},
         "increment"),
        ("fide-standard-guidelines-iii",
         {"clock": {"white": 600, "black": 90}, "fen": "8/5k2/8/3r4/8/8/2R5/5K2 w - - 0 60"}, "not on move"),
        ("fide-standard", {"clock": {"white": 600, "black": 90}}, "Guidelines III are not in force"),
    ],
)
def test_guidelines_iii_preconditions(book: RulesetBook, ruleset: str, fields: dict[str, Any], why: str) -> None:
    ruling = claim(book, ruleset, "black", td_finding="clear", **fields)
    assert ruling.verdict is Verdict.REJECTED and ruling.result is None and ruling.adjustments == ()
    assert why in " ".join(ruling.reasons)


def test_guidelines_iii_never_apply_to_blitz(config: dict[str, Any]) -> None:
    import copy

    changed = copy.deepcopy(config)
    changed["rulesets"]["fide-blitz"]["ilc"] = {**config["rulesets"]["fide-standard-guidelines-iii"]["ilc"]}
    ruling = claim(RulesetBook.from_config(changed), "fide-blitz", "black", td_finding="clear",
                   clock={"white": 100, "black": 60})
    assert ruling.verdict is Verdict.REJECTED and "blitz" in ruling.reasons[0]


# ---------------------------------------------------------------- US Chess 14H and CalChess


def test_p32_variation_14h_delay_clock_halves_the_claimants_time(book: RulesetBook) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", time_control="G/60;d0", td_finding="unclear",
                   delay_clock_available=True, clock={"white": "0:01:40", "black": "0:20:00"})
    assert ruling.verdict is Verdict.DEFERRED and ruling.result is None
    assert ruling.adjustments == (Adjustment("white", -50, "14H2a: half the remaining time on the delay clock"),)
    assert ruling.instructions[0] == "Place a clock with 5 s delay: White 0:00:50, Black unchanged at 0:20:00."
    assert "draw offer" in ruling.instructions[1]
    assert ruling.rule_refs == ("US Chess Variation 14H2a",)


def test_14h_half_the_time_is_rounded_to_the_nearest_second(book: RulesetBook) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", td_finding="unclear", clock={"white": 101, "black": 900})
    assert ruling.evidence["claimant_new_seconds"] == 51 and ruling.adjustments[0].seconds == -50


def test_14h_without_a_delay_clock_the_td_reserves_the_decision(book: RulesetBook) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", td_finding="unclear", delay_clock_available=False,
                   clock={"white": 100, "black": 900})
    assert ruling.verdict is Verdict.DEFERRED and ruling.adjustments == ()


@pytest.mark.parametrize(
    ("time_control", "seconds", "available"),
    [("G/60;d0", 120, True), ("G/60;d0", 121, False), ("G/60;d5", 60, False), ("G/60;inc30", 60, False),
     ("40/120, SD/30", 60, True), ("1800+5d", 60, False)],
)
def test_14h1_preconditions(book: RulesetBook, time_control: str, seconds: int, available: bool) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", time_control=time_control, td_finding="clear",
                   clock={"white": seconds, "black": 900})
    assert (ruling.result == "1/2-1/2") is available


def test_14h_clearly_incorrect_claim_is_denied(book: RulesetBook) -> None:
    ruling = claim(book, "uschess-variation-14h", "black", td_finding="incorrect", clock={"white": 900, "black": 100})
    assert ruling.verdict is Verdict.REJECTED and ruling.adjustments == ()  # the deduction is 0 by default [verify]


def test_p33_baseline_14h_no_claim_in_sudden_death(book: RulesetBook) -> None:
    ruling = claim(book, "uschess", "white", time_control="G/45;d0", clock={"white": 90, "black": 600})
    assert ruling.verdict is Verdict.REJECTED and ruling.result is None and ruling.adjustments == ()
    assert ruling.rule_refs == ("US Chess 14H",) and ruling.evidence["ilc_mode"] == "none"


def test_p40_calchess_delay_clock(book: RulesetBook) -> None:
    ruling = claim(book, "calchess-scholastic", "black", time_control="G/45;d0", td_finding="unclear",
                   clock={"white": "0:15:00", "black": "0:01:50"})
    assert ruling.adjustments == (Adjustment("black", -55, "14H2a: half the remaining time on the delay clock"),)
    assert "Black 0:00:55, White unchanged at 0:15:00" in ruling.instructions[0]


def test_p40_calchess_obviously_incorrect_claim_costs_up_to_a_minute(book: RulesetBook) -> None:
    ruling = claim(book, "calchess-scholastic", "black", time_control="G/45;d0", td_finding="incorrect",
                   clock={"white": "0:15:00", "black": "0:01:50"})
    assert ruling.verdict is Verdict.REJECTED
    assert [a.seconds for a in ruling.adjustments] == [-60]
    assert "0:00:50" in ruling.reasons[-1]


@pytest.mark.engine
def test_14h_app_finds_a_bare_king_against_a_queen_clearly_incorrect(book: RulesetBook, analysis: Services) -> None:
    ruling = claim(book, "uschess-variation-14h", "black", analysis, fen=QUEEN_AGAINST_BARE_KING,
                   clock={"white": 900, "black": 100})
    assert ruling.verdict is Verdict.REJECTED and ruling.evidence["finding"] == "incorrect"
    assert ruling.confidence == 1.0


@pytest.mark.engine
def test_14h_engine_alone_finds_the_lost_side_has_losing_chances(book: RulesetBook, engine_only: Services) -> None:
    ruling = claim(book, "uschess-variation-14h", "black", engine_only,
                   fen="4k3/8/8/8/8/8/3QK3/8 b - - 0 80", clock={"white": 900, "black": 100})
    assert ruling.evidence["finding"] == "incorrect" and 0.5 < ruling.confidence < 1.0


@pytest.mark.engine
def test_14h_an_engine_score_recommends_the_denial_but_the_td_decides(book: RulesetBook, engine_only: Services) -> None:
    # K+Q v K without tablebases: Stockfish is sure, but a score is a judgement, not a proof (14H2: the TD decides)
    ruling = claim(book, "uschess-variation-14h", "black", engine_only,
                   fen="4k3/8/8/8/8/8/3QK3/8 b - - 0 80", clock={"white": 900, "black": 100})
    assert ruling.verdict is Verdict.DEFERRED and ruling.result is None and ruling.adjustments == ()
    assert ruling.evidence["recommendation"]["verdict"] == "rejected"
    assert "the finding: incorrect" in ruling.instructions[0]
    assert "td_finding" not in " ".join((*ruling.reasons, *ruling.instructions)), "no field names in the words"
    decided = claim(book, "uschess-variation-14h", "black", engine_only, td_finding="incorrect",
                    fen="4k3/8/8/8/8/8/3QK3/8 b - - 0 80", clock={"white": 900, "black": 100})
    assert decided.verdict is Verdict.REJECTED and "recommendation" not in decided.evidence


@pytest.mark.engine
def test_iii5_an_engine_draw_is_recommended_not_declared(book: RulesetBook, engine_only: Services) -> None:
    # seven pieces, no tablebase: "cannot win by normal means" stays the arbiter's judgement (III.5)
    fen = "8/5k2/5p2/3r4/8/5P2/2R3P1/5K2 b - - 0 60"
    ruling = claim(book, "fide-standard-guidelines-iii", "black", engine_only, fen=fen,
                   clock={"white": "0:12:00", "black": "0:01:35"}, time_control="5400")
    assert ruling.verdict is Verdict.DEFERRED and ruling.result is None
    assert ruling.evidence["finding"] == "clear" and ruling.evidence["recommendation"] == {
        "verdict": "upheld", "result": "1/2-1/2", "adjustments": []}
    assert ruling.reasons[-1].startswith("Recommended, not proven:")


@pytest.mark.engine
def test_iii5_an_engine_loss_is_recommended_and_no_time_is_given_until_the_arbiter_rules(
    book: RulesetBook, engine_only: Services,
) -> None:
    fen = "8/5k2/8/3r4/8/8/1PR2PP1/5K2 b - - 0 60"  # Black a rook down in pawns: White wins by normal means
    ruling = claim(book, "fide-standard-guidelines-iii", "black", engine_only, fen=fen,
                   clock={"white": "0:12:00", "black": "0:01:35"}, time_control="5400")
    assert ruling.verdict is Verdict.DEFERRED and ruling.adjustments == ()
    assert ruling.evidence["recommendation"]["adjustments"][0]["seconds"] == 120


@pytest.mark.engine
def test_a_middlegame_is_unclear_even_when_level(book: RulesetBook, engine_only: Services) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", engine_only,
                   fen="r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
                   clock={"white": 100, "black": 900})
    assert ruling.evidence["finding"] == "unclear" and ruling.verdict is Verdict.DEFERRED
    assert ruling.adjustments[0].seconds == -50


def test_the_bare_kings_opponent_cannot_win_so_the_claim_is_clear(book: RulesetBook) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", fen="8/8/3k4/8/8/8/3KQ3/8 w - - 0 70",
                   clock={"white": 100, "black": 900})
    assert ruling.result == "1/2-1/2" and ruling.confidence == 1.0


# ---------------------------------------------------------------- Sabah clear-draw appeal


def test_p38_sabah_rejected_appeal_costs_five_minutes(book: RulesetBook) -> None:
    ruling = claim(book, "sabah-active30", "white", td_finding="incorrect",
                   clock={"white": "0:08:00", "black": "0:10:00"})
    assert ruling.verdict is Verdict.REJECTED and ruling.result is None
    assert ruling.adjustments == (Adjustment("white", -300, "rejected clear-draw appeal"),)
    assert "0:03:00" in ruling.reasons[-1]
    # what the arbiter does now says the clock change, as the illegal-move ruling does (walk-through)
    assert ruling.instructions == ("take 5:00 off White's clock (0:08:00 becomes 0:03:00)", "Play continues.")


def test_sabah_penalty_never_leaves_less_than_two_minutes(book: RulesetBook) -> None:
    ruling = claim(book, "sabah-active30", "white", td_finding="incorrect", clock={"white": "0:03:30", "black": 600})
    assert [a.seconds for a in ruling.adjustments] == [-90]
    assert ruling.instructions[0] == "take 1:30 off White's clock (0:03:30 becomes 0:02:00)"
    none_left = claim(book, "sabah-active30", "white", td_finding="incorrect", clock={"white": 100, "black": 600})
    assert none_left.adjustments == () and none_left.instructions == ("Play continues.",)


def test_sabah_accepted_appeal_is_a_draw(book: RulesetBook) -> None:
    ruling = claim(book, "sabah-active30", "white", td_finding="clear", clock={"white": 100, "black": 600})
    assert ruling.result == "1/2-1/2"


# ---------------------------------------------------------------- input


def test_a_bad_finding_names_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as caught:
        claim(book, "sabah-active30", "white", td_finding="maybe", clock={"white": 100, "black": 600})
    assert caught.value.field == "td_finding"


def test_a_missing_claimant_clock_names_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as caught:
        claim(book, "uschess-variation-14h", "white", td_finding="clear", clock={"black": 600})
    assert caught.value.field == "clock.white"


def test_no_position_and_no_finding_is_deferred(book: RulesetBook) -> None:
    ruling = claim(book, "uschess-variation-14h", "white", clock={"white": 100, "black": 600})
    assert ruling.verdict is Verdict.DEFERRED and ruling.confidence == 0.0


def test_time_controls_are_read_in_both_notations() -> None:
    assert read_time_control("40/5400+30:1800+30").has_increment
    assert not read_time_control("5400").has_delay_or_increment and read_time_control("5400").is_sudden_death
    assert not read_time_control("40/7200:3600").has_delay_or_increment
    assert read_time_control("G/30;d5").has_delay and read_time_control("G/30;d5").is_sudden_death
    assert not read_time_control("G/45;d0").has_delay
    assert not read_time_control("40/120").is_sudden_death
    with pytest.raises(ContractError):
        read_time_control("whenever")


def test_clock_text() -> None:
    assert clock_text(50) == "0:00:50" and clock_text(3725) == "1:02:05"


# ---------------------------------------------------------------- a record ending in an impossible position (7.5.1)


def test_claim_after_an_illegal_last_move_is_judged_on_the_reinstated_position(book: RulesetBook) -> None:
    """1.Ke5?? walks next to the black king; the claim is judged on the bare kings before it."""
    ruling = claim(book, "fide-standard-guidelines-iii", "white", Services(),
                   record='[FEN "8/8/4k3/8/4K3/8/8/8 w - - 0 1"]\n\n1. Ke4-e5', clock={"white": 60, "black": 300})
    assert ruling.result == "1/2-1/2"
    assert "1.Ke4-e5 (ply 1) was illegal" in ruling.reasons[0]


def test_illegal_fen_error_names_fen(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as caught:
        claim(book, "sabah-active30", "white", Services(), fen="4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
              clock={"white": 60, "black": 300})
    assert caught.value.field == "fen"


# ---------------------------------------------------------------- proven beats recommended

QUEEN_WINS = "8/8/8/4k3/8/8/3QK3/8 b - - 0 60"  # Black, the claimant, is lost by force
ROOKS_LEVEL = "8/5k2/8/3r4/8/8/2R5/5K2 b - - 0 60"
BISHOP_ONLY = "8/8/8/4k3/8/8/3BK3/8 b - - 0 60"
MIDDLEGAME = "r1bq1rk1/pp3ppp/2n2n2/2bpp3/4P3/2PP1N2/PP1NBPPP/R2QK2R b KQ - 3 9"


@pytest.fixture(scope="module")
def tables(config: dict[str, Any]) -> Any:
    """The project's Syzygy tables and the helpmate analysis, no engine: only proofs."""
    services = build_services(config, deterministic=True, engine=False)
    assert services.tablebase is not None, "the 3-4 piece Syzygy tables are needed (data/syzygy)"
    yield services
    services.close()


def wdl(fen: str) -> int:
    """python-chess's own Syzygy probe, the oracle: 2 win, 0 draw, -2 loss for the side to move."""
    import chess
    import chess.syzygy

    from tests.conftest import ROOT

    with chess.syzygy.open_tablebase(str(ROOT / "data" / "syzygy")) as tb:
        return tb.probe_wdl(chess.Board(fen))


def test_sabah_an_appeal_the_tablebase_shows_lost_is_rejected_with_the_five_minute_penalty(
    book: RulesetBook, tables: Services
) -> None:
    """Sabah clear-draw appeal: Black is lost by force (the tables prove it), so the appeal is rejected, not
    left to the arbiter, and costs the claimant 5:00 (10:00 becomes 5:00)."""
    assert wdl(QUEEN_WINS) == -2
    ruling = claim(book, "sabah-active30", "black", tables, fen=QUEEN_WINS, clock={"white": 600, "black": 600})
    assert (ruling.verdict, ruling.result) == (Verdict.REJECTED, None)
    assert ruling.adjustments == (Adjustment("black", -300.0, "rejected clear-draw appeal"),)
    assert ruling.evidence["method"] == "tablebase" and ruling.evidence["tablebase"]["outcome"] == "loss"
    assert ruling.confidence == 1.0


def test_sabah_the_rejected_appeal_never_leaves_the_claimant_below_two_minutes(
    book: RulesetBook, tables: Services
) -> None:
    ruling = claim(book, "sabah-active30", "black", tables, fen=QUEEN_WINS, clock={"white": 600, "black": 180})
    assert ruling.verdict is Verdict.REJECTED
    assert [(a.side, a.seconds) for a in ruling.adjustments] == [("black", -60.0)]
    assert ruling.evidence["claimant_new_seconds"] == 120.0


@pytest.mark.parametrize("fen", [ROOKS_LEVEL, BISHOP_ONLY])
def test_sabah_a_tablebase_draw_or_a_dead_position_proves_the_clear_draw(
    book: RulesetBook, tables: Services, fen: str
) -> None:
    import chess

    assert wdl(fen) == 0
    ruling = claim(book, "sabah-active30", "black", tables, fen=fen, clock={"white": 600, "black": 100})
    assert (ruling.verdict, ruling.result, ruling.adjustments) == (Verdict.UPHELD, "1/2-1/2", ())
    if fen == BISHOP_ONLY:  # a dead position: the game was already over (5.2.2), whatever the appeal
        assert chess.Board(fen).is_insufficient_material()
        assert (ruling.evidence["ending"], ruling.evidence["ended_at_ply"]) == ("dead-position", 0)
        assert "FIDE 5.2.2" in ruling.rule_refs


def test_sabah_the_arbiters_finding_overrides_the_proof(book: RulesetBook, tables: Services) -> None:
    """td_finding is the arbiter's ruling: it stands even against the tables."""
    ruling = claim(book, "sabah-active30", "black", tables, fen=QUEEN_WINS, clock={"white": 600, "black": 600},
                   td_finding="clear")
    assert (ruling.verdict, ruling.result) == (Verdict.UPHELD, "1/2-1/2")


def test_sabah_without_a_proof_the_appeal_stays_with_the_arbiter(book: RulesetBook) -> None:
    """No proof and no engine: the rules leave the clear draw to the arbiter's judgement: deferred, no clock change."""
    ruling = claim(book, "sabah-active30", "black", fen=MIDDLEGAME, clock={"white": 600, "black": 600})
    assert ruling.verdict is Verdict.DEFERRED and ruling.adjustments == ()


def test_iii_5_3_a_claim_the_tablebase_shows_lost_is_rejected_and_the_opponent_gets_two_minutes(
    book: RulesetBook, tables: Services
) -> None:
    ruling = claim(book, "fide-standard-guidelines-iii", "black", tables, fen=QUEEN_WINS,
                   clock={"white": 600, "black": 90}, time_control="5400")
    assert ruling.verdict is Verdict.REJECTED and ruling.rule_refs == ("FIDE Guidelines III.5.3",)
    assert [(a.side, a.seconds) for a in ruling.adjustments] == [("white", 120.0)]


def test_iii_5_2_a_postponed_claim_the_tablebase_shows_drawn_is_a_draw_without_a_td_finding(
    book: RulesetBook, tables: Services
) -> None:
    """III.5.2: the arbiter gives a draw if the opponent cannot win by normal means; the tables prove it."""
    assert wdl(ROOKS_LEVEL) == 0
    ruling = claim(book, "fide-standard-guidelines-iii", "black", tables, fen=ROOKS_LEVEL, postponed=True,
                   clock={"white": 600, "black": 0, "flagged": ["black"]}, time_control="5400")
    assert (ruling.verdict, ruling.result) == (Verdict.UPHELD, "1/2-1/2")
    assert ruling.rule_refs == ("FIDE Guidelines III.5.2",)
    with pytest.raises(ContractError):  # no proof of a draw: only the arbiter can decide
        claim(book, "fide-standard-guidelines-iii", "black", tables, fen=QUEEN_WINS, postponed=True,
              clock={"white": 600, "black": 0, "flagged": ["black"]}, time_control="5400")


def test_14h2d_a_claim_the_tablebase_shows_lost_is_denied_with_the_events_deduction(
    book: RulesetBook, tables: Services
) -> None:
    """CalChess (Variation 14H): clearly incorrect, proven by the tables: denied, up to 1:00 deducted."""
    ruling = claim(book, "calchess-scholastic", "black", tables, fen=QUEEN_WINS,
                   clock={"white": 600, "black": 100}, time_control="G/30")
    assert ruling.verdict is Verdict.REJECTED and ruling.rule_refs == ("US Chess Variation 14H2d",)
    assert [(a.side, a.seconds) for a in ruling.adjustments] == [("black", -60.0)]
