"""A ruling's evidence, typed (adjudicator.evidence, issue 38 item 3): the contract's ``evidence`` object is
exactly what the claim module wrote, and what a page draws (the repeated positions, where the game ended,
the record's language) is read once, from a new ruling or from a ruling's JSON stored before the types
existed; the ruling page draws the game from it."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.evidence import Evidence, Finding, GameEnd
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
