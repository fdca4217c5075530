"""No token is read as another move, and every reading beyond plain SAN is shown with its ply (issue 20).

A token is read in its own notation only: where it has no legal reading there it is an
illegal move as played or unreadable, never another piece's move. Whatever the reader
assumes (a capture mark, an en-passant capture written as a push, a lower-case piece
letter, a dash, a null move) is a note with its ply, in the replay JSON and in the
ruling's evidence; where a token has two legal readings, both are named.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest

from adjudicator.chess.movetext import tokens
from adjudicator.chess.replay import Replay, replay_chess
from adjudicator.chess.san import read_move
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook

PERFT = {  # the perft suite's positions with castling, promotions and en passant (chessprogramming.org "Perft Results")
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position 5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
}


def kinds(replay: Replay) -> list[tuple[int, str]]:
    return [(note.ply, note.note.kind) for note in replay.notes]


def ruling(book: RulesetBook, **case: Any) -> Any:
    case.setdefault("game", "chess")
    case.setdefault("ruleset", "fide-standard")
    return rule(parse_case(case), book)


# --- coordinate tokens: the piece on the written square, or nothing -------------------------------

@pytest.mark.parametrize("name", list(PERFT))
@pytest.mark.parametrize("turn", [chess.WHITE, chess.BLACK])
def test_a_coordinate_token_is_the_move_python_chess_reads_or_no_legal_move_at_all(name: str, turn: bool) -> None:
    board = chess.Board(PERFT[name])
    board.turn, board.ep_square = turn, None
    for origin in chess.SquareSet(board.occupied_co[turn]):
        for target in chess.SQUARES:
            if board.color_at(target) == turn and not board.is_castling(chess.Move(origin, target)):
                continue
            token = chess.square_name(origin) + chess.square_name(target)
            reading = read_move(board, token)
            try:
                written = board.parse_uci(token)  # python-chess's own reading (castling as e1h1 too)
            except ValueError:
                written = None
            if written is not None:
                assert reading.move == written and reading.is_legal, token
            elif reading.move is not None:  # illegal as played: that piece, from that square to that square
                assert not reading.is_legal and reading.irregularity in ("illegal", "unreplaced-promotion"), token
                assert (reading.move.from_square, reading.move.to_square) == (origin, target), token


def test_b1e3_with_a_knight_on_b1_is_an_illegal_knight_move_not_a_bishop_move() -> None:
    board = chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1")  # Bc1-e3 is legal
    reading = read_move(board, "b1e3")
    assert reading.move == chess.Move(chess.B1, chess.E3) and not reading.is_legal
    assert reading.reason == "a knight cannot move from b1 to e3"


# --- lower-case letters -------------------------------------------------------------------------

def test_bb3_is_read_as_the_bishop_first_and_names_the_pawn_as_its_other_reading() -> None:
    # b2-b3 is legal too (python-chess reads bb3 so); SAN never writes a pawn's own file, so the bishop first,
    # and the b-pawn (as ee4 names its own file) is the other reading (issue 34: bb5 is the bishop or the b-pawn)
    replay = replay_chess("1. e4 e5 2. Bc4 Nc6 3. bb3")
    assert replay.plies[4].move == chess.Move(chess.C4, chess.B3) and replay.plies[4].is_legal
    assert kinds(replay) == [(5, "lower-case-piece"), (5, "two-readings")]
    assert replay.notes[1].note.readings == ("Bb3", "b3")
    legal = replay_chess("1. e4 e5 2. bb5")
    assert legal.plies[2].move == chess.Move(chess.F1, chess.B5) and legal.plies[2].is_legal
    assert kinds(legal) == [(3, "lower-case-piece")]  # b2-b5 is no move: one reading
    assert "bishop" in legal.notes[0].note.text


def test_bb3_where_no_bishop_can_go_is_the_b_pawn_naming_its_own_file() -> None:
    replay = replay_chess("1. e4 e5 2. d4 d5 3. bb3")
    assert replay.plies[4].move == chess.Move(chess.B2, chess.B3)
    assert kinds(replay) == [(5, "file-repeated")]


def test_lower_case_knight_queen_rook_king_are_read_with_a_note() -> None:
    replay = replay_chess("1. e4 e5 2. nf3 nc6 3. qe2 qe7")
    assert not replay.illegal
    assert kinds(replay) == [(3, "lower-case-piece"), (4, "lower-case-piece"), (5, "lower-case-piece"),
                             (6, "lower-case-piece")]


def test_bc4_with_both_readings_legal_names_both_and_replays_the_pawn() -> None:
    # 4.bc4: the b3 pawn takes the c4 knight (written without x), or the f1 bishop does
    replay = replay_chess("1. e4 Nc6 2. b3 Ne5 3. Nc3 Nc4 4. bc4 a6")
    assert replay.plies[6].move == chess.Move(chess.B3, chess.C4)
    (two,) = [n for n in replay.notes if n.note.kind == "two-readings"]
    assert two.ply == 7 and two.note.readings == ("bxc4", "Bxc4")
    assert replay.to_json()["notes"][-1] == {
        "ply": 7, "token": "bc4", "kind": "two-readings", "note": two.note.text, "readings": ["bxc4", "Bxc4"],
    }


def test_bxc4_is_san_in_a_record_written_in_upper_case_and_has_two_readings_in_an_all_lower_case_one() -> None:
    upper = replay_chess("1. e4 Nc6 2. b3 Ne5 3. Nc3 Nc4 4. bxc4 a6")
    assert upper.plies[6].move == chess.Move(chess.B3, chess.C4) and not upper.notes
    lower = replay_chess("1. e4 nc6 2. b3 ne5 3. nc3 nc4 4. bxc4 a6")
    assert lower.plies[6].move == chess.Move(chess.B3, chess.C4)
    assert [n.note.readings for n in lower.notes if n.note.kind == "two-readings"] == [("bxc4", "Bxc4")]


def test_a_token_whose_file_reading_invents_a_later_illegal_move_is_read_as_the_piece(book: RulesetBook) -> None:
    # as the pawn, 5.Bb5 cannot pass the c4 pawn: illegal; as the bishop on c4, 5.Bb5 is legal. The record as a
    # whole says 4.bc4 was the bishop's capture (issue 34): the claim is rejected, the pawn's reading named
    record = "1. e4 Nc6 2. b3 Ne5 3. Nc3 Nc4 4. bc4 a6 5. Bb5"
    decided = ruling(book, claim="illegal-move", claimant="black", record=record, alleged_illegal_ply=9)
    assert decided.verdict == "rejected"
    (other,) = decided.evidence["token_readings"]
    assert other == {"ply": 7, "token": "bc4", "this_reading": "Bxc4", "that_reading": "bxc4",
                     "verdict": "upheld", "result": None, "keeps_record_legal": False, "invents": [9],
                     "case_field": {"readings": {"7": "bxc4"}}}
    assert any("Ply 7 is written bc4" in reason and "upheld" in reason for reason in decided.reasons)
    # the TD, told the scoresheet means the pawn, names it: the claim is upheld on that reading
    stated = ruling(book, claim="illegal-move", claimant="black", record=record, alleged_illegal_ply=9,
                    readings={"7": "bxc4"})
    assert stated.verdict == "upheld"
    assert any("as the case states" in reason for reason in stated.reasons)


# --- capture marks and en passant ---------------------------------------------------------------

def test_a_pawn_capture_written_as_a_push_is_read_with_a_note() -> None:
    replay = replay_chess("1. d4 d5 2. c4 c4")
    assert replay.plies[3].move == chess.Move(chess.D5, chess.C4)
    assert kinds(replay) == [(4, "capture-mark-supplied")]
    assert replay.notes[0].note.text == "c4 is written without a capture mark; read as the capture dxc4"


def test_a_push_that_fits_is_the_push_not_a_capture() -> None:
    replay = replay_chess("1. e4 d5 2. d4 dxe4 3. c4")  # c2-c4, not a capture
    assert replay.plies[4].move == chess.Move(chess.C2, chess.C4) and not replay.notes


def test_an_en_passant_capture_written_as_a_push_is_read_with_a_note() -> None:
    replay = replay_chess("1. e4 a6 2. e5 f5 3. f6")
    assert replay.plies[4].move == chess.Move(chess.E5, chess.F6)
    assert kinds(replay) == [(5, "en-passant-as-push")]
    assert "en-passant capture exf6" in replay.notes[0].note.text


def test_a_capture_without_its_mark_and_a_mark_without_a_capture_are_noted() -> None:
    replay = replay_chess("1. e4 d5 2. ed5 Qxd5 3. Nxc3")
    assert kinds(replay) == [(3, "capture-mark-supplied"), (5, "capture-mark-without-capture")]


def test_plain_san_and_fully_placed_moves_get_no_note() -> None:
    assert not replay_chess("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5").notes
    assert not replay_chess("1. e2e4 d7d5 2. e4d5 d8d5 3. b1c3").notes  # a coordinate capture needs no x
    assert not replay_chess("1. e2-e4 d7-d5 2. e4xd5 Qd8xd5").notes


# --- null moves ---------------------------------------------------------------------------------

@pytest.mark.parametrize("null", ["0000", "--", "Z0", "@@@@"])
def test_every_null_move_spelling_is_the_clock_pressed_without_a_move(null: str) -> None:
    replay = replay_chess(f"1. e4 {null} 2. d4 e5")
    assert len(replay.plies) == 4
    ply = replay.plies[1]
    assert ply.irregularity == "no-move" and not ply.is_legal and ply.mover == chess.BLACK
    assert replay.plies[2].mover == chess.WHITE, "the colours do not shift"
    assert replay.final_board.board_fen() == "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR"
    assert kinds(replay) == [(2, "null-move")]


def test_0000_is_a_move_token_not_a_move_number() -> None:
    assert [(t.kind, t.text) for t in tokens("1. e4 0000 2. d4")] == [
        ("move-number", "1."), ("move", "e4"), ("move", "0000"), ("move-number", "2."), ("move", "d4"),
    ]


# --- Unicode dashes and hyphens -----------------------------------------------------------------

@pytest.mark.parametrize("dash", ["\u2011", "\u2010", "\u2013", "\u2014", "\u2212", "\uff0d"])
def test_castling_and_long_moves_with_unicode_dashes_are_read_with_a_note(dash: str) -> None:
    record = f"1. e2{dash}e4 e7{dash}e5 2. Ng1{dash}f3 Ng8{dash}f6 3. Bf1{dash}c4 Bf8{dash}c5 4. O{dash}O 0{dash}0"
    replay = replay_chess(record)
    assert not replay.illegal and not replay.unreadable and len(replay.plies) == 8
    assert replay.final_board.king(chess.WHITE) == chess.G1 and replay.final_board.king(chess.BLACK) == chess.G8
    assert [n.ply for n in replay.notes] == list(range(1, 9))
    assert {n.note.kind for n in replay.notes} == {"dash"}
    assert f"U+{ord(dash):04X}" in replay.notes[0].note.text


def test_queenside_castling_with_non_breaking_hyphens() -> None:
    fen = "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1"
    replay = replay_chess("1. O\u2011O\u2011O O\u2011O\u2011O", fen)
    assert replay.final_board.king(chess.WHITE) == chess.C1 and replay.final_board.king(chess.BLACK) == chess.C8


# --- where the notes are shown ------------------------------------------------------------------

def test_the_ruling_evidence_lists_the_notes(book: RulesetBook) -> None:
    record = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. d4 d5 6. c4 c4"
    decided = ruling(book, claim="threefold-repetition", claimant="white", record=record)
    assert decided.evidence["record_notes"] == [
        {"ply": 12, "token": "c4", "kind": "capture-mark-supplied",
         "note": "c4 is written without a capture mark; read as the capture dxc4"},
    ]


def test_a_plain_record_has_no_notes_in_the_evidence(book: RulesetBook) -> None:
    record = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
    decided = ruling(book, claim="threefold-repetition", claimant="white", record=record)
    assert "record_notes" not in decided.evidence


# --- bounded cost -------------------------------------------------------------------------------

@pytest.mark.parametrize("token", ["N" + "!" * 200_000 + "a", "Nf3" * 100_000, "x" * 1_000_000])
def test_a_huge_token_is_unreadable_at_once(token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded cost, asserted by its cause (the time is bench/'s): a token longer than any move is
    unreadable for its length, and the notation reader and the likeness search for what it meant are
    given its first LONGEST_TOKEN (40) characters at most, so it costs what a 40-character token costs."""
    import difflib

    from adjudicator.chess import san
    from adjudicator.chess.notation import LONGEST_TOKEN

    given: list[int] = []

    def parse(text: str, *args: Any, **kwargs: Any) -> Any:
        given.append(len(text))
        return real_parse(text, *args, **kwargs)

    def matcher(junk: Any, a: str, b: str) -> difflib.SequenceMatcher[str]:
        given.append(len(a))
        return difflib.SequenceMatcher(junk, a, b)

    real_parse = san.parse
    monkeypatch.setattr(san, "parse", parse)
    monkeypatch.setattr(san, "difflib", type("Difflib", (), {"SequenceMatcher": staticmethod(matcher)}))
    replay = replay_chess(f"1. e4 e5 2. {token}", allow_unreadable=True)
    (bad,) = replay.unreadable
    assert bad.ply == 3 and len(replay.plies) == 2
    assert bad.reason == f"{len(token)} characters: too long to be a move"
    assert bad.candidates, "the likely moves are still named"
    assert given and max(given) <= LONGEST_TOKEN


# --- the other notes ------------------------------------------------------------------------------

def test_an_english_promotion_letter_in_a_german_record_is_read_with_a_note() -> None:
    replay = replay_chess("60. e8=Q", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 60", language="de")
    assert replay.final_board.piece_at(chess.E8) == chess.Piece(chess.QUEEN, chess.WHITE)
    assert kinds(replay) == [(1, "promotion-letter")]  # (no piece letter: the language is noted nowhere)


def test_a_pawn_move_naming_its_own_file_where_the_letter_is_no_piece_is_read_with_a_note() -> None:
    replay = replay_chess("1. ee4")
    assert replay.plies[0].move == chess.Move(chess.E2, chess.E4)
    assert kinds(replay) == [(1, "file-repeated")]


def test_castling_written_as_the_king_taking_its_rook_is_read_with_a_note() -> None:
    replay = replay_chess("1. e1h1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert replay.final_board.king(chess.WHITE) == chess.G1 and replay.plies[0].is_legal
    assert kinds(replay) == [(1, "castling-as-king-takes-rook")]
