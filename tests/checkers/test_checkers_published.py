"""Published positions from the checkers literature (engines/checkers/published.py cites each source).

The result each source gives is the expected one; the proof search may leave a position
unproven at a small budget, but never contradicts its source; unproven, the evaluation is
never a confident call against it. ``bench/checkers.py`` runs the set at the default budget.
"""

from __future__ import annotations

from adjudicator.checkers.board import Position
from engines.checkers.analyst import CheckersAnalyst
from engines.checkers.database import EndgameDatabase
from engines.checkers.proof import prove
from engines.checkers.published import PUBLISHED


def test_at_least_twenty_published_positions_with_five_to_ten_pieces_each_with_its_source() -> None:
    assert len(PUBLISHED) >= 20
    for name, fen, result, source in PUBLISHED:
        position = Position.from_fen(fen)
        assert 5 <= position.piece_count <= 10, name
        assert result in ("win", "loss", "draw") and source.startswith("http"), name
        assert position.legal_moves(), name


def test_no_proof_contradicts_the_published_result(checkers_db: EndgameDatabase) -> None:
    proven = 0
    for name, fen, result, _ in PUBLISHED:
        proof = prove(Position.from_fen(fen), checkers_db, 8_000)
        if proof.value is None:
            assert proof.reason in ("budget", "depth"), name
        else:
            assert proof.value == result, name
            proven += 1
    assert proven >= 1  # three kings against two, White to move, is proven at once


def test_an_unproven_published_position_is_deferred_with_a_chance_below_confident(
    checkers_db: EndgameDatabase,
) -> None:
    analyst = CheckersAnalyst(None, max_nodes=3_000, database=checkers_db, proof_nodes=1_000)
    for name, fen, result, _ in PUBLISHED:
        analysis = analyst.analyse(Position.from_fen(fen))
        if analysis.value is None:
            assert analysis.confidence is not None and analysis.confidence < 0.8, name
            assert analysis.unproven_reason == "budget" and analysis.line, name
        else:
            assert analysis.value == result, name
