"""The standard American checkers diagram as SVG (a pure function: a position in, a string out).

As in ACF books and problem columns: Red ("Black") at the top on 1-12, White at the
bottom on 21-32, the playing squares numbered 1-32 from Red's side (1-4 along the top
row, the double corners 1/5 top left and 28/32 bottom right), kings crowned, and the
last move marked by its squares and the path of a jump.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from adjudicator.checkers.board import Move, Position

LIGHT = "#f3e6c4"
DARK = "#5c8a3a"
"""ACF boards are green and buff."""
RED_PIECE = "#c0392b"
WHITE_PIECE = "#f8f8f2"
MARK = "#f1c40f"


def square_xy(square: int, flipped: bool = False) -> tuple[int, int]:
    """Column and row (0-7, from the top left) of a playing square 1-32."""
    row, col = divmod(square - 1, 4)
    x = 2 * col + 1 if row % 2 == 0 else 2 * col
    if flipped:
        return 7 - x, 7 - row
    return x, row


def _crown(cx: float, cy: float, r: float, colour: str) -> str:
    w = r * 0.9
    h = r * 0.55
    left, top, bottom = cx - w / 2, cy - h / 2, cy + h / 2
    points = [
        (left, bottom), (left, top), (left + w * 0.25, cy), (cx, top - h * 0.15),
        (left + w * 0.75, cy), (left + w, top), (left + w, bottom),
    ]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polygon points="{path}" fill="{colour}" stroke="{colour}" stroke-width="1" class="crown"/>'


def board_svg(
    position: Position | str, last_move: Move | None = None, size: int = 400, flipped: bool = False,
    title: str | None = None, marked: Iterable[int] = (),
) -> str:
    """An SVG diagram of ``position`` (a position or a PDN FEN); ``last_move`` (squares and jump path)
    and any ``marked`` squares are highlighted.

    ``flipped`` turns the board for White's point of view (White at the top).

    :raises adjudicator.checkers.board.FenError: a FEN that is not a position.
    """
    if isinstance(position, str):
        position = Position.from_fen(position)
    cell = size / 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" '
        f'role="img" aria-label="{escape(title or position.fen())}" class="checkers-board">',
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for row in range(8):
        for col in range(8):
            colour = DARK if (row + col) % 2 == 1 else LIGHT
            x, y = col * cell, row * cell
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{colour}"/>')
    highlighted = set(last_move.path) if last_move else set()
    highlighted.update(marked)
    for square in range(1, 33):
        x, y = square_xy(square, flipped)
        if square in highlighted:
            parts.append(
                f'<rect x="{x * cell:.1f}" y="{y * cell:.1f}" width="{cell:.1f}" height="{cell:.1f}" '
                f'fill="{MARK}" fill-opacity="0.55" class="last-move" data-square="{square}"/>'
            )
        parts.append(
            f'<text x="{x * cell + 3:.1f}" y="{y * cell + cell * 0.22:.1f}" font-size="{cell * 0.2:.1f}" '
            f'font-family="sans-serif" fill="#ffffff" class="square-number">{square}</text>'
        )
    if last_move is not None and len(last_move.path) > 1:
        points = []
        for square in last_move.path:
            x, y = square_xy(square, flipped)
            points.append(f"{(x + 0.5) * cell:.1f},{(y + 0.5) * cell:.1f}")
        parts.append(
            f'<polyline points="{" ".join(points)}" fill="none" stroke="{MARK}" stroke-width="{cell * 0.08:.1f}" '
            f'stroke-linecap="round" stroke-linejoin="round" opacity="0.9" class="move-path"/>'
        )
    radius = cell * 0.38
    for square in range(1, 33):
        piece = position.piece_at(square)
        if piece is None:
            continue
        x, y = square_xy(square, flipped)
        cx, cy = (x + 0.5) * cell, (y + 0.5) * cell
        is_red = piece in "rR"
        fill = RED_PIECE if is_red else WHITE_PIECE
        edge = "#6e1a12" if is_red else "#333333"
        kind = "king" if piece.isupper() else "man"
        side = "red" if is_red else "white"
        parts.append(
            f'<g class="piece {side} {kind}" data-square="{square}">'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{fill}" stroke="{edge}" stroke-width="2"/>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius * 0.72:.1f}" fill="none" stroke="{edge}" '
            f'stroke-width="1" opacity="0.5"/>'
        )
        if piece.isupper():
            parts.append(_crown(cx, cy, radius, MARK if is_red else "#b8860b"))
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
