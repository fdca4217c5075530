"""Time models of move entry shared by bench/entry.py and bench/entry_checkers.py (issue 37, item 4).

Model B: the TD reads the move off the scoresheet, then scans the candidate row place by place, at
``SCAN_SECONDS`` (0.15 s) a place, until the move is found (rank r, counted from 1: r places scanned, then
one tap); a move not in the row costs the whole row's scan, then the board's taps. Board-only entry is
the board's taps alone. A tap costs ``TAP_SECONDS``: an assumption (0.5 s, a tap on a phone including the
aim), given on the command line (``--tap-seconds``) and printed with the figures. Reading the scoresheet
costs the same in both and is left out, so the saving printed is the share of the entry's own time.

Model B on the split row (chess's entry board since issue 37: :func:`adjudicator.chess.candidates.row_order`,
the likeliest move first, then the rest grouped by piece and ordered by the square they go to). The
TD looks at place 1; if the move is not there, he goes through the groups in their fixed order (king,
queen, rook, bishop, knight, pawn), one place for each group he passes (its first button: a group is told
at a glance by its piece letter and the mark at its start), then through his move's group place by place
until the move, or until a square beyond the move's (the group is ordered, so he stops there), or the
group's end; a group beyond his move's piece ends the search too. Each place looked at costs ``SCAN_SECONDS``.
The evidence that an order the user knows buys a directed search instead of a linear one: Card (1984,
"Visual search of computer command menus", Attention and Performance X) found search in alphabetically
ordered menus much faster than in randomly ordered ones; Sears and Shneiderman (1994, "Split menus:
effectively using selection frequency to organize menus", ACM TOCHI 1(1)) found a few frequent items on
top of a stable order faster than either order alone. Skipping a group for one place is this model's
assumption, not a measurement; the linear model on the same row is printed beside it.

The floor of model B: every move at place 1 costs ``SCAN_SECONDS + TAP_SECONDS`` (0.65 s), 35 % less than
two taps of the board; printed with the share of plies the goal (30 % faster) needs at place 1 when every
other ply costs what it costs now.

Destination first (chess's entry board since issue 37, docs/one-screen.md): the TD taps the square the
written move goes to (castling: the king's); when a single legal move ends there it is played, else the
origins of those that do are marked and he taps his piece's. The TD does not know in advance which of the
two happens, so a choice asked costs a look (``SCAN_SECONDS``, seeing the marks) and a tap; a promotion
not offered costs its dialog's tap, as on the board. Two strategies are printed, each one a TD can follow
knowing only the written move: *destination first alone* (the row ignored), and *row's place 1, else the
destination* (look at place 1; the move there: tap it; else the destination as above). Board-only entry
(two taps) is the yardstick, as for model B; neither strategy charges the look that checks the move went in,
which board-only entry does not charge either.

Arrows (not built; printed to weigh them): the top ``ARROWS`` candidates drawn as arrows, a tap on the square
an arrow ends on playing the arrow's move even where other pieces could go there. The TD must look at the
arrows on every ply (else he might tap a square an arrow of another piece ends on): one look for them all
(the optimistic bound) or one per arrow (the cautious one). The move an arrow: its destination's tap. Not
an arrow, but an arrow of another piece ends on its square: the piece, then the square (two taps). Else
destination first as above.
"""

from __future__ import annotations

from collections.abc import Sequence

SCAN_SECONDS = 0.15
TAP_SECONDS = 0.5
ARROWS = 3


def model_b(rank: int | None, shown: int, board_taps: int, tap: float = TAP_SECONDS,
            scan: float = SCAN_SECONDS) -> float:
    """Seconds to enter one ply with the candidate row (``rank`` from 0, None: not among the candidates)."""
    if rank is not None and 0 <= rank < shown:
        return (rank + 1) * scan + tap
    return shown * scan + board_taps * tap


