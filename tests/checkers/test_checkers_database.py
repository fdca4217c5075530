"""The endgame database: every value agrees with its successors', textbook endings, and the counts."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from adjudicator.checkers.board import Position
from engines.checkers.build import build
from engines.checkers.database import EndgameDatabase, build_database
from engines.checkers.index import enumerate_slice, slices


def test_two_kings_beat_one_and_king_against_king_draws(checkers_db: EndgameDatabase) -> None:
    assert checkers_db.probe(Position.from_fen("B:WK14:BK1")).value == "draw"  # type: ignore[union-attr]
    win = checkers_db.probe(Position.from_fen("B:WK14:BK1,K32"))
    assert win is not None and win.is_win and win.plies > 0
    lost = checkers_db.probe(Position.from_fen("W:WK14:BK1,K32"))
    assert lost is not None and lost.is_loss


def test_two_kings_cannot_force_the_lone_king_out_of_the_double_corner_only_if_it_is_reached() -> None:
    # Three pieces: solved in a second here, independently of the session database.
    db = EndgameDatabase.build_in_memory(3)
    probe = db.probe(Position.from_fen("W:WK5,K10:BK28"))
    assert probe is not None and probe.is_win


def test_first_position_is_a_win_for_the_side_with_the_move(checkers_db: EndgameDatabase) -> None:
    """Payne's First Position: White K15 and man 20 against Red K28 and man 12, White to move wins."""
    position = Position.from_fen("W:W20,K15:B12,K28")
    probe = checkers_db.probe(position)
    assert probe is not None and probe.is_win
    line = checkers_db.line(position, max_plies=200)
    end = position
    for move in line:
        assert move in end.legal_moves()
        end = end.push(move)
    assert not end.red or not end.legal_moves()  # Red is out of pieces or moves: White has won
    assert len(line) == probe.plies


def test_every_value_agrees_with_its_successors(checkers_db: EndgameDatabase) -> None:
    """Consistency pass on a sample of every slice up to 4 pieces: win iff a successor loses, and so on."""
    rng = random.Random(5)
    checked = 0
    for pieces in (2, 3, 4):
        for s in slices(pieces):
            rm, rk, wm, wk, valid = enumerate_slice(s)
            indices = np.nonzero(valid)[0]
            for i in rng.sample(list(indices), min(60, len(indices))):
                red, white, kings = int(rm[i] | rk[i]), int(wm[i] | wk[i]), int(rk[i] | wk[i])
                for red_to_move in (True, False):
                    position = Position(red, white, kings, red_to_move) if red_to_move else Position(
                        red, white, kings, False)
                    if not checkers_db.contains(position):
                        continue
                    own = checkers_db.probe(position)
                    assert own is not None
                    after = [checkers_db.probe(position.push(m)) for m in position.legal_moves()]
                    values = [a.value for a in after if a is not None]
                    assert len(values) == len(after)
                    if not values or all(v == "win" for v in values):
                        assert own.value == "loss", position.fen()
                        assert own.plies == 1 + max([a.plies for a in after if a], default=-1), position.fen()
                    elif "loss" in values:
                        assert own.value == "win", position.fen()
                        assert own.plies == 1 + min(a.plies for a in after if a and a.is_loss), position.fen()
                    else:
                        assert own.value == "draw", position.fen()
                    checked += 1
    assert checked > 4000


def test_win_loss_draw_counts_match_an_independent_pure_python_solver(checkers_db: EndgameDatabase) -> None:
    """Totals for Red to move, both sides present (shared/notes/checkers.md section 4: a separate prototype)."""
    totals = {"win": 0, "loss": 0, "draw": 0}
    for pieces in (2, 3, 4):
        for key, value in checkers_db.counts(pieces).items():
            totals[key] += value
    assert totals == {"win": 2_675_270, "loss": 2_004_797, "draw": 1_728_769}


def test_the_in_memory_build_agrees_with_the_saved_one(checkers_db: EndgameDatabase) -> None:
    small = EndgameDatabase(build(3), 3)
    for fen in ("B:W28:B1", "W:WK28,K27:BK32", "B:W18,K30:BK3", "W:W32:B5,K9"):
        position = Position.from_fen(fen)
        assert small.probe(position) == checkers_db.probe(position)


