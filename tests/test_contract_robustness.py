"""Bad input gets a clear error, never a traceback: every claim of both games, every ruleset.

For each claim of each game (:func:`adjudicator.rule.claim_ids`) and each ruleset of
that game, hypothesis builds plausible but hostile cases: random legal games (from
the start or from a random endgame) cut short, with a move replaced by an illegal one
(the king left in check, a king walked next to the other, a king captured), tokens
garbled; FENs valid, invalid and illegal (adjacent kings, the side not to move in
check, pawns on the back rank, three kings); clocks and time controls of every shape;
and the optional fields the claims read. The product must answer each with a ruling
that follows the contract, or a :class:`ContractError` naming a field of the case.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.checkers.board import START, Position
from adjudicator.checkers.replay import replay_checkers
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import _KNOWN, ContractError, parse_case
from adjudicator.record_gaps import fill_missing
from adjudicator.rule import claim_ids, rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services
from engines import build_services

CI = bool(os.environ.get("CI"))
FUZZ = settings(
    max_examples=int(os.environ.get("ROBUSTNESS_EXAMPLES", "60")),
    deadline=None,
    derandomize=CI,
    suppress_health_check=list(HealthCheck),
    database=None,
)

PAIRS = [(game, claim) for game in ("chess", "checkers") for claim in claim_ids(game)]

# ---------------------------------------------------------------- services with small budgets

@pytest.fixture(scope="module")
def services(config: dict[str, Any]) -> Services:
    """The real services without Stockfish, with searches bounded to a few thousand nodes."""
    from engines.checkers.analyst import CheckersAnalyst
    from engines.chess.forced_mate import ForcedMateSearch
    from engines.chess.unwinnable import UnwinnabilityAnalyser

    base = build_services(config, engine=False)
    return dataclasses.replace(
        base,
        mate=UnwinnabilityAnalyser(node_limit=3000, time_limit=0.5, first_stretch=1000, closure_positions=1000),
        forced_win=ForcedMateSearch(max_moves=2, node_budget=2000),
        checkers=CheckersAnalyst(Path(str(config["_root"])) / "data" / "checkers-db", max_nodes=2000,
                                 proof_nodes=2000),
    )


# ---------------------------------------------------------------- chess material

ENDGAME_PIECES = "QRRBBNNPPPPqrrbbnnpppp"


def _random_endgame(rng: random.Random) -> chess.Board:
    for _ in range(100):
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + rng.randint(0, 5))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:]:
            board.set_piece_at(sq, chess.Piece.from_symbol(rng.choice(ENDGAME_PIECES)))
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.is_valid():
            return board
    return chess.Board("8/8/4k3/8/8/3K4/8/8 w - - 0 1")


def _illegal_token(board: chess.Board, rng: random.Random) -> str:
    """A move a player might physically make that is illegal: leaving the king in check,
    walking into the other king, jumping over a piece, or any piece to any square."""
    pseudo = [m for m in board.pseudo_legal_moves if not board.is_legal(m)]
    ours = [sq for sq, p in board.piece_map().items() if p.color == board.turn]
    empty_board = chess.Board(None)
    jumps = []
    for frm in ours:
        piece = board.piece_at(frm)
        assert piece is not None
        empty_board.set_piece_map({frm: piece})
        jumps += [chess.Move(frm, to) for to in empty_board.attacks(frm)
                  if board.color_at(to) != board.turn and chess.Move(frm, to) not in board.legal_moves]
    pool = pseudo * 3 + jumps
    if pool and rng.random() < 0.8:
        move = rng.choice(pool)
        frm, to = move.from_square, move.to_square
    else:
        frm = rng.choice(ours)
        to = rng.choice([s for s in chess.SQUARES if s != frm])
    piece = board.piece_at(frm)
    letter = "" if piece is None or piece.piece_type == chess.PAWN else piece.symbol().upper()
    sep = "x" if board.piece_at(to) is not None else "-"
    return f"{letter}{chess.SQUARE_NAMES[frm]}{sep}{chess.SQUARE_NAMES[to]}"


def _garble(token: str, rng: random.Random) -> str:
    junk = "abcdefghxyz12345678KQRBNO-+#=!?%{}[]() \n."
    chars = list(token) or ["?"]
    for _ in range(rng.randint(1, 3)):
        chars[rng.randrange(len(chars))] = rng.choice(junk)
    return "".join(chars)


@st.composite
def chess_record(draw: st.DrawFn) -> tuple[str, str | None]:
    """(PGN text, the FEN it starts from or None): a random game, perhaps mutated."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    from_endgame = draw(st.booleans())
    board = _random_endgame(rng) if from_endgame else chess.Board()
    start = board.fen()
    tokens: list[str] = []
    clocks = draw(st.booleans())
    for _ in range(draw(st.integers(0, 120))):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        tokens.append(board.san(move))
        board.push(move)
    mutation = draw(st.sampled_from(
        ["none", "truncate", "illegal-last", "illegal-last", "illegal-then-more", "garble", "king-walk"]
    ))
    if mutation == "truncate" and tokens:
        tokens = tokens[: rng.randrange(len(tokens))]
    elif mutation in ("illegal-last", "illegal-then-more") and board.occupied_co[board.turn]:
        tokens.append(_illegal_token(board, rng))
        try:  # a second illegal move now and then: a king captured, kings side by side
            replayed = chess.Board(start)
            for token in tokens[:-1]:
                replayed.push_san(token)
        except ValueError:
            pass
        if mutation == "illegal-then-more":
            more = ["Kg1", "e4", "Nf3", "Qxd8", "O-O", "Kxe8", "a8=Q"]
            tokens += [rng.choice(more) for _ in range(rng.randint(1, 3))]
    elif mutation == "garble" and tokens:
        i = rng.randrange(len(tokens))
        tokens[i] = _garble(tokens[i], rng)
    elif mutation == "king-walk":
        # the mover's king steps next to the other king, or is left in check
        king = board.king(board.turn)
        other = board.king(not board.turn)
        if king is not None and other is not None:
            near = [s for s in chess.SquareSet(chess.BB_KING_ATTACKS[other]) if s != king]
            if near:
                to = rng.choice(near)
                sep = "x" if board.piece_at(to) else "-"
                tokens.append(f"K{chess.SQUARE_NAMES[king]}{sep}{chess.SQUARE_NAMES[to]}")
    text = []
    ply_turn = chess.Board(start).turn
    number = chess.Board(start).fullmove_number
    for i, token in enumerate(tokens):
        white = (i % 2 == 0) == (ply_turn == chess.WHITE)
        if white:
            text.append(f"{number}.")
        elif i == 0:
            text.append(f"{number}...")
        text.append(token)
        if clocks:
            text.append(f"{{[%clk 0:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}]}}")
        if not white:
            number += 1
    headers = ""
    if from_endgame and draw(st.booleans()):
        headers = f'[SetUp "1"]\n[FEN "{start}"]\n'
        given_start = None
    else:
        given_start = start if from_endgame else None
    if draw(st.booleans()):
        headers += f'[TimeControl "{draw(TIME_CONTROLS)}"]\n'
    result = draw(st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", ""]))
    return headers + "\n" + " ".join(text) + " " + result, given_start


ILLEGAL_FENS = [
    "8/8/8/3kK3/8/8/8/8 w - - 0 1",  # kings adjacent
    "4k3/8/8/8/8/8/8/4K2R b K - 0 1",  # fine
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",  # side not to move in check
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",  # pawn on the back rank
    "4k3/8/8/8/8/8/8/4K2p b - - 0 1",
    "4k3/8/8/8/8/8/8/2K1K1K1 w - - 0 1",  # three kings
    "8/8/8/8/8/8/8/4K3 w - - 0 1",  # no black king
    "8/8/8/8/8/8/8/8 w - - 0 1",  # empty
    "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",  # impossible e.p.
    "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1",  # checkmate
    "k7/8/1Q6/8/8/8/8/7K b - - 0 1",  # stalemate
    "4k3/8/8/8/8/8/8/4K3 w - - 99 80",
    "4k3/8/8/8/8/8/8/4K3 w - - 500 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "not a fen", "", "8/8/8 w", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "9/8/8/8/8/8/8/8 w - - 0 1",
    "B:W21-32:B1-12",
]


@st.composite
def chess_fen(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(ILLEGAL_FENS))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    board = chess.Board(None)
    for _ in range(draw(st.integers(0, 8))):
        board.set_piece_at(rng.choice(chess.SQUARES), chess.Piece.from_symbol(rng.choice("KQRBNPkqrbnp")))
    board.turn = rng.choice((chess.WHITE, chess.BLACK))
    return board.fen()


# ---------------------------------------------------------------- checkers material


def _checkers_game(rng: random.Random, plies: int) -> tuple[list[str], Position]:
    position = START
    moves: list[str] = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(str(move))
        position = position.push(move)
    return moves, position


@st.composite
def checkers_record(draw: st.DrawFn) -> tuple[str, str | None]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    moves, position = _checkers_game(rng, draw(st.integers(0, 150)))
    mutation = draw(st.sampled_from(["none", "truncate", "illegal", "garble", "bad-square"]))
    if mutation == "truncate" and moves:
        moves = moves[: rng.randrange(len(moves))]
    elif mutation == "illegal":
        a, b = rng.randint(1, 32), rng.randint(1, 32)
        moves.insert(rng.randint(0, len(moves)), f"{a}{rng.choice('-x')}{b}")
    elif mutation == "garble" and moves:
        i = rng.randrange(len(moves))
        moves[i] = _garble(moves[i], rng)
    elif mutation == "bad-square":
        moves.append(rng.choice(["33-29", "0-4", "9x18x27x", "x", "12--16"]))
    text = []
    for i, move in enumerate(moves):
        if i % 2 == 0:
            text.append(f"{i // 2 + 1}.")
        text.append(move)
    headers = ""
    if draw(st.booleans()):
        headers = '[Event "fuzz"]\n[GameType "21"]\n'
    return headers + "\n" + " ".join(text) + " " + draw(st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", ""])), None


CHECKERS_FENS = [
    "B:W21-32:B1-12", "W:W21-32:B1-12", "B:WK3:B", "B:W:B", "W:W29,30:B1", "B:W1:B32", "B:WK1,K2:BK31,K32",
    "B:W21-33:B1-12", "B:W21-32:B1-12:B5", "X:W1:B2", "B:W1,1:B2", "", "not a fen", "B:W5-3:B1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]


@st.composite
def checkers_fen(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(CHECKERS_FENS))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    squares = rng.sample(range(1, 33), rng.randint(0, 10))
    red = [s for s in squares if rng.random() < 0.5]
    white = [s for s in squares if s not in red]

    def side(items: list[int]) -> str:
        return ",".join(("K" if rng.random() < 0.3 else "") + str(s) for s in items)

    return f"{rng.choice('BW')}:W{side(white)}:B{side(red)}"


# ---------------------------------------------------------------- clocks, controls, fields

NUMBER = st.one_of(st.integers(0, 200), st.integers(0, 10**25)).map(str)
GENERATED_CONTROL = st.builds(
    lambda moves, base, inc, kind, more: f"{moves}/{base}+{inc}{kind}{more}",
    NUMBER, NUMBER, NUMBER, st.sampled_from(["", "d"]), st.sampled_from(["", ":1800+30", ":0", ":G/30", ";d5"]),
) | st.builds(lambda base, inc: f"G/{base};d{inc}", NUMBER, NUMBER)
TIME_CONTROLS = GENERATED_CONTROL | st.sampled_from([
    "40/5400+30:1800+30", "1800+5d", "G/30;d5", "40/120, SD/30;inc30", "300", "180+2", "G/5 v G/4", "-", "?",
    "40/7200:20/3600:900", "0", "40/0", "-5", "1e99", "40/5400+30:", "G/", "SD/30", "abc", "", "999999999999",
    "40/5400+30:1800+30:1800", "+", ":", "1/1:1/1:1/1", "G/30;d5;d5", "inc30",
])

SECONDS = st.one_of(
    st.integers(-10, 400_000), st.floats(allow_nan=True, allow_infinity=True), st.just(0),
    st.sampled_from(["0:00", "0:00:00", "1:30", "1:30:00", "0:59:60", "-1", "abc", "", "1e9", "nan", "inf",
                     "99:99", "1:2:3:4", " 12 ", "0:41:10"]),
    st.none(), st.booleans(), st.lists(st.integers(), max_size=2),
)


GOOD_SECONDS = st.one_of(
    st.integers(0, 7200), st.just(0), st.floats(0, 300),
    st.sampled_from(["0:00", "0:00:00", "1:30", "1:30:00", "0:41:10", "0:00:05", "2:00:00"]),
)


def clocks(sides: tuple[str, ...], hostile: bool) -> st.SearchStrategy[Any]:
    """Readable clocks (flags down or not); with ``hostile``, clocks of any shape."""
    good = st.fixed_dictionaries(
        {}, optional={sides[0]: GOOD_SECONDS, sides[1]: GOOD_SECONDS,
                      "flagged": st.lists(st.sampled_from(sides), max_size=2, unique=True)},
    )
    if not hostile:
        return good
    names = st.sampled_from([*sides, "black", "red", "green"])
    flagged = st.one_of(st.none(), st.lists(names, max_size=3), st.just("white"), st.integers())
    return st.one_of(
        st.none(),
        st.fixed_dictionaries({}, optional={sides[0]: SECONDS, sides[1]: SECONDS, "flagged": flagged}),
        st.just("0:00"), st.integers(), st.dictionaries(st.text(max_size=5), SECONDS, max_size=2),
    )


ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 500), st.floats(allow_nan=True), st.text(max_size=8),
    st.lists(st.integers(-3, 300), max_size=4), st.dictionaries(st.text(max_size=6), st.integers(), max_size=2),
)
EXTRA_VALUES: dict[str, st.SearchStrategy[Any]] = {
    # chess
    "clock_not_pressed": st.booleans(), "touched_piece": st.booleans(), "scoresheet": st.booleans(),
    "td_count": st.integers(-1, 10**12), "clock_pressed_without_move": st.booleans(), "two_hands": st.booleans(),
    "previous_illegal_moves": st.one_of(st.integers(-1, 5), st.just(10**12)), "prompt": st.booleans(),
    "td_finding": st.sampled_from(["clear", "unclear", "incorrect", "maybe"]),
    "delay_clock_available": st.booleans(), "request": st.sampled_from(["draw", "increment", "coffee"]),
    "postponed": st.booleans(), "opponent_accepts_draw": st.booleans(), "arbiter_agrees": st.booleans(),
    "opponent_bonus": st.booleans(), "armageddon": st.booleans(), "final_period": st.booleans(),
    "flag_order_known": st.booleans(), "flag_period": st.one_of(st.integers(0, 5), st.integers(0, 10**15)),
    "moves_completed": st.one_of(st.integers(-1, 200), st.just(10**15), st.dictionaries(
        st.sampled_from(["white", "black", "red"]), st.one_of(st.integers(-1, 200), st.text(max_size=3)), max_size=2)),
    "engine_scores": st.one_of(st.dictionaries(
        st.sampled_from(["white", "black", "grey"]),
        st.lists(st.one_of(st.integers(-100_000, 100_000), st.floats()), max_size=12),
        max_size=2)),
    "tablebase_claim": st.sampled_from(["win", "draw", "loss"]),
    "missing_moves": st.sampled_from(["none", "None", "2... Nc6", "1. e4", "3... Kxe8 4. Nf3", "12... 24-20"]),
    # checkers
    "ballot": st.one_of(st.integers(-1, 200), st.just(10**18)), "count_requested_ply": st.integers(-1, 300),
    "count_side": st.sampled_from(["red", "white", "black", "blue"]),
    "strengthening_plies": st.lists(st.integers(-1, 300), max_size=3),
    "language": st.sampled_from(["en", "de", "fr", "ru", "xx"]),
    "match_game": st.integers(0, 3), "game_started": st.booleans(), "started_minutes_before_end": st.integers(-5, 90),
    "round_ends_at": st.sampled_from(["18:30", "25:00", "6pm", "00:00", "23:59"]),
    "game_started_at": st.sampled_from(["18:00", "17:59", "x"]), "now": st.sampled_from(["18:10", "18:29", "24:00"]),
    "lowder": st.one_of(st.fixed_dictionaries({}, optional={
        "side": st.sampled_from(["red", "white", "black", "blue"]), "seconds": SECONDS, "warned": ANY})),
}


@st.composite
def extras(draw: st.DrawFn, hostile: bool) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(sorted(EXTRA_VALUES)), max_size=4, unique=True))
    return {name: draw(st.one_of(EXTRA_VALUES[name], ANY) if hostile else EXTRA_VALUES[name]) for name in names}


