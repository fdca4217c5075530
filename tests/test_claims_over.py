"""The game was already over: a dead position ends the game for every claim (FIDE 5.2.2, US Chess 14D).

Each test is a game an arbiter could meet: a claim of each kind (threefold, fifty-move,
illegal move, insufficient losing chances) made after the game reached K+B v K or a
locked pawn wall, under the FIDE Laws and the US Chess rules; the same position given
alone; an ending after the point the claim is about; a dead position an illegal move
produced; and the flag claim and ``check-games`` on the same game, which must agree
(one position, one verdict). The helpmate analysis is the real one.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.chess.collection import check_chess
from adjudicator.chess.movetext import split_games
from adjudicator.clocks.dead_position import Deadness
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import claim_ids, rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling, Verdict
from adjudicator.services import Services
from engines import build_services
from tests.test_claims_one_position import claim_fields, movetext, walk

BISHOP_START = "4k3/8/8/8/8/4b3/8/2R1K3 b - - 0 40"
BISHOP_TAKES_ROOK = "40... Bxc1 41. Kd1 Bf4 42. Ke2 Ke7 43. Kf3 Kf6"
"""40...Bxc1 leaves king and bishop against king (ply 1); six more plies are played."""
WALL_START = "8/8/1k6/p1p1p1p1/P1P1P3/6P1/5K2/8 w - - 0 1"
WALL_LOCKS = "1. g4 Kc7 2. Ke3 Kd6 3. Kf3 Ke7"
"""1.g4 locks the last pawns: no pawn can move, no king can get through (ply 1)."""
GAMES = {"K+B v K": (BISHOP_START, BISHOP_TAKES_ROOK), "locked pawns": (WALL_START, WALL_LOCKS)}
ARTICLE = {"fide": "FIDE 5.2.2", "us": "US Chess 14D"}
RULESETS = {  # the insufficient-losing-chances claim needs a ruleset where it exists
    ("fide", "insufficient-losing-chances"): "fide-standard-guidelines-iii",
    ("us", "insufficient-losing-chances"): "uschess-variation-14h",
    ("fide", None): "fide-standard",
    ("us", None): "uschess",
}
CLAIMS = ("threefold-repetition", "fifty-move", "illegal-move", "insufficient-losing-chances")


def record(start: str, moves: str) -> str:
    return f'[SetUp "1"]\n[FEN "{start}"]\n\n{moves} *'


def final_fen(start: str, moves: str) -> str:
    board = chess.Board(start)
    for token in moves.split():
        if not token[0].isdigit():
            board.push_san(token)
    return board.fen()


@pytest.fixture(scope="module")
def services(config: dict[str, Any]) -> Iterator[Services]:
    built = build_services(config, deterministic=True, engine=False)
    assert built.mate is not None, "the helpmate analysis (engines.chess.unwinnable) is needed for 5.2.2"
    yield built
    built.close()


def claim_case(authority: str, claim: str, **fields: Any) -> dict[str, Any]:
    """A claim by White, on move with 1:30 left in a sudden-death game (so that every claim may be made)."""
    ruleset = RULESETS.get((authority, claim)) or RULESETS[(authority, None)]
    time_control = "G/30" if authority == "us" else "1800"
    return {"ruleset": ruleset, "claim": claim, "claimant": "white", "time_control": time_control,
            "clock": {"white": 90, "black": 600}, **fields}


def judge(book: RulesetBook, services: Services, case: dict[str, Any]) -> Ruling:
    return rule(parse_case(case), book, services)


# ---------------------------------------------------------------- a claim of each kind, in a dead position


DEAD_BY_RULE = [("fide", "K+B v K"), ("fide", "locked pawns"), ("us", "K+B v K")]
"""Games dead under the default rulesets: FIDE 5.2.2 both; US 14D's list K+B v K (the wall: the TD may end it)."""


