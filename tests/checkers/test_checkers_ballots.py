"""Balloted openings: the ACF three-move deck and the 11-man ballot."""

from __future__ import annotations

import json
from pathlib import Path

from adjudicator.checkers.ballots import ACF_DECK, THREE_MOVE, eleven_man_positions, three_move


def _load(test_data: Path, name: str) -> dict[str, list[dict[str, object]]]:
    with (test_data / "checkers" / name).open() as handle:
        data: dict[str, list[dict[str, object]]] = json.load(handle)
    return data


def test_the_acf_deck_has_156_openings_and_bars_26_which_pydraughts_lets_in(test_data: Path) -> None:
    assert len(THREE_MOVE) == 174 and len(ACF_DECK) == 156
    assert three_move(26).moves == "9-13 24-19 10-15" and not three_move(26).is_in_deck
    assert len({b.moves for b in THREE_MOVE}) == 174  # no opening listed twice
    reference = _load(test_data, "ballots_3move_acf.json")["ballots"]
    for ballot, entry in zip(THREE_MOVE, reference, strict=True):
        assert (ballot.number, ballot.moves, ballot.status) == (entry["acf"], entry["moves"], entry["status"])
        assert ballot.position().fen() == entry["fen"]


def test_the_eleven_man_ballot_rule_gives_the_2500_positions_with_their_draws(test_data: Path) -> None:
    positions = eleven_man_positions()
    reference = {str(p["fen"]): sorted(p["ballots"]) for p in _load(test_data, "ballots_11man.json")["positions"]}
    assert len(positions) == 2500
    assert {fen: sorted(draws) for fen, draws in positions.items()} == reference


def test_a_removed_man_is_replaced_by_the_man_behind_it() -> None:
    draws = {d for ds in eleven_man_positions().values() for d in ds}
    assert "remove 10 and 28; 7-10 22-17" in draws  # 10-14 balloted, 10 removed: 7 moves up
    assert "remove 10 and 28; 6-10 22-17" in draws  # 10-15 balloted: 6 moves up
