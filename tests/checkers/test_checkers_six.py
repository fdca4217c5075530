"""The six-piece database, where it is built: Chinook's counts, its values against the board's moves, proofs.

Built with ``CHECKERS_DB_PIECES=6`` at set-up, or ``adjudicator build-db --pieces 6``
(``engines/checkers/compiled.py``); the tests are skipped where it is not. The full check
of every position against its successors is ``adjudicator build-db --verify`` (and
``bench/checkers.py --six``): it takes about as long as the build, so here a sample of
every slice is checked with the board's own move generator instead (not the builder's).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from adjudicator.checkers.board import Position
from engines.checkers.database import EndgameDatabase
from engines.checkers.index import (
    CHINOOK_POSITIONS,
    Codec,
    flip_one,
    one_sided_positions,
    positions_in_slice,
    slices,
)
from engines.checkers.proof import prove
from engines.checkers.published import PUBLISHED
from engines.checkers.sets import forced_jump_set


def test_the_positions_of_every_six_piece_slice_and_their_sum_are_chinooks(checkers_db6: EndgameDatabase) -> None:
    store = checkers_db6.store(6)
    assert store is not None
    total = 0
    for s in slices(6):
        entry = store.slices["_".join(str(x) for x in s)]
        assert entry["positions"] == positions_in_slice(s), s
        assert entry["wins"] + entry["losses"] + entry["draws"] == entry["positions"], s
        total += entry["positions"]
    assert total + one_sided_positions(6) == CHINOOK_POSITIONS[6] == 2_503_611_964


def test_six_piece_values_and_distances_agree_with_their_successors_by_the_board_move_generator(
    checkers_db6: EndgameDatabase,
) -> None:
    """A sample of every 6-piece slice, both sides to move; distances followed where the file keeps none."""
    rng = random.Random(25)
    checked = 0
    for s in slices(6):
        codec = Codec(s)
        rm, rk, wm, wk, valid = codec.unrank(np.array([rng.randrange(codec.size) for _ in range(40)]))
        for i in np.nonzero(valid)[0][:12]:
            red, white, kings = int(rm[i] | rk[i]), int(wm[i] | wk[i]), int(rk[i] | wk[i])
            for position in (Position(red, white, kings, True),
                             Position(flip_one(white), flip_one(red), flip_one(kings), False)):
                own = checkers_db6.probe(position)
                assert own is not None
                after = [checkers_db6.probe(position.push(m)) for m in position.legal_moves()]
                assert all(a is not None for a in after)
                values = [a.value for a in after if a is not None]
                if not values or all(v == "win" for v in values):
                    assert own.value == "loss", position.fen()
                    assert own.plies == min(255, 1 + max([a.plies for a in after if a], default=-1)), position.fen()
                elif "loss" in values:
                    assert own.value == "win", position.fen()
                    assert own.plies == min(255, 1 + min(a.plies for a in after if a and a.is_loss)), position.fen()
                else:
                    assert own.value == "draw", position.fen()
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("name, fen, result", [(n, f, r) for n, f, r, _ in PUBLISHED
                                               if Position.from_fen(f).piece_count == 6])
def test_published_six_piece_positions_have_the_published_value_in_the_database(
    checkers_db6: EndgameDatabase, name: str, fen: str, result: str
) -> None:
    probe = checkers_db6.probe(Position.from_fen(fen))
    assert probe is not None and probe.value == result, name


def test_seven_piece_positions_that_must_jump_into_six_are_all_proven(checkers_db6: EndgameDatabase) -> None:
    known = forced_jump_set(checkers_db6, per_value=10, seed=25, pieces=7)
    assert len(known) == 30
    for k in known:
        assert checkers_db6.probe(k.position) is None
        proof = prove(k.position, checkers_db6, 50_000)
        assert proof.value == k.value, k.position.fen()
