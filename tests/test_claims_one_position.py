"""One position, one verdict: a claim ruled from a FEN with its counters and from a record reaching
the same position with the same counters gets the same verdict, result and clock changes.

Every chess claim under every chess ruleset of ``config.toml``. The record is a seeded random
legal game, from the initial position or from a start FEN (an endgame, or a middlegame with a
high half-move counter, so that the 50- and 75-move limits are crossed); the FEN case is the
record's final position with its half-move and full-move counters (python-chess writes it).

What counts as "the same position" here: the history a FEN cannot show must not matter.
The games are built so that no position stands three times (a FEN cannot show repetitions:
a threefold claim from a bare FEN is ruled only when the position itself ended the game, and
is otherwise an error asking for the record) and so that the 75-move limit, once reached, ends
the walk (a record that passed 75 moves and then reset the count ended back then; its final
FEN cannot show that). Everything else a claim judges (side to move, castling and e.p. rights,
the counters, the material, checkmate and stalemate) is in the FEN. A record that also reads, move for
move and as legally, another way (another language's piece letters: ``d8=B`` a Hungarian rook) is not one
position: where that changes the verdict the claim is deferred with both readings (principle 1), and the
reading the replay chose, the one reaching the FEN's position, must give the FEN's verdict.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import claim_ids, rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling, Verdict
from adjudicator.services import Services

CLAIMS = sorted(claim_ids("chess"))
STARTS = [
    None,  # the initial position
    "8/8/4k3/8/8/2b5/4K3/R7 w - - 96 120",  # rook against bishop, the count near 50 moves
    "6k1/8/8/8/8/8/5K2/7R b - - 140 130",  # rook against the bare king, near 75 moves
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 60",  # queen against the bare king: mates and stalemates
    "r3k2r/ppp2ppp/2n5/3pp3/3PP3/2N5/PPP2PPP/R3K2R w KQkq - 0 12",  # castling rights in play
    "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 40",  # a double step allows e.p.
    "7k/5Q2/6K1/8/8/8/8/8 w - - 10 70",  # stalemate and mate one move away
    "r1bq1rk1/pp3ppp/2n2n2/2bpp3/4P3/2PP1N2/PP1NBPPP/R2QK2R b KQ - 3 9",
]
TIME_CONTROLS = [None, "G/30", "40/5400+30:1800+30", "300+3"]


def walk(start: str | None, rng: random.Random, plies: int) -> tuple[chess.Board, list[str]]:
    """A random legal game: no position a third time, stopped when the game ends or 75 moves are reached."""
    board = chess.Board(start) if start else chess.Board()
    seen: dict[object, int] = {board._transposition_key(): 1}
    sans: list[str] = []
    for _ in range(plies):
        if board.is_game_over(claim_draw=False) or board.halfmove_clock >= 150:
            break
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            fresh = seen.get(board._transposition_key(), 0) < 2
            board.pop()
            if fresh:
                break
        else:
            break
        sans.append(board.san(move))
        board.push(move)
        key = board._transposition_key()
        seen[key] = seen.get(key, 0) + 1
    return board, sans


def movetext(start: str | None, sans: list[str]) -> str:
    board = chess.Board(start) if start else chess.Board()
    out: list[str] = []
    for san in sans:
        if board.turn == chess.WHITE:
            out.append(f"{board.fullmove_number}.")
        elif not out:
            out.append(f"{board.fullmove_number}...")
        out.append(san)
        board.push_san(san)
    return " ".join(out)


def claim_fields(claim: str, board: chess.Board, rng: random.Random) -> dict[str, Any]:
    """Plausible fields of a claim on ``board`` (the same for the record and the FEN case)."""
    mover = "white" if board.turn == chess.WHITE else "black"
    other = "black" if mover == "white" else "white"
    legal = sorted(board.legal_moves, key=lambda m: m.uci())
    fields: dict[str, Any] = {"claim": claim, "time_control": rng.choice(TIME_CONTROLS)}
    if claim in ("threefold-repetition", "fifty-move"):
        fields["claimant"] = mover if rng.random() < 0.9 else other
        if legal and rng.random() < 0.5:
            fields["intended_move"] = board.san(rng.choice(legal))
    elif claim == "illegal-move":
        fields["claimant"] = other
        fields["clock_pressed_without_move"] = rng.random() < 0.7
        fields["previous_illegal_moves"] = rng.choice([0, 1])
        fields["clock"] = {"white": 300, "black": 240}
    elif claim == "flag":
        flagged = rng.choice(["white", "black"])
        fields["clock"] = {"white": 0 if flagged == "white" else 45, "black": 0 if flagged == "black" else 45,
                           "flagged": [flagged]}
    elif claim == "insufficient-losing-chances":
        fields["claimant"] = mover
        fields["clock"] = {mover: 90, other: 400}
        if rng.random() < 0.5:
            fields["td_finding"] = rng.choice(["clear", "unclear", "incorrect"])
    return fields


def outcome(case: dict[str, Any], book: RulesetBook) -> tuple[Any, ...] | ContractError:
    try:
        ruling: Ruling = rule(parse_case(case), book, Services())
    except ContractError as exc:
        return exc
    return ruling.verdict, ruling.result, tuple((a.side, a.seconds) for a in ruling.adjustments), ruling


def chosen_reading(ruling: Ruling) -> tuple[str, str | None] | None:
    """The verdict and result of the reading the replay chose, where the record also reads, move for move and as
    legally, another way with another verdict (another language's piece letters: ``d8=B`` is a Hungarian rook;
    a token with two readings), so that the claim is deferred with both (principle 1); None otherwise."""
    if ruling.verdict != Verdict.DEFERRED:
        return None
    languages = ruling.evidence.get("alternative_readings")
    if languages and any(other.get("keeps_record_legal") for other in languages[1:]):
        return languages[0]["verdict"], languages[0]["result"]
    tokens = ruling.evidence.get("chosen_reading")
    if tokens:
        return tokens["verdict"], tokens["result"]
    return None


@pytest.fixture(scope="module")
def chess_rulesets(book: RulesetBook) -> list[str]:
    return sorted(r.id for r in book if r.game == "chess")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(STARTS), plies=st.integers(0, 60),
       claim=st.sampled_from(CLAIMS), ruleset_index=st.integers(0, 100))
def test_a_claim_on_a_position_gets_one_verdict_from_its_fen_or_its_record(
    book: RulesetBook, chess_rulesets: list[str], seed: int, start: str | None, plies: int, claim: str,
    ruleset_index: int,
) -> None:
    rng = random.Random(seed)
    board, sans = walk(start, rng, plies)
    ruleset = chess_rulesets[ruleset_index % len(chess_rulesets)]
    fields = {"ruleset": ruleset, **claim_fields(claim, board, rng)}
    recorded = {**fields, "record": movetext(start, sans) or "*"}
    if start:
        recorded["start_fen"] = start
    from_record = outcome(recorded, book)
    from_fen = outcome({**fields, "fen": board.fen()}, book)
    if claim == "threefold-repetition" and isinstance(from_fen, ContractError):
        # a bare FEN cannot show repetitions; the position itself did not end the game
        assert from_fen.field == "record"
        return
    if isinstance(from_record, ContractError) or isinstance(from_fen, ContractError):
        assert isinstance(from_record, ContractError) and isinstance(from_fen, ContractError), (from_record, from_fen)
        assert from_record.code == from_fen.code
        return
    where = f"{ruleset} {claim}: FEN {board.fen()} record {recorded.get('record')}"
    chosen = chosen_reading(from_record[-1])
    if chosen is not None and from_fen[0] != Verdict.DEFERRED:
        # the record is not one position: read another way, as legally, it reaches another with another verdict;
        # that is deferred with both (principle 1), and the reading that reaches this position is the FEN's
        assert (from_fen[0].value, from_fen[1]) == chosen, where
        return
    assert from_fen[:-1] == from_record[:-1], where


def test_the_walks_reach_what_the_property_is_about() -> None:
    """The generator is not idle: over a few seeds it crosses 50 and 75 moves, mates and stalemates."""
    seen = set()
    for seed in range(300):
        rng = random.Random(seed)
        board, _ = walk(STARTS[seed % len(STARTS)], rng, seed % 61)
        if board.halfmove_clock >= 150:
            seen.add("75 moves")
        elif board.halfmove_clock >= 100:
            seen.add("50 moves")
        if board.is_checkmate():
            seen.add("checkmate")
        if board.is_stalemate():
            seen.add("stalemate")
    assert seen == {"75 moves", "50 moves", "checkmate", "stalemate"}
