"""Tablebase probing: Syzygy and Gaviota facts, and the 50-move rule honoured in the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess
import pytest

from adjudicator.chess.analysis import TablebaseEvidence
from engines import build_services
from engines.chess.tablebase import Tablebases


@pytest.fixture(scope="module")
def tables(tablebase_dirs: tuple[Path, Path]) -> Any:
    syzygy, gaviota = tablebase_dirs
    tb = Tablebases([syzygy], [gaviota])
    yield tb
    tb.close()


def test_the_installed_tables_cover_three_and_four_pieces(tables: Tablebases) -> None:
    assert tables.max_pieces == 4


def test_king_and_queen_against_king_is_a_win_for_the_side_with_the_queen(tables: Tablebases) -> None:
    white_to_move = tables.probe(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 120"))
    assert white_to_move is not None
    assert white_to_move.source == "syzygy" and white_to_move.outcome == "win" and white_to_move.dtz == 17
    assert white_to_move.result_for_mover() == 1
    black_to_move = tables.probe(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 120"))
    assert black_to_move is not None and black_to_move.outcome == "loss" and black_to_move.result_for_mover() == -1


def test_a_win_too_slow_for_the_count_already_running_is_a_draw(tables: Tablebases) -> None:
    # 17 plies to the next capture or pawn move, but 98 half-moves are already gone
    late = tables.probe(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 98 120"))
    assert late is not None and late.outcome == "win"
    assert late.result_for_mover(honour_move_rule=True) == 0
    assert late.result_for_mover(honour_move_rule=False) == 1


def test_cursed_wins_and_blessed_losses_are_draws_under_the_50_move_rule() -> None:
    cursed = TablebaseEvidence("syzygy", "fen", 5, "cursed-win", dtz=120)
    blessed = TablebaseEvidence("syzygy", "fen", 5, "blessed-loss", dtz=-120)
    assert cursed.result_for_mover() == 0 and blessed.result_for_mover() == 0
    assert cursed.result_for_mover(honour_move_rule=False) == 1
    assert blessed.result_for_mover(honour_move_rule=False) == -1


def test_a_dead_draw_is_a_draw(tables: Tablebases) -> None:
    found = tables.probe(chess.Board("8/2b5/8/3k4/8/8/3K4/6B1 w - - 0 1"))
    assert found is not None and found.outcome == "draw"


def test_a_gaviota_mate_too_far_for_the_count_is_a_draw_without_pawns(tablebase_dirs: tuple[Path, Path]) -> None:
    gaviota = Tablebases([], [tablebase_dirs[1]])
    try:
        late = gaviota.probe(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 98 120"))
        assert late is not None and late.outcome == "win" and late.result_for_mover() == 0
        early = gaviota.probe(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 60 120"))
        assert early is not None and early.result_for_mover() == 1
    finally:
        gaviota.close()


def test_positions_beyond_the_tables_are_not_probed(tables: Tablebases) -> None:
    assert tables.probe(chess.Board()) is None
    assert tables.probe(chess.Board("8/8/8/4k3/8/8/2PP4/KQ6 w - - 0 1")) is None  # five pieces


def test_gaviota_answers_with_distance_to_mate_when_syzygy_is_absent(tablebase_dirs: tuple[Path, Path]) -> None:
    gaviota = Tablebases([], [tablebase_dirs[1]])
    try:
        found = gaviota.probe(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 120"))
        assert found is not None and found.source == "gaviota"
        assert found.outcome == "win" and found.dtm is not None and found.dtm > 0
        assert gaviota.probe(chess.Board("8/8/8/4k3/8/8/1R6/KQ6 w - - 0 1")) is None  # no 4-piece Gaviota
    finally:
        gaviota.close()


def test_missing_directories_mean_no_tablebase_service(config: dict[str, Any], tmp_path: Path) -> None:
    empty = {**config, "_root": str(tmp_path), "tablebases": {"syzygy": ["nowhere"], "gaviota": []}}
    services = build_services(empty, engine=False)
    assert services.tablebase is None


def test_configured_relative_paths_are_read_from_the_project_root(
    config: dict[str, Any], tablebase_dirs: tuple[Path, Path]
) -> None:
    syzygy = tablebase_dirs[0]
    relative = {**config, "_root": str(syzygy.parent), "tablebases": {"syzygy": [syzygy.name]}}
    services = build_services(relative, engine=False)
    try:
        assert services.tablebase is not None and services.tablebase.max_pieces == 4
    finally:
        services.close()