RowKey = tuple[int, str, str, str]
"""A button's key in the split row: its group, then its order in the group (chess: candidates.row_key)."""


def split_row_places(row: Sequence[RowKey], played: RowKey, shown: int,
                     first: int = 1) -> tuple[int, bool]:
    """Places looked at in a split row, as the module's docstring says, and whether the move was found.
    ``row``: the keys of the row's buttons as laid out, the first ``first`` being the likeliest; a key is
    (group, then the order within the group), comparable; ``played``: the written move's key."""
    row = list(row[:shown])
    for place, key in enumerate(row[:first], start=1):
        if key == played:
            return place, True
    places = min(first, len(row))
    group: int | None = None
    for key in row[first:]:
        if key[0] != group:  # a group's first button
            group = key[0]
            places += 1
            if key[0] != played[0]:
                if key[0] > played[0]:
                    return places, False
                continue
        elif key[0] != played[0]:
            continue  # inside a group passed over
        else:
            places += 1
        if key == played:
            return places, True
        if key > played:
            return places, False
    return places, False


def split_row_seconds(places: int, found: bool, board_taps: int, tap: float = TAP_SECONDS,
                      scan: float = SCAN_SECONDS) -> float:
    """Seconds to enter one ply with the split row: the places looked at, then one tap or the board's."""
    return places * scan + (tap if found else board_taps * tap)


def destination_seconds(origins: int, promotion: bool, tap: float = TAP_SECONDS, scan: float = SCAN_SECONDS) -> float:
    """Seconds to enter one ply destination first: the destination's tap; when ``origins`` (the squares the
    legal moves ending there start from) are several, a look at the marks and the origin's tap; a promotion's
    dialog tap (the module's docstring)."""
    if origins < 1:
        raise ValueError(f"origins: a played move starts from at least one square, not {origins}")
    return tap + (scan + tap if origins > 1 else 0.0) + (tap if promotion else 0.0)


def destination_taps(origins: int, promotion: bool) -> int:
    """Taps to enter one ply destination first (as :func:`destination_seconds`)."""
    return 1 + (1 if origins > 1 else 0) + (1 if promotion else 0)


def first_place_then_destination(rank: int | None, origins: int, promotion: bool, tap: float = TAP_SECONDS,
                                 scan: float = SCAN_SECONDS) -> float:
    """Seconds to enter one ply by the strategy "look at the row's place 1; the move there: tap it; else tap
    the destination, then the origin if asked" (``rank`` from 0, None: not among the candidates)."""
    if rank == 0:
        return scan + tap
    return scan + destination_seconds(origins, promotion, tap, scan)


def arrows_seconds(rank: int | None, is_arrow_square: bool, origins: int, promotion: bool, looks: int,
                   tap: float = TAP_SECONDS, scan: float = SCAN_SECONDS, arrows: int = ARROWS) -> float:
    """Seconds to enter one ply with the top ``arrows`` candidates drawn as arrows (the module's docstring):
    ``looks`` looks at the arrows, then the arrow's destination, or the piece and its square when an arrow
    of another piece ends on the move's square (``is_arrow_square``), or destination first."""
    seconds = looks * scan
    if rank is not None and rank < arrows:
        return seconds + tap
    if is_arrow_square:
        return seconds + 2 * tap + (tap if promotion else 0.0)
    return seconds + destination_seconds(origins, promotion, tap, scan)


