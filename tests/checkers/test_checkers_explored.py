"""What df-pn explored, solved backwards (engines/checkers/explored.py): every fact it stores is the database's.

Positions are searched with a database cut to fewer pieces at the leaves, so the search
is beyond its database, and every position the search (and the backward solving after
it) calls won or not won for the attacker is judged by the full database.
"""

from __future__ import annotations

import random

from adjudicator.checkers.board import Position
from engines.checkers.database import EndgameDatabase
from engines.checkers.dfpn import WinSearch
from engines.checkers.explored import settle
from engines.checkers.proof import prove
from engines.checkers.published import PUBLISHED
from engines.checkers.sets import random_position


def _attacker_wins(truth: EndgameDatabase, key: tuple[int, int, int, bool], attacker: bool) -> bool:
    probe = truth.probe(Position(*key))
    assert probe is not None
    return probe.is_win if key[3] == attacker else probe.is_loss


def _facts_agree(search: WinSearch, truth: EndgameDatabase) -> None:
    for key in search.proven:
        assert _attacker_wins(truth, key, search.attacker), Position(*key).fen()
    for key in search.disproven:
        assert not _attacker_wins(truth, key, search.attacker), Position(*key).fen()


def test_every_position_proven_or_disproven_after_solving_backwards_is_so_in_the_database(
    checkers_db5: EndgameDatabase,
) -> None:
    """Five-piece king endings and endings with men, 4 pieces at the leaves, a small df-pn budget, then the
    explored part solved backwards: its roots and every fact stored agree with the 5-piece database, and the
    backward solving settles roots df-pn left open."""
    four = EndgameDatabase(checkers_db5.solved, 4)
    rng = random.Random(25)
    signatures = [(0, 3, 0, 2), (0, 2, 0, 3), (0, 4, 0, 1), (1, 2, 0, 2), (2, 1, 1, 1), (0, 2, 2, 1)]
    settled_open: dict[bool, int] = {True: 0, False: 0}
    new_facts = 0
    for i in range(48):
        position = random_position(rng, signatures[i % len(signatures)], rng.random() < 0.5)
        if not position.legal_moves() or four.contains(position):
            continue
        for attacker in (True, False):
            search = WinSearch(four, attacker)
            found = search.solve(position, 100)
            backwards = settle(search, position)
            new_facts += backwards.proven + backwards.disproven
            if found is not None:
                assert backwards.value in (found, None)
            elif backwards.value is not None:
                settled_open[backwards.value] += 1
                assert backwards.value == _attacker_wins(checkers_db5, position.key, attacker), position.fen()
            _facts_agree(search, checkers_db5)
    assert new_facts > 100 and settled_open[True] + settled_open[False]


def test_a_repetition_that_holds_the_attacker_is_a_fact_once_the_explored_part_is_solved() -> None:
    """King against king, no database: Red holds by going round; df-pn keeps such a disproof only with the
    positions it leans on and has not closed it in 500 nodes; solved backwards, what it explored closes it."""
    search = WinSearch(None, attacker=False)
    position = Position.from_fen("W:WK14:BK1")
    assert search.solve(position, 500) is None
    backwards = settle(search, position)
    assert backwards.value is False and position.key in search.disproven
    assert search.solve(position, 1) is False  # a fact now, whatever the path


def test_thanksgiving_2011_is_proven_a_draw_with_its_line_to_a_database_draw(checkers_db6: EndgameDatabase) -> None:
    """Boland's Thanksgiving 2011 problem (eight men, White to play and draw): Red's winning attempts go round
    in king play; the draw is proven at the ACF budget, with the same line each time."""
    fen = next(f for name, f, _, _ in PUBLISHED if "Thanksgiving 2011" in name)
    position = Position.from_fen(fen)
    proof = prove(position, checkers_db6, 100_000)
    assert proof.value == "draw" and "Red cannot force a win" in proof.settled
    end = position
    for move in proof.line:
        assert move in end.legal_moves()
        end = end.push(move)
    assert proof.leaf is not None and proof.leaf.position == end and proof.leaf.value == "draw"
    assert checkers_db6.value_of(end) == "draw"
    assert prove(position, checkers_db6, 100_000).line == proof.line


def test_a_search_whose_table_is_capped_forgets_estimates_only_and_is_never_wrong(
    checkers_db5: EndgameDatabase,
) -> None:
    """Searches that keep at most 64 estimates (the half with the least work dropped past it), the explored
    part solved backwards after each turn: every settled root and every fact agrees with the 5-piece database."""
    four = EndgameDatabase(checkers_db5.solved, 4)
    rng = random.Random(26)
    signatures = [(0, 3, 0, 2), (0, 2, 0, 3), (1, 2, 0, 2), (2, 1, 1, 1)]
    settled = 0
    for i in range(24):
        position = random_position(rng, signatures[i % len(signatures)], rng.random() < 0.5)
        if not position.legal_moves() or four.contains(position):
            continue
        attacker = bool(i % 2)
        search = WinSearch(four, attacker, max_estimates=64)
        for _ in range(4):
            value = search.solve(position, 500)
            assert len(search.estimates) <= 64
            if value is None:
                value = settle(search, position).value
            if value is not None:
                assert value == _attacker_wins(checkers_db5, position.key, attacker), position.fen()
                settled += 1
                break
        _facts_agree(search, checkers_db5)
    assert settled >= 12


def test_six_piece_positions_proven_with_five_at_the_leaves_have_the_six_piece_database_value(
    checkers_db6: EndgameDatabase,
) -> None:
    """The whole proof (weak numbers, the explored part solved backwards, the closed part) on random six-piece
    positions with only 5 pieces at the leaves: every value proven is the 6-piece database's."""
    five = EndgameDatabase(checkers_db6.solved, 5)
    rng = random.Random(2026)
    signatures = [(0, 3, 0, 3), (0, 4, 0, 2), (1, 2, 1, 2), (2, 1, 2, 1), (3, 0, 3, 0), (2, 2, 0, 2)]
    proven = {"win": 0, "loss": 0, "draw": 0}
    for i in range(30):
        position = random_position(rng, signatures[i % len(signatures)], rng.random() < 0.5)
        truth = checkers_db6.probe(position)
        if truth is None or not position.legal_moves():
            continue
        proof = prove(position, five, 5_000)
        if proof.value is not None:
            assert proof.value == truth.value, position.fen()
            proven[proof.value] += 1
    assert proven["win"] + proven["loss"] and proven["draw"]
