"""Board diagrams as SVG: chess through python-chess, checkers through the project's
standard American diagram (``adjudicator.checkers.svg.board_svg``: squares numbered
1-32 from Red's side, kings crowned, the last move marked).

The checkers position editor's grid (tappable numbered squares, no JavaScript) is laid
out here with the diagram's own square geometry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import chess
import chess.svg

from adjudicator.checkers.board import FenError, Move
from adjudicator.checkers.svg import board_svg, square_xy
from web.evidence import Line, Presentation

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
    svg = chess.svg.board(board, lastmove=move, fill=fill, size=size, coordinates=True, flipped=flipped)
    return without_style_attributes(svg)


_STYLED_TAG = re.compile(r'<[a-zA-Z][^<>]*?\sstyle="([^"]*)"[^<>]*>')
_DECLARATION = re.compile(r"^\s*([a-z-]+)\s*:\s*([^;\"<>&]+?)\s*$")


def without_style_attributes(svg: str) -> str:
    """The diagram with each ``style="fill:..; stroke:.."`` written as SVG presentation attributes.

    The Content-Security-Policy (``web.security``) refuses style attributes in a page, and
    python-chess colours its pieces with them; ``fill="..."`` draws the same and is allowed.
    A declaration that is not a plain ``property: value`` is left in the style (and blocked).
    """

    def rewrite(match: re.Match[str]) -> str:
        tag = match.group(0)
        kept: list[str] = []
        attributes: dict[str, str] = {}
        for declaration in match.group(1).split(";"):
            if not declaration.strip():
                continue
            parsed = _DECLARATION.match(declaration)
            if parsed is None:
                kept.append(declaration.strip())
            else:
                attributes[parsed.group(1)] = parsed.group(2)
        style = f' style="{"; ".join(kept)}"' if kept else ""
        tag = tag.replace(f' style="{match.group(1)}"', style, 1)
        for name, value in attributes.items():
            existing = re.compile(rf'(\s{re.escape(name)}=)"[^"]*"')
            found = existing.search(tag)
            if found:
                tag = f'{tag[:found.start()]}{found.group(1)}"{value}"{tag[found.end():]}'
            else:
                end = -2 if tag.endswith("/>") else -1
                tag = f'{tag[:end].rstrip()} {name}="{value}"{tag[end:]}'
        return tag

    return _STYLED_TAG.sub(rewrite, svg)


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
                if not digits.isdigit() or len(digits) > 2:  # squares are 1-32 (and int() refuses 5,000 digits)
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
    """Rows of (square number or None for a light square, piece or None), Red's side at the top,
    as the standard diagram lays them out."""
    pieces = parse_pdn_fen(fen) or {}
    rows: list[list[tuple[int | None, str | None]]] = [[(None, None)] * 8 for _ in range(8)]
    for number in range(1, 33):
        col, row = square_xy(number)
        rows[row][col] = (number, pieces.get(number))
    return rows


_MOVE = re.compile(r"^\s*\d{1,2}(?:\s*[-x:]\s*\d{1,2})+\s*$")


def checkers_move(text: str | None) -> Move | None:
    """A move written as its squares (``11-15``, ``18x11x4``), to mark on the diagram; None otherwise."""
    if not text or not _MOVE.match(text):
        return None
    path = tuple(int(n) for n in re.split(r"\s*[-x:]\s*", text.strip()))
    if not all(1 <= n <= 32 for n in path):
        return None
    return Move(path, 1 if "x" in text or ":" in text else 0)


def checkers_svg(fen: str, *, last_move: str | None = None, marked: Iterable[int] = (), size: int = 360) -> str:
    """The checkers position as the standard American diagram; ``last_move`` (``11-15``,
    ``18x11x4``) and ``marked`` squares are shaded. A FEN the diagram cannot read strictly
    is drawn from its readable piece lists; one that gives no position draws nothing."""
    move = checkers_move(last_move)
    try:
        return board_svg(fen, last_move=move, size=size, marked=marked)
    except FenError:
        pass
    pieces, found = parse_pdn_fen(fen), _PDN_FEN.match(fen)
    if pieces is None or found is None:
        return ""
    try:
        return board_svg(pdn_fen(pieces, found.group(1).upper() != "W"), last_move=move, size=size, marked=marked)
    except FenError:
        return ""


def board_for(line: Line | None, presentation: Presentation, ply: int | None = None, size: int = 360) -> str:
    """The board of a line of play at ``ply`` (its focus when None), or the presented position without one:
    the one drawing the ruling, committee and check pages share."""
    if presentation.game == "checkers":
        if line is None:
            return checkers_svg(presentation.position_fen, size=size) if presentation.position_fen else ""
        shown = line.clamp(line.focus if ply is None else ply)
        step = line.step(shown)
        return checkers_svg(line.fen_at(shown), last_move=step.uci if step else None, size=size)
    if line is None:
        return chess_svg(presentation.position_fen, size=size) if presentation.position_fen else ""
    shown = line.clamp(line.focus if ply is None else ply)
    step = line.step(shown)
    return chess_svg(
        line.fen_at(shown),
        step.uci if step else None,
        is_illegal=bool(step and step.is_illegal),
        size=size,
    )
