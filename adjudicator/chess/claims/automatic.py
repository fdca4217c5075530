"""Endings that need no claim, found in a replayed record.

- FIDE 5.1.1 / 5.2.1: checkmate and stalemate end the game at once, provided the
  move was legal.
- FIDE 9.6.1: the same position (9.2.3) for at least the fifth time, not
  necessarily consecutively: the game is drawn; the arbiter must intervene.
- FIDE 9.6.2: 75 moves by each player without a pawn move or capture: drawn,
  unless the last of them gave checkmate (that takes precedence).
- US Chess 14K: the TD *may* declare a draw after five consecutive repetitions or 75
  moves (``automatic = "discretionary"``). "Consecutive" (``automatic_consecutive``)
  is read as: each of the five occurrences four plies after the previous one, the
  players shuttling back and forth with no other move in between.

Once the game has ended, later moves and flag falls are irrelevant (Arbiters' Manual
on 6.9 and 9.6).

The start position (a case ``fen`` or ``start_fen`` with its counters) is judged too
(ply 0): a position given as checkmate, stalemate or with the half-move counter at the
75-move limit has ended (or lets the TD end) the game exactly as the record reaching
it would have, so the same position gets the same verdict however it was entered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import chess

from adjudicator.chess.replay import RepetitionKey, Replay
from adjudicator.rulesets import ChessRuleset

Kind = Literal["checkmate", "stalemate", "fivefold", "seventy-five-moves"]


@dataclass(frozen=True)
class Ending:
    """The game ended (or the TD may end it) after ``ply``."""

    ply: int
    kind: Kind
    result: Literal["1-0", "0-1", "1/2-1/2"]
    is_mandatory: bool
    """False: the ruleset only lets the TD declare it (US Chess 14K)."""
    article: str
    occurrences: tuple[int, ...] = ()
    counter: int = 0


def _is_consecutive(plies: list[int]) -> bool:
    return all(b - a == 4 for a, b in zip(plies, plies[1:], strict=False))


def endings(replay: Replay, ruleset: ChessRuleset) -> list[Ending]:
    """Every automatic ending in the record, in order of ply (the first one ended the game)."""
    us = ruleset.is_a("uschess")
    rep_mode = ruleset.repetition.automatic
    rep_count = ruleset.repetition.automatic_occurrences
    consecutive = ruleset.repetition.automatic_consecutive
    move_mode = ruleset.move_rule.automatic
    move_limit = 2 * ruleset.move_rule.automatic_moves
    found: list[Ending] = []
    seen: dict[RepetitionKey, list[int]] = {replay.start_key: [0]}
    fivefold_done = seventyfive_done = False
    start = replay.start_board
    if start.is_checkmate():
        won: Literal["1-0", "0-1"] = "0-1" if start.turn == chess.WHITE else "1-0"
        return [Ending(0, "checkmate", won, True, ruleset.ref("12A") if us else ruleset.ref("5.1.1"))]
    if start.is_stalemate():
        return [Ending(0, "stalemate", "1/2-1/2", True, ruleset.ref("14A") if us else ruleset.ref("5.2.1"))]
    if move_mode != "none" and start.halfmove_clock >= move_limit:
        seventyfive_done = True
        found.append(
            Ending(
                0, "seventy-five-moves", "1/2-1/2", move_mode == "mandatory",
                ruleset.ref("14K") if us else ruleset.ref("9.6.2"), counter=start.halfmove_clock,
            )
        )
    for ply in replay.plies:
        n = ply.number
        if ply.is_legal and ply.is_checkmate:
            result: Literal["1-0", "0-1"] = "1-0" if ply.side == "white" else "0-1"
            found.append(Ending(n, "checkmate", result, True, ruleset.ref("5.1.1") if not us else ruleset.ref("12A")))
            continue
        if ply.is_legal and ply.is_stalemate:
            article = ruleset.ref("14A") if us else ruleset.ref("5.2.1")
            found.append(Ending(n, "stalemate", "1/2-1/2", True, article))
            continue
        plies = seen.setdefault(ply.key, [])
        plies.append(n)
        if rep_mode != "none" and not fivefold_done and len(plies) >= rep_count:
            last = plies[-rep_count:]
            if not consecutive or _is_consecutive(last):
                fivefold_done = True
                found.append(
                    Ending(
                        n, "fivefold", "1/2-1/2", rep_mode == "mandatory",
                        ruleset.ref("14K") if us else ruleset.ref("9.6.1"), tuple(plies),
                    )
                )
        if move_mode != "none" and not seventyfive_done and ply.counter >= move_limit:
            seventyfive_done = True
            found.append(
                Ending(
                    n, "seventy-five-moves", "1/2-1/2", move_mode == "mandatory",
                    ruleset.ref("14K") if us else ruleset.ref("9.6.2"), counter=ply.counter,
                )
            )
    return found


def first_ending(replay: Replay, ruleset: ChessRuleset) -> Ending | None:
    """The first ending that ended the game by itself (mandatory), if any."""
    for ending in endings(replay, ruleset):
        if ending.is_mandatory:
            return ending
    return None


def first_discretionary(replay: Replay, ruleset: ChessRuleset) -> Ending | None:
    """The first point where the TD may declare a draw (US Chess 14K), if any."""
    for ending in endings(replay, ruleset):
        if not ending.is_mandatory:
            return ending
    return None


def describe(replay: Replay, ending: Ending) -> str:
    """One sentence an arbiter would say about the ending."""
    if ending.ply == 0:
        return _describe_start(replay, ending)
    label = replay.label(ending.ply)
    if ending.kind == "checkmate":
        return f"{label} was checkmate; the game ended there."
    if ending.kind == "stalemate":
        return f"{label} was stalemate; the game ended there in a draw."
    if ending.kind == "fivefold":
        where = ", ".join(str(p) for p in ending.occurrences)
        verb = "ended the game in a draw" if ending.is_mandatory else "lets the TD declare a draw"
        return f"After {label} the same position stood for the fifth time (plies {where}), which {verb}."
    verb = "ended the game in a draw" if ending.is_mandatory else "lets the TD declare a draw"
    return (
        f"After {label} each player had made 75 moves without a pawn move or capture "
        f"(counter {ending.counter}), which {verb}."
    )


def _describe_start(replay: Replay, ending: Ending) -> str:
    """The ending of a position given with its counters (ply 0): no move of the record made it."""
    where = "The position given" if not replay.plies else "The position the record starts from"
    if ending.kind == "checkmate":
        winner = "White" if ending.result == "1-0" else "Black"
        return f"{where} is checkmate: {winner} has won; the game is over."
    if ending.kind == "stalemate":
        return f"{where} is stalemate; the game is drawn."
    verb = "which ended the game in a draw" if ending.is_mandatory else "which lets the TD declare a draw"
    return (
        f"{where} shows {ending.counter} half-moves without a pawn move or capture "
        f"({ending.counter // 2} moves by each player), {verb}."
    )