@pytest.mark.parametrize(("authority", "game"), DEAD_BY_RULE)
@pytest.mark.parametrize("claim", CLAIMS)
def test_a_claim_of_each_kind_after_a_dead_position_is_a_draw_where_it_arose(
    book: RulesetBook, services: Services, authority: str, game: str, claim: str
) -> None:
    """5.2.2 / 14D: the game ended at ply 1, a draw; the claim gets that ruling, with no clock change."""
    start, moves = GAMES[game]
    if claim == "illegal-move":
        moves += " 4. Kf3-f5" if game == "locked pawns" else " 44. Kf3-f5"  # a king move of two squares, later
    ruling = judge(book, services, claim_case(authority, claim, record=record(start, moves)))
    expected = Verdict.REJECTED if claim == "illegal-move" else Verdict.UPHELD
    assert (ruling.verdict, ruling.result, ruling.adjustments) == (expected, "1/2-1/2", ())
    assert ruling.evidence["ended_at_ply"] == 1 and ruling.evidence["ending"] == "dead-position"
    assert ARTICLE[authority] in ruling.rule_refs
    assert "(ply 1) the position is dead" in ruling.reasons[0]
    assert any("played after the end of the game and do not count" in r for r in ruling.reasons)
    if claim == "illegal-move":
        assert any("was made after the game had ended: it is neither corrected nor penalised" in r
                   for r in ruling.reasons)
    proof = ruling.evidence["game_end"]["proof"]
    if game == "K+B v K":
        assert proof["listed"] == "king and bishop (Black) against king"
    else:
        assert {proof["white"]["method"], proof["black"]["method"]} == {"blockade"}
        alive = ruling.evidence["game_end"]["alive_before"]  # before 1.g4 White could still mate
        board = chess.Board(alive["fen"])
        for uci in alive["helpmate"]:
            board.push_uci(uci)
        assert board.is_checkmate() and alive["ply"] == 0


@pytest.mark.parametrize(("authority", "game"), DEAD_BY_RULE)
@pytest.mark.parametrize("claim", CLAIMS)
def test_the_position_given_alone_gets_the_same_verdict_as_the_record(
    book: RulesetBook, services: Services, authority: str, game: str, claim: str
) -> None:
    """The record's last position as a FEN: the same draw, ended at ply 0, "the position given"."""
    start, moves = GAMES[game]
    from_record = judge(book, services, claim_case(authority, claim, record=record(start, moves)))
    alone = judge(book, services, claim_case(authority, claim, fen=final_fen(start, moves)))
    assert (alone.verdict, alone.result, alone.adjustments) == (
        from_record.verdict, from_record.result, from_record.adjustments
    )
    assert alone.evidence["ended_at_ply"] == 0
    assert any(reason.startswith("The position given is dead") for reason in alone.reasons)


def test_the_earliest_ending_wins(book: RulesetBook, services: Services) -> None:
    """The wall locked at ply 1; the kings then shuffle until the position stands three times: 5.2.2 came first."""
    shuffle = f"{WALL_LOCKS} 4. Ke3 Kd6 5. Kf3 Ke7 6. Ke3 Kd6 7. Kf3 Ke7"
    ruling = judge(book, services, claim_case("fide", "threefold-repetition", record=record(WALL_START, shuffle)))
    assert (ruling.verdict, ruling.result, ruling.evidence["ended_at_ply"]) == (Verdict.UPHELD, "1/2-1/2", 1)
    assert ruling.rule_refs == ("FIDE 5.2.2",)


# ---------------------------------------------------------------- what the claim is about comes first


def test_a_dead_position_after_the_illegal_move_claimed_changes_nothing(
    book: RulesetBook, services: Services
) -> None:
    """40.Ke1-g3?? then 40...Bxc1 (K+B v K): 7.5.1 (11A) reinstates the position before the illegal move,
    cancelling the capture and the dead position with it; the claim is upheld, the game goes on."""
    start = "4k3/8/8/8/8/4b3/8/2R1K3 w - - 0 40"
    for ruleset, article in (("fide-standard", "FIDE 7.5.1"), ("uschess", "US Chess 11A")):
        ruling = judge(book, services, {"ruleset": ruleset, "claim": "illegal-move", "claimant": "black",
                                        "record": record(start, "40. Ke1-g3 Bxc1")})
        assert (ruling.verdict, ruling.result) == (Verdict.UPHELD, None), ruleset
        assert article in ruling.rule_refs and "ended_at_ply" not in ruling.evidence
        assert ruling.instructions[0].startswith("reinstate the position before 40.Ke1-g3")


