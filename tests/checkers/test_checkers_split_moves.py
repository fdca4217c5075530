"""A checkers move split by spacing (``5x 14``) is read joined where that is the only legal reading, and a note
names the ply (adjudicator/checkers/replay.py; issue 20: a real Ontario Checkers Association record was
unreadable at ``5x 14``).

The games are real: ACF archive game 2 of tests/data/checkers/acf_archive_sample500.pdn, with one of its
moves split as the OCA record's was. Everything else in the record stays as written, so the joined reading
must replay to the very position the record as published reaches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.checkers.pdn import read_game, split_games
from adjudicator.checkers.replay import CheckersReplay, replay_checkers


@pytest.fixture(scope="module")
def game(test_data: Path) -> str:
    """ACF archive game 2: Red's 10th move 5x14 is ply 19; White's 5th, the double jump 23x14x7, is ply 10."""
    text = (test_data / "checkers" / "acf_archive_sample500.pdn").read_text(encoding="utf-8")
    record = split_games(text)[1]
    assert "10. 5x14 " in record and "5. 9x18 23x14x7 " in record
    return record


def joined_ok(split: CheckersReplay, whole: CheckersReplay) -> bool:
    return not split.unreadable and len(split.plies) == len(whole.plies) and split.final == whole.final


@pytest.mark.parametrize("written", ["5x 14", "5 x14", "5 x 14", "5- 14"])
def test_a_jump_split_by_spacing_is_read_joined_and_the_note_names_its_ply(game: str, written: str) -> None:
    whole = replay_checkers(game)
    split = replay_checkers(game.replace("10. 5x14 ", f"10. {written} ", 1))
    assert joined_ok(split, whole) and split.plies[18].move == whole.plies[18].move
    assert [(j.ply, j.written, j.move) for j in split.joined] == [(19, written, written.replace(" ", ""))]
    assert f"ply 19: {written!r} is read as" in " ".join(split.to_json()["notes"])


def test_the_last_leg_of_a_double_jump_written_apart_completes_the_jump(game: str) -> None:
    # 23x14 alone is an incomplete jump (illegal as written); with x7 it is the legal double jump
    whole = replay_checkers(game)
    split = replay_checkers(game.replace("23x14x7 ", "23x14 x7 ", 1))
    assert joined_ok(split, whole) and [(j.ply, j.move) for j in split.joined] == [(10, "23x14x7")]
    assert not split.illegal


def test_a_split_that_joined_is_no_legal_move_stays_unreadable_at_its_ply(game: str) -> None:
    split = replay_checkers(game.replace("10. 5x14 ", "10. 5x 15 ", 1))  # 5x15 is no jump on the board
    assert split.joined == () and len(split.plies) == 18
    (bad,) = split.unreadable
    assert (bad.ply, bad.token, bad.candidates) == (19, "5x", ("5x14",))


def test_a_move_that_reads_by_itself_is_never_joined_to_what_follows() -> None:
    # 11-15 is legal as written: the lone 23 after it is unreadable at its own ply, not part of 11-15
    replay = replay_checkers("1. 11-15 23 19 *")
    assert replay.joined == () and len(replay.plies) == 1
    assert [(u.ply, u.token) for u in replay.unreadable] == [(2, "23")]


def test_a_result_written_with_an_en_dash_is_the_result_and_any_tag_name_is_a_tag() -> None:
    record = '[Event "c"]\n[Black-Type "human"]\n1. 11-15 23-19 2. 8-11 22-17 1–0\n'
    game = read_game(record)
    assert game.tag("Black-Type") == "human" and game.result == "1-0" and len(game.moves) == 4
    assert replay_checkers(record).result == "1-0"
