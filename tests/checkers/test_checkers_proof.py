"""The proof search: wins, losses and draws proven with the database at the leaves, never a wrong one."""

from __future__ import annotations

import random

from adjudicator.checkers.board import Position
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from engines.checkers.analyst import CheckersAnalyst
from engines.checkers.calibrate import measure, sample_positions
from engines.checkers.database import EndgameDatabase
from engines.checkers.proof import Proof, WinSearch, prove
from engines.checkers.sets import forced_jump_set


def _plays(position: Position, line: tuple[object, ...]) -> Position:
    for move in line:
        assert move in position.legal_moves()
        position = position.push(move)  # type: ignore[arg-type]
    return position


def _ends_in_the_database_or_the_game(position: Position, proof: Proof, database: EndgameDatabase) -> None:
    """The main line is played to where it enters the database, whose value and distance there the proof gives
    (the winner's win, in the plies the proof counts), or to the end of the game."""
    end = _plays(position, proof.line)
    leaf = proof.leaf
    if leaf is None:
        assert not end.legal_moves()
        assert proof.plies == len(proof.line)
        return
    assert leaf.ply == len(proof.line) and leaf.position == end
    probe = database.probe(end)
    assert probe is not None and (probe.value, probe.plies) == (leaf.value, leaf.plies)
    winner_moves = (end.red_to_move == position.red_to_move) == (proof.value == "win")
    assert leaf.value == ("win" if winner_moves else "loss")
    assert proof.plies == len(proof.line) + leaf.plies


def test_every_five_piece_position_that_must_jump_into_the_database_is_proven_draws_included(
    book: RulesetBook, checkers_db: EndgameDatabase
) -> None:
    budget = book.checkers("acf").adjudication.proof_nodes
    known = forced_jump_set(checkers_db, per_value=200, seed=14)
    assert len(known) == 600 and sum(k.value == "draw" for k in known) == 200
    for k in known:
        assert checkers_db.probe(k.position) is None  # five pieces: not in the database
        proof = prove(k.position, checkers_db, budget)
        assert proof.value == k.value, k.position.fen()
        assert proof.line and proof.size >= 1


def test_with_one_piece_more_than_the_database_no_proof_is_ever_wrong(checkers_db: EndgameDatabase) -> None:
    """Four-piece positions searched with only 2-3 pieces at the leaves, judged by the 4-piece database."""
    small = EndgameDatabase.build_in_memory(3)
    positions = sample_positions(checkers_db, 4, 2, seed=7)
    proven: dict[str, int] = {"win": 0, "loss": 0, "draw": 0}
    for position in random.Random(3).sample(positions, 40):
        truth = checkers_db.probe(position)
        assert truth is not None
        proof = prove(position, small, 4_000)
        if proof.value is not None:
            assert proof.value == truth.value, position.fen()
            proven[proof.value] += 1
            if proof.value != "draw":
                _ends_in_the_database_or_the_game(position, proof, small)
    assert proven["win"] and proven["loss"]


def test_king_against_king_is_a_draw_without_any_database_because_going_round_is_not_winning() -> None:
    proof = prove(Position.from_fen("B:WK14:BK1"), None, 100_000)
    assert proof.value == "draw" and proof.size > 100
    assert proof.settled  # how it was settled is reported


def test_the_proof_number_search_alone_proves_a_side_cannot_win_through_repetitions() -> None:
    search = WinSearch(None, attacker=False)
    assert search.solve(Position.from_fen("B:WK14:BK1"), 10_000) is False


def test_two_kings_beat_one_without_the_database_and_the_line_ends_the_game(checkers_db: EndgameDatabase) -> None:
    position = Position.from_fen("B:WK14:BK1,K32")
    proof = prove(position, None, 100_000)
    assert proof.value == "win" == checkers_db.probe(position).value  # type: ignore[union-attr]
    assert not _plays(position, proof.line).legal_moves() and proof.leaf is None


def test_a_budget_that_runs_out_proves_nothing_and_says_so(checkers_db: EndgameDatabase) -> None:
    proof = prove(Position.from_fen("B:W21-32:B1-12"), checkers_db, 2_000)
    assert proof.value is None and proof.reason == "budget"


def test_a_proven_draw_beyond_the_database_is_adjudicated_a_draw_with_the_proof(
    book: RulesetBook, checkers_db: EndgameDatabase
) -> None:
    draw = next(k for k in forced_jump_set(checkers_db, per_value=5, seed=2) if k.value == "draw")
    services = Services(checkers=CheckersAnalyst(None, database=checkers_db))
    case = parse_case({"game": "checkers", "ruleset": "acf", "claim": "unfinished-game", "fen": draw.position.fen()})
    ruling = rule(case, book, services)
    assert ruling.verdict == "adjudicated" and ruling.result == "1/2-1/2" and ruling.confidence == 1.0
    assert ruling.evidence["method"] == "proof" and ruling.evidence["proof_size"] >= 1
    assert "neither side can force a win" in ruling.reasons[0]


