"""Board diagrams as SVG: chess through python-chess, checkers from a PDN FEN.

The checkers diagram of the "checkers" helper (``adjudicator.checkers.svg``) is used
when it is installed; until then a plain diagram is drawn here.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from html import escape

import chess
import chess.svg

ILLEGAL_FILL = "#e0565b99"
MARK_FILL = "#f4c43088"


def chess_svg(
    fen: str,
    lastmove: str | None = None,
    *,
    is_illegal: bool = False,
    marked: Iterable[str] = (),
    size: int = 360,
    flipped: bool = False,
) -> str:
    """The position as an SVG diagram, the last move (or the illegal one) shaded."""
    board = _lenient_board(fen)
    move = None
    fill: dict[chess.Square, str] = {}
    if lastmove:
        try:
            move = chess.Move.from_uci(lastmove)
        except ValueError:
            move = None
    if move is not None and is_illegal:
        fill[move.from_square] = ILLEGAL_FILL
        fill[move.to_square] = ILLEGAL_FILL
        move = None
    for name in marked:
        try:
            fill[chess.parse_square(name)] = MARK_FILL
        except ValueError:
            continue
    return chess.svg.board(board, lastmove=move, fill=fill, size=size, coordinates=True, flipped=flipped)


def _lenient_board(fen: str) -> chess.Board:
    """The position of a FEN, or of its piece placement alone, or an empty board."""
    for text in (fen, fen.strip().split(" ")[0] + " w - - 0 1"):
        try:
            return chess.Board(text)
        except ValueError:
            continue
    return chess.Board(None)


_PDN_FEN = re.compile(r"^\s*\[?\s*(?:FEN\s*\"?)?([WBR])\s*:(.*?)\"?\s*\]?\s*$", re.IGNORECASE)


def parse_pdn_fen(fen: str) -> dict[int, str] | None:
    """Pieces of a PDN FEN (``B:W21,22,K23:B1,2``): square -> ``r``/``R`` (red man/king), ``w``/``W``.

    Red is "B" (Black in the books); ``None`` when the text is not a PDN FEN.
    """
    m = _PDN_FEN.match(fen)
    if not m:
        return None
    pieces: dict[int, str] = {}
    for part in m.group(2).split(":"):
        part = part.strip().rstrip(".")
        if not part:
            continue
        colour, squares = part[0].upper(), part[1:]
        if colour not in "WBR":
            return None
        man = "w" if colour == "W" else "r"
        for token in squares.split(","):
            token = token.strip()
            if not token:
                continue
            is_king = token[0].upper() == "K"
            digits = token[1:] if is_king else token
            if "-" in digits:
                try:
                    low, high = (int(x) for x in digits.split("-", 1))
                except ValueError:
                    return None
                numbers = range(low, high + 1)
            else:
                if not digits.isdigit():
                    return None
                numbers = range(int(digits), int(digits) + 1)
            for number in numbers:
                if not 1 <= number <= 32:
                    return None
                pieces[number] = man.upper() if is_king else man
    return pieces


CHECKERS_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def pdn_fen(pieces: dict[int, str], red_to_move: bool) -> str:
    """A PDN FEN from pieces (``r``/``R`` red, ``w``/``W`` white) and the side to move."""

    def side(colour: str) -> str:
        found = sorted(n for n, p in pieces.items() if p.lower() == colour)
        return ",".join(("K" if pieces[n].isupper() else "") + str(n) for n in found)

    return f"{'B' if red_to_move else 'W'}:W{side('w')}:B{side('r')}"


def edit_checkers(fen: str, action: str, piece: str, red_to_move: bool | None = None) -> str:
    """The FEN after the position editor's action: a square number (put ``piece`` there, or
    take it off if it is already there), ``start`` or ``clear``; ``piece`` ``x`` empties."""
    if action == "start":
        pieces = parse_pdn_fen(CHECKERS_START) or {}
    elif action == "clear":
        pieces = {}
    else:
        pieces = parse_pdn_fen(fen) or {}
        if action.isdigit() and 1 <= int(action) <= 32:
            square = int(action)
            if piece == "x" or pieces.get(square) == piece:
                pieces.pop(square, None)
            elif piece in ("r", "R", "w", "W"):
                pieces[square] = piece
    if red_to_move is None:
        red_to_move = not fen.strip().upper().startswith("W")
    return pdn_fen(pieces, red_to_move)


def checkers_grid(fen: str) -> list[list[tuple[int | None, str | None]]]:
    """Rows of (square number or None for a light square, piece or None), Red's side at the top."""
    pieces = parse_pdn_fen(fen) or {}
    rows: list[list[tuple[int | None, str | None]]] = [[(None, None)] * 8 for _ in range(8)]
    for number in range(1, 33):
        col, row = checkers_square_xy(number)
        rows[row][col] = (number, pieces.get(number))
    return rows


def checkers_square_xy(number: int) -> tuple[int, int]:
    """Column and row (0-7, from the top, Red's side) of PDN square ``number`` (1-32)."""
    index = number - 1
    row, slot = divmod(index, 4)
    col = 2 * slot + (1 if row % 2 == 0 else 0)
    return col, row


def checkers_svg(fen: str, *, marked: Iterable[int] = (), size: int = 360) -> str:
    """The checkers position as an SVG diagram (Red at the top, squares numbered)."""
    try:
        helper = importlib.import_module("adjudicator.checkers.svg")
    except ModuleNotFoundError:
        helper = None
    render = getattr(helper, "board_svg", None)
    if callable(render):
        try:
            return str(render(fen))
        except Exception:  # fall back to the plain diagram
            pass
    pieces = parse_pdn_fen(fen) or {}
    cell = 45
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {8 * cell} {8 * cell}" '
        f'width="{size}" height="{size}" role="img" aria-label="checkers position {escape(fen)}">'
    ]
    marked_set = set(marked)
    for row in range(8):
        for col in range(8):
            dark = (row + col) % 2 == 1
            out.append(
                f'<rect x="{col * cell}" y="{row * cell}" width="{cell}" height="{cell}" '
                f'fill="{"#6b8e4e" if dark else "#f0e6c8"}"/>'
            )
    for number in range(1, 33):
        col, row = checkers_square_xy(number)
        x, y = col * cell, row * cell
        if number in marked_set:
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{MARK_FILL}"/>')
        out.append(f'<text x="{x + 3}" y="{y + 11}" font-size="10" fill="#fff">{number}</text>')
        piece = pieces.get(number)
        if piece:
            colour = "#c0392b" if piece.lower() == "r" else "#f7f7f2"
            cx, cy = x + cell / 2, y + cell / 2
            out.append(f'<circle cx="{cx}" cy="{cy}" r="17" fill="{colour}" stroke="#222" stroke-width="2"/>')
            if piece.isupper():
                out.append(f'<text x="{cx}" y="{cy + 6}" font-size="16" text-anchor="middle" fill="#222">K</text>')
    out.append("</svg>")
    return "".join(out)
