"""The move generator against published perft figures and the 141-position test set."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from adjudicator.checkers.board import (
    RED_KING_ROW,
    START,
    WHITE_KING_ROW,
    FenError,
    Move,
    Position,
    perft,
    perft_by_layers,
)


def _data(test_data: Path, name: str) -> dict[str, object]:
    with (test_data / "checkers" / name).open() as handle:
        data: dict[str, object] = json.load(handle)
    return data


@pytest.fixture(scope="module")
def perft_table(test_data: Path) -> dict[str, int]:
    table = _data(test_data, "perft_start.json")["perft"]
    assert isinstance(table, dict)
    return table


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_from_the_start_matches_the_published_counts(depth: int, perft_table: dict[str, int]) -> None:
    assert perft(START, depth) == perft_table[str(depth)]


@pytest.mark.slow
def test_perft_8_path_by_path(perft_table: dict[str, int]) -> None:
    assert perft(START, 8) == perft_table["8"]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [6, 9, 10])
def test_deep_perft_matches_the_published_counts(depth: int, perft_table: dict[str, int]) -> None:
    """Layer by layer with transpositions merged: the same path counts, reachable to depth 10 in seconds."""
    assert perft_by_layers(START, depth) == perft_table[str(depth)]


def test_every_position_of_the_test_set_has_exactly_the_listed_moves(test_data: Path) -> None:
    positions = _data(test_data, "movegen_testset.json")["positions"]
    assert isinstance(positions, list) and len(positions) == 141
    for entry in positions:
        position = Position.from_fen(entry["fen"])
        assert sorted(str(m) for m in position.legal_moves()) == sorted(entry["moves"]), entry["fen"]
        assert position.count_moves() == entry["n_moves"], entry["fen"]
        assert perft(position, 2) == entry["perft2"], entry["fen"]
        assert perft(position, 3) == entry["perft3"], entry["fen"]


def test_fen_round_trips_and_reads_ranges() -> None:
    assert Position.from_fen("B:W21-32:B1-12") == START
    assert Position.from_fen(START.fen()) == START
    kings = Position.from_fen("W:WK14,K23:BK32,5.")
    assert kings.fen() == "W:WK14,K23:B5,K32"
    assert not kings.red_to_move


@pytest.mark.parametrize(("fen", "side"), [("B:W18-32:B1-15", "Red has 15"), ("W:W9-21:B1-3", "White has 13"),
                                           ("B:W1-12,K21,K22,K23:B30", "White has 15")])
def test_a_side_has_at_most_twelve_pieces(fen: str, side: str) -> None:
    with pytest.raises(FenError, match=f"{side} pieces; a side has at most 12"):
        Position.from_fen(fen)


def test_twelve_a_side_kings_included_is_a_position() -> None:
    assert Position.from_fen("B:W21-32:BK1-12").piece_count == 24


def test_a_huge_square_range_is_refused_without_listing_it() -> None:
    with pytest.raises(FenError, match="square 33"):
        Position.from_fen("B:W1-" + "9" * 40 + ":B5")


def test_a_jump_is_compulsory_and_a_man_crowned_mid_jump_stops() -> None:
    position = Position.from_fen("B:W26,27:B22")
    assert [str(m) for m in position.legal_moves()] == ["22x31"]
    after = position.push(position.legal_moves()[0])
    assert after.piece_at(31) == "R"
    assert after.piece_at(27) == "w" and after.piece_at(26) is None


def test_men_move_forward_only_and_kings_both_ways() -> None:
    man = Position.from_fen("B:W32:B14")
    king = Position.from_fen("B:W32:BK14")
    assert sorted(str(m) for m in man.legal_moves()) == ["14-17", "14-18"]
    assert sorted(str(m) for m in king.legal_moves()) == ["14-10", "14-17", "14-18", "14-9"]
    assert Move((14, 18)) in man.legal_moves()


def test_legal_moves_agree_with_pydraughts_along_random_games_crowning_jumps_included() -> None:
    """An independent generator (pydraughts, English variant) finds the same moves in every position reached,
    among them jumps that crown a man and end there although a king could jump on."""
    draughts = pytest.importorskip("draughts")
    rng = random.Random(2008)
    crowning_jumps = 0
    # 22x31 crowns; the new king could jump on over 27 to 24, but the move ends on crowning
    starts = [Position.from_fen("B:W26,27,32:B22"), *[START] * 12]
    for start in starts:
        position = start
        for _ in range(150):
            legal = position.legal_moves()
            if not legal:
                break
            board = draughts.Board(variant="english", fen=position.fen())
            theirs = {"x".join(map(str, m.steps_move)) if m.captures else m.pdn_move for m in board.legal_moves()}
            assert {str(m) for m in legal} == theirs, position.fen()
            crown = RED_KING_ROW if position.red_to_move else WHITE_KING_ROW
            crowning_jumps += sum(
                m.is_capture and position.is_man_move(m) and bool(crown >> (m.to_square - 1) & 1) for m in legal
            )
            position = position.push(rng.choice(legal))
    assert crowning_jumps > 0
