"""The position a claim judges, with FIDE 7.5.1 applied to a record that ends in an impossible position.

A record is read leniently (illegal moves stay as played), so its last move can leave a
position no legal game reaches: a king left in check or taken, kings side by side.
Searches and engines must not see such a position, and an arbiter would not rule on it:
FIDE 7.5.1 reinstates the position immediately before the irregularity. Claims that judge
the position (flag, unfinished game, insufficient losing chances) use
:func:`judged_position`; claims that count positions (repetition, move rules) and the
illegal-move claim rule on the record as played (:func:`legal_replay`), from a start that a legal game
reaches.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from adjudicator.chess.replay import Ply, Replay, parse_fen, replay_for_case
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import Ruleset

_STATUS = {
    chess.STATUS_NO_WHITE_KING: "White has no king",
    chess.STATUS_NO_BLACK_KING: "Black has no king",
    chess.STATUS_TOO_MANY_KINGS: "a side has more than one king",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "White has more than 8 pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "Black has more than 8 pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn stands on the first or last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "White has more than 16 pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "Black has more than 16 pieces",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_TOO_MANY_CHECKERS: "the king is in check from too many pieces",
    chess.STATUS_IMPOSSIBLE_CHECK: "the check given could not have arisen",
}


def position_problem(board: chess.Board) -> str | None:
    """Why no legal game can reach ``board`` (None when one can); searches must not see such positions.

    Castling rights and an e.p. square that do not fit are not problems (they are ignored).
    """
    status = board.status() & ~(chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE)
    if not status:
        return None
    return "; ".join(text for flag, text in _STATUS.items() if status & flag) or f"status {status}"


def legal_position(fen: str, field: str = "fen") -> chess.Board:
    """The position of ``fen`` when a legal game can reach it: the check every entry point shares.

    :raises ContractError: ``invalid_fen`` naming ``field``, when ``fen`` is not a FEN or
        no legal game reaches it (see :func:`position_problem`: 40 queens, two kings, ...).
    """
    board = parse_fen(fen, field)
    problem = position_problem(board)
    if problem is not None:
        raise ContractError("invalid_fen", f"{field} is not a legal position: {problem}", field)
    return board


@dataclass(frozen=True)
class JudgedPosition:
    """The position a claim judges (FIDE 7.5.1 applied), the case field it came from, and why.

    A record that ends in a position no legal game reaches (a king left in check, taken,
    or beside the other king) is judged on the position before the illegal move that led
    there: FIDE 7.5.1 reinstates the position immediately before the irregularity.
    """

    board: chess.Board
    field: str
    """``record``, ``fen`` or ``start_fen``."""
    replay: Replay | None = None
    reinstated: Ply | None = None
    """The illegal ply whose previous position was reinstated (None: the position as it stands)."""
    problem: str | None = None
    """What was wrong with the position after the record's last move."""

    def notes(self) -> tuple[str, ...]:
        """Sentences for the ruling's reasons (empty when nothing was reinstated)."""
        if self.reinstated is None or self.replay is None:
            return ()
        label = self.replay.label(self.reinstated.number)
        why = f" ({self.reinstated.reason})" if self.reinstated.reason else ""
        return (
            f"The record ends in a position no legal game reaches ({self.problem}): {label} (ply "
            f"{self.reinstated.number}) was illegal{why}. The position before it is reinstated and the claim "
            "is judged on that position.",
        )

    def article(self, ruleset: Ruleset) -> str:
        """The article that reinstates the position: FIDE 7.5.1, US Chess 11A."""
        return ruleset.ref("11A" if ruleset.authority == "US Chess" else "7.5.1")

    def instructions(self) -> tuple[str, ...]:
        if self.reinstated is None or self.replay is None:
            return ()
        label = self.replay.label(self.reinstated.number)
        return (f"Reinstate the position before {label} ({self.board.fen()}).",)


def judged_position(case: Case) -> JudgedPosition:
    """The position a claim judges: the record's end, else ``fen``, else ``start_fen``.

    A record ending in an impossible position is judged on the position FIDE 7.5.1
    reinstates (see :class:`JudgedPosition`).

    :raises ContractError: naming the field when no position at all is given, or when the
        position given (or the record's start) is no legal position.
    """
    if case.record:
        replay = replay_for_case(case)
        judged = judged_record_position(replay)
        if judged is not None:
            return judged
        raise _impossible_start(case, replay, position_problem(replay.start_board))
    if case.fen or case.start_fen:
        field = "fen" if case.fen else "start_fen"
        return JudgedPosition(legal_position(case.fen or case.start_fen or "", field), field)
    raise ContractError("missing_field", "give the record or the position (fen)", "record")


def legal_replay(case: Case) -> Replay:
    """The case's record replayed (:func:`replay_for_case`) for a claim that rules on the record as played
    (repetition, the move rules, an illegal move), refused when it starts from a position no legal game reaches
    (two kings of a side, a missing king, the side not to move in check): such a record is no game of chess
    (FIDE 3.9 and 3.10.1: a position is legal only when a series of legal moves from the initial position
    reaches it), and the claims that judge a position refuse it too.

    :raises ContractError: ``illegal_position``, naming ``record`` (its FEN tag) or ``start_fen``.
    """
    replay = replay_for_case(case)
    problem = position_problem(replay.start_board)
    if problem is not None:
        raise _impossible_start(case, replay, problem)
    return replay


def _impossible_start(case: Case, replay: Replay, problem: str | None) -> ContractError:
    field = "record" if replay.tag("FEN") is not None or not case.start_fen else "start_fen"
    return ContractError("illegal_position", f"the record starts from a position no legal game reaches: {problem}",
                         field)


def judged_record_position(replay: Replay) -> JudgedPosition | None:
    """The position a record's end is judged on (FIDE 7.5.1 applied); None when even its start is no position."""
    board = replay.final_board
    problem = position_problem(board)
    if problem is None:
        return JudgedPosition(board, "record", replay)
    for ply in range(len(replay.plies) - 1, -1, -1):
        before = replay.board_after(ply)
        if position_problem(before) is None:
            return JudgedPosition(before, "record", replay, replay.plies[ply], problem)
    return None
