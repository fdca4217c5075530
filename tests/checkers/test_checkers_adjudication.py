"""Unfinished-game adjudication in checkers: proven by database, proven by search, or evidence only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.checkers.board import Position
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services
from engines.checkers.analyst import CheckersAnalyst
from engines.checkers.database import EndgameDatabase
from engines.checkers.search import Searcher


def _adjudicate(book: RulesetBook, services: Services, ruleset: str = "acf-master-division", **fields: Any) -> Ruling:
    data = {"game": "checkers", "ruleset": ruleset, "claim": "unfinished-game", **fields}
    return rule(parse_case(data), book, services)


def test_p46_first_position_is_proven_a_white_win_with_the_line_to_verify(
    book: RulesetBook, checkers_db: EndgameDatabase
) -> None:
    services = Services(checkers=CheckersAnalyst(None, database=checkers_db))
    ruling = _adjudicate(book, services, fen="W:W20,K15:B12,K28")
    assert ruling.verdict == "adjudicated" and ruling.result == "0-1"  # White wins; Red's score first
    assert ruling.confidence == 1.0
    assert ruling.evidence["method"] == "database"
    assert "proven by database" in ruling.reasons[0]
    line = ruling.evidence["line"]
    assert ruling.evidence["line_pdn"].startswith("1... ")
    position = Position.from_fen("W:W20,K15:B12,K28")
    for text in line:
        move = next(m for m in position.legal_moves() if str(m) == text)
        position = position.push(move)
    assert not position.legal_moves() and position.red_to_move  # Red cannot move: White has won
    if book["acf-master-division"].committee.vote_rule == "unanimous-for-win":
        assert any("unanimous" in i for i in ruling.instructions)  # Master Division: a win needs 3-0


def test_king_against_king_is_adjudicated_a_draw(book: RulesetBook, checkers_db: EndgameDatabase) -> None:
    services = Services(checkers=CheckersAnalyst(None, database=checkers_db))
    ruling = _adjudicate(book, services, ruleset="acf", fen="B:WK14:BK1")
    assert ruling.verdict == "adjudicated" and ruling.result == "1/2-1/2"


def test_search_with_database_leaves_proves_a_win_beyond_the_database(checkers_db: EndgameDatabase) -> None:
    """Five pieces, outside a 4-piece database: Red's forced 10x17 leaves three kings against one."""
    position = Position.from_fen("B:W14,K32:BK10,K1,K5")
    assert checkers_db.probe(position) is None
    result = Searcher(checkers_db, max_nodes=20_000).search(position)
    assert result.is_proven_win and result.database_hits > 0
    assert str(result.line[0]) == "10x17"


def test_a_search_proof_is_a_ruling_with_the_line(book: RulesetBook, checkers_db: EndgameDatabase) -> None:
    services = Services(checkers=CheckersAnalyst(None, max_nodes=20_000, database=checkers_db))
    ruling = _adjudicate(book, services, fen="B:W14,K32:BK10,K1,K5")
    assert ruling.evidence["method"] == "proof"
    assert ruling.verdict == "adjudicated" and ruling.result == "1-0" and ruling.confidence == 1.0
    assert "proven by search" in ruling.reasons[0]
    assert ruling.evidence["line_pdn"].startswith("1. 10x17")


def test_the_opening_is_evidence_not_a_result(book: RulesetBook, checkers_db: EndgameDatabase) -> None:
    services = Services(checkers=CheckersAnalyst(None, max_nodes=3_000, database=checkers_db))
    ruling = _adjudicate(book, services, record="1. 11-15 23-19 2. 8-11 22-17")
    assert ruling.verdict == "deferred" and ruling.result is None
    assert 0.5 <= ruling.confidence < 1.0
    assert ruling.evidence["nodes"] > 0 and ruling.evidence["engine"]["max_nodes"] == 3_000


def test_p48_a_game_not_started_thirty_minutes_before_the_end_is_drawn(book: RulesetBook) -> None:
    ruling = _adjudicate(book, Services(), game_started=False)
    assert ruling.verdict == "adjudicated" and ruling.result == "1/2-1/2"
    late = _adjudicate(book, Services(), started_minutes_before_end=20, fen="B:W21-32:B1-12")
    assert late.result == "1/2-1/2"
    assert "30 minutes" in late.reasons[0]


def test_p48_the_draw_for_a_late_start_is_never_ruled_past_the_record(book: RulesetBook) -> None:
    """The record given with a late or missing start is read as for any unfinished game: an unreadable token is
    refused with its ply, and "not started" beside a record with moves is a contradiction, refused naming
    game_started (a random seed of the contract's fuzz test drew both: each had been ruled a draw)."""
    with pytest.raises(ContractError) as unreadable:
        _adjudicate(book, Services(), started_minutes_before_end=10, record="1. x *")
    assert unreadable.value.field == "record" and "ply 1" in unreadable.value.message
    with pytest.raises(ContractError) as contradiction:
        _adjudicate(book, Services(), game_started=False, record="1. 11-15 23-19 *")
    assert contradiction.value.field == "game_started" and "2 move(s)" in contradiction.value.message
    late = _adjudicate(book, Services(), started_minutes_before_end=10, record="1. 11-15 23-19 *")
    assert late.verdict == "adjudicated" and late.result == "1/2-1/2", "a readable record: the late start is drawn"
    unplayed = _adjudicate(book, Services(), game_started=False, record="*")
    assert unplayed.result == "1/2-1/2", "a record with no move agrees that the game was not started"


def test_a_side_that_cannot_move_has_lost(book: RulesetBook) -> None:
    ruling = _adjudicate(book, Services(), ruleset="acf", fen="B:W24,27:B20")
    assert ruling.result == "0-1" and ruling.verdict == "adjudicated"


def test_without_analysis_the_committee_is_told_to_analyse(book: RulesetBook) -> None:
    ruling = _adjudicate(book, Services(), fen="B:WK14,K23:BK1,K32,K5")
    assert ruling.verdict == "deferred" and ruling.confidence == 0.0


def test_the_analyst_finds_the_database_in_its_folder(checkers_db_folder: Path) -> None:
    analyst = CheckersAnalyst(checkers_db_folder)
    analysis = analyst.analyse(Position.from_fen("B:WK14:BK1,K32"))
    assert analysis.method == "database" and analysis.value == "win"
    assert analyst.identity()["database"]["pieces"] >= 4