def test_a_dead_position_after_an_illegal_move_that_stands_ends_the_game(
    book: RulesetBook, services: Services
) -> None:
    """Rapid without an arbiter at the board (A.5.2): the opponent replied, so the illegal move stands, and so
    does the dead position its reply produced: the game ended there."""
    start = "4k3/8/8/8/8/4b3/8/2R1K3 w - - 0 40"
    ruling = judge(book, services, {"ruleset": "fide-rapid", "claim": "illegal-move", "claimant": "black",
                                    "record": record(start, "40. Ke1-g3 Bxc1")})
    assert (ruling.verdict, ruling.result, ruling.adjustments) == (Verdict.REJECTED, "1/2-1/2", ())
    assert ruling.evidence["ended_at_ply"] == 2
    assert "FIDE A.5.2" in ruling.rule_refs and "FIDE 5.2.2" in ruling.rule_refs
    assert "the illegal move stands" in " ".join(ruling.reasons)


def test_a_dead_position_the_written_move_would_make_changes_nothing(book: RulesetBook, services: Services) -> None:
    """9.3.1: Black writes 40...Bxc1 (a capture, leaving K+B v K) and claims 50 moves; the written move is not
    played, so no dead position arose: the claim is ruled on the count (a capture restarts it)."""
    start = "4k3/8/8/8/8/4b3/8/2R1K3 b - - 99 90"
    ruling = judge(book, services, {"ruleset": "fide-standard", "claim": "fifty-move", "claimant": "black",
                                    "fen": start, "intended_move": "Bxc1"})
    assert (ruling.verdict, ruling.result) == (Verdict.REJECTED, None)
    assert "ended_at_ply" not in ruling.evidence and "restarts the count" in ruling.reasons[0]


# ---------------------------------------------------------------- the move producing the dead position


def test_a_dead_position_an_illegal_move_produced_ends_nothing(book: RulesetBook, services: Services) -> None:
    """40...Bd3xd1?? (a bishop moving straight) takes the last rook: 5.2.2 ends the game only when the move
    producing the position was legal, so the illegal move is corrected as any other (7.5.1)."""
    moves = "40... Bd3xd1"
    start = "4k3/8/8/8/8/3b4/8/3RK3 b - - 0 40"
    illegal = judge(book, services, {"ruleset": "fide-standard", "claim": "illegal-move", "claimant": "white",
                                     "record": record(start, moves)})
    assert (illegal.verdict, illegal.result) == (Verdict.UPHELD, None)
    assert illegal.instructions[0].startswith("reinstate the position before 40...Bd3xd1")
    threefold = judge(book, services, {"ruleset": "fide-standard", "claim": "threefold-repetition",
                                       "claimant": "white", "record": record(start, moves)})
    assert threefold.verdict is Verdict.REJECTED and "ended_at_ply" not in threefold.evidence


def test_once_a_legal_move_follows_the_dead_position_stands(book: RulesetBook, services: Services) -> None:
    """40...Bd3xd1?? then 41.Kxd1: king against king, produced by a legal move. Nobody claimed the illegal move,
    so for a draw claim it stood and the game ended at ply 2; a claim *on* the illegal move is still in time
    (7.5.1: at any time during the game) and reinstates the position before it, cancelling both plies."""
    start = "4k3/8/8/8/8/3b4/8/3RK3 b - - 0 40"
    moves = "40... Bd3xd1 41. Kxd1"
    fifty = judge(book, services, {"ruleset": "fide-standard", "claim": "fifty-move", "claimant": "black",
                                   "record": record(start, moves)})
    assert (fifty.verdict, fifty.result, fifty.evidence["ended_at_ply"]) == (Verdict.UPHELD, "1/2-1/2", 2)
    illegal = judge(book, services, {"ruleset": "fide-standard", "claim": "illegal-move", "claimant": "white",
                                     "record": record(start, moves)})
    assert (illegal.verdict, illegal.result) == (Verdict.UPHELD, None)
    assert "the 1 later move(s) are cancelled" in illegal.instructions[0]


# ---------------------------------------------------------------- one position, one verdict