HOSTILE = ("claimant", "clock", "time_control", "alleged_illegal_ply", "extras", "intended_move")


@st.composite
def cases(draw: st.DrawFn, game: str, claim: str, rulesets: list[str]) -> dict[str, Any]:
    """A case whose fields are plausible, except (now and then) one that is hostile."""
    hostile = draw(st.one_of(st.none(), st.none(), st.none(), st.sampled_from(HOSTILE)))
    sides = ("white", "black") if game == "chess" else ("red", "white", "black")
    data: dict[str, Any] = {"game": game, "ruleset": draw(st.sampled_from(rulesets)), "claim": claim}
    if hostile == "claimant":
        data["claimant"] = draw(ANY)
    elif draw(st.integers(0, 9)):
        data["claimant"] = draw(st.sampled_from(sides))
    record, start = draw(chess_record() if game == "chess" else checkers_record())
    fens = chess_fen() if game == "chess" else checkers_fen()
    shape = draw(st.sampled_from(["record", "record", "record", "record+fen", "fen", "fen", "start_fen", "nothing"]))
    if "record" in shape:
        data["record"] = record
        if start is not None:
            data["start_fen"] = start
    if "fen" in shape:
        data["fen" if shape != "start_fen" else "start_fen"] = draw(fens)
    data["clock"] = draw(clocks(sides[:2], hostile == "clock"))
    if hostile == "time_control":
        data["time_control"] = draw(st.one_of(TIME_CONTROLS, st.text(max_size=12)))
    elif draw(st.booleans()):
        data["time_control"] = draw(TIME_CONTROLS)
    if hostile == "intended_move" or draw(st.integers(0, 3)) == 0:
        data["intended_move"] = draw(st.sampled_from(["e4", "Nf3", "Kxe8", "zz", "11-15", "O-O-O", "e8=K", "Qh5"]))
    if hostile == "alleged_illegal_ply":
        data["alleged_illegal_ply"] = draw(st.one_of(st.integers(-1, 400), ANY))
    elif claim == "illegal-move" and draw(st.booleans()):
        data["alleged_illegal_ply"] = draw(st.integers(1, 200))
    data.update(draw(extras(hostile == "extras")))
    return data


