"""Words the rulings share, written once: ordinals and counts (clock times are
:func:`adjudicator.clocks.hms`)."""

from __future__ import annotations


def ordinal(n: int) -> str:
    """``first`` ... ``fifth``, then ``6th``: an occurrence of a position (FIDE 9.2, ACF draw rule (a))."""
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
