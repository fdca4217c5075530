"""The database builder: positions back from indices, quiet moves taken back, the parallel build, 5 pieces.

The retrograde analysis walks back from settled positions by taking quiet moves back
(:func:`engines.checkers.moves.unmoves`); these tests check that walk against the
project's move generator (:mod:`adjudicator.checkers.board`, ACF Standard Laws), and the
5-piece database, where it is built, against values known without it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from adjudicator.checkers.board import Position
from engines.checkers.build import build
from engines.checkers.database import EndgameDatabase
from engines.checkers.index import Codec, enumerate_slice, flip_one, rank, slices
from engines.checkers.moves import has_capture, quiet_counts, unmoves
from engines.checkers.published import PUBLISHED
from engines.checkers.sets import forced_jump_set
from engines.checkers.verify import VerifyReport, verify_slice

SAMPLE_SLICES = [(1, 1, 1, 1), (0, 2, 2, 0), (2, 0, 1, 1), (1, 1, 1, 2), (2, 0, 2, 1), (0, 3, 2, 0), (3, 0, 2, 0)]


def _sample(s: tuple[int, int, int, int], n: int, seed: int) -> tuple[np.ndarray, ...]:  # type: ignore[type-arg]
    codec = Codec(s)
    idx = np.random.default_rng(seed).integers(0, codec.size, 4 * n)
    rm, rk, wm, wk, valid = codec.unrank(idx)
    keep = np.nonzero(valid)[0][:n]
    return idx[keep], rm[keep], rk[keep], wm[keep], wk[keep]


def _red_to_move(rm: int, rk: int, wm: int, wk: int) -> Position:
    return Position(rm | rk, wm | wk, rk | wk, True)


def _after(position: Position) -> tuple[int, int, int, int]:
    """A position after Red's move (White to move), as Red-to-move bitboards like the database's."""
    red, white, kings = flip_one(position.white), flip_one(position.red), flip_one(position.kings)
    return red & ~kings, red & kings, white & ~kings, white & kings


def test_indices_turn_back_into_the_positions_the_slice_enumerates_and_rank_inverts_them() -> None:
    for pieces in (2, 3, 4):
        for s in slices(pieces):
            codec = Codec(s)
            rm, rk, wm, wk, valid = codec.unrank(np.arange(codec.size, dtype=np.int64))
            expected = enumerate_slice(s)
            assert np.array_equal(valid, expected[4]), s
            for got, want in zip((rm, rk, wm, wk), expected[:4], strict=True):
                assert np.array_equal(got[valid], want[valid]), s
            assert np.array_equal(rank(s, rm[valid], rk[valid], wm[valid], wk[valid]), np.nonzero(valid)[0]), s
    for s in SAMPLE_SLICES:
        idx, rm, rk, wm, wk = _sample(s, 2000, 3)
        assert np.array_equal(rank(s, rm, rk, wm, wk), idx), s


def test_quiet_moves_taken_back_are_exactly_the_quiet_moves_that_do_not_crown() -> None:
    """Forwards with the board's generator, backwards with :func:`unmoves`: the same edges both ways."""
    for s in SAMPLE_SLICES:
        _, rm, rk, wm, wk = _sample(s, 150, 5)
        # backwards: every position found moves into the given one (when it has no jump)
        p, prm, prk, pwm, pwk = unmoves(rm, rk, wm, wk)
        jumps = has_capture(prm, prk, pwm, pwk)
        for j in range(len(p)):
            before = _red_to_move(int(prm[j]), int(prk[j]), int(pwm[j]), int(pwk[j]))
            target = (int(rm[p[j]]), int(rk[p[j]]), int(wm[p[j]]), int(wk[p[j]]))
            reached = {_after(before.push(m)) for m in before.legal_moves()}
            assert (target in reached) != bool(jumps[j]), before.fen()
        # forwards: every quiet move that does not crown is found again backwards
        for i in range(len(rm)):
            position = _red_to_move(int(rm[i]), int(rk[i]), int(wm[i]), int(wk[i]))
            moves = position.legal_moves()
            if moves and moves[0].is_capture:
                continue
            own = (int(rm[i]), int(rk[i]), int(wm[i]), int(wk[i]))
            inner = 0
            for move in moves:
                if position.push(move).kings.bit_count() > position.kings.bit_count():
                    continue  # crowns: leads out of the slice
                inner += 1
                after = [np.array([x], dtype=np.uint32) for x in _after(position.push(move))]
                _, *back = unmoves(*after)
                assert own in {tuple(int(b[k]) for b in back) for k in range(len(back[0]))}, position.fen()
            counted, crowning = quiet_counts(*(np.array([x], dtype=np.uint32) for x in own))
            assert (int(counted[0]), int(counted[0]) + int(crowning[0])) == (inner, len(moves)), position.fen()


def test_two_worker_processes_build_the_same_database_as_one() -> None:
    one, two = build(3), build(3, workers=2)
    for pieces in (2, 3):
        for s in slices(pieces):
            assert np.array_equal(one.values[s], two.values[s]), s
            assert np.array_equal(one.distances[s], two.distances[s]), s


# ---------------------------------------------------------------- where the 5-piece database is built


def test_the_five_piece_database_gives_every_forced_jump_position_its_known_value(
    checkers_db: EndgameDatabase, checkers_db5: EndgameDatabase
) -> None:
    """600 positions whose value the 4-piece database gives after the forced jump (engines/checkers/sets.py)."""
    known = forced_jump_set(checkers_db, per_value=200, seed=14)
    assert len(known) == 600
    for k in known:
        probe = checkers_db5.probe(k.position)
        assert probe is not None and probe.value == k.value, k.position.fen()


def test_five_piece_values_agree_with_their_successors_by_the_board_move_generator(
    checkers_db5: EndgameDatabase,
) -> None:
    """A sample of every 5-piece slice, both sides to move, checked with the board's moves (not the builder's)."""
    rng = random.Random(14)
    checked = 0
    for s in slices(5):
        _, rm, rk, wm, wk = _sample(s, 25, rng.randrange(1 << 30))
        for i in range(len(rm)):
            red, white, kings = int(rm[i] | rk[i]), int(wm[i] | wk[i]), int(rk[i] | wk[i])
            for position in (Position(red, white, kings, True), Position(flip_one(white), flip_one(red),
                                                                       flip_one(kings), False)):
                own = checkers_db5.probe(position)
                assert own is not None
                after = [checkers_db5.probe(position.push(m)) for m in position.legal_moves()]
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
    assert checked > 2000


def test_a_full_consistency_pass_over_two_five_piece_slices(checkers_db5: EndgameDatabase) -> None:
    report = VerifyReport()
    for s in ((0, 4, 1, 0), (1, 0, 0, 4)):
        verify_slice(checkers_db5.solved, s, report)
    assert report.positions > 1_000_000 and report.is_consistent, report.examples


@pytest.mark.parametrize("name, fen, result", [(n, f, r) for n, f, r, _ in PUBLISHED
                                               if Position.from_fen(f).piece_count == 5])
def test_published_five_piece_positions_have_the_published_value_in_the_database(
    checkers_db5: EndgameDatabase, name: str, fen: str, result: str
) -> None:
    probe = checkers_db5.probe(Position.from_fen(fen))
    assert probe is not None and probe.value == result, name
