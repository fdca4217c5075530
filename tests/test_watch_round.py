"""The arbiter's watch on a live round written move by move on disk (issue 36; docs/watch.md).

The round (tests/watch_round.py) is written file by file as a DGT LiveChess export rewrites it, read by
:class:`web.watch.source.Source` after each write and watched by :class:`adjudicator.watch.Watcher`. For each
write, the alerts raised or withdrawn, under FIDE standard, FIDE rapid, US Chess, Sabah Active 30 and CalChess
(``shared/notes/watch.md``'s table: who must, may and must not call what).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.rulesets import RulesetBook
from adjudicator.watch import Watcher, WatchState
from adjudicator.watch.round import SourceFile
from tests.watch_round import pgn, steps
from web.watch.source import Source

Row = tuple[str, int | None, str, str, int, bool]
"""(the write that raised it, board, kind, action, ply, withdrawn)."""

COMMON: list[Row] = [
    ("missing clock", 2, "missing-clock", "check-board", 3, False),
    ("half-written", 2, "half-written", "check-board", 4, False),
    ("whole again", 2, "half-written", "check-board", 4, True),
    ("board 1 ply 8", 1, "threefold-available", "claimable", 8, False),
    ("take-back", 1, "take-back", "check-board", 8, False),
    ("take-back", 1, "threefold-available", "claimable", 8, True),
    ("board 1 ply 8", 1, "take-back", "check-board", 8, False),
    ("board 1 ply 8", 1, "threefold-available", "claimable", 8, False),
    ("board 1 ply 9", 1, "threefold-available", "claimable", 9, False),
    ("board 1 ply 10", 1, "threefold-available", "claimable", 10, False),
    ("board 1 ply 11", 1, "threefold-available", "claimable", 11, False),
    ("king moves", 4, "king-moves-at-result", "check-board", 8, False),
    ("board swap", 6, "board-moved", "check-board", 3, False),
]

BY_RULESET: dict[str, tuple[list[Row], dict[str, tuple[str, ...]]]] = {
    "fide-standard": ([
        ("board 1 ply 16", 1, "fivefold", "act", 16, False),
        ("flag", 3, "flag-down", "act", 5, False),
        ("illegal move", 7, "illegal-move", "check-board", 5, False),
    ], {"fivefold": ("FIDE 9.6.1",), "flag-down": ("FIDE 6.8", "FIDE 6.9"), "illegal-move": ("FIDE 7.5.1",)}),
    "fide-rapid": ([
        ("board 1 ply 16", 1, "fivefold", "act", 16, False),
        ("flag", 3, "flag-down", "do-not-call", 5, False),
        ("illegal move", 7, "illegal-move", "check-board", 5, False),
        ("reply", 7, "illegal-move", "check-board", 5, True),
        ("reply", 7, "illegal-move", "do-not-call", 5, False),
    ], {"flag-down": ("FIDE A.5.3",), "illegal-move": ("FIDE A.5.2",)}),
    "uschess": ([
        ("board 1 ply 16", 1, "fivefold", "may-act", 16, False),
        ("flag", 3, "flag-down", "do-not-call", 5, False),
        ("illegal move", 7, "illegal-move", "do-not-call", 5, False),
    ], {"fivefold": ("US Chess 14K",), "flag-down": ("US Chess 13C1",), "threefold-available": ("US Chess 14C",)}),
    "sabah-active30": ([
        ("board 1 ply 16", 1, "fivefold", "act", 16, False),
        ("flag", 3, "flag-down", "do-not-call", 5, False),
        ("illegal move", 7, "illegal-move", "do-not-call", 5, False),
    ], {"flag-down": ("Sabah Active 30 local rules v.5",), "illegal-move": ("Sabah Active 30 local rules v.5",)}),
    "calchess-scholastic": ([
        ("board 1 ply 16", 1, "fivefold", "may-act", 16, False),
        ("flag", 3, "flag-down", "do-not-call", 5, False),
        ("illegal move", 7, "illegal-move", "do-not-call", 5, False),
    ], {"flag-down": ("CalChess scholastic local rules (flag fall)",)}),
}


@pytest.mark.parametrize("ruleset_id", sorted(BY_RULESET))
def test_a_round_written_move_by_move(ruleset_id: str, book: RulesetBook, tmp_path: Path) -> None:
    watcher = Watcher(book[ruleset_id])  # type: ignore[arg-type]
    source = Source(str(tmp_path))
    state = WatchState()
    seen: list[Row] = []
    refs: dict[str, tuple[str, ...]] = {}
    for step in steps():
        step.write(tmp_path)
        alerts, state = watcher.watch(source.read(), state)
        for alert in alerts:
            seen.append((step.what, alert.board, alert.kind, alert.action, alert.ply, alert.withdrawn))
            refs.setdefault(alert.kind, alert.rule_refs)
            assert alert.players[0] and alert.players[1]
            if alert.is_fault:
                assert alert.action == "check-board"  # a source fault never raises an act
    extra, expected_refs = BY_RULESET[ruleset_id]
    key = [s.what for s in steps()]

    def order(row: Row) -> tuple[int, int, int]:
        return (key.index(row[0]), row[1] or 0, row[4])

    assert sorted(seen, key=order) == sorted(COMMON + extra, key=order)
    for kind, expected in expected_refs.items():
        assert refs[kind] == expected
    standing = {(a.board, a.kind, a.action, a.ply) for a in state.standing()}
    assert (1, "threefold-available", "claimable", 8) in standing
    assert not any(kind == "half-written" for _, kind, _, _ in standing)


def test_a_file_caught_half_written_then_rewritten_as_it_was_withdraws_the_warning(book: RulesetBook) -> None:
    """A tablet that rewrites the same copy: the file reads whole again with the very text of its last whole copy.
    The "half-written" warning is withdrawn then (docs/watch.md), not left on the arbiter's screen."""
    watcher = Watcher(book["fide-standard"])  # type: ignore[arg-type]
    whole = pgn(["d4", "d5", "c4", "e6"], 2, "Carla", "Dmitri")
    _alerts, state = watcher.watch([SourceFile("game-2.pgn", whole)], WatchState())
    caught, state = watcher.watch([SourceFile("game-2.pgn", whole[: whole.index("c4") + 2])], state)
    assert [(a.kind, a.withdrawn) for a in caught] == [("half-written", False)]
    again, state = watcher.watch([SourceFile("game-2.pgn", whole)], state)
    assert [(a.kind, a.withdrawn) for a in again] == [("half-written", True)]
    assert not any(a.kind == "half-written" for a in state.standing())


def test_each_game_is_read_again_only_when_its_text_changed(book: RulesetBook, tmp_path: Path) -> None:
    watcher = Watcher(book.chess("fide-standard"))
    source = Source(str(tmp_path))
    state = WatchState()
    for step in steps():
        step.write(tmp_path)
        _, state = watcher.watch(source.read(), state)
    again, after = watcher.watch(source.read(), state)
    assert again == []
    assert after.games == state.games
    board_1 = next(g for g in after.boards() if g.board == 1)
    assert board_1.last_move == "8...Ng8"
    assert board_1.players == ("Anna", "Boris")
    assert [g.board for g in after.boards()] == [1, 2, 3, 4, 6, 7]
