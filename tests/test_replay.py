"""The replay's facts per ply: repetition keys (FIDE 9.2.3), the move-rule counter, the position."""

from __future__ import annotations

import chess
import pytest

from adjudicator.chess.replay import board_for_case, check_fen, repetition_key, replay_chess
from adjudicator.contract import ContractError, parse_case


def test_counter_walk_captures_pawn_moves_and_promotions_restart_it_castling_does_not() -> None:
    replay = replay_chess("1. Nf3 Nf6 2. g3 Ng8 3. Bg2 Nf6 4. O-O Nd5 5. Nd4 Nb4 6. Nb5 Nxa2 7. Rxa2")
    assert [p.counter for p in replay.plies] == [1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0]
    assert replay.counter == 0


def test_promotion_restarts_the_counter() -> None:
    replay = replay_chess("1. Kd2 Kf8 2. e8=Q+", start_fen="4k3/4P3/8/8/8/8/8/4K3 w - - 40 60")
    assert [p.counter for p in replay.plies] == [41, 42, 0]


def test_en_passant_counts_only_where_the_capture_is_legal() -> None:
    # 1...d5 with a white pawn on e5: exd6 e.p. is legal, so the key has the e.p. square
    legal = replay_chess("1... d5", start_fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    without = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2")
    assert legal.plies[0].key != repetition_key(without)
    # the same double step with the capturing pawn pinned against its king: e.p. is not legal
    pinned = replay_chess("1... d5", start_fen="4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1")
    same_without = chess.Board("4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2")
    assert pinned.plies[0].key == repetition_key(same_without)
    assert pinned.plies[0].fen_after.split()[3] == "-"


def test_castling_rights_are_part_of_the_key() -> None:
    replay = replay_chess("1. Nf3 Nf6 2. Rg1 Ng8 3. Rh1 Nf6 4. Ng1 Ng8")
    assert replay.plies[-1].fen_after.split()[0] == replay.start_fen.split()[0]
    assert replay.keys[-1] != replay.keys[0]


def test_positions_as_played_after_an_illegal_move_and_the_labels() -> None:
    replay = replay_chess("1. e4 e5 2. Ke1-e3 Nc6")
    assert replay.board_after(3).king(chess.WHITE) == chess.E3
    assert replay.label(3) == "2.Ke1-e3" and replay.label(4) == "2...Nc6" and replay.label(0) == "the start"
    assert replay.fen_at(4) == replay.final_board.fen()


def test_fen_cross_check_names_the_differences() -> None:
    replay = replay_chess("1. e4 e5")
    check_fen(replay, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 7 9")  # counters not compared
    with pytest.raises(ContractError) as err:
        check_fen(replay, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2")
    assert err.value.field == "fen" and "the record has White to move" in err.value.message
    with pytest.raises(ContractError) as err:
        check_fen(replay, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w Kkq - 0 2")
    assert "castling rights differ" in err.value.message


def test_board_for_case_prefers_the_record_then_fen_then_start_fen() -> None:
    base = {"ruleset": "fide-standard", "claim": "flag"}
    assert board_for_case(parse_case({**base, "record": "1. e4"})).fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")
    assert board_for_case(parse_case({**base, "fen": "8/8/8/8/8/8/8/K6k w - - 0 1"})).king(chess.WHITE) == chess.A1
    with pytest.raises(ContractError) as err:
        board_for_case(parse_case({**base, "fen": "not a fen"}))
    assert err.value.field == "fen"
    with pytest.raises(ContractError) as err:
        board_for_case(parse_case(base))
    assert err.value.field == "record"


def test_json_lists_repetitions_by_key_with_their_plies() -> None:
    body = replay_chess("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3").to_json()
    assert body["repetitions"] == [
        {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "plies": [0, 4]},
        {"fen": "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", "plies": [1, 5]},
    ]
