"""Reading and replaying PDN records: real game files, their quirks, and the contract's replay shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.checkers.pdn import read_game, split_games
from adjudicator.checkers.replay import CheckersRecordError, parse_position, replay_checkers, replay_pdn


def _read(test_data: Path, name: str) -> str:
    return (test_data / "checkers" / name).read_text()


@pytest.fixture(scope="module")
def tinsley(test_data: Path) -> str:
    return _read(test_data, "tinsley.pdn")


def test_every_tinsley_game_replays_and_the_one_illegal_move_is_found_at_its_ply(tinsley: str) -> None:
    games = replay_pdn(tinsley)
    assert len(games) == 724
    flawed = [(g.tag("Event"), g.to_json()["illegal"]) for g in games if g.illegal or g.unreadable]
    assert flawed == [
        ("Petal 1981, game 18", [{"ply": 123, "move": "32-28", "reason": flawed[0][1][0]["reason"]}])
    ]
    assert "no red piece on 32" in flawed[0][1][0]["reason"]
    assert sum(len(g.plies) for g in games) > 36_000


def test_a_flag_fall_note_glued_to_a_move_is_split_off_as_its_comment(tinsley: str) -> None:
    games = {g.tag("Event"): g for g in replay_pdn(tinsley)}
    london = games["London 1992, game 18"]
    last = london.plies[-1]
    assert last.token == "26-22" and last.is_legal
    assert last.comment == "Whiteoversteppedthetimecontrolonthismove."
    assert last.side == "white"
    assert london.result == "1-0"


def test_quiet_moves_written_with_x_are_read_by_their_squares() -> None:
    replay = replay_checkers("1. 11-15 23-19 2. 8x11 22-17 *")
    assert [str(p.move) for p in replay.plies] == ["11-15", "23-19", "8-11", "22-17"]
    assert all(p.is_legal for p in replay.plies)
    assert any("written with x" in n for n in replay.notes)


def test_every_acf_archive_game_replays_legally(test_data: Path) -> None:
    games = replay_pdn(_read(test_data, "acf_archive_sample500.pdn"))
    assert len(games) == 500
    assert [g.tag("Event") for g in games if g.illegal or g.unreadable] == []


def test_a_missed_jump_is_kept_as_played_and_marked_illegal() -> None:
    # White must jump 23x14 but plays 30-26.
    replay = replay_checkers('[FEN "W:W23,30:B18,1"]\n1... 30-26 2. 1-5 *')
    first = replay.plies[0]
    assert not first.is_legal
    assert "jump was compulsory" in (first.reason or "")
    assert replay.final.piece_at(26) == "w"
    assert replay.to_json()["illegal"][0]["ply"] == 1


def test_a_shortened_multi_jump_is_read_and_an_incomplete_one_is_illegal() -> None:
    full = replay_checkers('[FEN "B:W19,27,26:B15"]\n15x31 *')
    assert str(full.plies[0].move) == "15x24x31" and full.plies[0].is_legal
    short = replay_checkers('[FEN "B:W19,27,26:B15"]\n15x24 *')
    assert not short.plies[0].is_legal
    assert "not complete" in (short.plies[0].reason or "")


def test_repetitions_and_the_forty_move_counter_per_ply() -> None:
    replay = replay_checkers('[FEN "B:WK27:BK6"]\n6-10 27-23 10-6 23-27 6-10 27-23 10-6 23-27 *')
    out = replay.to_json()
    assert out["repetitions"][0] == {"fen": "B:WK27:BK6", "plies": [0, 4, 8]}
    assert out["counter"] == 8
    assert [p.counter for p in replay.plies] == list(range(1, 9))


def test_a_ballot_tag_starts_the_record_after_the_balloted_moves() -> None:
    replay = replay_checkers('[Ballot "ACF 1"]\n1... 22-18 *')
    assert replay.start.fen().startswith("W:W17,22,")
    assert replay.plies[0].is_legal


def test_a_record_with_an_unreadable_fen_is_refused_naming_the_field() -> None:
    with pytest.raises(CheckersRecordError) as info:
        replay_checkers('[FEN "X:W1:B2"]\n1-5 *')
    assert info.value.field == "record.FEN"


def test_a_token_that_is_no_square_stops_the_replay_as_unreadable() -> None:
    replay = replay_checkers("11-15 23-19 8-41 22-17")
    assert len(replay.plies) == 2
    assert replay.to_json()["unreadable"][0]["token"] == "8-41"


def test_split_games_and_tags() -> None:
    text = '[Event "a"]\n1. 11-15 *\n\n[Event "b"]\n[FEN "B:W21-32:B1-12"]\n1. 9-13 1-0\n'
    games = [read_game(g) for g in split_games(text)]
    assert [g.tag("Event") for g in games] == ["a", "b"]
    assert games[1].result == "1-0"


@pytest.mark.parametrize(
    ("fen", "square"), [("B:W9:B32", "32"), ("W:W2,K9:BK30", "2"), ("B:W21-28:B1-11,29", "29")]
)
def test_a_man_on_its_crowning_row_is_no_position_the_error_says_to_crown_it(fen: str, square: str) -> None:
    """A man reaching the far row is crowned at once: the TD wrote the FEN without the K."""
    with pytest.raises(CheckersRecordError) as caught:
        parse_position(fen, "start_fen")
    assert caught.value.field == "start_fen" and f"K{square}" in caught.value.message


def test_kings_on_the_crowning_rows_are_a_position() -> None:
    assert parse_position("B:WK1,K2:BK29,K32").piece_count == 4


# ------------------------------------------------------------------ every token accounted for


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("33-37", "square 33 is not on the board"),
        ("0-33", "square 0 is not on the board"),
        ("9-444", "square 44 is not on the board"),
        ("9x", "a single square is no move"),
        ("22", "a single square is no move"),
        ("12-16-", "'-' after the move is no square"),
        ("8-11x", "'x' after the move is no square"),
        ("5-5", "cannot move to its own square"),
        ("foo", "neither a move"),
        ("x", "neither a move"),
        (")", "closes a variation that was never opened"),
        ("}", "closes a comment that was never opened"),
    ],
)
def test_a_token_that_is_no_move_stops_the_replay_at_its_own_ply(token: str, why: str) -> None:
    """The token is reported at its ply with why; the moves before it stand; the next move is not blamed."""
    replay = replay_checkers(f"1. 11-15 23-19 2. {token} 8-11 22-17 *")
    out = replay.to_json()
    assert out["plies"] == 2 and [p.token for p in replay.plies] == ["11-15", "23-19"]
    assert out["unreadable"][0]["ply"] == 3 and out["unreadable"][0]["token"] == token
    assert why in out["unreadable"][0]["reason"]
    assert out["final_fen"] == replay_checkers("1. 11-15 23-19 *").final.fen()


def test_an_unreadable_token_lists_the_moves_the_writer_likely_meant() -> None:
    """9-44: square 44 is no square, but 9 is, and Red's moves from 9 are 9-13 and 9-14."""
    bad = replay_checkers("1. 11-15 23-19 2. 9-44 *").unreadable[0]
    assert (bad.ply, bad.token, bad.candidates) == (3, "9-44", ("9-13", "9-14"))