# ---------------------------------------------------------------- the property

VERDICTS = {"upheld", "rejected", "deferred", "adjudicated"}
RESULTS = {"1-0", "0-1", "1/2-1/2", None}


def check_answer(data: dict[str, Any], book: RulesetBook, services: Services) -> str:
    """A ruling that follows the contract, or a ContractError naming a field of the case."""
    try:
        case = parse_case(data)
        ruling = rule(case, book, services)
    except ContractError as exc:
        assert exc.field, f"{exc.code}: {exc.message} names no field"
        root = exc.field.split(".")[0].split("[")[0]
        assert root in _KNOWN | set(EXTRA_VALUES), f"{exc.field!r} is not a field of the contract"
        if exc.code != "missing_field" and not exc.code.startswith("unknown"):
            assert root in data, f"{exc.code} names {exc.field!r}, which the case does not give: {exc.message}"
        assert exc.message
        json.dumps(exc.to_json())
        return f"error on {root}"
    assert isinstance(ruling, Ruling)
    body = json.loads(json.dumps(ruling.to_json(), allow_nan=False))
    assert body["claim"] == data["claim"]
    assert body["verdict"] in VERDICTS
    assert body["result"] in RESULTS
    assert body["rule_refs"] and all(isinstance(r, str) and r for r in body["rule_refs"])
    assert all(isinstance(r, str) for r in body["reasons"]) and all(isinstance(i, str) for i in body["instructions"])
    for adjustment in body["adjustments"]:
        side_names = ("white", "black") if case.game == "chess" else ("red", "white")
        assert adjustment["side"] in side_names
        assert isinstance(adjustment["seconds"], int | float) and adjustment["reason"]
    assert 0.0 <= body["confidence"] <= 1.0
    if data["claim"] != "insufficient-losing-chances":  # its admissibility (ruleset, clock) is settled first
        # the record as ruled: with the moves the TD gave for its gaps (missing_moves) written in
        unreadable, gap = _first_unreadable_and_gap({**data, "record": fill_missing(case).record}, case.game)
        if unreadable is not None:
            # the one ruling on such a record: deferred where a numbering gap comes first, since the token may be
            # unreadable only because a move before it is not written; the TD is asked for it (adjudicator.record_gaps)
            assert gap is not None and gap <= unreadable, "a ruling on a record the replay could not read to its end"
            assert body["verdict"] == "deferred" and body["result"] is None, "a verdict resting on an unreadable move"
            assert body["evidence"]["missing_moves"] and "missing_moves" in body["instructions"][0]
    return f"ruling: {body['verdict']}"


