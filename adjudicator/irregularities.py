"""Which illegal move of a record an illegal-move ruling is about: the first irregularity (FIDE 7.5.1; US Chess 11A;
ACF Standard Laws, improper moves). Shared by chess and checkers; no game rules here, only the order of plies.

FIDE 7.5.1 reinstates "the position immediately before the irregularity": when the record holds an
illegal move before the one the claim names, that earlier move is the irregularity. A move that can
no longer be corrected (FIDE A.5.2 after the opponent's reply, US Chess 11B before the last ten moves,
the checkers referee's window) stands with the moves after it, and the first one that still can be
corrected is the irregularity. When the claim names a legal move, the illegal moves the arbiter finds
while replaying the record to check it are ruled on ("if during a game it is found").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class PlyLike(Protocol):
    @property
    def number(self) -> int: ...

    @property
    def side(self) -> str: ...


P = TypeVar("P", bound=PlyLike)


@dataclass(frozen=True)
class Choice(Generic[P]):
    """The ply ruled on (None: the record has no illegal move and none is named), and the illegal plies
    before it that stand."""

    ply: P | None
    anchor: P | None
    """The move the claim is about: the one it names, else the claimant's opponent's first illegal move."""
    stood: tuple[P, ...] = ()


def choose(
    plies: Sequence[P], is_illegal: Callable[[P], bool], is_correctable: Callable[[P], bool],
    alleged: int | None, claimant: str | None,
) -> Choice[P]:
    """The first irregularity, as the module docstring says.

    ``alleged``: the ply the claim names (1-based), if any; ``claimant``: the side claiming, if known (without an
    alleged ply the claim is about the claimant's opponent's moves).
    """
    illegal = [p for p in plies if is_illegal(p)]
    anchor: P | None = None
    if alleged is not None:
        anchor = plies[alleged - 1]
    elif claimant is not None:  # the claim is about the opponent's moves: the one still correctable first
        theirs = [p for p in illegal if p.side != claimant]
        anchor = next((p for p in theirs if is_correctable(p)), theirs[0] if theirs else None)
    pool = illegal if anchor is None else [p for p in illegal if p.number <= anchor.number]
    if anchor is not None and not pool:  # the named move was legal: what replaying the record finds after it
        pool = [p for p in illegal if p.number > anchor.number and is_correctable(p)]
        if not pool:
            return Choice(anchor, anchor)
    if not pool:
        return Choice(None, None)
    open_ = [p for p in pool if is_correctable(p)]
    if open_:
        ply = open_[0]
    elif anchor is not None and is_illegal(anchor):
        ply = anchor
    else:
        ply = pool[0]
    return Choice(ply, anchor, tuple(p for p in illegal if p.number < ply.number))