def test_a_separator_standing_alone_does_not_join_the_next_move() -> None:
    """``9x 23-19``: the writer's 9x is the unreadable ply 2, not a move 9x23-19 blamed on White's 23-19."""
    out = replay_checkers("1. 11-15 9x 23-19 *").to_json()
    assert out["illegal"] == []
    assert out["unreadable"][0]["ply"] == 2 and out["unreadable"][0]["token"] == "9x"


@pytest.mark.parametrize(("written", "result"), [
    ("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "1/2-1/2"), ("2-0", "1-0"), ("0-2", "0-1"), ("1-1", "1/2-1/2"),
    ("*", None),
])
def test_move_numbers_comments_clock_comments_nags_glyphs_variations_and_results_are_no_moves(
    written: str, result: str | None
) -> None:
    record = (
        "1. 11-15 {[%clk 0:29:50]} 23-19 $3 2. 8-11!? (2. 9-13 22-18 {a line}) 22-17 ; good\n"
        f"3. 4-8 ! ... 3... 17-13 {written}"
    )
    out = replay_checkers(record).to_json()
    assert out["unreadable"] == [] and out["illegal"] == []
    assert out["plies"] == 6 and out["result"] == result


def test_a_variation_never_closed_is_unreadable_where_it_opens() -> None:
    """Whatever follows an unclosed ``(`` cannot be told apart from the game's moves."""
    out = replay_checkers("1. 11-15 23-19 (2. 9-13 22-18 2. 8-11 22-17 *").to_json()
    assert out["plies"] == 2
    assert out["unreadable"][0]["ply"] == 3 and out["unreadable"][0]["token"].startswith("(2. 9-13")
    assert "never closed" in out["unreadable"][0]["reason"]


def test_a_comment_never_closed_is_unreadable_if_moves_stand_in_it_and_a_comment_otherwise() -> None:
    swallowing = replay_checkers("1. 11-15 23-19 {flag? 2. 8-11 22-17 *").to_json()
    assert swallowing["plies"] == 2 and swallowing["unreadable"][0]["ply"] == 3
    closing = replay_checkers("1. 11-15 23-19 {White resigns")
    assert closing.unreadable == () and closing.plies[-1].comment == "White resigns"
    assert any("never closed" in note for note in closing.notes)


def test_moves_after_the_result_are_the_next_game_and_the_replay_says_so() -> None:
    """As in chess: a result ends the game; the moves after it are not quietly added to it."""
    replay = replay_checkers("1. 11-15 23-19 1-0 1. 9-13 22-18 *")
    assert len(replay.plies) == 2 and replay.result == "1-0"
    assert any("holds 2 games" in note for note in replay.notes)
    assert [len(g.plies) for g in replay_pdn("1. 11-15 23-19 1-0 1. 9-13 22-18 *")] == [2, 2]


# ------------------------------------------------------------------ reasons an arbiter reads


def test_a_man_jumping_backwards_over_a_piece_is_told_men_jump_forward_only() -> None:
    """Red's man on 18 jumps back over White's 14 to 9: there is a piece, but men move forward only."""
    replay = replay_checkers('[FEN "B:W14,32:B18"]\n18x9 *')
    ply = replay.plies[0]
    assert not ply.is_legal and ply.reason is not None
    assert "cannot jump backwards" in ply.reason and "forward only" in ply.reason
    assert "nothing to jump" not in ply.reason
    assert replay.final.piece_at(9) == "r" and replay.final.piece_at(14) is None  # as physically played


def test_a_white_man_jumping_backwards_is_told_the_same() -> None:
    """White moves towards square 1: 15x22 over Red's 18 is backwards for a white man."""
    reason = replay_checkers('[FEN "W:W15:B18,1"]\n1... 15x22 *').plies[0].reason or ""
    assert "the man on 15 cannot jump backwards (over 18 to 22)" in reason


def test_a_man_stepping_backwards_is_told_it_cannot_move_backwards() -> None:
    reason = replay_checkers('[FEN "B:W32:B18"]\n18-14 *').plies[0].reason or ""
    assert reason.startswith("the man on 18 cannot move backwards")


def test_a_king_may_jump_backwards() -> None:
    replay = replay_checkers('[FEN "B:W14,32:BK18"]\n18x9 *')
    assert replay.plies[0].is_legal and replay.final.piece_at(9) == "R"


def test_a_man_crowned_mid_jump_ends_its_move_and_the_jump_on_is_the_illegal_part() -> None:
    """22x31 crowns the man; jumping on over 27 to 24 is what is illegal. As played: a king on 24."""
    replay = replay_checkers('[FEN "B:W26,27,32:B22"]\n22x31x24 *')
    ply = replay.plies[0]
    assert not ply.is_legal
    assert ply.reason == "the man on 22 was crowned on 31, and crowning ends the move: it cannot go on to 24"
    assert "compulsory" not in (ply.reason or "")
    assert replay.final.piece_at(24) == "R"
    assert replay.final.piece_at(26) is None and replay.final.piece_at(27) is None
    assert replay.to_json()["final_fen"] == "W:W32:BK24"


def test_the_crowning_jump_itself_is_legal_and_leaves_a_king() -> None:
    replay = replay_checkers('[FEN "B:W26,27,32:B22"]\n22x31 *')
    assert replay.plies[0].is_legal and replay.final.piece_at(31) == "R" and replay.final.piece_at(27) == "w"
