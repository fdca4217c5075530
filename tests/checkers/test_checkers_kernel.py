"""The compiled database kernel: the NumPy builder's bytes, the block file, and a check that catches errors.

The kernel (``engines/checkers/egdb.h``) is built by the set-up (``setup.py``); these tests
are skipped where it is not. The six-piece database is built with it, so whatever it does
on 2-5 pieces here it does on six: the same solver, the same file format (a 4-piece block
file below), the same check.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from adjudicator.checkers.board import Position
from engines.checkers import compiled
from engines.checkers.build import Solved, build, solve_pair_arrays, unpack_at
from engines.checkers.database import EndgameDatabase, available_pieces, build_database, load_into, save_stored
from engines.checkers.index import (
    CHINOOK_POSITIONS,
    Codec,
    canonical,
    one_sided_positions,
    pairs,
    positions_in_slice,
    slice_size,
    slices,
)
from engines.checkers.store import BlockFile, key
from tests.parts import missing

if not compiled.COMPILED:
    missing("the compiled checkers kernel", "setup.py builds it with the C compiler (pip install -e ., .ci/install)",
            module=True)


@pytest.fixture(scope="module")
def small(checkers_db_folder: Path) -> Solved:
    """Up to 4 pieces: the set-up's files (their values against the board's own moves in
    test_checkers_database.py, their counts against an independent solver's)."""
    solved = Solved()
    load_into(solved, checkers_db_folder, 4)
    return solved


def test_the_kernel_solves_every_slice_up_to_four_pieces_to_the_numpy_builders_bytes(small: Solved) -> None:
    """Every slice up to 3 pieces and the seven smallest 4-piece pairs (every kind: men only, kings only, men
    and kings, crownings) solved by the NumPy builder here; every slice up to 4 against the set-up's file."""
    solved = Solved()
    for pieces in (2, 3, 4):
        compiled.build_count(solved, pieces, workers=2 if pieces == 4 else 1)
    assert set(solved.values) == set(small.values)
    numpy_built = build(3)
    for s in numpy_built.values:
        assert np.array_equal(solved.values[s], numpy_built.values[s]), s
        assert np.array_equal(solved.distances[s], numpy_built.distances[s]), s
    for s, t in sorted(pairs(4), key=lambda p: slice_size(p[0]))[:7]:
        for x, (values, distances) in solve_pair_arrays(solved, s, t).items():
            assert np.array_equal(solved.values[x], values), x
            assert np.array_equal(solved.distances[x], distances), x
    for s in small.values:
        assert np.array_equal(solved.values[s], small.values[s]), s
        assert np.array_equal(solved.distances[s], small.distances[s]), s


def test_five_piece_pairs_solved_by_the_kernel_are_the_numpy_builders(checkers_db_folder: Path) -> None:
    """Pairs of each kind (kings only; men only, crowning; men and a king against men, crowning) solved by
    both builders on the same slices below (the set-up's file, which the kernel itself may have built): the
    same bytes. The smallest pair of each kind, so that the NumPy builder takes a few seconds."""
    if available_pieces(checkers_db_folder) < 5:
        missing("the 5-piece checkers database", "adjudicator build-db --pieces 5 (.ci/install.d)")
    solved = Solved()
    load_into(solved, checkers_db_folder, 5)
    chosen = [((0, 1, 0, 4), (0, 4, 0, 1)), ((1, 0, 4, 0), (4, 0, 1, 0)), ((0, 1, 4, 0), (4, 0, 0, 1))]
    tables = compiled._tables(solved)
    for s, t in chosen:
        out = compiled.kernel.solve(tables, s, t)  # type: ignore[union-attr]
        numpy_built = solve_pair_arrays(solved, s, t)
        for x, (values, full, _, _) in zip((s, t), out, strict=True):
            assert np.array_equal(values, numpy_built[x][0]), x
            assert np.array_equal(full, numpy_built[x][1]), x


def test_the_positions_of_every_slice_are_chinooks_count() -> None:
    """Per slice: the builder's count of its positions (indices whose men do not overlap) against a formula;
    per number of pieces, with the one-sided positions, the figure the Chinook team published."""
    for pieces in range(2, 7):
        found = 0
        for s in slices(pieces):
            counted = compiled.kernel.positions(s)  # type: ignore[union-attr]
            assert counted == positions_in_slice(s), s
            found += counted
        assert found + one_sided_positions(pieces) == CHINOOK_POSITIONS[pieces], pieces


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, small: Solved) -> Path:
    """Four pieces built as the six-piece database is: slice by slice into a block file."""
    folder = tmp_path_factory.mktemp("stored4")
    build_database(folder, 3)
    lower = Solved()
    load_into(lower, folder, 3)
    figures = compiled.build_six(folder, lower, workers=2, pieces=4)
    save_stored(folder, 4, figures, 0.0)
    return folder


def test_the_block_file_holds_the_values_and_the_distances_of_lost_quiet_positions(
    stored: Path, small: Solved
) -> None:
    store = BlockFile(stored / "wld-4.egdb")
    for s in slices(4):
        values, kept = store.arrays(key(s))
        assert np.array_equal(values, small.values[s]), s
        idx = np.arange(slice_size(s))
        rm, rk, wm, wk, valid = Codec(s).unrank(idx)
        from engines.checkers.moves import has_capture

        quiet_loss = valid & ~has_capture(rm, rk, wm, wk) & (unpack_at(small.values[s], idx) == 2)
        assert np.array_equal(kept[quiet_loss], small.distances[s][quiet_loss]), s
        assert not kept[~quiet_loss].any(), s
        entry = store.slices[key(s)]
        assert entry["positions"] == positions_in_slice(s)
        assert entry["wins"] + entry["losses"] + entry["draws"] == entry["positions"]


def test_probes_of_the_block_file_follow_every_distance_not_kept(stored: Path, checkers_db: EndgameDatabase) -> None:
    db = EndgameDatabase.open(stored)
    assert db.max_pieces == 4 and db.store(4) is not None
    rng = np.random.default_rng(25)
    checked = 0
    for s in slices(4):
        codec = Codec(s)
        rm, rk, wm, wk, valid = codec.unrank(rng.integers(0, codec.size, 200))
        for i in np.nonzero(valid)[0]:
            red, white, kings = int(rm[i] | rk[i]), int(wm[i] | wk[i]), int(rk[i] | wk[i])
            position = Position(red, white, kings, bool(i % 2))
            if not position.red_to_move:  # the same position, White to move (rotated)
                from engines.checkers.index import flip_one

                position = Position(flip_one(white), flip_one(red), flip_one(kings), False)
            assert db.probe(position) == checkers_db.probe(position), position.fen()
            checked += 1
    assert checked > 3000


def test_the_check_of_the_block_file_finds_every_position_consistent(stored: Path, small: Solved) -> None:
    lower = Solved()
    load_into(lower, stored, 3)
    report = compiled.check_six(stored, lower, workers=2, pieces=4)
    assert report.is_consistent, report.examples
    assert report.positions == sum(positions_in_slice(s) for s in slices(4))
    assert all(c["positions"] == positions_in_slice(tuple(int(x) for x in k.split("_")))  # type: ignore[arg-type]
               for k, c in report.counts.items())


def test_the_check_finds_a_wrong_value_and_a_wrong_distance(small: Solved) -> None:
    broken = Solved({s: v.copy() for s, v in small.values.items()}, {s: d.copy() for s, d in small.distances.items()})
    s = (1, 1, 1, 1)
    idx = np.arange(slice_size(s))
    values = unpack_at(broken.values[s], idx)
    won = int(np.nonzero(values == 1)[0][0])  # a won position made drawn
    broken.values[s][won >> 2] |= np.uint8(3 << ((won & 3) * 2))
    lost = int(np.nonzero((values == 2) & (broken.distances[s] > 2))[0][0])  # a loss one ply longer
    broken.distances[s][lost] += 1
    report = compiled.check_solved(broken, 4)
    assert report.bad_values >= 1 and report.bad_distances >= 1
    assert f"slice {s} index {won}" in report.examples


