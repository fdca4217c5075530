"""A ruling's evidence, typed (adjudicator.evidence, issue 38 item 3): the contract's ``evidence`` object is
exactly what the claim module wrote, and what a page draws (the repeated positions, where the game ended,
the record's language) is read once, from a new ruling or from a ruling's JSON stored before the types
existed; the ruling page draws the game from it."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.evidence import Evidence, Finding, GameEnd, MissingMove
from adjudicator.requirements import checked_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling, Verdict
from web.evidence import present

SHUFFLE = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
SHUFFLE_5 = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(4))
STORED_FIVEFOLD: dict[str, Any] = {
    "claim": "fifty-move", "verdict": "upheld", "result": "1/2-1/2", "adjustments": [], "instructions": [],
    "rule_refs": ["FIDE 9.6.1"], "reasons": ["The same position appeared for the fifth time."], "confidence": 1.0,
    "evidence": {"counter": 16, "ended_at_ply": 16, "ending": "fivefold",
                 "game_end": {"kind": "fivefold", "ply": 16, "occurrences": [0, 4, 8, 12, 16]},
                 "occurrences": [0, 4, 8, 12, 16]},
}
"""A ruling as a database kept it before the evidence was typed (the shape ``rule --jsonl`` prints)."""


def test_the_rulings_json_evidence_is_what_the_claim_module_wrote(book: RulesetBook) -> None:
    case = {"ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white", "record": SHUFFLE}
    ruling = rule(checked_case(case, book), book)
    written = json.dumps(dict(ruling.evidence.items()))
    assert json.dumps(ruling.to_json()["evidence"]) == written
    assert isinstance(ruling.shown, Evidence) and ruling.shown.marked_plies == {0, 4, 8}
    assert ruling.verdict is Verdict.UPHELD


def test_evidence_given_as_a_mapping_reads_the_same_as_from_its_json() -> None:
    ruling = Ruling("fifty-move", Verdict.UPHELD, "1/2-1/2", (), (), evidence=STORED_FIVEFOLD["evidence"])
    assert ruling.shown == Evidence.read(json.loads(json.dumps(STORED_FIVEFOLD))["evidence"])
    assert ruling.to_json()["evidence"] == STORED_FIVEFOLD["evidence"]


def test_a_stored_ruling_reads_typed(book: RulesetBook) -> None:
    evidence = Evidence.read(STORED_FIVEFOLD["evidence"])
    assert evidence.ended_at_ply == 16 and evidence.marked_plies == {0, 4, 8, 12, 16}
    assert evidence.game_end == GameEnd(16, "fivefold")
    assert Evidence.read(None) == {} and Evidence.read("not an object").marked_plies == frozenset()


def test_the_page_draws_a_stored_ruling_on_the_game_it_rules(book: RulesetBook) -> None:
    shown = present({"game": "chess", "claim": "fifty-move", "ruleset": "fide-standard", "record": SHUFFLE_5},
                    STORED_FIVEFOLD)
    game = shown.lines["game"]
    assert game.focus == 16, "the board opens where the game ended"
    assert [s.ply for s in game.steps if s.is_marked] == [4, 8, 12, 16]
    assert shown.game_over is not None and shown.game_over.ending == "the fifth occurrence of a position"
    assert shown.game_over.where == "after 8... Ng8 (ply 16)"


def test_engine_lines_in_the_evidence_are_drawn_with_their_search() -> None:
    evidence = {"fen": "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
                "engine": [{"engine": "Stockfish 15.1", "mate": 1, "depth": 3, "pv": ["a1a8"]}]}
    shown = present({"game": "chess", "claim": "unfinished-game", "fen": evidence["fen"]}, {"evidence": evidence})
    line = shown.lines["engine-0"]
    assert line.title == "Stockfish 15.1 line: mate in 1 for White (depth 3)"
    assert [s.label for s in line.steps] == ["1. Ra8#"]


def test_the_apps_recommended_finding_reads_typed() -> None:
    recommended = Evidence.read({"finding": "clear", "finding_by": "app",
                                 "recommendation": {"verdict": "upheld", "result": "1/2-1/2"}}).finding
    assert recommended == Finding("clear", "app", "draw", ("upheld", "1/2-1/2"))
    asked = Evidence.read({"finding": "unclear", "finding_by": "td", "request": "increment"}).finding
    assert (asked.by, asked.request, asked.recommended) == ("td", "increment", None)


def _evidence(book: RulesetBook, **case: Any) -> Evidence:
    return rule(checked_case({"ruleset": "fide-standard", "claimant": "white", **case}, book), book).shown


def test_an_illegal_move_names_its_ply_and_who_reported_it(book: RulesetBook) -> None:
    """FIDE 7.5.1: the position before the illegal ply is reinstated; White reports White's own 3.Nc3."""
    evidence = _evidence(book, claim="illegal-move", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")
    assert evidence.ply == 5 and evidence.is_illegal_listed and evidence.is_reported_by_offender
    claimed = _evidence(book, claimant="black", claim="illegal-move", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")
    assert claimed.ply == 5 and not claimed.is_reported_by_offender


def test_an_improper_checkers_move_keeps_the_position_before_it(book: RulesetBook) -> None:
    """ACF Standard Laws, improper moves: a missed jump is corrected from the position before it."""
    case = {"game": "checkers", "ruleset": "acf", "claim": "illegal-move", "claimant": "red",
            "record": '[FEN "W:W23,30:B18,1"]\n30-26'}
    evidence = rule(checked_case(case, book), book).shown
    assert evidence.ply == 1 and evidence.is_illegal_listed
    assert evidence.fen_before is not None and evidence.fen_before.startswith("W:W23,30:B")


def test_a_move_the_numbers_say_is_not_written_is_named(book: RulesetBook) -> None:
    """FIDE 8.1.1: the move numbers skip Black's move 2, so the ruling waits for the scoresheets."""
    evidence = _evidence(book, claim="illegal-move", record="1. Nf3 Nf6 2. Nc3 3. e3 d6")
    assert evidence.missing_moves == (MissingMove(ply=4, side="black", number=2),)
    assert _evidence(book, claim="illegal-move", record="1. e4 e5 2. f4 Qh4+ 3. Nc3").missing_moves == ()


def test_the_last_capture_is_listed_by_its_ply(book: RulesetBook) -> None:
    """FIDE 9.3: the count runs from the last capture (3...Qxd5 here, ply 4)."""
    evidence = _evidence(book, claim="fifty-move", record="1. e4 d5 2. exd5 Qxd5 3. Nf3 Nf6")
    assert evidence.is_last_reset_listed and evidence.ply is None and not evidence.is_illegal_listed


STORED_ANALYSIS: dict[str, Any] = {
    "fen": "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "favours": "white", "settled": "win", "score_cp": 812,
    "pv": ["a1a8"], "engine": "Stockfish 15.1", "depth": 18, "hash_mb": 64, "threads": 1, "nodes": 120000,
    "elapsed": 0.41,
}
"""An unfinished game's analysis as a committee stores it (the engine's identity, its settings and timing)."""


def test_an_analysis_reads_as_what_it_found_apart_from_how_it_ran() -> None:
    """The appeals committee compares what was found, the score within its tolerance, and lists how the
    analysis was run apart (issue 35)."""
    evidence = Evidence.read(STORED_ANALYSIS)
    assert evidence.score == 812.0
    assert dict(evidence.proven_facts) == {"fen": STORED_ANALYSIS["fen"], "favours": "white", "settled": "win"}
    assert dict(evidence.run_settings) == {"engine": "Stockfish 15.1", "depth": 18, "hash_mb": 64, "threads": 1,
                                           "nodes": 120000}
    assert list(evidence.engine_identity) == ["engine", "nodes", "depth"]


def test_a_score_is_the_first_number_and_never_a_flag() -> None:
    assert Evidence.read({"score": True, "cp": -35}).score == -35.0
    assert Evidence.read({"score": "n/a"}).score is None and Evidence.read({}).score is None
