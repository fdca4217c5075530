"""The lenient record reader: what real scoresheets and e-scoresheets contain."""

from __future__ import annotations

import chess
import pytest

from adjudicator.chess.movetext import split_games
from adjudicator.chess.replay import RecordError, replay_chess, replay_games

RUY = "r1bqk2r/1pppbppp/p1n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 4 6"
RUY_MOVES_EN = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 Be7"


def final(text: str, **kw: object) -> str:
    return replay_chess(text, **kw).final_board.fen()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("record", "language"),
    [
        (RUY_MOVES_EN, "en"),
        ("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. O-O Sf6 5. Te1 Le7", "de"),
        ("1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. O-O Cf6 5. Te1 Fe7", "fr"),
        ("1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. O-O Cf6 5. Te1 Ae7", "es"),
        ("1. e4 e5 2. Pf3 Pc6 3. Lb5 a6 4. O-O Pf6 5. Te1 Le7", "nl"),
        ("1. e4 e5 2. Kf3 Kc6 3. Sb5 a6 4. 0-0 Kf6 5. Le1 Se7", "ru"),
        ("1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 Be7", "pt"),
        ("1. e4 e5 2. Sf3 Sc6 3. Gb5 a6 4. O-O Sf6 5. We1 Ge7", "pl"),
        ("1. e4 e5 2. Jf3 Jc6 3. Sb5 a6 4. O-O Jf6 5. Ve1 Se7", "cs"),
        ("1. e4 e5 2. Hf3 Hc6 3. Fb5 a6 4. O-O Hf6 5. Be1 Fe7", "hu"),
        ("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. 0-0 Кf6 5. Лe1 Сe7", "ru"),
        ("1. e4 e5 2. ♘f3 ♞c6 3. ♗b5 a6 4. O-O ♞f6 5. ♖e1 ♝e7", "en"),
        ("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. 0-0 Ng8-f6 5. Rf1-e1 Bf8-e7", "en"),
        ("1.e2e4 e7e5 2.g1f3 b8c6 3.f1b5 a7a6 4.e1g1 g8f6 5.f1e1 f8e7", "en"),
        ("1. e4 e5 2. nf3 nc6 3. bb5 a6 4. o-o nf6 5. re1 be7", "en"),
        ("1. e4 e5 2. Nf3+ Nc6# 3. Bb5!? a6?? 4. O-O+ Nf6 5. Re1 Be7!", "en"),
        ("1 e4 e5 2 Nf3 Nc6 3 Bb5 a6 4 OO Nf6 5 Re1 Be7", "en"),
    ],
)
def test_every_accepted_notation_reads_the_same_game(record: str, language: str) -> None:
    replay = replay_chess(record)
    assert replay.final_board.fen() == RUY
    assert replay.language == language
    assert not replay.illegal and not replay.unreadable


def test_language_named_by_the_case_wins_over_detection() -> None:
    replay = replay_chess("1. e4 e5 2. Sf3", language="de")
    assert replay.final_board.piece_at(chess.F3) == chess.Piece(chess.KNIGHT, chess.WHITE)


@pytest.mark.parametrize("promotion", ["e8Q", "e8=Q", "e8(Q)", "e8/Q", "e8=D", "e8q", "e7-e8=Q+"])
def test_promotion_spellings(promotion: str) -> None:
    replay = replay_chess(f"60. {promotion}", start_fen="8/4P1k1/8/8/8/8/8/4K3 w - - 0 60")
    assert replay.plies[0].is_legal
    assert replay.final_board.piece_at(chess.E8) == chess.Piece(chess.QUEEN, chess.WHITE)


def test_unreplaced_promotion_is_an_illegal_move_and_the_pawn_becomes_a_queen() -> None:
    replay = replay_chess("60. e8", start_fen="8/4P1k1/8/8/8/8/8/4K3 w - - 0 60")
    ply = replay.plies[0]
    assert not ply.is_legal and ply.irregularity == "unreplaced-promotion"
    assert replay.final_board.board_fen() == "4Q3/6k1/8/8/8/8/8/4K3"


def test_illegal_move_stays_in_the_record_and_the_replay_goes_on_as_played() -> None:
    replay = replay_chess("1. e4 e5 2. Bc1-d3 Nc6 3. Bd3-c4 Nf6")
    assert len(replay.plies) == 6
    assert [p.number for p in replay.illegal] == [3]
    assert replay.plies[2].reason == "a bishop cannot move from c1 to d3"
    assert replay.san(3) == "Bc1-d3"
    # the bishop stood on d3 as played, so 3.Bd3-c4 is a legal move from there
    assert replay.plies[4].is_legal
    assert replay.final_board.piece_at(chess.C4) == chess.Piece(chess.BISHOP, chess.WHITE)
    assert replay.to_json()["illegal"] == [{"ply": 3, "move": "Bc1-d3", "reason": "a bishop cannot move from c1 to d3"}]


