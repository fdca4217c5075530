"""American checkers (ACF, English draughts 8x8): positions and legal moves on 32-bit bitboards.

Squares are numbered 1-32 as in the ACF rules (README 3.1): Red ("Black" in books)
stands on 1-12 and moves first, towards the higher numbers; White stands on 21-32.
Bit ``s - 1`` of a bitboard is square ``s``.

The rules coded here (ACF Standard Laws, WCDF 2008 harmonised rules):

* jumps are compulsory, with free choice among the captures (no majority rule);
* a multiple jump must be completed; captured pieces stay on the board until the
  jump is finished, so none is jumped twice and no landing is made on one;
* men move and capture forward only; kings one square in any diagonal direction;
* a man reaching the king row is crowned and its move ends there, even mid-jump.

Captures are generated per path: a king's cyclic capture of the same pieces in the
two orders gives two moves (as in the published perft figures).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, NamedTuple

RED: Final = True
"""The side that moves first (``B`` in PDN FEN: "Black" in books)."""
WHITE: Final = False

FULL: Final = 0xFFFFFFFF


def _row(sq: int) -> int:
    return sq // 4


def _col(sq: int) -> int:
    return sq % 4


def _neighbour(sq: int, direction: int) -> int:
    """The 0-based square one step away in ``direction`` (0 DL, 1 DR, 2 UL, 3 UR), or -1.

    "Down" means towards the higher numbers (Red's forward direction).
    """
    row, col = _row(sq), _col(sq)
    even = row % 2 == 0
    if direction in (0, 1):
        if row == 7:
            return -1
        if direction == 0:
            return sq + 4 if even else (sq + 3 if col > 0 else -1)
        return (sq + 5 if col < 3 else -1) if even else sq + 4
    if row == 0:
        return -1
    if direction == 2:
        return sq - 4 if even else (sq - 5 if col > 0 else -1)
    return (sq - 3 if col < 3 else -1) if even else sq - 4


NEIGHBOUR: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_neighbour(sq, d) for sq in range(32)) for d in range(4)
)
"""``NEIGHBOUR[d][sq]``: the square one step from ``sq`` in direction ``d`` (0-based), or -1."""

BACK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(next((s for s in range(32) if NEIGHBOUR[d][s] == t), -1) for t in range(32)) for d in range(4)
)
"""``BACK[d][t]``: the square from which one step in direction ``d`` reaches ``t``, or -1."""

JUMP: Final[tuple[tuple[tuple[int, int] | None, ...], ...]] = tuple(
    tuple(
        (NEIGHBOUR[d][s], NEIGHBOUR[d][NEIGHBOUR[d][s]])
        if NEIGHBOUR[d][s] >= 0 and NEIGHBOUR[d][NEIGHBOUR[d][s]] >= 0
        else None
        for s in range(32)
    )
    for d in range(4)
)
"""``JUMP[d][sq]``: (square jumped, landing square) in direction ``d``, or None."""

# Shift form of the steps, for whole bitboards: (mask of sources, shift) for even and odd rows.
_EVEN_ROWS = sum(0xF << (4 * r) for r in (0, 2, 4, 6))
_ODD_ROWS = FULL ^ _EVEN_ROWS


def _shift_parts(direction: int) -> tuple[tuple[int, int], tuple[int, int]]:
    parts: list[tuple[int, int]] = []
    for rows in (_EVEN_ROWS, _ODD_ROWS):
        mask = 0
        shift = 0
        for s in range(32):
            if rows >> s & 1 and NEIGHBOUR[direction][s] >= 0:
                mask |= 1 << s
                shift = NEIGHBOUR[direction][s] - s
        parts.append((mask, shift))
    return parts[0], parts[1]


SHIFTS: Final[tuple[tuple[tuple[int, int], tuple[int, int]], ...]] = tuple(_shift_parts(d) for d in range(4))
"""``SHIFTS[d]``: ((even-row source mask, shift), (odd-row source mask, shift)); a positive shift is left."""

RED_DIRECTIONS: Final = (0, 1)
WHITE_DIRECTIONS: Final = (2, 3)
KING_DIRECTIONS: Final = (0, 1, 2, 3)

RED_KING_ROW: Final = 0xF << 28
"""Squares 29-32: where a red man is crowned."""
WHITE_KING_ROW: Final = 0xF
"""Squares 1-4: where a white man is crowned."""


def _step0(b: int) -> int:
    return ((b & 0x0F0F0F0F) << 4) | ((b & 0x00E0E0E0) << 3)


def _step1(b: int) -> int:
    return ((b & 0x07070707) << 5) | ((b & 0x00F0F0F0) << 4)


def _step2(b: int) -> int:
    return ((b & 0x0F0F0F00) >> 4) | ((b & 0xE0E0E0E0) >> 5)


def _step3(b: int) -> int:
    return ((b & 0x07070700) >> 3) | ((b & 0xF0F0F0F0) >> 4)


STEP: Final = (_step0, _step1, _step2, _step3)
"""``STEP[d](bb)``: :func:`step` specialised per direction (the masks and shifts of :data:`SHIFTS`)."""


def step(bb: int, direction: int) -> int:
    """Every square reached by one step of the pieces of ``bb`` in ``direction``."""
    return STEP[direction](bb)


def squares(bb: int) -> Iterator[int]:
    """The 0-based squares of a bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


MAX_PIECES: Final = 12
"""Pieces a side can have in any game: the 12 men it starts with (no move adds a piece)."""


class FenError(ValueError):
    """A PDN FEN string that does not describe a checkers position."""


class Move(NamedTuple):
    """A move: the squares visited (1-32) and the pieces it removes (a bitboard).

    A named tuple rather than a dataclass: move generation makes millions of them.
    """

    path: tuple[int, ...]
    captured: int = 0

    @property
    def from_square(self) -> int:
        return self.path[0]

    @property
    def to_square(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return self.captured != 0

    def __str__(self) -> str:
        return ("x" if self.captured else "-").join(str(s) for s in self.path)


class Position(NamedTuple):
    """A checkers position: Red's and White's pieces, the kings among them, and who moves.

    A named tuple (immutable, hashable, cheap to make): the search makes one a node.
    """

    red: int
    white: int
    kings: int
    red_to_move: bool = True

    # ---------------------------------------------------------------- facts

    @property
    def mover(self) -> int:
        return self.red if self.red_to_move else self.white

    @property
    def opponent(self) -> int:
        return self.white if self.red_to_move else self.red

    @property
    def empty(self) -> int:
        return FULL & ~(self.red | self.white)

    @property
    def key(self) -> tuple[int, int, int, bool]:
        """The repetition key: the same pieces on the same squares, the same side to move."""
        return (self.red, self.white, self.kings, self.red_to_move)

    @property
    def piece_count(self) -> int:
        return (self.red | self.white).bit_count()

    def piece_at(self, square: int) -> str | None:
        """``'r'``/``'R'`` (man/king of Red), ``'w'``/``'W'``, or None, for a square 1-32."""
        bit = 1 << (square - 1)
        if self.red & bit:
            return "R" if self.kings & bit else "r"
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        return None

    def is_game_over(self) -> bool:
        """The side to move has no legal move (no pieces, or all blocked): it has lost."""
        return not self.legal_moves()

    # ---------------------------------------------------------------- moves

    def captures(self) -> list[Move]:
        """Every capture (jump sequence, per path) of the side to move."""
        mover, opp = self.mover, self.opponent
        empty = self.empty
        kings = mover & self.kings
        men = mover & ~self.kings
        king_row = RED_KING_ROW if self.red_to_move else WHITE_KING_ROW
        man_dirs = RED_DIRECTIONS if self.red_to_move else WHITE_DIRECTIONS
        found: list[Move] = []
        for dirs, pieces in ((man_dirs, men), (KING_DIRECTIONS, kings)):
            if not pieces:
                continue
            for d in dirs:
                f = STEP[d]
                landings = f(f(pieces) & opp) & empty
                for land in squares(landings):
                    over = BACK[d][land]
                    origin = BACK[d][over]
                    is_king = bool(kings >> origin & 1)
                    captured = 1 << over
                    if not is_king and king_row >> land & 1:
                        found.append(Move((origin + 1, land + 1), captured))
                        continue
                    self._continue(
                        found, (origin + 1, land + 1), land, captured, opp, empty | (1 << origin),
                        KING_DIRECTIONS if is_king else man_dirs, is_king, king_row,
                    )
        return found

    @staticmethod
    def _continue(
        found: list[Move], path: tuple[int, ...], at: int, captured: int, opp: int, empty: int,
        dirs: tuple[int, ...], is_king: bool, king_row: int,
    ) -> None:
        extended = False
        for d in dirs:
            jump = JUMP[d][at]
            if jump is None:
                continue
            over, land = jump
            bit = 1 << over
            if opp & bit and not captured & bit and empty >> land & 1:
                extended = True
                more = captured | bit
                new_path = (*path, land + 1)
                if not is_king and king_row >> land & 1:
                    found.append(Move(new_path, more))
                else:
                    Position._continue(found, new_path, land, more, opp, empty, dirs, is_king, king_row)
        if not extended:
            found.append(Move(path, captured))

    def quiet_moves(self) -> list[Move]:
        """Every non-capturing move of the side to move (legal only when no capture exists)."""
        mover = self.mover
        empty = self.empty
        kings = mover & self.kings
        men = mover & ~self.kings
        man_dirs = RED_DIRECTIONS if self.red_to_move else WHITE_DIRECTIONS
        found: list[Move] = []
        for d in KING_DIRECTIONS:
            pieces = (men | kings) if d in man_dirs else kings
            if not pieces:
                continue
            back = BACK[d]
            for to in squares(STEP[d](pieces) & empty):
                found.append(Move((back[to] + 1, to + 1)))
        return found

    def has_capture(self) -> bool:
        """Whether the side to move must jump (ACF: jumps are compulsory)."""
        mover, opp, empty = self.mover, self.opponent, self.empty
        kings = mover & self.kings
        man_dirs = RED_DIRECTIONS if self.red_to_move else WHITE_DIRECTIONS
        for d in KING_DIRECTIONS:
            pieces = mover if d in man_dirs else kings
            if pieces:
                f = STEP[d]
                if f(f(pieces) & opp) & empty:
                    return True
        return False

    def legal_moves(self) -> list[Move]:
        """The legal moves: the captures if there is any (compulsory), else the quiet moves."""
        caps = self.captures()
        return caps if caps else self.quiet_moves()

    def count_moves(self) -> int:
        """The number of legal moves (captures per path), counting quiet moves without listing them."""
        if self.has_capture():
            return len(self.captures())
        mover = self.mover
        empty = self.empty
        kings = mover & self.kings
        man_dirs = RED_DIRECTIONS if self.red_to_move else WHITE_DIRECTIONS
        total = 0
        for d in KING_DIRECTIONS:
            pieces = mover if d in man_dirs else kings
            if pieces:
                total += (STEP[d](pieces) & empty).bit_count()
        return total

    def push(self, move: Move) -> Position:
        """The position after ``move`` (assumed legal, or at least physically possible)."""
        frm = 1 << (move.from_square - 1)
        to = 1 << (move.to_square - 1)
        return self.play(frm, to, move.captured)

    def play(self, frm: int, to: int, captured: int) -> Position:
        """Move the mover's piece from bit ``frm`` to bit ``to``, removing ``captured``; crown on the king row.

        Also used for illegal moves as played: nothing is checked here.
        """
        kings = self.kings
        keep = FULL ^ captured
        if frm != to:
            if kings & frm:
                kings ^= frm | to
            elif to & (RED_KING_ROW if self.red_to_move else WHITE_KING_ROW):
                kings |= to
        kings &= keep
        if self.red_to_move:
            return Position((self.red ^ frm) | to, self.white & keep, kings, False)
        return Position(self.red & keep, (self.white ^ frm) | to, kings, True)

    def is_man_move(self, move: Move) -> bool:
        """Whether ``move`` is made by an uncrowned man (it resets the forty-move count)."""
        return not self.kings >> (move.from_square - 1) & 1

    # ---------------------------------------------------------------- FEN

    def fen(self) -> str:
        """The PDN FEN: ``B:W21,...,32:B1,...,12`` (side to move first, ``K`` before a king)."""

        def side(bb: int) -> str:
            return ",".join(("K" if self.kings >> s & 1 else "") + str(s + 1) for s in squares(bb))

        return f"{'B' if self.red_to_move else 'W'}:W{side(self.white)}:B{side(self.red)}"

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """Read a PDN FEN (``B:W21-32:B1-12`` ranges, ``K`` kings, optional quotes and final dot).

        :raises FenError: naming what is wrong.
        """
        text = fen.strip().strip('"').strip()
        if text.endswith("."):
            text = text[:-1]
        parts = [p.strip() for p in text.split(":") if p.strip()]
        if not parts or parts[0].upper() not in ("B", "W"):
            raise FenError(f"{fen!r}: a checkers FEN starts with B or W (the side to move)")
        red_to_move = parts[0].upper() == "B"
        boards = {"W": 0, "B": 0}
        kings = 0
        seen_colours: set[str] = set()
        for part in parts[1:]:
            colour = part[0].upper()
            if colour not in boards:
                if colour in ("H", "F"):  # half-move clock and move number extensions
                    continue
                raise FenError(f"{fen!r}: piece list {part!r} must start with W or B")
            if colour in seen_colours:
                raise FenError(f"{fen!r}: two piece lists for {colour}")
            seen_colours.add(colour)
            for item in part[1:].split(","):
                item = item.strip()
                if not item:
                    continue
                is_king = item[0].upper() == "K"
                body = item[1:] if is_king else item
                try:
                    if "-" in body:
                        lo, hi = (int(x) for x in body.split("-", 1))
                        numbers = list(range(lo, min(hi, 33) + 1))  # past 32 is refused below, not listed
                    else:
                        numbers = [int(body)]
                except ValueError:
                    raise FenError(f"{fen!r}: {item!r} is not a square number") from None
                for n in numbers:
                    if not 1 <= n <= 32:
                        raise FenError(f"{fen!r}: square {n} is not between 1 and 32")
                    bit = 1 << (n - 1)
                    if (boards["W"] | boards["B"]) & bit:
                        raise FenError(f"{fen!r}: square {n} is given twice")
                    boards[colour] |= bit
                    if is_king:
                        kings |= bit
        for colour, name in (("B", "Red"), ("W", "White")):
            count = boards[colour].bit_count()
            if count > MAX_PIECES:
                raise FenError(f"{fen!r}: {name} has {count} pieces; a side has at most {MAX_PIECES} (12 men at the "
                               "start, and no move adds a piece)")
        return cls(boards["B"], boards["W"], kings, red_to_move)


START: Final = Position(0xFFF, 0xFFF << 20, 0, True)
"""The starting position: Red on 1-12, White on 21-32, Red to move."""


def perft(position: Position, depth: int) -> int:
    """The number of move paths of length ``depth`` (leaf nodes), captures counted per path."""
    if depth == 0:
        return 1
    if depth == 1:
        return position.count_moves()
    return sum(perft(position.push(m), depth - 1) for m in position.legal_moves())


def perft_by_layers(position: Position, depth: int) -> int:
    """:func:`perft` computed layer by layer over distinct positions (transpositions merged).

    Each layer maps a position to the number of move paths reaching it, so the count
    of paths is the same as :func:`perft`'s, at a fraction of the work for deep searches.
    """
    if depth == 0:
        return 1
    layer: dict[Position, int] = {position: 1}
    for _ in range(depth - 1):
        following: dict[Position, int] = {}
        for pos, paths in layer.items():
            for move in pos.legal_moves():
                child = pos.push(move)
                following[child] = following.get(child, 0) + paths
        layer = following
    return sum(pos.count_moves() * paths for pos, paths in layer.items())