def _first_unreadable_and_gap(data: dict[str, Any], game: str) -> tuple[int | None, int | None]:
    """The ply of the case's record's first token the replay cannot read (the replay stops there), and of its
    first numbering gap (a move number that skips or repeats); None for none.

    ``game`` is the case's game as the contract reads it (:func:`parse_case`: a ``game`` given as
    null is chess), not the raw field, which the property test may have spoilt."""
    record = data.get("record")
    if not record or not record.strip() or (game, data["claim"]) == ("checkers", "flag"):
        return None, None  # a checkers flag claim does not read the record
    try:
        if game == "chess":
            replay = replay_chess(record, data.get("start_fen"), data.get("language"), allow_unreadable=True)
            unreadable = [u.ply for u in replay.unreadable]
            gaps = [g.ply for g in replay.numbering_gaps]
        else:
            ballot = data.get("ballot")
            checkers = replay_checkers(record, data.get("start_fen"), ballot if isinstance(ballot, int) else 1)
            unreadable = [u.ply for u in checkers.unreadable]
            gaps = [g.ply for g in checkers.numbering_gaps]
    except ValueError:
        return None, None
    return min(unreadable, default=None), min(gaps, default=None)


def _rulesets(book: RulesetBook, game: str) -> list[str]:
    return sorted(r.id for r in book if r.game == game)


