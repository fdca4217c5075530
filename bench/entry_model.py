"""Time models of move entry shared by bench/entry.py and bench/entry_checkers.py (issue 37, item 4).

Model B: the TD reads the move off the scoresheet, then scans the candidate row place by place, at
``SCAN_SECONDS`` (0.15 s) a place, until the move is found (rank r, counted from 1: r places scanned, then
one tap); a move not in the row costs the whole row's scan, then the board's taps. Board-only entry is
the board's taps alone. A tap costs ``TAP_SECONDS``: an assumption (0.5 s, a tap on a phone including the
aim), given on the command line (``--tap-seconds``) and printed with the figures. Reading the scoresheet
costs the same in both and is left out, so the saving printed is the share of the entry's own time.
"""

from __future__ import annotations

from collections.abc import Sequence

SCAN_SECONDS = 0.15
TAP_SECONDS = 0.5


def model_b(rank: int | None, shown: int, board_taps: int, tap: float = TAP_SECONDS,
            scan: float = SCAN_SECONDS) -> float:
    """Seconds to enter one ply with the candidate row (``rank`` from 0, None: not among the candidates)."""
    if rank is not None and 0 <= rank < shown:
        return (rank + 1) * scan + tap
    return shown * scan + board_taps * tap


def board_only(board_taps: int, tap: float = TAP_SECONDS) -> float:
    """Seconds to enter one ply by the board's taps alone."""
    return board_taps * tap


def rank_line(ranks: Sequence[int | None], shown: int) -> str:
    """The share of plies whose move is at each place of the row (1 to ``shown``) and not in it."""
    n = max(1, len(ranks))
    places = [sum(1 for r in ranks if r == i) / n for i in range(shown)]
    missing = sum(1 for r in ranks if r is None or r >= shown) / n
    return "  rank of the move in the row: " + " ".join(f"{i + 1}:{p:.1%}" for i, p in enumerate(places)) + \
        f" not shown:{missing:.1%}"


def model_lines(ranks: Sequence[int | None], board_taps: Sequence[int], shown: int, tap: float = TAP_SECONDS,
                scan: float = SCAN_SECONDS) -> list[str]:
    """Model B's seconds per ply with the row and by the board alone, and the saving, as printed."""
    n = max(1, len(ranks))
    with_row = sum(model_b(r, shown, t, tap, scan) for r, t in zip(ranks, board_taps, strict=True)) / n
    alone = sum(board_only(t, tap) for t in board_taps) / n
    saving = 1 - with_row / alone if alone else 0.0
    return [rank_line(ranks, shown),
            f"  model B ({scan:.2f} s a scanned place, {tap:.2f} s a tap): {with_row:.3f} s a ply with the row, "
            f"{alone:.3f} s by the board alone: {abs(saving):.1%} {'faster' if saving >= 0 else 'slower'} with the row"]
