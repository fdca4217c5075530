"""Unfinished games: rules first, then tablebases, then the engine; engine events; ICCF claims.

Cases P16, P49, P50 and P51 of shared/rules/cases.md, and the committee's recommendation.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling, Verdict
from adjudicator.services import Services
from engines import build_services

pytestmark = pytest.mark.engine


class UserCancelled(Exception):
    """What a caller's progress callback raises to cancel (the web job raises its own)."""


@pytest.fixture(scope="module")
def tb_config(config: dict[str, Any], tablebase_dirs: tuple[Path, Path]) -> dict[str, Any]:
    syzygy, gaviota = tablebase_dirs
    return {**config, "tablebases": {"syzygy": [str(syzygy)], "gaviota": [str(gaviota)]}}


@pytest.fixture(scope="module")
def engine_only(config: dict[str, Any]) -> Any:
    services = build_services(config, deterministic=True, tablebases=False)
    yield services
    services.close()


@pytest.fixture(scope="module")
def with_tables(tb_config: dict[str, Any]) -> Any:
    services = build_services(tb_config, deterministic=True)
    yield services
    services.close()


def adjudicate(book: RulesetBook, services: Services, fen: str, ruleset: str = "fide-standard", **extra: Any) -> Ruling:
    ruling = rule(parse_case({"ruleset": ruleset, "claim": "unfinished-game", "fen": fen, **extra}), book, services)
    json.dumps(ruling.to_json())  # the contract's JSON, whatever the evidence
    return ruling


def edited(config: dict[str, Any], ruleset: str, **adjudication: Any) -> RulesetBook:
    changed = copy.deepcopy(config)
    changed["rulesets"][ruleset].setdefault("adjudication", {}).update(adjudication)
    return RulesetBook.from_config(changed)


# ---------------------------------------------------------------- rules first


def test_a_checkmated_king_loses_without_any_analysis(book: RulesetBook) -> None:
    ruling = adjudicate(book, Services(), "R6k/8/6K1/8/8/8/8/8 b - - 0 60")
    assert ruling.verdict is Verdict.ADJUDICATED and ruling.result == "1-0" and ruling.confidence == 1.0
    assert "FIDE 5.1.1" in ruling.rule_refs


