"""The evaluation's "favours X" as a measured chance that X wins (issue 14: never confidently wrong).

The alpha-beta score of an unproven position is not a result. What it is worth was
measured on endgame-database positions searched with one piece more than the
database at their leaves (``engines/checkers/calibrate.py``, ``python3 bench/checkers.py
--calibrate``): per band of the score, how often the side it favours wins. The chance
reported is the lower 90% Wilson bound of that rate, so that it errs low, never high;
it is capped at :data:`CAP` (below the 0.8 this project calls confident), and lower still
at :data:`CAP_UNMEASURED` with more pieces than were measured. An evaluation is never a
confident call: only a proof is.
"""

from __future__ import annotations

import math

BANDS: tuple[int, ...] = (1, 40, 80, 130, 200, 300)
"""Lower bounds of the bands of ``abs(score)`` (hundredths of a man)."""
MEASURED: tuple[tuple[int, int], ...] = ((19, 108), (19, 28), (151, 151), (274, 274), (119, 119), (0, 0))
"""(favoured-side wins, positions) per band: 748 four-piece positions (3-piece leaves, seed 101) and 720
three-piece ones (2-piece leaves, seed 102), 2,000 nodes a search; unproven ones only. The favoured side
lost none; at scores under 40 most were draws (19 wins, 89 draws)."""
CAP = 0.75
"""The highest chance reported where it was measured (one piece beyond the database at the leaves).

Below 0.8, the level this project calls confident. The measured rates reach 1.0 for a man ahead,
but they do not carry over: W. Grey's published draw (5 pieces, White a man up, Boland's *Famous
Positions*) scores -80, which the table alone would call 0.98 for White."""
CAP_UNMEASURED = 0.6
"""The highest chance reported with more pieces than that (never measured)."""
MEASURED_BEYOND = 1


def band_of(score: int) -> int:
    magnitude = abs(score)
    return max(i for i, low in enumerate(BANDS) if magnitude >= low) if magnitude >= BANDS[0] else 0


def wilson_lower(wins: int, total: int, z: float = 1.645) -> float:
    if total == 0:
        return 0.0
    p = wins / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return (centre - spread) / (1 + z * z / total)


def win_probability(score: int, pieces: int, database_pieces: int = 4) -> float:
    """The measured chance (lower bound) that the side the score favours wins; monotone in the score.

    ``pieces`` on the board, ``database_pieces`` in the database at the leaves: beyond one piece
    more than the database the chance is capped at :data:`CAP_UNMEASURED`.
    """
    best = 0.0
    for i in range(band_of(score) + 1):
        best = max(best, wilson_lower(*MEASURED[i]))
    cap = CAP if pieces <= database_pieces + MEASURED_BEYOND else CAP_UNMEASURED
    return round(min(cap, best), 2)