def destination_lines(ranks: Sequence[int | None], origins: Sequence[int], promotions: Sequence[bool],
                      board_taps: Sequence[int], tap: float = TAP_SECONDS, scan: float = SCAN_SECONDS,
                      arrow_squares: Sequence[bool] | None = None) -> list[str]:
    """The destination-first figures as printed: the share of plies one legal move ends on the move's square,
    taps and seconds a ply destination first alone, and row's place 1 then destination, against the board."""
    n = max(1, len(ranks))
    alone = sum(board_only(t, tap) for t in board_taps) / n
    rows = list(zip(ranks, origins, promotions, strict=True))
    single = sum(1 for o in origins if o == 1) / n
    taps = sum(destination_taps(o, p) for _, o, p in rows) / n
    first = sum(destination_seconds(o, p, tap, scan) for _, o, p in rows) / n
    mixed = sum(first_place_then_destination(r, o, p, tap, scan) for r, o, p in rows) / n
    mixed_taps = sum(1 if r == 0 else destination_taps(o, p) for r, o, p in rows) / n
    lines = [f"  destination first: one legal move ends on the move's square in {single:.1%} of plies; "
             f"{taps:.3f} taps a ply, {first:.3f} s a ply: {_versus(first, alone, 'destination first')}",
             f"  row's place 1, else the destination: {mixed_taps:.3f} taps a ply, {mixed:.3f} s a ply: "
             f"{_versus(mixed, alone, 'this strategy')}"]
    if arrow_squares is not None:
        for looks in (1, ARROWS):
            seconds = sum(arrows_seconds(r, a, o, p, looks, tap, scan)
                          for (r, o, p), a in zip(rows, arrow_squares, strict=True)) / n
            lines.append(f"  {ARROWS} arrows (not built), {looks} look{'s' if looks > 1 else ''} at them a ply: "
                         f"{seconds:.3f} s a ply: {_versus(seconds, alone, 'arrows')}")
    return lines


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


def _versus(with_row: float, alone: float, what: str = "the row") -> str:
    saving = 1 - with_row / alone if alone else 0.0
    return f"{abs(saving):.1%} {'faster' if saving >= 0 else 'slower'} with {what}"


def model_lines(ranks: Sequence[int | None], board_taps: Sequence[int], shown: int, tap: float = TAP_SECONDS,
                scan: float = SCAN_SECONDS, split: Sequence[tuple[int, bool]] | None = None) -> list[str]:
    """Model B's seconds per ply with the row and by the board alone, and the saving, as printed;
    ``split``: each ply's (places looked at, found) in the split row, when the row is laid out so."""
    n = max(1, len(ranks))
    with_row = sum(model_b(r, shown, t, tap, scan) for r, t in zip(ranks, board_taps, strict=True)) / n
    alone = sum(board_only(t, tap) for t in board_taps) / n
    lines = [rank_line(ranks, shown),
             f"  model B, row best first ({scan:.2f} s a scanned place, {tap:.2f} s a tap): {with_row:.3f} s a ply "
             f"with the row, {alone:.3f} s by the board alone: {_versus(with_row, alone)}"]
    if split is not None:
        seconds = sum(split_row_seconds(p, f, t, tap, scan) for (p, f), t in zip(split, board_taps, strict=True)) / n
        looked = sum(p for p, _ in split) / n
        lines.append(f"  model B, split row (likeliest first, then by piece and square): {looked:.2f} places looked "
                     f"at a ply, {seconds:.3f} s a ply: {_versus(seconds, alone)}")
    floor = scan + tap
    # the share x at place 1 (floor each) the goal needs, the other plies costing their mean now
    goal = 0.7 * alone
    if split is not None:
        others = [split_row_seconds(p, f, t, tap, scan) for (p, f), t, r in zip(split, board_taps, ranks, strict=True)
                  if r != 0]
    else:
        others = [model_b(r, shown, t, tap, scan) for r, t in zip(ranks, board_taps, strict=True) if r != 0]
    rest = sum(others) / len(others) if others else floor
    needed = (rest - goal) / (rest - floor) if rest > floor else 0.0
    lines.append(f"  model B's floor: {floor:.2f} s a ply with every move at place 1 ({_versus(floor, alone)}); "
                 f"30 % faster needs {min(max(needed, 0.0), 1.0):.0%} of the moves at place 1 (now "
                 f"{sum(1 for r in ranks if r == 0) / n:.0%})")
    return lines
