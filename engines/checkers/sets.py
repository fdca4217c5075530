"""Test positions with known values beyond the database: positions that must jump into it.

A five-piece position whose side to move has a jump must take (ACF: jumps are
compulsory), and every jump leaves at most four pieces: its exact value is the best,
for the side to move, of the database values after each jump. The set is drawn at
random (seeded) over all 5-piece material signatures, both sides to move. The same
with seven pieces jumping into the 6-piece database.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from adjudicator.checkers.board import Position
from engines.checkers.database import EndgameDatabase
from engines.checkers.index import slices


@dataclass(frozen=True)
class KnownPosition:
    position: Position
    value: str
    """``win``, ``loss`` or ``draw`` for the side to move, from the database after the forced jump."""


def value_after_forced_jump(position: Position, database: EndgameDatabase) -> str | None:
    """The exact value when every legal move is a jump into the database, else None."""
    moves = position.legal_moves()
    if not moves or not moves[0].is_capture:
        return None
    after = [database.probe(position.push(m)) for m in moves]
    if any(a is None for a in after):
        return None
    if any(a is not None and a.is_loss for a in after):
        return "win"
    if any(a is not None and a.is_draw for a in after):
        return "draw"
    return "loss"


def random_position(rng: random.Random, signature: tuple[int, int, int, int], red_to_move: bool) -> Position:
    """Red men on 1-28 and White men on 5-32 (never on their crowning rows), kings on any free square."""
    a, c, b, d = signature
    squares = set(range(32))
    red_men = rng.sample(range(28), a)
    squares -= set(red_men)
    white_men = rng.sample(sorted(squares - set(range(4))), b)
    squares -= set(white_men)
    kings = rng.sample(sorted(squares), c + d)
    red = sum(1 << q for q in red_men + kings[:c])
    white = sum(1 << q for q in white_men + kings[c:])
    return Position(red, white, sum(1 << q for q in kings), red_to_move)


def forced_jump_set(
    database: EndgameDatabase, per_value: int, seed: int = 14, pieces: int = 5
) -> list[KnownPosition]:
    """``per_value`` positions of each value (win, loss, draw), drawn evenly over the ``pieces``-piece signatures
    (5: the 600-position set, into the 4-piece database; 7: into the 6-piece one)."""
    rng = random.Random(seed)
    found: dict[str, list[KnownPosition]] = {"win": [], "loss": [], "draw": []}
    signatures = slices(pieces)
    tries = 0
    while min(len(v) for v in found.values()) < per_value and tries < 2_000_000:
        tries += 1
        position = random_position(rng, signatures[tries % len(signatures)], rng.random() < 0.5)
        value = value_after_forced_jump(position, database)
        if value is not None and len(found[value]) < per_value:
            found[value].append(KnownPosition(position, value))
    return [k for v in ("win", "loss", "draw") for k in found[v]]