def test_a_case_whose_game_is_null_is_checked_as_the_chess_case_the_contract_reads(
    book: RulesetBook, services: Services
) -> None:
    # the property below spoils `game` with null, which parse_case reads as chess; the check once read the raw
    # field as checkers, so Black's +2:00 (an incorrect claim by White) failed it in about 3 random runs of 5
    data = {"game": None, "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": "1. Nf3 Nf6 2. Ng1 Ng8", "clock": {"white": 600, "black": 600}}
    assert check_answer(data, book, services) == "ruling: rejected"


@pytest.mark.hypothesis  # a property test (its @given is inside): tests/test_property_seeds.py runs it
@pytest.mark.parametrize(("game", "claim"), sorted(PAIRS))
def test_every_claim_answers_bad_input_with_a_ruling_or_a_named_field(
    game: str, claim: str, book: RulesetBook, services: Services
) -> None:
    @FUZZ
    @given(cases(game, claim, _rulesets(book, game)))
    def run(data: dict[str, Any]) -> None:
        event(check_answer(data, book, services))

    run()


@pytest.mark.hypothesis  # a property test (its @given is inside): tests/test_property_seeds.py runs it
@pytest.mark.parametrize(("game", "claim"), PAIRS)
def test_the_check_before_ruling_names_a_field_for_every_problem_it_finds(
    game: str, claim: str, book: RulesetBook, services: Services
) -> None:
    """adjudicator.requirements.examine (the form's, the API's and the command line's check before a
    ruling): any document, even one whose game, claim or claimant is of the wrong type, gets a list of
    contract errors naming fields, never another exception; a case it lets through is ruled as above."""
    from adjudicator.requirements import refusals

    @settings(FUZZ, max_examples=max(10, FUZZ.max_examples // 2))
    @given(cases(game, claim, _rulesets(book, game)),
           st.sampled_from([None, None, "game", "claim", "claimant", "clock", "fen", "record"]), ANY)
    def run(data: dict[str, Any], spoilt: str | None, value: Any) -> None:
        if spoilt is not None:
            data = {**data, spoilt: value}
        problems = refusals(data, book, services)
        for problem in problems:
            assert isinstance(problem, ContractError) and problem.field and problem.message
            assert problem.field.split(".")[0].split("[")[0] in _KNOWN | set(EXTRA_VALUES), problem.field
        if problems:
            event(f"refused on {problems[0].field}")
        else:
            event(check_answer(data, book, services))

    run()


@pytest.mark.hypothesis  # a property test (its @given is inside): tests/test_property_seeds.py runs it
@pytest.mark.parametrize("claim", ["unfinished-game", "insufficient-losing-chances"])
def test_with_the_engine_a_few_cases_answer_too(claim: str, config: dict[str, Any], book: RulesetBook) -> None:
    """The claims that consult Stockfish, a few examples only (each search costs about a second)."""
    services = build_services(config, tablebases=False)
    try:
        @settings(FUZZ, max_examples=4)
        @given(cases("chess", claim, _rulesets(book, "chess")))
        def run(data: dict[str, Any]) -> None:
            event(check_answer(data, book, services))

        run()
    finally:
        services.close()


# ---------------------------------------------------------------- the command line, once per claim

ROOT = Path(__file__).resolve().parent.parent
BROKEN_CASES: dict[tuple[str, str], tuple[dict[str, Any], str]] = {
    ("chess", "threefold-repetition"): ({"ruleset": "fide-standard", "claimant": "white",
                                         "record": "1. e4 e5 2. Nx7 Nc6"}, "record"),
    ("chess", "fifty-move"): ({"ruleset": "uschess", "claimant": "black", "fen": "8/8/8 w"}, "fen"),
    ("chess", "illegal-move"): ({"ruleset": "fide-rapid", "record": "1. e4 e5", "alleged_illegal_ply": 9},
                                "alleged_illegal_ply"),
    ("chess", "flag"): ({"ruleset": "fide-blitz", "fen": "4k3/8/8/8/8/8/8/2K1K1K1 w - - 0 1",
                         "clock": {"white": 3, "flagged": ["black"]}}, "fen"),
    ("chess", "insufficient-losing-chances"): ({"ruleset": "uschess-variation-14h", "claimant": "white",
                                                "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                                                "clock": {"white": "1:7x", "black": 60}}, "clock.white"),
    ("chess", "unfinished-game"): ({"ruleset": "engine-event", "fen": "8/8/8/3kK3/8/8/8/8 w - - 0 1"}, "fen"),
    ("checkers", "threefold-repetition"): ({"ruleset": "acf", "claimant": "red", "fen": "X:W1:B2"}, "fen"),
    ("checkers", "forty-move"): ({"ruleset": "acf", "claimant": "white", "record": "1. 33-29 9-14"}, "record"),
    ("checkers", "illegal-move"): ({"ruleset": "acf-master-division", "record": "1. 11-15 23-19",
                                    "alleged_illegal_ply": 5}, "alleged_illegal_ply"),
    ("checkers", "flag"): ({"ruleset": "acf-master-division", "clock": {"red": 0, "flagged": ["red"]},
                            "lowder": {"side": "blue", "seconds": 70}}, "lowder.side"),
    ("checkers", "unfinished-game"): ({"ruleset": "acf", "start_fen": "B:W33:B1"}, "start_fen"),
}


def test_every_claim_has_a_broken_case_for_the_command_line() -> None:
    assert set(BROKEN_CASES) == set(PAIRS)


@pytest.mark.parametrize(("game", "claim"), sorted(BROKEN_CASES))
def test_command_line_answers_a_broken_case_with_exit_2_and_a_json_error(game: str, claim: str) -> None:
    fields, field = BROKEN_CASES[(game, claim)]
    case = {"game": game, "claim": claim, **fields}
    proc = subprocess.run(
        [sys.executable, "-m", "adjudicator", "rule", "-"],
        input=json.dumps(case), capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    body = json.loads(proc.stdout)
    assert set(body) == {"error"} and body["error"]["field"] == field and body["error"]["message"]
    assert proc.stderr.startswith("adjudicator: ") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr
