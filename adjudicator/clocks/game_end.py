"""Had the game already ended? Then a flag, or any claim, changes nothing.

A result reached before the flag is noticed stands (FIDE 6.8); every chess claim asks
the same question first (:mod:`adjudicator.chess.claims.over`), and ``check-games``
asks it of every game. The game ends by itself, with no claim, on:

- checkmate (5.1.1) or stalemate (5.2.1), provided the move was legal;
- a dead position (5.2.2; US Chess 14D), provided the move producing it was legal:
  neither side can mate by any series of legal moves (the helpmate analysis through
  ``services.mate``), or, as the ruleset's ``flag.dead_position`` says, only the listed
  material endings (:mod:`adjudicator.clocks.dead_position`);
- the fifth occurrence of a position (9.6.1) or 75 moves each without a capture or
  pawn move (9.6.2; a mate on that move wins). The Arbiters' Manual: both still
  draw if a flag fell afterwards. Under US Chess 14K the TD *may* declare these
  draws (``automatic = "discretionary"``): they are reported, not imposed.
  For a record these come from :mod:`adjudicator.chess.claims.automatic`; for a position
  alone, from the position (its move counter).

The earliest ending is the one that ended the game; an ending after the point the
question is about (``until``) is irrelevant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.chess.claims.automatic import Ending, describe, endings
from adjudicator.chess.replay import Replay
from adjudicator.clocks.dead_position import Deadness, first_dead, listed_ending
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Result

__all__ = ["Deadness", "GameEnd", "dead_endings", "game_end"]


@dataclass(frozen=True)
class GameEnd:
    """What ended the game, and when."""

    kind: str
    """``checkmate``, ``stalemate``, ``dead-position``, ``fivefold``, ``seventy-five-moves``."""
    ply: int
    """0: the start position (or the position given); n: after the record's n-th move."""
    result: Result
    articles: tuple[str, ...]
    reason: str
    is_mandatory: bool = True
    """False: the TD may declare it (US 14K); the flag ruling then goes on."""
    evidence: dict[str, Any] = field(default_factory=dict)
    confidence: float = 1.0


def game_end(
    replay: Replay | None,
    board: chess.Board,
    ruleset: ChessRuleset,
    deadness: Deadness,
    side_names: tuple[str, str],
    until: int | None = None,
) -> GameEnd | None:
    """The earliest way the game ended (or, failing that, the first the TD may declare).

    ``until``: the last ply the question is about (the claimed point); endings after it are
    irrelevant. Default: the whole record (or the position alone).
    """
    if replay is not None:
        last = len(replay.plies) if until is None else max(0, min(until, len(replay.plies)))
        found = [_from_ending(replay, e) for e in endings(replay, ruleset) if e.ply <= last]
        count = last + 1
        board_at = replay.board_after
        plies = replay.plies

        def legal(ply: int) -> bool:
            return ply == 0 or plies[ply - 1].is_legal
    else:
        found = _on_board(board, ruleset, side_names)
        count = 1

        def board_at(ply: int) -> chess.Board:
            return board

        def legal(ply: int) -> bool:
            return True
    found.extend(_dead(count, board_at, legal, replay, ruleset, deadness))
    order = {"checkmate": 0, "stalemate": 1, "dead-position": 2, "seventy-five-moves": 3, "fivefold": 4}
    mandatory = [e for e in found if e.is_mandatory]
    pool = mandatory or found
    return min(pool, key=lambda e: (e.ply, order.get(e.kind, 9))) if pool else None


def dead_endings(replay: Replay, ruleset: ChessRuleset, deadness: Deadness) -> list[GameEnd]:
    """The first dead position of the record (5.2.2, US 14D), and under ``material-then-td`` an earlier one the
    TD may declare (not mandatory): the same test :func:`game_end` applies (the arbiter's watch asks it alone)."""
    plies = replay.plies

    def legal(ply: int) -> bool:
        return ply == 0 or plies[ply - 1].is_legal

    return _dead(len(plies) + 1, replay.board_after, legal, replay, ruleset, deadness)


def _from_ending(replay: Replay, ending: Ending) -> GameEnd:
    evidence: dict[str, Any] = {}
    if ending.occurrences:
        evidence["occurrences"] = list(ending.occurrences)
    if ending.kind == "seventy-five-moves":
        evidence["counter"] = ending.counter
    return GameEnd(
        ending.kind,
        ending.ply,
        ending.result,
        (ending.article,),
        describe(replay, ending),
        ending.is_mandatory,
        evidence,
    )


