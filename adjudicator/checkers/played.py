"""Moves as played in a checkers record: matched to the legal moves, or why they are illegal.

The replay (:mod:`adjudicator.checkers.replay`) asks :func:`play_token` about each
written move: the legal move it names, or the move as physically made with the
reason it is illegal (ACF Standard Laws and WCDF 2008 rules, README 3.1: men move and
jump forward only, jumps are compulsory and a multiple jump must be completed, a man
reaching the king row is crowned and its move ends there), or, for a token that is
no move, the legal moves its writer may have meant.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from adjudicator.checkers.board import JUMP, NEIGHBOUR, Move, Position
from adjudicator.checkers.pdn import MoveToken

RED_CROWN = (29, 30, 31, 32)
"""Where a red man is crowned."""
WHITE_CROWN = (1, 2, 3, 4)
"""Where a white man is crowned."""


def _path_matches(path: tuple[int, ...], written: Sequence[int]) -> bool:
    if path[0] != written[0] or path[-1] != written[-1]:
        return False
    it = iter(path[1:-1])
    return all(any(sq == w for sq in it) for w in written[1:-1])


def _jump_over(x: int, y: int) -> tuple[int, int] | None:
    """(direction, square jumped) when ``y`` is one jump from ``x`` (squares 1-32), else None."""
    for d in range(4):
        jump = JUMP[d][x - 1]
        if jump is not None and jump[1] == y - 1:
            return d, jump[0] + 1
    return None


def _why_illegal(position: Position, squares: Sequence[int], legal: list[Move]) -> str:
    """The reason a move as written is illegal, in an arbiter's words (ACF Standard Laws, README 3.1).

    The first that applies: a man going on after it was crowned, an incomplete multiple
    jump, a man moving or jumping backwards, a jump not taken, then what is wrong with a leg.
    """
    a, b = squares[0], squares[-1]
    jumps = [m for m in legal if m.is_capture]
    is_king = bool(position.kings >> (a - 1) & 1)
    if not is_king:
        crown = RED_CROWN if position.red_to_move else WHITE_CROWN
        crowned = next((sq for sq in squares[1:-1] if sq in crown), None)
        if crowned is not None:
            return (
                f"the man on {a} was crowned on {crowned}, and crowning ends the move: "
                f"it cannot go on to {b}"
            )
    if jumps and any(m.from_square == a and m.path[: len(squares)] == tuple(squares) for m in jumps):
        return f"the jump from {a} is not complete: a multiple jump must be taken to the end"
    forward = (0, 1) if position.red_to_move else (2, 3)
    legs = list(zip(squares, squares[1:], strict=False))
    if not is_king:
        for x, y in legs:
            over = _jump_over(x, y)
            if over is not None and over[0] not in forward:
                if position.opponent >> (over[1] - 1) & 1:
                    return (
                        f"the man on {a} cannot jump backwards (over {over[1]} to {y}): "
                        "a man moves and jumps forward only"
                    )
                return f"the man on {a} cannot move backwards: a man moves and jumps forward only"
            if any(NEIGHBOUR[d][x - 1] == y - 1 for d in range(4) if d not in forward):
                return f"the man on {a} cannot move backwards: a man moves and jumps forward only"
    if jumps:
        shown = ", ".join(str(m) for m in jumps[:4])
        return f"a jump was compulsory ({shown})"
    if not position.empty >> (b - 1) & 1:
        return f"square {b} is occupied"
    for x, y in legs:
        over = _jump_over(x, y)
        if over is not None:
            if position.mover >> (over[1] - 1) & 1:
                return f"a piece cannot jump its own piece (on {over[1]})"
            if not position.opponent >> (over[1] - 1) & 1:
                return f"there is no piece on {over[1]} to jump"
        elif any(NEIGHBOUR[d][x - 1] == y - 1 for d in range(4)):
            if len(legs) > 1:
                return f"a move that is not a jump goes one square only ({x}-{y} is one of {len(legs)} steps)"
        else:
            return f"{x} and {y} are not next to each other, and there is nothing to jump"
    return "the move is not legal here"


def physical(position: Position, squares: Sequence[int]) -> Move | None:
    """The move as physically made, for a move that is not legal; None if it cannot be made at all."""
    if any(not 1 <= s <= 32 for s in squares) or len(squares) < 2:
        return None
    a, b = squares[0], squares[-1]
    if not position.mover >> (a - 1) & 1:
        return None
    if a != b and not position.empty >> (b - 1) & 1:
        return None
    captured = 0
    for x, y in zip(squares, squares[1:], strict=False):
        for d in range(4):
            jump = JUMP[d][x - 1]
            if jump is not None and jump[1] == y - 1 and position.opponent >> jump[0] & 1:
                captured |= 1 << jump[0]
    return Move(tuple(squares), captured)


def _candidates(position: Position, token: MoveToken) -> tuple[str, ...]:
    """The legal moves the writer of an unreadable token may have meant, likeliest first.

    Those from its first square or to its last; else those written most like it; else all.
    """
    legal = sorted(position.legal_moves())
    numbers = token.squares
    near = [m for m in legal if numbers and (m.from_square == numbers[0] or len(numbers) > 1
                                              and m.to_square == numbers[-1])]
    if near:
        return tuple(str(m) for m in near)
    written = [str(m) for m in legal]
    return tuple(difflib.get_close_matches(token.text, written, n=4, cutoff=0.6) or written)


def play_token(position: Position, token: MoveToken) -> tuple[Move | None, bool, str | None, tuple[str, ...]]:
    """(move, is_legal, reason, candidates) for one written move; no move: unreadable, reason says why."""
    squares = token.squares
    if token.unreadable:
        return None, False, token.unreadable, _candidates(position, token)
    if len(squares) < 2 or any(not 1 <= s <= 32 for s in squares):
        return None, False, "it is no move on a 1-32 board", _candidates(position, token)
    legal = position.legal_moves()
    exact = [m for m in legal if m.path == tuple(squares)]
    matches = exact or [m for m in legal if _path_matches(m.path, squares)]
    if matches:
        first = matches[0]
        if all(m.captured == first.captured for m in matches):
            return first, True, None, ()
        return None, False, "the squares written fit more than one jump", tuple(str(m) for m in matches)
    move = physical(position, squares)
    if move is None:
        return Move(tuple(squares)), False, _why_unplayable(position, squares), ()
    return move, False, _why_illegal(position, squares, legal), ()


def push_as_played(position: Position, move: Move) -> Position:
    """The position after ``move`` as physically played: a man that passed its king row is a king."""
    after = position.push(move)
    crown = RED_CROWN if position.red_to_move else WHITE_CROWN
    if position.is_man_move(move) and any(sq in crown for sq in move.path[1:-1]):
        after = after._replace(kings=after.kings | 1 << (move.to_square - 1))
    return after


def _why_unplayable(position: Position, squares: Sequence[int]) -> str:
    a, b = squares[0], squares[-1]
    side = "red" if position.red_to_move else "white"
    piece = position.piece_at(a)
    if piece is None:
        return f"there is no {side} piece on {a}; the move cannot be made as written"
    if not position.mover >> (a - 1) & 1:
        return f"the piece on {a} is not {side}'s; the move cannot be made as written"
    return f"square {b} is occupied; the move cannot be made as written"


__all__ = ["RED_CROWN", "WHITE_CROWN", "Move", "physical", "play_token", "push_as_played"]