def test_the_position_comes_from_the_record(book: RulesetBook) -> None:
    case = parse_case({"ruleset": "fide-standard", "claim": "unfinished-game",
                       "record": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"})
    ruling = rule(case, book, Services())
    assert ruling.result == "1-0" and ruling.reasons == ("Black is checkmated.",)


def test_stalemate_is_a_draw(book: RulesetBook) -> None:
    ruling = adjudicate(book, Services(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 60")
    assert ruling.result == "1/2-1/2" and "FIDE 5.2.1" in ruling.rule_refs


def test_75_moves_without_capture_or_pawn_move_is_a_draw_whatever_the_material(book: RulesetBook) -> None:
    ruling = adjudicate(book, Services(), "8/5k2/8/8/8/8/5K2/7R w - - 150 131")
    assert ruling.result == "1/2-1/2" and ruling.rule_refs[0] == "FIDE 9.6.2" and ruling.confidence == 1.0


def test_p16_same_coloured_bishops_are_a_dead_position(book: RulesetBook) -> None:
    ruling = adjudicate(book, Services(), "8/2b5/8/3k4/8/8/3K4/6B1 w - - 0 1")
    assert ruling.result == "1/2-1/2" and ruling.confidence == 1.0 and "FIDE 5.2.2" in ruling.rule_refs


def test_two_same_coloured_bishops_are_a_draw_though_the_engine_likes_them(
    book: RulesetBook, engine_only: Services
) -> None:
    ruling = adjudicate(book, engine_only, "8/8/8/8/4k3/8/1B1B4/K7 w - - 0 50")
    assert ruling.result == "1/2-1/2" and ruling.evidence["method"] == "dead-position"
    assert ruling.evidence["engine"] == []  # the rules settled it; the engine was not asked


def test_a_position_that_cannot_arise_is_a_clear_error_naming_the_field(book: RulesetBook) -> None:
    from adjudicator.contract import ContractError

    with pytest.raises(ContractError) as caught:
        adjudicate(book, Services(), "8/8/8/8/3k4/8/1B1B4/K7 w - - 0 50")  # Black is in check, White to move
    assert caught.value.field == "fen" and "check" in caught.value.message


def test_an_unreadable_time_control_is_refused_on_entry_but_a_stored_case_is_still_ruled(book: RulesetBook) -> None:
    # one reader for every claim (flag, ILC, illegal move): new input with "40/90+30/30+30" is refused naming the
    # field; a case stored before that check (the committee's referral and appeals read it again) still rules
    from adjudicator.requirements import CaseRefused, checked_case

    stored = {"ruleset": "fide-standard", "claim": "unfinished-game", "fen": "R6k/8/6K1/8/8/8/8/8 b - - 0 60",
              "time_control": "40/90+30/30+30"}
    with pytest.raises(CaseRefused) as refused:
        checked_case(stored, book)
    assert refused.value.code == "invalid_time_control" and refused.value.field == "time_control"
    assert adjudicate(book, Services(), stored["fen"], time_control=stored["time_control"]).result == "1-0"


# ---------------------------------------------------------------- tablebases


def test_a_position_in_the_tables_is_proven(book: RulesetBook, with_tables: Services) -> None:
    ruling = adjudicate(book, with_tables, "4n3/8/8/8/1K4Q1/8/3k4/8 b - - 0 50")
    assert ruling.result == "1-0" and ruling.confidence == 1.0
    assert ruling.evidence["method"] == "tablebase" and ruling.evidence["tablebase"]["outcome"] == "loss"


def test_a_win_the_50_move_count_cuts_off_is_adjudicated_a_draw_and_said_so(
    book: RulesetBook, with_tables: Services
) -> None:
    ruling = adjudicate(book, with_tables, "8/8/8/4k3/8/8/8/KQ6 w - - 98 120")
    assert ruling.result == "1/2-1/2" and ruling.confidence == 1.0
    assert any("50-move rule" in reason for reason in ruling.reasons)


# ---------------------------------------------------------------- the engine


def test_the_engine_recommends_a_win_with_its_line_and_thresholds(book: RulesetBook, engine_only: Services) -> None:
    ruling = adjudicate(book, engine_only, "8/8/8/4k3/8/8/1R6/K7 w - - 0 50")
    assert ruling.verdict is Verdict.ADJUDICATED and ruling.result == "1-0"
    assert 0.5 < ruling.confidence < 1.0
    engine = ruling.evidence["engine"][-1]
    assert engine["engine"].startswith("Stockfish") and engine["nodes"] >= 100_000 and engine["pv"]
    assert ruling.evidence["thresholds"]["win_score_cp"] == 200
    assert any("committee" in line for line in ruling.instructions)


def test_the_engine_recommends_a_draw_in_a_level_rook_ending(book: RulesetBook, engine_only: Services) -> None:
    ruling = adjudicate(book, engine_only, "8/5k2/8/3r4/8/8/2R5/5K2 b - - 0 60")
    assert ruling.result == "1/2-1/2" and ruling.confidence < 1.0


def test_a_position_the_engine_cannot_settle_is_unclear_not_rounded(
    config: dict[str, Any], engine_only: Services
) -> None:
    # a knight up with pawns still on the board: not a draw, and not (for these strict thresholds) a win
    strict = edited(config, "fide-standard", win_score_cp=5000, draw_score_cp=20, nodes=20_000, max_nodes=20_000)
    ruling = adjudicate(strict, engine_only, "4k3/pp3ppp/8/8/8/2N5/PP3PPP/4K3 w - - 0 30")
    assert ruling.verdict is Verdict.ADJUDICATED and ruling.result is None
    assert ruling.confidence < 0.5
    assert any("cannot settle" in reason for reason in ruling.reasons)


def test_a_score_in_the_margin_is_searched_again_with_more_nodes(
    config: dict[str, Any], engine_only: Services
) -> None:
    wide = edited(config, "fide-standard", draw_score_cp=0, win_score_cp=10_000, escalate_below_cp=10_000,
                  nodes=10_000, max_nodes=100_000)
    ruling = adjudicate(wide, engine_only, "4k3/pp3ppp/8/8/8/2N5/PP3PPP/4K3 w - - 0 30")
    assert [e["limits"]["nodes"] for e in ruling.evidence["engine"]] == [10_000, 100_000]


def test_engines_closed_during_a_deeper_search_give_no_ruling_from_the_shallower_one(config: dict[str, Any]) -> None:
    """A server stopping while the engine searches again with more nodes: the ruling is not given from the first,
    shallower search as if it were the rule's (it could not be re-run to the same result); the claim ends
    saying the engines were closed. An engine that merely fails keeps the earlier search (issue 11)."""
    import threading

    from adjudicator.services import ServicesClosed

    deep = edited(config, "fide-standard", draw_score_cp=0, win_score_cp=10_000, escalate_below_cp=10_000,
                  nodes=10_000, max_nodes=100_000_000)
    closing: list[threading.Thread] = []

    def close_once_the_deeper_search_runs(done: float, message: str) -> None:
        if "of 100,000 nodes" in message and not closing:  # the second stage: the first one is done
            closing.append(threading.Thread(target=services.close))
            closing[0].start()

    services = build_services(config, deterministic=True, tablebases=False, progress=close_once_the_deeper_search_runs)
    try:
        with pytest.raises(ServicesClosed):
            adjudicate(deep, services, "4k3/pp3ppp/8/8/8/2N5/PP3PPP/4K3 w - - 0 30")
    finally:
        services.close()
        for thread in closing:
            thread.join()
    assert closing, "the deeper search ran"


def test_cancel_before_the_engine_starts(book: RulesetBook, config: dict[str, Any]) -> None:
    def cancel_at_once(done: float, message: str) -> None:
        raise UserCancelled("cancelled by the user")

    services = build_services(config, tablebases=False, progress=cancel_at_once)
    try:
        with pytest.raises(UserCancelled):
            adjudicate(book, services, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9")
    finally:
        services.close()


def test_progress_is_reported_and_cancel_stops_the_adjudication(
    book: RulesetBook, config: dict[str, Any]
) -> None:
    seen: list[float] = []

    def cancel_in_the_engine(done: float, message: str) -> None:
        seen.append(done)
        if message.startswith("engine"):
            raise UserCancelled("cancelled by the user")

    services = build_services(config, tablebases=False, progress=cancel_in_the_engine)
    try:
        with pytest.raises(UserCancelled):
            adjudicate(book, services, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9")
    finally:
        services.close()
    assert seen[0] == 0.0 and len(seen) >= 2  # the rules phase, then the engine's first report


# ---------------------------------------------------------------- engine events (P49, P50)


def test_p49_cutechess_resign_adjudication(config: dict[str, Any]) -> None:
    event = edited(config, "engine-event", resign_movecount=5, resign_score_cp=800)
    scores = {"black": [-850, -900, -920, -1000, -1100], "white": [700, 760, 900, 950, 1000]}
    ruling = adjudicate(event, Services(), "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 40", "engine-event",
                        engine_scores=scores)
    assert ruling.result == "1-0" and "cutechess-cli(6) -resign" in ruling.rule_refs


def test_p49_two_sided_resign_needs_the_winners_scores_too(config: dict[str, Any]) -> None:
    event = edited(config, "engine-event", resign_movecount=5, resign_score_cp=800, resign_twosided=True)
    scores = {"black": [-850, -900, -920, -1000, -1100], "white": [700, 760, 900, 950, 1000]}
    ruling = adjudicate(event, Services(), "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 40", "engine-event",
                        engine_scores=scores)
    assert ruling.result is None  # White's engine reported under +800 on two of the five moves
    scores["white"] = [800, 820, 900, 950, 1000]
    ruling = adjudicate(event, Services(), "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 40", "engine-event",
                        engine_scores=scores)
    assert ruling.result == "1-0"


def test_p50_cutechess_move_limit(config: dict[str, Any]) -> None:
    event = edited(config, "engine-event", max_moves=200)
    ruling = adjudicate(event, Services(), "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 201", "engine-event")
    assert ruling.result == "1/2-1/2" and "cutechess-cli(6) -maxmoves" in ruling.rule_refs
    ruling = adjudicate(event, Services(), "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 b - - 0 200", "engine-event")
    assert ruling.result is None  # White has played his 200th move, Black not yet


def test_engine_event_draw_rule_needs_quiet_moves_after_the_move_number(config: dict[str, Any]) -> None:
    event = edited(config, "engine-event")
    quiet = {"white": [5, 0, -3, 2, 0, 1, 4, 0], "black": [0, -5, 3, 0, 2, -1, 0, 0]}
    ruling = adjudicate(event, Services(), "8/5k2/8/3r4/8/8/2R5/5K2 w - - 20 60", "engine-event",
                        engine_scores=quiet)
    assert ruling.result == "1/2-1/2" and "cutechess-cli(6) -draw" in ruling.rule_refs
    early = adjudicate(event, Services(), "8/5k2/8/3r4/8/8/2R5/5K2 w - - 20 30", "engine-event",
                       engine_scores=quiet)
    assert early.result is None


def test_engine_event_bad_scores_name_the_field(book: RulesetBook) -> None:
    from adjudicator.contract import ContractError

    with pytest.raises(ContractError) as caught:
        adjudicate(book, Services(), "8/5k2/8/3r4/8/8/2R5/5K2 w - - 20 60", "engine-event",
                   engine_scores={"white": ["high"]})
    assert caught.value.field == "engine_scores.white"


# ---------------------------------------------------------------- ICCF tablebase claims (P51)


def test_p51_a_claim_after_playing_the_move_must_wait(book: RulesetBook, with_tables: Services) -> None:
    # White played Qb1-b2 on the server and then claimed: it is Black's turn now
    ruling = adjudicate(book, with_tables, "8/8/8/4k3/8/8/1Q6/K7 b - - 1 120", "iccf", claimant="white")
    assert ruling.verdict is Verdict.REJECTED and ruling.result is None
    assert "next turn" in " ".join(ruling.reasons)


def test_p51_a_claim_on_a_proposed_move_not_played_is_checked_in_the_tables(
    book: RulesetBook, with_tables: Services
) -> None:
    ruling = adjudicate(book, with_tables, "8/8/8/4k3/8/8/8/KQ6 w - - 0 120", "iccf", claimant="white",
                        intended_move="Qb2")
    assert ruling.verdict is Verdict.UPHELD and ruling.result == "1-0" and ruling.confidence == 1.0
    draw = adjudicate(book, with_tables, "8/5k2/8/3r4/8/8/2R5/5K2 w - - 0 60", "iccf", claimant="white")
    assert draw.verdict is Verdict.REJECTED and draw.result is None


def test_thresholds_that_contradict_each_other_name_the_key(config: dict[str, Any]) -> None:
    from adjudicator.rulesets import RulesetError

    with pytest.raises(RulesetError) as caught:  # when the rulesets are read, before any adjudication
        edited(config, "fide-standard", draw_score_cp=300, win_score_cp=200)
    assert caught.value.key == "rulesets.fide-standard.adjudication.draw_score_cp"


# ---------------------------------------------------------------- a record ending in an impossible position (7.5.1)


def test_unfinished_game_ending_in_an_illegal_move_is_adjudicated_before_it(book: RulesetBook) -> None:
    """Bare kings, then 1.Ke5?? next to the black king: the committee judges the reinstated position."""
    case = {"ruleset": "fide-standard", "claim": "unfinished-game",
            "record": '[FEN "8/8/4k3/8/4K3/8/8/8 w - - 0 1"]\n\n1. Ke4-e5'}
    ruling = rule(parse_case(case), book, Services())
    assert ruling.verdict == "adjudicated" and ruling.result == "1/2-1/2"
    assert "1.Ke4-e5 (ply 1) was illegal" in ruling.reasons[0]
    assert "FIDE 7.5.1" in ruling.rule_refs and ruling.evidence["reinstated_before_ply"] == 1


def test_unfinished_game_error_names_the_field_the_position_came_from(book: RulesetBook) -> None:
    for name in ("fen", "start_fen"):
        case = {"ruleset": "fide-standard", "claim": "unfinished-game", name: "8/8/8/3kK3/8/8/8/8 w - - 0 1"}
        with pytest.raises(ContractError) as caught:
            rule(parse_case(case), book, Services())
        assert caught.value.field == name


@pytest.mark.parametrize("score", [float("nan"), float("inf")])
def test_engine_event_scores_must_be_finite(book: RulesetBook, score: float) -> None:
    """JSON from the command line may hold NaN or Infinity (Python's json reads them)."""
    case = {"ruleset": "engine-event", "claim": "unfinished-game",
            "fen": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "engine_scores": {"white": [10, score], "black": [5]}}
    with pytest.raises(ContractError) as caught:
        rule(parse_case(case), book, Services())
    assert caught.value.field == "engine_scores.white"