def test_a_deferred_position_gives_the_best_line_and_why_nothing_was_proven(
    book: RulesetBook, checkers_db: EndgameDatabase
) -> None:
    services = Services(checkers=CheckersAnalyst(None, max_nodes=2_000, database=checkers_db, proof_nodes=3_000))
    case = parse_case({"game": "checkers", "ruleset": "acf", "claim": "unfinished-game",
                       "record": "1. 11-15 23-19 2. 8-11 22-17"})
    ruling = rule(case, book, services)
    assert ruling.verdict == "deferred" and ruling.result is None
    assert ruling.evidence["unproven_reason"] == "budget" and ruling.evidence["line"]
    assert any("budget ran out" in r for r in ruling.reasons)
    assert any(r.startswith("Best line found: 1. ") for r in ruling.reasons)


def test_the_evaluation_is_never_confidently_wrong_on_database_positions(checkers_db: EndgameDatabase) -> None:
    """Fresh positions (another seed than the calibration run): the chance reported never exceeds how often
    the favoured side really won, and never reaches 0.8 (only a proof is a confident call)."""
    small = EndgameDatabase.build_in_memory(3)
    bands = measure(checkers_db, small, sample_positions(checkers_db, 4, 8, seed=2024), nodes=1_000)
    judged = 0
    for band in bands.values():
        for confidence in band.confidences:
            judged += 1
            assert confidence < 0.8
        if band.total >= 20:
            assert max(band.confidences) <= band.wins / band.total + 0.05
    assert judged > 50


def test_a_proven_ruling_gives_the_line_to_the_database_and_the_database_distance_there(
    book: RulesetBook, checkers_db: EndgameDatabase
) -> None:
    """The committee's evidence: the main line to where it enters the database, the value and distance there;
    a re-run gives the same line; the ruling page and the committee page mark that move."""
    from web.evidence import checkers_line

    win = next(k for k in forced_jump_set(checkers_db, per_value=5, seed=4) if k.value == "win")
    services = Services(checkers=CheckersAnalyst(None, database=checkers_db))
    case = parse_case({"game": "checkers", "ruleset": "acf", "claim": "unfinished-game", "fen": win.position.fen()})
    ruling = rule(case, book, services)
    again = rule(case, book, Services(checkers=CheckersAnalyst(None, database=checkers_db)))
    assert ruling.verdict == "adjudicated" and ruling.evidence["method"] == "proof"
    assert again.evidence["line"] == ruling.evidence["line"]  # deterministic: the same line on a re-run
    leaf = ruling.evidence["database_leaf"]
    end = win.position
    for move in ruling.evidence["line"][: leaf["ply"]]:
        end = end.push(next(m for m in end.legal_moves() if str(m) == move))
    probe = checkers_db.probe(end)
    assert leaf["ply"] >= 1 and leaf["fen"] == end.fen()
    assert probe is not None and (leaf["value"], leaf["plies"]) == (probe.value, probe.plies)
    assert ruling.evidence["plies_to_end"] == leaf["ply"] + leaf["plies"]
    assert any(r.startswith(f"The line reaches the endgame database after {leaf['ply']} plies") and
               f"{leaf['plies']} plies with best play" in r for r in ruling.reasons)
    shown = checkers_line(ruling.evidence, None)
    assert shown is not None and shown.title == "Main line of the proof"
    marked = [s for s in shown.steps if s.is_marked]
    assert [s.ply for s in marked] == [leaf["ply"]] and marked[0].fen == end.fen()
    assert marked[0].note == shown.note and f"in {leaf['plies']} plies" in marked[0].note


def test_king_endings_one_piece_beyond_the_database_are_never_proven_wrong(checkers_db5: EndgameDatabase) -> None:
    """Five kings searched with only 4 pieces at the leaves (kings go round: the disproofs that lean on
    repetitions, kept with the positions they lean on, are used again), judged by the 5-piece database.
    36 positions: wins, losses and a draw proven, and five searches that run to the budget."""
    four = EndgameDatabase(checkers_db5.solved, 4)
    rng = random.Random(14)
    proven = {"win": 0, "loss": 0, "draw": 0}
    from engines.checkers.sets import random_position

    for i in range(36):
        signature = [(0, 3, 0, 2), (0, 2, 0, 3), (0, 4, 0, 1), (0, 1, 0, 4)][i % 4]
        position = random_position(rng, signature, rng.random() < 0.5)
        truth = checkers_db5.probe(position)
        assert truth is not None
        proof = prove(position, four, 20_000)
        if proof.value is not None:
            assert proof.value == truth.value, position.fen()
            proven[proof.value] += 1
            if proof.value != "draw":
                _ends_in_the_database_or_the_game(position, proof, four)
    assert proven["win"] and proven["loss"] and proven["draw"]