@pytest.mark.parametrize(("authority", "game"), DEAD_BY_RULE)
def test_the_flag_claim_check_games_and_a_draw_claim_agree(
    book: RulesetBook, services: Services, authority: str, game: str
) -> None:
    ruleset, article = RULESETS[(authority, None)], ARTICLE[authority]
    start, moves = GAMES[game]
    text = record(start, moves)
    fifty = judge(book, services, {"ruleset": ruleset, "claim": "fifty-move", "claimant": "white", "record": text})
    flag = judge(book, services, {"ruleset": ruleset, "claim": "flag", "record": text,
                                  "clock": {"white": 0, "black": 30, "flagged": ["white"]}})
    unfinished = judge(book, services, {"ruleset": ruleset, "claim": "unfinished-game", "record": text})
    (parsed,) = list(split_games(text.replace(" *", " 0-1")))
    checked = check_chess(parsed, book.chess(ruleset), services).to_json(1)
    assert fifty.result == flag.result == unfinished.result == checked["lawful_result"] == "1/2-1/2"
    assert fifty.evidence["ended_at_ply"] == flag.evidence["game_end"]["ply"] == 1
    assert unfinished.evidence["ended_at_ply"] == 1 and unfinished.verdict is Verdict.ADJUDICATED
    assert [(f["code"], f["ply"], f["article"]) for f in checked["findings"]] == [("dead-position", 1, article)]
    assert article in fifty.rule_refs and article in flag.rule_refs


# ---------------------------------------------------------------- the ruleset's dead-position test (US 14D)


def with_dead_position(config: dict[str, Any], mode: str) -> RulesetBook:
    changed = copy.deepcopy(config)
    changed["rulesets"]["uschess"]["flag"]["dead_position"] = mode
    return RulesetBook.from_config(changed)


@pytest.mark.parametrize("claim", ["threefold-repetition", "fifty-move"])
def test_us_by_default_the_list_ends_the_game_and_the_td_may_end_the_rest(
    book: RulesetBook, services: Services, claim: str
) -> None:
    """US Chess default (material-then-td): K+B v K (14D's list) ends the game; the locked wall, dead only by
    analysis, is not on the list and lets the TD declare the draw: a claim that would be rejected is deferred,
    with no clock change, and the rejection is kept as what happens if the TD does not."""
    assert book.chess("uschess").flag.dead_position == "material-then-td"
    listed = judge(book, services, claim_case("us", claim, record=record(BISHOP_START, BISHOP_TAKES_ROOK)))
    assert (listed.verdict, listed.result, listed.evidence["ended_at_ply"]) == (Verdict.UPHELD, "1/2-1/2", 1)
    wall = judge(book, services, claim_case("us", claim, record=record(WALL_START, WALL_LOCKS)))
    assert (wall.verdict, wall.result, wall.adjustments) == (Verdict.DEFERRED, None, ())
    assert wall.instructions[0].startswith("the TD may declare the game drawn (US Chess 14D)")
    assert wall.evidence["td_may_end"]["ply"] == 1
    assert wall.evidence["recommendation"]["verdict"] == "rejected"
    alone = judge(book, services, claim_case("us", "fifty-move", fen=final_fen(WALL_START, WALL_LOCKS)))
    assert (alone.verdict, alone.evidence["td_may_end"]["ply"]) == (Verdict.DEFERRED, 0)


def test_us_by_default_a_flag_in_the_locked_wall_is_ruled_on_14e_and_check_games_finds_nothing(
    book: RulesetBook, services: Services
) -> None:
    """The wall is not a listed 14D ending, so under US Chess the flag is ruled by 14E (the opponent has pawns: the
    time forfeit stands) and a recorded win breaks no rule (the TD may have declared the draw, or not: like 14K)."""
    text = record(WALL_START, WALL_LOCKS)
    flag = judge(book, services, {"ruleset": "uschess", "claim": "flag", "record": text,
                                  "clock": {"white": 0, "black": 30, "flagged": ["white"]}})
    assert (flag.verdict, flag.result) == (Verdict.UPHELD, "0-1")
    (parsed,) = list(split_games(text.replace(" *", " 0-1")))
    checked = check_chess(parsed, book.chess("uschess"), services).to_json(1)
    assert checked["findings"] == [] and checked["lawful_result"] == "0-1"


@pytest.mark.parametrize("claim", CLAIMS)
def test_us_helpmate_reading_of_14d_makes_the_locked_wall_end_the_game(
    config: dict[str, Any], services: Services, claim: str
) -> None:
    """flag.dead_position = "helpmate" (14D's last item read as FIDE's dead position): the wall ended the game."""
    book = with_dead_position(config, "helpmate")
    moves = WALL_LOCKS + (" 4. Kf3-f5" if claim == "illegal-move" else "")
    ruling = judge(book, services, claim_case("us", claim, record=record(WALL_START, moves)))
    expected = Verdict.REJECTED if claim == "illegal-move" else Verdict.UPHELD
    assert (ruling.verdict, ruling.result, ruling.evidence["ended_at_ply"]) == (expected, "1/2-1/2", 1)
    assert "US Chess 14D" in ruling.rule_refs


