"""The entry board's candidate moves (issue 21): a move that returns to an earlier position of the
record comes first; then the book, the engine and the heuristic, each move once, legal moves only."""

from __future__ import annotations

import chess

from adjudicator.chess.candidates import (
    SHOWN,
    Candidate,
    earlier_keys,
    heuristic_moves,
    rank,
    recaptures,
    returning_moves,
    row_key,
    row_order,
)
from adjudicator.chess.replay import repetition_key


def keys_of(board: chess.Board) -> list[object]:
    """The repetition keys of every position of a board's game, oldest first (the current one last)."""
    replay = chess.Board()
    found = [repetition_key(replay)]
    for move in board.move_stack:
        replay.push(move)
        found.append(repetition_key(replay))
    return found


def test_a_move_back_to_an_earlier_position_is_the_first_candidate() -> None:
    board = chess.Board()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3"):
        board.push_san(san)
    earlier = keys_of(board)[:-1]
    ranked = rank(board, earlier, engine=[chess.Move.from_uci("e7e5")])
    assert ranked[0].san == "Nf6" and ranked[0].source == "repetition", "back to the position after 1...Nf6"
    assert ranked[1].san == "e5" and ranked[1].source == "engine"


def test_the_position_seen_most_often_comes_first_among_returns() -> None:
    board = chess.Board()
    for san in ("Nc3", "Nc6", "Nb1", "Nb8", "Nc3", "Nc6", "Nb1", "Nb8", "Nc3", "Nf6", "Nb1", "Ng8", "Nc3"):
        board.push_san(san)
    returns = [board.san(m) for m in returning_moves(board, keys_of(board)[:-1])]
    assert returns == ["Nc6", "Nf6"], "after ...Nc6 the position stood twice before, after ...Nf6 once"


def test_a_pawn_move_or_a_capture_never_returns() -> None:
    board = chess.Board()
    board.push_san("e4")
    assert returning_moves(board, [repetition_key(chess.Board())]) == []


def test_each_move_once_legal_moves_only_and_at_most_the_count() -> None:
    board = chess.Board()
    illegal = chess.Move.from_uci("e2e5")
    e4 = chess.Move.from_uci("e2e4")
    ranked = rank(board, [], book=[e4, illegal], engine=[e4, chess.Move.from_uci("d2d4")])
    ucis = [c.move.uci() for c in ranked]
    assert ucis[:2] == ["e2e4", "d2d4"] and "e2e5" not in ucis
    assert len(ucis) == len(set(ucis)) == SHOWN
    assert [c.source for c in ranked[:2]] == ["book", "engine"]


def test_the_heuristic_puts_the_recapture_first() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
    board.push_san("exd4")
    last = board.peek()
    first = heuristic_moves(board, last)[0]
    assert board.san(first) == "Nxd4"


def test_a_position_with_no_moves_has_no_candidates() -> None:
    mate = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert rank(mate, []) == ()


def test_earlier_positions_given_as_fens_skip_what_is_no_position() -> None:
    assert earlier_keys([chess.STARTING_FEN, "not a fen"]) == [repetition_key(chess.Board())]


def test_no_candidate_captures_a_king_left_in_check_by_an_illegal_move() -> None:
    """1. e4 f6 2. Qh5+ and Black, in check, played 2... a6 (illegal, entered for the claim): White may
    'take' the king in python-chess's generator; no candidate offers it, from the book, the engine or the
    heuristic."""
    board = chess.Board("rnbqkbnr/1pppp1pp/p4p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3")
    king_capture = chess.Move.from_uci("h5e8")
    assert king_capture in board.legal_moves, "the generator offers it"
    ranked = rank(board, book=[king_capture], engine=[king_capture])
    assert ranked and all(c.move != king_capture for c in ranked)
    assert all(board.piece_type_at(c.move.to_square) != chess.KING for c in ranked)


def test_the_engine_first_choice_then_the_recapture_then_the_engine_others() -> None:
    """1. e4 d5 2. exd5: Black's recapture Qxd5 comes right after the engine's first choice, even when
    the engine ranks it lower (players recapture more often than a few-node engine says; issue 37)."""
    board = chess.Board()
    for san in ("e4", "d5", "exd5"):
        board.push_san(san)
    engine = [chess.Move.from_uci(u) for u in ("g8f6", "c7c6", "e7e6", "d8d5")]
    ranked = rank(board, engine=engine, last_move=board.peek())
    assert [c.san for c in ranked[:4]] == ["Nf6", "Qxd5", "c6", "e6"]
    assert ranked[1].source == "heuristic" and "Qxd5" not in [c.san for c in ranked[2:]], "offered once"


def test_the_recapture_is_taken_by_the_least_valuable_piece_first() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
    board.push_san("exd4")
    assert [board.san(m) for m in recaptures(board, board.peek())] == ["Nxd4", "Qxd4"]
    assert recaptures(board, None) == []


def test_the_split_row_keeps_the_likeliest_first_then_orders_by_piece_and_square() -> None:
    """The row the entry board shows (issue 37 item 4): place 1 is the ranking's first; the others by
    piece (king and castling, queen, rook, bishop, knight, pawn), then by the square they go to (file,
    then rank), then the square they come from."""
    board = chess.Board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5")
    ranked = [Candidate(m, board.san(m), "engine") for m in map(board.parse_san, (
        "d3", "O-O", "Nxe5", "a3", "Qe2", "Ng5", "Bb5", "Rf1"))]
    assert [c.san for c in row_order(ranked)] == ["d3", "O-O", "Qe2", "Rf1", "Bb5", "Nxe5", "Ng5", "a3"]
    assert row_order(ranked, first=0)[0].san == "O-O"
    assert row_order(()) == ()


def test_a_move_keeps_its_place_among_the_others_whatever_its_rank() -> None:
    """The order after place 1 depends on the moves alone, not on how they were ranked: two rankings of the
    same moves with the same first show the same row."""
    board = chess.Board()
    moves = [board.parse_san(san) for san in ("e4", "d4", "Nf3", "c4", "Nc3", "g3", "b3", "f4")]
    one = [Candidate(m, board.san(m), "book") for m in moves]
    other = [one[0], *reversed(one[1:])]
    assert row_order(one) == row_order(other)
    assert [c.san for c in row_order(one)] == ["e4", "Nc3", "Nf3", "b3", "c4", "d4", "f4", "g3"]


def test_row_keys_read_the_piece_off_the_san() -> None:
    assert row_key("O-O-O", "e8c8")[0] == row_key("Kd2", "e1d2")[0] == 0
    assert row_key("exd5", "e4d5")[0] == row_key("e8=Q", "e7e8q")[0] == 5
    assert row_key("Nbd2", "b1d2") < row_key("Nfd2", "f3d2") < row_key("Nf3", "g1f3")