def _on_board(board: chess.Board, ruleset: ChessRuleset, names: tuple[str, str]) -> list[GameEnd]:
    """The same endings for a position given without its record (a FEN)."""
    us = ruleset.is_a("uschess")
    if board.is_checkmate():
        winner = names[0] if board.turn == chess.BLACK else names[1]
        result: Result = "1-0" if board.turn == chess.BLACK else "0-1"
        article = ruleset.ref("12A") if us else ruleset.ref("5.1.1")
        return [GameEnd("checkmate", 0, result, (article,), f"{winner.capitalize()} has checkmated; the game is over.")]
    if board.is_stalemate():
        article = ruleset.ref("14A") if us else ruleset.ref("5.2.1")
        return [GameEnd("stalemate", 0, "1/2-1/2", (article,), "The position on the board is stalemate.")]
    mode = ruleset.move_rule.automatic
    moves = ruleset.move_rule.automatic_moves
    if mode != "none" and board.halfmove_clock >= 2 * moves:
        verb = "which ended the game in a draw" if mode == "mandatory" else "which lets the TD declare a draw"
        article = ruleset.ref("14K") if us else ruleset.ref("9.6.2")
        return [
            GameEnd(
                "seventy-five-moves",
                0,
                "1/2-1/2",
                (article,),
                f"The position shows {board.halfmove_clock} half-moves without a capture or pawn move "
                f"({moves} moves by each player), {verb}.",
                mode == "mandatory",
                {"counter": board.halfmove_clock},
            )
        ]
    return []


def _where(ply: int, replay: Replay | None) -> str:
    if replay is None:
        return "The position given"
    if ply == 0:
        return "The position the record starts from" if replay.plies else "The position given"
    return f"After {replay.label(ply)} (ply {ply}) the position"


def _dead(
    count: int,
    board_at: Callable[[int], chess.Board],
    legal: Callable[[int], bool],
    replay: Replay | None,
    ruleset: ChessRuleset,
    deadness: Deadness,
) -> list[GameEnd]:
    """The first dead position (5.2.2, 14D), and under ``material-then-td`` an earlier one only analysis proves."""
    if deadness.mode == "material-then-td":
        listed = first_dead(count, board_at, legal, deadness.is_listed)
        last = count - 1 if listed is None else listed - 1  # an analysed one matters only before the listed one
        analysed = first_dead(last + 1, board_at, legal, deadness.is_dead) if last >= 0 else None
        ends = [] if listed is None else [_dead_end(listed, board_at, replay, ruleset, deadness, True)]
        if analysed is not None:
            ends.append(_dead_end(analysed, board_at, replay, ruleset, deadness, False))
        return ends
    ply = first_dead(count, board_at, legal, deadness.is_dead)
    return [] if ply is None else [_dead_end(ply, board_at, replay, ruleset, deadness, True)]


def _dead_end(
    ply: int,
    board_at: Callable[[int], chess.Board],
    replay: Replay | None,
    ruleset: ChessRuleset,
    deadness: Deadness,
    mandatory: bool,
) -> GameEnd:
    board = board_at(ply)
    article = ruleset.ref("14D") if ruleset.is_a("uschess") else ruleset.ref("5.2.2")
    where = _where(ply, replay)
    evidence: dict[str, Any] = {
        "dead_ply": ply, "fen": board.fen(), "method": "material" if listed_ending(board) else deadness.method,
        "proof": deadness.proof(board),
    }
    if ply > 0:
        alive = deadness.alive(board_at(ply - 1))
        if alive is not None:
            evidence["alive_before"] = {"ply": ply - 1, **alive}
    proof = deadness.words(board)
    if mandatory:
        verb = "the game was drawn then" if replay is not None and (ply or replay.plies) else "the game is drawn"
        reason = f"{where} is dead: {proof}; {verb}."
    else:
        reason = (
            f"{where} is dead ({proof}), though it is not one of the listed material endings: under this "
            "event's rules the TD may declare the game drawn."
        )
    alive_before = evidence.get("alive_before")
    if isinstance(alive_before, dict) and replay is not None:
        side = str(alive_before["side"]).capitalize()
        reason += (
            f" Before that move {side} could still checkmate (a helpmate is shown), so the game ended there "
            "and not earlier."
        )
    return GameEnd("dead-position", ply, "1/2-1/2", (article,), reason, mandatory, evidence)
