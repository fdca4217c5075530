"""The entry board's candidate moves (issue 21): a move that returns to an earlier position of the
record comes first; then the book, the engine and the heuristic, each move once, legal moves only."""

from __future__ import annotations

import chess

from adjudicator.chess.candidates import SHOWN, earlier_keys, heuristic_moves, rank, returning_moves
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
