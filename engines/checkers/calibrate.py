"""Measuring the evaluation against the endgame database: how often the side it favours really wins.

Positions with ``n`` pieces are drawn at random from the database (their exact value
known) and searched with only the ``n - 1``-piece database at the leaves, so the
search is where it is beyond a database in play: one piece more than it can see.
Searches that prove a result are left out (a proof is not an evaluation). Each
position's score falls in a band of :data:`adjudicator.checkers.calibration.BANDS`;
per band the count of favoured-side wins, draws and losses gives the win rate.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from adjudicator.checkers.board import Position
from adjudicator.checkers.calibration import BANDS, band_of, win_probability
from engines.checkers.database import EndgameDatabase
from engines.checkers.index import enumerate_slice, slices
from engines.checkers.search import PROVEN, Searcher


@dataclass
class Band:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    confidences: list[float] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.wins + self.draws + self.losses


def sample_positions(database: EndgameDatabase, pieces: int, per_slice: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for s in slices(pieces):
        rm, rk, wm, wk, valid = enumerate_slice(s)
        indices = np.nonzero(valid)[0]
        for i in rng.sample(list(indices), min(per_slice, len(indices))):
            position = Position(int(rm[i] | rk[i]), int(wm[i] | wk[i]), int(rk[i] | wk[i]), rng.random() < 0.5)
            if database.contains(position) and position.legal_moves():
                out.append(position)
    return out


def measure(
    full: EndgameDatabase, leaves: EndgameDatabase, positions: list[Position], nodes: int = 2_000
) -> dict[int, Band]:
    """Per score band: the favoured side's wins, draws and losses, and the confidence reported for each."""
    bands = {i: Band() for i in range(len(BANDS))}
    for position in positions:
        result = Searcher(leaves, nodes).search(position)
        if abs(result.score) >= PROVEN or result.score == 0:
            continue
        truth = full.probe(position)
        assert truth is not None
        favoured_wins = truth.is_win if result.score > 0 else truth.is_loss
        favoured_loses = truth.is_loss if result.score > 0 else truth.is_win
        band = bands[band_of(result.score)]
        band.wins += favoured_wins
        band.losses += favoured_loses
        band.draws += not favoured_wins and not favoured_loses
        band.confidences.append(win_probability(result.score, position.piece_count, leaves.max_pieces))
    return bands
