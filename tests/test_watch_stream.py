"""The watch's stream of alerts adds up (property test, adjudicator/watch/round.py).

A game is written copy after copy, growing by a few plies or rewritten from an earlier ply (a take-back), in any
order the source may give. Whatever the copies, the alerts raised minus the alerts withdrawn are exactly the
alerts of the last copy read at once by a fresh watch (the source faults that happened between copies aside):
one position, one verdict, however the record arrived, and no alert left standing on moves taken back.
"""

from __future__ import annotations

import random

import chess
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.rulesets import RulesetBook
from adjudicator.watch import SourceFile, Watcher, WatchState
from adjudicator.watch.alerts import EVENTS
from tests.watch_round import pgn

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def game(seed: int, plies: int) -> list[str]:
    """A legal game: knights shuffled now and then (repetitions), random moves otherwise."""
    rng = random.Random(seed)
    board = chess.Board()
    sans: list[str] = []
    while len(sans) < plies and not board.is_game_over():
        shuffle = SHUFFLE[len(sans) % 4]
        try:
            move = board.parse_san(shuffle) if rng.random() < 0.6 else rng.choice(list(board.legal_moves))
        except ValueError:
            move = rng.choice(list(board.legal_moves))
        sans.append(board.san(move))
        board.push(move)
    return sans


@given(
    seeds=st.lists(st.integers(0, 10_000), min_size=1, max_size=4),
    cuts=st.lists(st.integers(1, 40), min_size=1, max_size=8),
    ruleset=st.sampled_from(["fide-standard", "fide-rapid", "uschess", "sabah-active30", "calchess-scholastic"]),
)
def test_raised_minus_withdrawn_is_the_last_copy_read_at_once(
    book: RulesetBook, seeds: list[int], cuts: list[int], ruleset: str,
) -> None:
    watcher = Watcher(book[ruleset])  # type: ignore[arg-type]
    state = WatchState()
    standing: set[tuple[str, int, str]] = set()
    text = ""
    for i, cut in enumerate(cuts):
        moves = game(seeds[i % len(seeds)], 40)[:cut]  # another seed rewrites the game from where they differ
        text = pgn(moves, 1, "Anna", "Boris", clocks=[600] * len(moves))
        alerts, state = watcher.watch([SourceFile("games.pgn", text)], state)
        for alert in alerts:
            if alert.kind in EVENTS:
                continue
            if alert.withdrawn:
                assert alert.key in standing
                standing.discard(alert.key)
            else:
                assert alert.key not in standing
                standing.add(alert.key)
    fresh, _ = Watcher(book[ruleset]).watch([SourceFile("games.pgn", text)], WatchState())  # type: ignore[arg-type]
    assert standing == {a.key for a in fresh}