@pytest.mark.parametrize(
    ("record", "fen", "reason"),
    [
        ("1. e4 e5 2. f4 Qh4+ 3. Nf3", None, "does not get the king out of check"),
        ("1. e4 e5 2. Bc4 Bc5 3. Bxf7 Ke7 4. Bd5 Kf7", None, "moves the king into check"),
        ("1. O-O", "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "castles through a square attacked by the opponent"),
        ("1. O-O", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "castles although the king or that rook has already moved"),
        ("1. e4 e5 2. e6", None, "a pawn cannot move from e4 to e6"),
        ("1. Bf1-c4", None, "the bishop on f1 cannot pass the pieces between it and c4"),
    ],
)
def test_why_a_move_was_illegal(record: str, fen: str | None, reason: str) -> None:
    replay = replay_chess(record, fen)
    assert replay.illegal[-1].reason == reason


def test_pressing_the_clock_without_a_move_is_kept_as_an_illegal_ply() -> None:
    replay = replay_chess("1. e4 -- 2. d4")
    assert replay.plies[1].irregularity == "no-move" and not replay.plies[1].is_legal
    assert replay.final_board.board_fen() == "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR"


def test_unreadable_token_names_its_ply_and_the_likely_moves() -> None:
    record = "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe6 4. Nge2 Qxe4 5. d4 Bd7 6. Bf4 Nc6 7. Nx7"
    replay = replay_chess(record, allow_unreadable=True)
    bad = replay.unreadable[0]
    assert bad.ply == 13 and bad.token == "Nx7"
    assert len(replay.plies) == 12
    board = replay.final_board
    legal = {board.san(m) for m in board.legal_moves}
    assert bad.candidates and set(bad.candidates) <= legal
    assert all(c.startswith("N") for c in bad.candidates)
    with pytest.raises(RecordError) as err:
        replay_chess("1. e4 e5 2. Nx7")
    assert err.value.ply == 3 and err.value.field == "record"


def test_candidates_prefer_moves_that_look_like_the_token() -> None:
    board = "r3k3/2p1p3/8/3N4/8/8/8/4K3 w - - 0 1"
    replay = replay_chess("1. Nx7", board, allow_unreadable=True)
    assert set(replay.unreadable[0].candidates[:2]) == {"Nxc7", "Nxe7"}


def test_ambiguous_move_is_not_guessed() -> None:
    replay = replay_chess("1. Nc3 e5 2. Nf3 e4 3. Nd4 d5 4. Nb5 a6", allow_unreadable=True)
    assert len(replay.plies) == 6
    assert replay.unreadable[0].ply == 7
    assert set(replay.unreadable[0].candidates) == {"Ncb5", "Ndb5"}


def test_tags_fen_setup_comments_variations_nags_and_clocks() -> None:
    record = """[Event "Club"]
[SetUp "1"]
[FEN "4k1n1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"]

1... d5 {[%clk 0:10:00] [%emt 0:00:03]} (1... Nf6 2. Nf3 (2. Ne2) Ng8) 2. Nf3 $1 {[%clk 0:09:58]}
; a line comment 3. Ng1
2... Nh6 !? 3. Ng1 {unclosed ( brace} Ng8 1/2-1/2
"""
    replay = replay_chess(record)
    assert replay.start_fen.startswith("4k1n1/3p4")
    assert [p.token for p in replay.plies] == ["d5", "Nf3", "Nh6", "Ng1", "Ng8"]
    assert replay.plies[0].clock == 600 and replay.plies[0].emt == 3
    assert replay.plies[1].clock == 598
    assert replay.result == "1/2-1/2"
    assert replay.tag("Event") == "Club"


def test_a_file_of_several_games() -> None:
    text = '[Event "a"]\n1. e4 e5 1-0\n\n[Event "b"]\n1. d4 d5 0-1\n1. c4 *\n'
    replays = list(replay_games(text))
    assert [len(r.plies) for r in replays] == [2, 2, 1]
    assert [r.tag("Event") for r in replays] == ["a", "b", None]
    assert len(list(split_games(text))) == 3


def test_a_bad_fen_tag_is_a_record_error() -> None:
    with pytest.raises(RecordError) as err:
        replay_chess('[FEN "not a fen"]\n1. e4')
    assert err.value.field == "record"


def test_empty_text_is_a_record_error() -> None:
    with pytest.raises(RecordError):
        replay_chess("   \n")


def test_chess960_castling() -> None:
    record = '[Variant "Chess960"]\n[FEN "1r2k2r/8/8/8/8/8/8/1R2K2R w HBhb - 0 1"]\n1. O-O-O O-O'
    replay = replay_chess(record)
    assert replay.chess960 and not replay.illegal
    assert replay.final_board.board_fen() == "1r3rk1/8/8/8/8/8/8/2KR3R"


def test_a_record_english_reads_is_english_and_the_russian_reading_is_reported_beside_it() -> None:
    # K is the king in English and the knight in Russian; English reads every token (as
    # illegal king moves), so English is the reading, never the one with fewer illegal moves
    replay = replay_chess("1. e4 e5 2. Kf3 Kc6 3. Kc3 Kf6")
    assert replay.language == "en" and replay.reading == "english"
    assert [p.number for p in replay.illegal] == [3, 4, 5, 6]
    (russian,) = replay.alternatives
    assert russian.language == "ru" and not russian.illegal
    assert russian.final_board.piece_at(chess.F6) == chess.Piece(chess.KNIGHT, chess.BLACK)
    assert replay.to_json()["alternative_readings"][0]["first_difference"]["ply"] == 3


def test_a_russian_record_stated_as_russian_is_read_in_russian_alone() -> None:
    replay = replay_chess("1. e4 e5 2. Kf3 Kc6 3. Kc3 Kf6", language="ru")
    assert replay.language == "ru" and replay.reading == "stated" and not replay.alternatives
    assert not replay.illegal


@pytest.mark.parametrize("king", ["Кр", "Kr", "Kp"])
def test_the_russian_king(king: str) -> None:
    replay = replay_chess(f"1. e4 e5 2. {king}e2 Kc6 3. Kf3 {king}e7")
    assert replay.language == "ru" and not replay.illegal
    assert replay.final_board.king(chess.WHITE) == chess.E2 and replay.final_board.king(chess.BLACK) == chess.E7
