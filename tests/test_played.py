"""The game as played (adjudicator.played, issue 38 "one shape per step"): the record read as the ruling read
it, once, and kept as JSON with the ruling; read back typed, it is the same game, ply for ply, position for
position, with its clocks and the readings the record needed."""

from __future__ import annotations

import json

import pytest

from adjudicator.contract import ContractError
from adjudicator.played import PlayedGame, StoredGameError, played_case

CLOCKED = "1. e4 {[%clk 0:09:58]} e5 {[%clk 0:09:57.5]} 2. Nf3 Nc6"
GAPPED = "1. e4 e5 3. Nf3 Nc6"
"""Move 2 is not numbered: the reading is noted (the record's move numbers are evidence too)."""


def kept(game: PlayedGame) -> PlayedGame:
    """The game as the database gives it back: through JSON text."""
    return PlayedGame.from_json(json.loads(json.dumps(game.to_json())))


def test_a_kept_game_reads_back_as_the_same_game() -> None:
    game = played_case({"record": CLOCKED})
    assert game is not None
    assert kept(game) == game
    assert kept(game).clocks[:2] == (598.0, 597.5), "the clocks after each ply are kept"
    assert [m.label for m in kept(game).moves] == ["1. e4", "1... e5", "2. Nf3", "2... Nc6"]


def test_the_readings_the_record_needed_are_kept_with_the_game() -> None:
    game = played_case({"record": GAPPED})
    assert game is not None and [(r.ply, r.kind) for r in game.readings] == [(3, "numbering-gap")]
    assert kept(game).readings == game.readings


def test_an_illegal_move_is_kept_in_its_place_with_the_position_it_made() -> None:
    game = played_case({"record": "1. e4 e5 2. Ke3 Nc6"})
    assert game is not None
    back = kept(game)
    assert back == game
    assert [(m.ply, m.label, m.move) for m in back.moves if m.is_illegal] == [(3, "2. Ke1-e3", "e1e3")]
    assert back.moves[2].fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/")


def test_the_record_is_read_in_the_rulings_language() -> None:
    game = played_case({"record": "1. e4 e5 2. Sf3 Sc6", "language": "en"}, "de")
    assert game is not None and game.moves[2].move == "g1f3", "the ruling's language wins over the case's"
    assert kept(game) == game


def test_a_checkers_game_is_kept_from_its_start() -> None:
    start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    game = played_case({"game": "checkers", "record": "1. 11-15 23-19 2. 8-11 22-17"})
    other = played_case({"game": "checkers", "record": "23-19 11-15", "start_fen": start})
    assert game is not None and other is not None
    assert kept(game) == game and kept(other) == other
    assert game.moves[-1].label == "2... 22-17" and other.moves[0].label == "1... 23-19"


def test_a_case_without_a_record_has_no_game() -> None:
    assert played_case({"fen": "8/8/8/8/8/8/8/K6k w - - 0 1"}) is None
    assert played_case({"record": "   "}) is None
    assert played_case({"game": "go", "record": "1. e4"}) is None


def test_a_record_that_cannot_be_read_at_all_is_refused_as_before() -> None:
    with pytest.raises(ContractError):
        played_case({"record": "1. e4", "start_fen": "not a position"})


@pytest.mark.parametrize("stored", [
    None, [], {"moves": []}, {"start_fen": 3, "moves": []},
    {"start_fen": "x", "moves": [{"ply": "1", "label": "1. e4", "fen": "x", "move": "e2e4"}]},
    {"start_fen": "x", "moves": [{"ply": 1, "label": "1. e4", "fen": "x"}]},
    {"start_fen": "x", "moves": [], "readings": [{"ply": 1}]},
])
def test_anything_else_is_not_a_kept_game(stored: object) -> None:
    with pytest.raises(StoredGameError):
        PlayedGame.from_json(stored)