def test_the_compiled_check_and_the_numpy_check_agree_position_by_position(small: Solved) -> None:
    """The kernel's successor check (the one run on six pieces) and the independent NumPy check
    (:mod:`engines.checkers.verify`, the board's move tables) give the same counts, slice by slice, on every slice
    up to 3 pieces and on four 4-piece slices, with wrong values and distances planted: the same positions
    checked, the same wrong values and distances (the planted ones and the predecessors they mislead), the same
    first wrong indices."""
    from engines.checkers.verify import VerifyReport, verify_slice

    broken = Solved({s: v.copy() for s, v in small.values.items()}, {s: d.copy() for s, d in small.distances.items()})
    rng = np.random.default_rng(25)
    planted = 0
    for s in [(1, 1, 1, 0), (0, 2, 1, 0), (1, 1, 1, 1), (2, 0, 2, 0), (0, 2, 1, 1)]:
        idx = np.arange(slice_size(s))
        values = unpack_at(broken.values[s], idx)
        wins = np.nonzero(values == 1)[0]
        for i in rng.choice(wins, min(3, len(wins)), replace=False):  # wins made draws
            broken.values[s][i >> 2] |= np.uint8(3 << ((int(i) & 3) * 2))
        losses = np.nonzero((values == 2) & (broken.distances[s] > 0))[0]
        for i in rng.choice(losses, min(3, len(losses)), replace=False):
            broken.distances[s][i] += 2  # losses two plies longer
        planted += min(3, len(wins)) + min(3, len(losses))
    tables = compiled._tables(broken)
    chosen = [s for n in (2, 3) for s in slices(n)] + [(1, 1, 1, 1), (2, 0, 2, 0), (0, 2, 1, 1), (1, 0, 2, 1)]
    wrong = 0
    for s in chosen:
        mine = compiled.kernel.check(tables, s, 0, slice_size(s))  # type: ignore[union-attr]
        theirs = VerifyReport()
        verify_slice(broken, s, theirs)
        assert (mine[0], mine[1], mine[2]) == (theirs.positions, theirs.bad_values, theirs.bad_distances), s
        assert [f"slice {s} index {i}" for i in mine[4]] == [e.split(":")[0] for e in theirs.examples], s
        wrong += mine[1] + mine[2]
    assert planted >= 20 and wrong >= planted  # every planted error found (and the predecessors they mislead)


def test_every_pair_of_six_pieces_waits_only_for_slices_with_one_man_less() -> None:
    """The order the build relies on: a crowning leads into a 6-piece slice with fewer men."""
    for s, t in pairs(6):
        for x in (s, t):
            target = compiled.crown_target(x)
            if target is not None:
                assert sum(target) == 6 and target[0] + target[2] == x[0] + x[2] - 1


def test_the_kernels_moves_for_the_searches_are_the_boards() -> None:
    """Every legal move's position (one a jump path), its own number of moves and whether they are jumps, as the
    board (ACF Standard Laws) gives them, from positions of 2 to 12 pieces, either side to move; and the slice
    and index of the position as :func:`engines.checkers.index.canonical` gives them."""
    import collections
    import random

    from engines.checkers.sets import random_position

    rng = random.Random(25)
    signatures = [s for n in (2, 4, 6, 8, 10, 12) for s in slices(n) if s[0] <= 12 and s[2] <= 12]
    for i in range(3000):
        position = random_position(rng, signatures[i % len(signatures)], rng.random() < 0.5)
        mine = collections.Counter(
            (c, n, j) for c, n, j in compiled.kernel.children(*position))  # type: ignore[union-attr]
        theirs: collections.Counter[tuple[tuple[int, int, int, bool], int, bool]] = collections.Counter()
        for move in position.legal_moves():
            child = position.push(move)
            moves = child.legal_moves()
            theirs[(tuple(child), len(moves), bool(moves) and moves[0].is_capture)] += 1  # type: ignore[index]
        assert mine == theirs, position.fen()
        if position.piece_count <= 6:  # the database's positions
            assert compiled.kernel.canonical(*position) == canonical(position)  # type: ignore[union-attr]
