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