def test_us_material_only_the_list_is_dead(config: dict[str, Any], services: Services) -> None:
    """material: the locked wall is not on 14D's list, so the game goes on and the claim is ruled on its count."""
    book = with_dead_position(config, "material")
    wall = judge(book, services, claim_case("us", "fifty-move", record=record(WALL_START, WALL_LOCKS)))
    assert (wall.verdict, wall.result) == (Verdict.REJECTED, None) and "ended_at_ply" not in wall.evidence
    listed = judge(book, services, claim_case("us", "threefold-repetition",
                                              record=record(BISHOP_START, BISHOP_TAKES_ROOK)))
    assert (listed.verdict, listed.result, listed.evidence["ended_at_ply"]) == (Verdict.UPHELD, "1/2-1/2", 1)


# ---------------------------------------------------------------- one position, one verdict, with the analysis


DEAD_PRONE_STARTS = [
    WALL_START,  # 1.g4 locks it; the kings then walk
    "8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2/4B3 w - - 0 30",  # a wall and a bishop that can take nothing
    BISHOP_START,  # the rook can be taken
    "4k3/8/8/3p4/3P4/8/8/2B1K1b1 w - - 0 50",  # blocked d-pawns and same-coloured bishops
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(DEAD_PRONE_STARTS), plies=st.integers(0, 24),
       claim=st.sampled_from(sorted(claim_ids("chess"))), ruleset=st.sampled_from(["fide-standard", "uschess"]))
def test_with_the_helpmate_analysis_a_position_gets_one_verdict_from_its_fen_or_its_record(
    book: RulesetBook, services: Services, seed: int, start: str, plies: int, claim: str, ruleset: str
) -> None:
    """tests/test_claims_one_position.py without the analysis, here with it: positions dead only by the helpmate
    analysis (locked pawns) get the same verdict, result and clock changes from the record and from the FEN."""
    rng = random.Random(seed)
    board, sans = walk(start, rng, plies)
    fields = {"ruleset": ruleset, **claim_fields(claim, board, rng)}
    if claim == "insufficient-losing-chances":
        fields["ruleset"] = "uschess-variation-14h" if ruleset == "uschess" else "fide-standard-guidelines-iii"

    def outcome(case: dict[str, Any]) -> tuple[Any, ...] | str:
        try:
            ruling = rule(parse_case(case), book, services)
        except ContractError as exc:
            return exc.code
        return ruling.verdict, ruling.result, tuple((a.side, a.seconds) for a in ruling.adjustments)

    from_record = outcome({**fields, "record": movetext(start, sans) or "*", "start_fen": start})
    from_fen = outcome({**fields, "fen": board.fen()})
    if claim == "threefold-repetition" and from_fen == "missing_field":
        return  # a bare FEN shows no repetitions, and the position itself did not end the game
    assert from_fen == from_record, f"{ruleset} {claim}: FEN {board.fen()} record {movetext(start, sans)}"


def test_the_walks_reach_dead_positions_of_both_kinds(services: Services) -> None:
    """The generator above is not idle: its walks end in positions dead only by analysis, and in listed ones."""
    assert services.mate is not None
    deadness = Deadness("helpmate", services.mate)
    seen = set()
    for seed in range(80):
        board, _ = walk(DEAD_PRONE_STARTS[seed % len(DEAD_PRONE_STARTS)], random.Random(seed), seed % 25)
        if deadness.is_dead(board):
            seen.add("listed" if board.is_insufficient_material() else "analysis")
    assert seen == {"listed", "analysis"}


def test_one_ply_after_the_end_is_said_in_the_singular(book: RulesetBook) -> None:
    """5.2.2: the record starts dead (king and knight against king); its one move came after the end."""
    ruled = rule(parse_case({"ruleset": "fide-standard", "claim": "fifty-move", "claimant": "black",
                             "record": '[FEN "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"]\n[SetUp "1"]\n\n1. Nf3'}), book)
    assert "The later ply was played after the end of the game and does not count." in ruled.reasons