@pytest.mark.parametrize("fen", ["B:WK5:B32", "W:W1:BK9", "B:W21-32:B1-12"])
def test_positions_outside_the_database_are_not_answered(checkers_db: EndgameDatabase, fen: str) -> None:
    assert checkers_db.probe(Position.from_fen(fen)) is None


def test_full_consistency_pass_over_every_position_up_to_four_pieces(checkers_db: EndgameDatabase) -> None:
    from engines.checkers.verify import verify

    report = verify(checkers_db.solved, 4)
    assert report.positions == 6_408_836
    assert report.is_consistent, report.examples


def test_the_vectorised_move_generator_agrees_with_the_board(checkers_db: EndgameDatabase) -> None:
    """The database's NumPy moves give the same successors as the project's move generator."""
    from engines.checkers.index import flip_one
    from engines.checkers.moves import captures, has_capture, quiet_moves

    rng = np.random.default_rng(11)
    for s in [(1, 1, 1, 1), (0, 2, 2, 0), (2, 0, 1, 1), (0, 3, 1, 0), (1, 0, 3, 0)]:
        rm, rk, wm, wk, valid = enumerate_slice(s)
        idx = rng.choice(np.nonzero(valid)[0], 300, replace=False)
        rm, rk, wm, wk = rm[idx], rk[idx], wm[idx], wk[idx]
        cap = has_capture(rm, rk, wm, wk)
        got: dict[int, set[tuple[int, int, int]]] = {i: set() for i in range(len(idx))}
        ci = np.nonzero(cap)[0]
        p, a, b, c, d = captures(rm[ci], rk[ci], wm[ci], wk[ci])
        for j in range(len(p)):
            got[int(ci[p[j]])].add((int(a[j] | b[j]), int(c[j] | d[j]), int(b[j] | d[j])))
        qi = np.nonzero(~cap)[0]
        p, a, b, c, d, _ = quiet_moves(rm[qi], rk[qi], wm[qi], wk[qi])
        for j in range(len(p)):
            got[int(qi[p[j]])].add((int(a[j] | b[j]), int(c[j] | d[j]), int(b[j] | d[j])))
        for i in range(len(idx)):
            position = Position(int(rm[i] | rk[i]), int(wm[i] | wk[i]), int(rk[i] | wk[i]), True)
            expected = set()
            for move in position.legal_moves():
                after = position.push(move)  # White to move: turn it to Red to move
                expected.add((flip_one(after.white), flip_one(after.red), flip_one(after.kings)))
            assert got[i] == expected, position.fen()


def test_three_kings_beat_two_with_the_five_piece_database(checkers_db5: EndgameDatabase) -> None:
    """Only where the user has built the 5-piece database (``adjudicator build-db --pieces 5``)."""
    probe = checkers_db5.probe(Position.from_fen("B:WK14,K23:BK1,K32,K5"))
    assert probe is not None and probe.is_win
    assert checkers_db5.probe(Position.from_fen("B:WK14,K23:BK1,K32")).value == "draw"  # type: ignore[union-attr]


def test_a_file_is_inflated_once_per_process_read_only_and_again_when_it_changes(tmp_path: Path) -> None:
    """Each committee case opens the database anew: the slices of a ``.npz`` file are shared, not inflated again
    (five pieces take seconds), and cannot be written through one database under another."""
    from engines.checkers import database

    build_database(tmp_path, 3)
    path = tmp_path / "wld-3.npz"
    first = EndgameDatabase.open(tmp_path)
    probe = first.probe(Position.from_fen("W:WK14,K23:BK1"))
    assert probe is not None and probe.is_win
    shared = database.inflated(path, 3)
    assert EndgameDatabase.open(tmp_path).probe(Position.from_fen("W:WK14,K23:BK1")) == probe
    assert database.inflated(path, 3) is shared
    values, _distances = next(iter(shared.values()))
    with pytest.raises(ValueError, match="read-only"):
        values[0] = 0
    os.utime(path, ns=(0, 0))  # the file changed (a rebuild): read again
    assert database.inflated(path, 3) is not shared
