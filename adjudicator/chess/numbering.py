"""The record's move numbers as evidence: which side made each move (FIDE 8.1, Appendix C.13).

A scoresheet numbers each pair of moves, and PGN marks Black's move after a break with
``12...``: ``12.`` says the next move is White's 12th, ``12...`` that it is Black's 12th.
The replay reads the moves in the order they are written, one side after the other, so
a number that does not match that order is evidence that the record and the order part:

- a number that **skips** a side or more (``1. Nf3 Nf6 2. Nc3 3. e3``: Black's 2nd move is
  not written; ``1... e5`` from the initial position: White's 1st is not; ``1. e4 2... c6``);
- a number that **repeats** (``2. Nf3 Nc6 2. Bb5``: a move written twice, or numbered twice);
- a record that starts with the other side (a set-up position with White to move whose
  record starts ``23... Kg7``).

Each is a :class:`NumberingGap` at the ply (of the moves as written, in order) of the first
move after it, with the two readings: the tokens in order (the replay), and the record with
the missing move(s), which nobody wrote. Bare numbers (``12`` without dots) say nothing about
the side and are not weighed. A set-up position's own move number is often not the game's, so
there only the side of the first numbered move is weighed, then the numbers from there on.

The same for checkers PDN (the first mover, Red or Black, makes the odd plies): see
:func:`gaps_in`, which takes the numbers and the first mover's place. No I/O.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_NUMBER = re.compile(r"(\d+)[ \t]*((?:\.|…)*)")


@dataclass(frozen=True)
class Slot:
    """A move's place in the game: its number and the side that makes it (``first``: the side that moves first)."""

    number: int
    first: bool

    @property
    def index(self) -> int:
        return 2 * (self.number - 1) + (0 if self.first else 1)

    @classmethod
    def at(cls, index: int) -> Slot:
        return cls(index // 2 + 1, index % 2 == 0)

    @property
    def written(self) -> str:
        """``2.`` or ``2...``."""
        return f"{self.number}{'.' if self.first else '...'}"

    def label(self, sides: tuple[str, str]) -> str:
        """``Black's move 2 (2...)`` in the game's side names."""
        side = sides[0] if self.first else sides[1]
        return f"{side.capitalize()}'s move {self.number} ({self.number}{'.' if self.first else '...'})"

    def to_json(self, sides: tuple[str, str]) -> dict[str, Any]:
        return {"number": self.number, "side": sides[0] if self.first else sides[1]}


@functools.lru_cache(maxsize=4096)
def _index(written: str) -> int:
    """:attr:`Slot.index` of the slot a written move number names, -1 for none (a record's numbers repeat
    across games: read each spelling once)."""
    slot = read_number(written)
    return -1 if slot is None else slot.index


def read_number(written: str | None) -> Slot | None:
    """The slot a written move number names: ``12.`` the first mover's 12th, ``12...`` (or ``12…``) the
    other side's; None for a bare number or none (no side is said)."""
    if not written:
        return None
    match = _NUMBER.fullmatch(written.strip())
    if match is None or not match.group(2) or int(match.group(1)) < 1:
        return None
    dots = match.group(2)
    return Slot(int(match.group(1)), dots == "." and "…" not in dots)


@dataclass(frozen=True)
class NumberingGap:
    """Where the written numbers and the order of the moves part."""

    ply: int
    """The ply (of the moves as written, in order) of the first move after the gap."""
    token: str
    """That move as written."""
    written: str
    """Its move number as written (``3.``)."""
    in_order: Slot
    """The place the tokens in order give the move."""
    numbered: Slot
    """The place its number gives it."""
    missing: tuple[Slot, ...]
    """The moves the record does not contain, if the numbers are right (none for a repeat)."""
    sides: tuple[str, str] = ("white", "black")

    @property
    def kind(self) -> str:
        """``missing-move`` (the number skips), or ``repeated-number`` (it goes back)."""
        return "missing-move" if self.missing else "repeated-number"

    @property
    def text(self) -> str:
        """The gap and its two readings, in an arbiter's words."""
        order = f"read in order, {self.token} is {self.in_order.label(self.sides)}"
        if self.missing:
            what = ", ".join(slot.label(self.sides) for slot in self.missing)
            return (f"the move number {self.written} before {self.token} skips: {what} "
                    f"{'is' if len(self.missing) == 1 else 'are'} not written. Two readings: {order}; "
                    f"by its number, {self.token} is {self.numbered.label(self.sides)}, after a move the record "
                    "does not contain")
        return (f"the move number {self.written} before {self.token} repeats an earlier one. Two readings: {order}; "
                f"by its number, it is {self.numbered.label(self.sides)} again (a move written twice, or corrected)")

    @property
    def readings(self) -> dict[str, str]:
        """The two readings around the gap, as a scoresheet writes them: ``2... e3`` (in order) and
        ``2... ? 3. e3`` (by the numbers, ``?`` for each move not written)."""
        missing = " ".join(f"{slot.written} ?" for slot in self.missing)
        return {"in_order": f"{self.in_order.written} {self.token}",
                "numbered": f"{missing + ' ' if missing else ''}{self.numbered.written} {self.token}"}

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "token": self.token, "written": self.written, "kind": self.kind,
            "readings": self.readings,
            "in_order": self.in_order.to_json(self.sides), "numbered": self.numbered.to_json(self.sides),
            "missing": [{"ply": self.ply, **slot.to_json(self.sides)} for slot in self.missing],
            "note": self.text,
        }


def gaps_in(
    numbers: Sequence[str | None], tokens: Sequence[str], first_to_move: bool, move_number: int | None,
    sides: tuple[str, str] = ("white", "black"),
) -> tuple[NumberingGap, ...]:
    """The numbering gaps of a record: ``numbers[i]`` the number written before move ``i`` (or None),
    ``tokens[i]`` the move; the start has ``first_to_move`` (the first mover to move) on move
    ``move_number`` (None: a set-up position, whose number is not weighed, only its side)."""
    gaps: list[NumberingGap] = []
    base: int | None = None if move_number is None else Slot(move_number, first_to_move).index
    start_first = first_to_move
    for ply, written in enumerate(numbers, start=1):  # ints until a gap: this runs on every game replayed
        if not written:
            continue
        index = _index(written)
        if index < 0:
            continue
        if base is None:  # a set-up position: the first numbered move sets the count if its side is right
            if (index % 2 == 0) == (start_first == (ply % 2 == 1)):
                base = index - (ply - 1)
                continue
            # the other side is to move: in order, the move is the one before the numbered one
            base = index - 1 - (ply - 1)
        expected = base + ply - 1
        if index != expected:
            missing = tuple(Slot.at(i) for i in range(expected, index))
            token = tokens[ply - 1] if ply <= len(tokens) else ""
            gaps.append(NumberingGap(ply, token, written, Slot.at(expected), Slot.at(index), missing, sides))
            base = index - (ply - 1)
    return tuple(gaps)
