"""A property (issue 34): delete one move from a legal game's numbered record. The product never upholds an
illegal-move claim that depends on the deleted move, and always reports the gap at the ply where the numbers
show it.

The records are written as PGN writes them (python-chess's exporter): ``N.`` before White's move, and
``N...`` before Black's move where White's move of that number is not just before it (the start, or the
deleted move). A game that was legal throughout has no illegal move before the deleted one, so any illegal
move the tokens give in order stands at or after the gap: it depends on the deleted move.
"""

from __future__ import annotations

import random

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.chess.numbering import Slot
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook


def random_game(seed: int, length: int) -> list[str]:
    """A legal game of up to ``length`` plies, in SAN, drawn from ``seed``."""
    rng = random.Random(seed)
    board = chess.Board()
    moves: list[str] = []
    for _ in range(length):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(board.san(move))
        board.push(move)
    return moves


def numbered(moves: list[str], deleted: int) -> str:
    """The record of ``moves`` without the move of ply ``deleted`` (1 = the first), numbered as PGN numbers it."""
    words: list[str] = []
    previous_white: int | None = None  # the number of the White move just written, if the last word is one
    for ply, san in enumerate(moves, start=1):
        if ply == deleted:
            previous_white = None
            continue
        number, white = (ply + 1) // 2, ply % 2 == 1
        if white:
            words.append(f"{number}. {san}")
            previous_white = number
        else:
            words.append(san if previous_white == number else f"{number}... {san}")
            previous_white = None
    return " ".join(words)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(2, 40), data=st.data())
def test_a_deleted_move_is_a_gap_at_its_ply_and_never_an_upheld_illegal_move(
    book: RulesetBook, seed: int, length: int, data: st.DataObject
) -> None:
    moves = random_game(seed, length)
    deleted = data.draw(st.integers(1, len(moves) - 1), label="deleted ply")  # a move with a move after it
    record = numbered(moves, deleted)
    replay = replay_chess(record, allow_unreadable=True)
    gap = replay.numbering_gaps[0]
    assert gap.ply == deleted, record  # the next move stands at the deleted move's ply, read in order
    assert gap.missing == (Slot.at(deleted - 1),), record  # the deleted move's number and side
    case = {"game": "chess", "ruleset": data.draw(st.sampled_from(["fide-standard", "fide-blitz", "uschess"])),
            "claim": "illegal-move", "record": record}
    if data.draw(st.booleans(), label="alleged"):
        case["alleged_illegal_ply"] = data.draw(st.integers(deleted, len(moves) - 1), label="alleged ply")
    result = rule(parse_case(case), book)
    assert result.verdict != "upheld", (record, result.reasons)
    assert result.evidence.get("numbering_gaps", [{}])[0].get("ply") == deleted, (record, result.evidence)
