"""The printable sheet: its diagram, its evidence in words (:mod:`web.rulings.words`), and a layout that
fits one A4 page.

The diagram is the position the game goes on from. After an illegal move the arbiter sets up
the position before it (FIDE 7.5.1, US Chess 11A, ACF: the position before the improper move),
so that is the diagram, with the illegal move's squares shaded to show which piece was
touched. Any other ruling shows the position the ruling page opens on.

The sheet is signed at the board, so everything the signatures confirm is on page 1, and
the signatures close page 1. :func:`sheet_pdf` tries the layouts of :data:`LAYOUTS` in order
and keeps the first that holds: the whole sheet on one page (compact evidence in two
columns); else page 1 with each piece of evidence shortened to a line and "continued on
page 2", where the evidence stands in full; else (a ruling whose own reasons fill the page)
the ruling and the signatures on page 1, the articles and the evidence after them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.evidence import Evidence
from web.boards import checkers_svg, chess_svg
from web.evidence import Line, Presentation

LAYOUTS = ("whole", "continued", "ruling-first")
"""The sheet's layouts, most compact first (see the module docstring)."""

SHORT_FACT = 110
"""Characters of one piece of evidence on page 1 when it continues on page 2 (about one line)."""

SIGNATURES, CONTINUED = "signatures", "continued"
"""The anchors (element ids) :func:`sheet_pdf` looks for: the signatures, page 2's heading."""

BoardFor = Callable[[Line | None, Presentation, int | None, int], str]


@dataclass(frozen=True)
class Diagram:
    """An SVG diagram and the words under it."""

    svg: str
    caption: str


def _same_position(first: str, second: str) -> bool:
    """Same placement, side to move, castling and en passant (the counters aside)."""
    return first.split()[:4] == second.split()[:4]


def _reinstated_ply(ruling: Mapping[str, Any], line: Line) -> int | None:
    """The illegal ply whose previous position an upheld illegal-move ruling reinstates (the game goes on)."""
    ply = Evidence.read(ruling.get("evidence")).ply
    if ruling.get("verdict") != "upheld" or ruling.get("result") or ply is None:
        return None
    return ply if 0 < ply <= len(line.steps) else None


def sheet_diagram(claim: str, ruling: Mapping[str, Any], presentation: Presentation, board_for: BoardFor,
                  size: int = 260) -> Diagram:
    """The diagram for the sheet (see the module's docstring)."""
    line = presentation.lines.get("game")
    ply = _reinstated_ply(ruling, line) if claim == "illegal-move" and line is not None else None
    if line is not None and ply is not None:
        step = line.step(ply)
        before = line.fen_at(ply - 1)
        evidence = Evidence.read(ruling.get("evidence"))
        decided = evidence.fen if presentation.game == "chess" else evidence.fen_before
        label = step.label if step else f"ply {ply}"
        if decided is not None and decided.strip() and not _same_position(decided, before):
            # 7.5.2 (the promotion stands with a queen) or 7.5.3: the ruling's own position
            svg = chess_svg(decided, size=size) if presentation.game == "chess" else checkers_svg(decided, size=size)
            return Diagram(svg, f"Position to play on after the ruling (the irregularity was {label}, ply {ply})")
        if presentation.game == "chess":
            svg = chess_svg(before, step.uci if step else None, is_illegal=True, size=size)
            shaded = "; the illegal move's squares are shaded"
        else:
            squares = [int(n) for n in re.split(r"[-x]", step.uci or "") if n.isdigit()] if step else []
            svg = checkers_svg(before, marked=squares, size=size)
            shaded = "; the squares of the improper move are shaded" if squares else ""
        return Diagram(svg, f"Position to reinstate: before {label} (ply {ply}){shaded}")
    svg = board_for(line, presentation, None, size)
    if line is None:
        return Diagram(svg, "The position of the claim" if svg else "")
    step = line.step(line.focus)
    over = presentation.game_over
    if over is not None and over.is_mandatory and over.ply == line.focus:
        return Diagram(svg, f"The game ended here, {over.where}: {over.ending}")
    mover = to_move(presentation.game, line.fen_at(line.focus))
    moves = f"; {mover} to move" if mover else ""
    return Diagram(svg, (f"Position after {step.label} (ply {line.focus})" if step else "Start position") + moves)


def to_move(game: str, fen: str) -> str | None:
    """Who is to move in a position (issue 35: the sheet says it): ``White``/``Black``, ``Red``/``White``."""
    if game == "chess":
        fields = fen.split()
        return {"w": "White", "b": "Black"}.get(fields[1]) if len(fields) > 1 else None
    turn = fen.strip()[:1].upper()
    return {"B": "Red", "R": "Red", "W": "White"}.get(turn)


def line_words(line: Line, limit: int | None = None) -> str:
    """A line's moves in notation, the first ``limit`` of them when given (and how many more)."""
    labels = [s.label for s in line.steps]
    if limit is None or len(labels) <= limit:
        return " ".join(labels)
    return " ".join(labels[:limit]) + f" … ({len(labels) - limit} more)"


def sheet_pdf(render: Callable[[str], str], base_url: str | None = None) -> tuple[bytes, str]:
    """The sheet as PDF, in the first layout of :data:`LAYOUTS` that holds; with the layout's name.

    ``render(layout)`` gives the sheet's HTML in that layout. A layout holds when the signatures
    are on page 1 and, for ``whole``, nothing else is past it; for ``continued``, page 2 begins
    with the continuation (page 1 did not run over).
    """
    from weasyprint import HTML  # deferred on purpose: WeasyPrint is heavy, for the PDF only

    document = None
    for layout in LAYOUTS:
        document = HTML(string=render(layout), base_url=base_url).render()
        pages = [set(page.anchors) for page in document.pages]
        on_first = SIGNATURES in pages[0]
        if layout == "whole" and on_first and len(pages) == 1:
            break
        if layout == "continued" and on_first and len(pages) > 1 and CONTINUED in pages[1]:
            break
    assert document is not None
    return document.write_pdf(), layout
