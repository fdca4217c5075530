"""FIDE TRF-16: the players and each round's pairings, boards numbered as pairing programs list
them. tests/data/club.trf is written for these tests to the TRF-16 column layout (FIDE
"TRF16" description: 001 lines, round blocks from column 92)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.trf import TrfError, parse_trf

CLUB = (Path(__file__).parent / "data" / "club.trf").read_text()


def test_the_players_are_read_with_their_ratings() -> None:
    tournament = parse_trf(CLUB)
    assert tournament.name == "Club Championship 2026"
    assert [(p.rank, p.name, p.rating) for p in tournament.players.values()] == [
        (1, "Alpha, Ann", 2100), (2, "Beta, Bob", 2000), (3, "Gamma, Cid", 1900), (4, "Delta, Dee", 1800)]


def test_round_and_board_give_white_and_black() -> None:
    tournament = parse_trf(CLUB)
    game = tournament.game(1, 1)
    assert game is not None and (game.white.name, game.black.name) == ("Alpha, Ann", "Gamma, Cid")
    game = tournament.game(1, 2)
    assert game is not None and (game.white.name, game.black.name) == ("Beta, Bob", "Delta, Dee")


def test_later_rounds_are_ordered_by_score_then_rank() -> None:
    tournament = parse_trf(CLUB)
    top = tournament.game(2, 1)  # the 1-pointers Beta (White) and Alpha
    assert top is not None and (top.white.name, top.black.name) == ("Beta, Bob", "Alpha, Ann")
    bottom = tournament.game(2, 2)
    assert bottom is not None and (bottom.white.name, bottom.black.name) == ("Delta, Dee", "Gamma, Cid")
    assert tournament.game(2, 3) is None and tournament.game(3, 1) is None


def test_a_file_without_players_is_refused() -> None:
    with pytest.raises(TrfError, match="no player lines"):
        parse_trf("012 Nothing here\n")
