"""Illegal-move claims (issue 34, classes 4 and 6): the first irregularity decides (FIDE 7.5.1, A.5.2; US Chess
11A, 11B; ACF improper moves), and who claimed counts (``illegal_move.claim_by_offender``)."""

from __future__ import annotations

import copy
from typing import Any

import chess
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.chess.replay import replay_chess
from adjudicator.chess.san import describe
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from tests.test_claims_illegal_move import game_with_illegal_move

# 2...Qh4+ checks White's king; 3.Nc3 ignores the check (ply 5), and 4.Nf3 ignores it again (ply 7).
TWICE = "1. e4 e5 2. f4 Qh4+ 3. Nc3 Nc6 4. Nf3"
BEFORE_NC3 = "rnb1kbnr/pppp1ppp/8/4p3/4PP1q/8/PPPP2PP/RNBQKBNR w KQkq - 1 3"


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("claim", "illegal-move")
    return rule(parse_case(case), book)


def adjustments(result: Ruling) -> list[tuple[str, float]]:
    return [(a.side, a.seconds) for a in result.adjustments]


# ---------------------------------------------------------------- class 4: the first irregularity decides


@pytest.mark.parametrize("ruleset", ["fide-standard", "us-senior", "uschess", "calchess-scholastic"])
def test_a_claim_on_the_second_illegal_move_reinstates_before_the_first(book: RulesetBook, ruleset: str) -> None:
    """Black claims 4.Nf3 (ply 7); 3.Nc3 (ply 5) already left the king in check: 7.5.1 / 11A reinstate the
    position immediately before the irregularity, which is 3.Nc3, and the ruling says why it is not 4.Nf3."""
    result = ruling(book, ruleset=ruleset, claimant="black", record=TWICE, alleged_illegal_ply=7, prompt=True)
    assert result.verdict == "upheld"
    assert result.evidence["ply"] == 5 and result.evidence["alleged_ply"] == 7
    assert result.instructions[0] == (
        f"reinstate the position before 3.Nb1-c3 ({BEFORE_NC3}); the 2 later move(s) are cancelled"
    )
    assert any("The claim names 4.Ng1-f3 (ply 7), which was illegal too, but 3.Nb1-c3 (ply 5) came before it" in r
               and "the first irregularity decides" in r for r in result.reasons)
    article = "US Chess 11A" if ruleset.startswith(("uschess", "calchess")) else "FIDE 7.5.1"
    assert article in result.rule_refs


def test_without_a_named_ply_the_first_illegal_move_is_ruled_on(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="black", record=TWICE)
    assert result.evidence["ply"] == 5 and "alleged_ply" not in result.evidence
    assert adjustments(result) == [("black", 120)]


def test_a_5_2_an_earlier_illegal_move_that_stands_does_not_hide_the_last_one(book: RulesetBook) -> None:
    """Unsupervised rapid: 1.O-O through check stood once Black replied; 2.Kg3 (two squares) is claimed before
    Black's next move, so it is the irregularity still correctable, and the ruling names the one that stands."""
    start = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1"
    result = ruling(book, ruleset="fide-rapid", claimant="black", start_fen=start, record="1. O-O Kd7 2. Kg3")
    assert result.verdict == "upheld" and result.evidence["ply"] == 3
    assert result.evidence["standing_illegal_plies"] == [1]
    assert any("1.O-O (ply 1) can no longer be corrected and stand" in r for r in result.reasons)
    assert adjustments(result) == [("black", 60)]
    named = ruling(book, ruleset="fide-rapid", claimant="black", start_fen=start, record="1. O-O Kd7 2. Kg3",
                   alleged_illegal_ply=1)
    assert named.verdict == "rejected" and any("stands" in r for r in named.reasons)  # too late for 1.O-O


def test_us_11b_an_illegal_move_before_the_last_ten_stands_and_a_later_one_is_corrected(book: RulesetBook) -> None:
    """11B: White's illegal 26th move, found 33 plies later, stands; Black's illegal move just made (within
    11A's last ten moves) is the irregularity White's claim reaches."""
    first = game_with_illegal_move(50, 32)  # White's illegal 26th move, then 32 legal plies: Black to move
    board = replay_chess(first).final_board
    move = next(chess.Move(origin, target) for origin in chess.SquareSet(board.knights & board.occupied_co[board.turn])
                for target in chess.SQUARES if board.piece_at(target) is None
                and chess.square_distance(origin, target) == 3)  # a knight three squares away: no knight move
    record = f"{first} {describe(board, move)}"
    assert [p.number for p in replay_chess(record).illegal] == [51, 84]
    named = ruling(book, ruleset="uschess", claimant="black", record=record, alleged_illegal_ply=51)
    assert named.verdict == "rejected" and "US Chess 11B" in named.rule_refs  # the claim names the one that stands
    result = ruling(book, ruleset="uschess", claimant="white", record=record)
    assert result.verdict == "upheld" and result.evidence["ply"] == 84
    assert result.evidence["standing_illegal_plies"] == [51]


def test_a_legal_move_named_the_illegal_one_found_in_checking_is_ruled_on(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="black", record=TWICE, alleged_illegal_ply=3)
    assert result.verdict == "upheld" and result.evidence["ply"] == 5
    assert any("The claim names 2.f4 (ply 3), which was legal; the irregularity found is 3.Nb1-c3 (ply 5)" in r
               for r in result.reasons)


# ---------------------------------------------------------------- class 6: who claimed counts


def test_fide_standard_the_arbiter_acts_on_the_offenders_own_report(book: RulesetBook) -> None:
    """7.5.1: "if during a game it is found": White points out White's own 3.Nc3; it is not Black's claim, but
    the arbiter corrects it and 7.5.5 gives Black the 2 minutes, and the ruling says who reported it."""
    result = ruling(book, ruleset="fide-standard", claimant="white", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")
    assert result.verdict == "upheld" and adjustments(result) == [("black", 120)]
    assert result.reasons[0].startswith("White reported White's own illegal move: this is not Black's claim.")
    assert result.evidence["reported_by"] == "offender" and result.evidence["claim_by_offender"] == "arbiter-acts"


def test_fide_rapid_unsupervised_only_the_opponent_may_claim(book: RulesetBook) -> None:
    """A.5.2: the opponent claims, or the arbiter acts on what he observes; White's report of White's own move
    is neither: nothing is corrected and Black gets no minute; Black may still claim before moving."""
    record = "1. e4 e5 2. f4 Qh4+ 3. Nc3"
    result = ruling(book, ruleset="fide-rapid", claimant="white", record=record)
    assert result.verdict == "rejected" and not result.adjustments
    assert "Only Black may claim an illegal move" in result.reasons[0]
    assert result.instructions == ("play continues; Black may claim the illegal move before making the next move, "
                                   "otherwise it stands",)
    assert "FIDE A.5.2" in result.rule_refs
    seen = ruling(book, ruleset="fide-rapid", claimant="white", record=record, arbiter_observed=True)
    assert seen.verdict == "upheld" and adjustments(seen) == [("black", 60)]
    assert "the arbiter observed the illegal move himself" in seen.reasons[0]
    claimed = ruling(book, ruleset="fide-rapid", claimant="black", record=record)
    assert claimed.verdict == "upheld" and adjustments(claimed) == [("black", 60)]
    assert "reported_by" not in claimed.evidence


def test_us_chess_the_offenders_report_reinstates_without_the_opponents_bonus(book: RulesetBook) -> None:
    """11A reinstates an illegal move found among the last ten moves whoever finds it; 11D's 2 minutes go to
    the opponent who claims, and here nobody but the offender did."""
    result = ruling(book, ruleset="calchess-scholastic", claimant="white", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")
    assert result.verdict == "upheld" and not result.adjustments
    assert result.instructions[0].startswith("reinstate the position before 3.Nb1-c3")
    assert "the opponent's time bonus follows the opponent's own claim, so none is added" in result.reasons[0]
    assert {"US Chess 11A", "US Chess 11D", "US Chess 1C2b"} <= set(result.rule_refs)
    opponent = ruling(book, ruleset="calchess-scholastic", claimant="black", record="1. e4 e5 2. f4 Qh4+ 3. Nc3")
    assert adjustments(opponent) == [("black", 120)]


def test_the_claimants_own_earlier_illegal_move_found_in_checking_the_claim_is_corrected(book: RulesetBook) -> None:
    """Black claims White's 4.Ke1-e3 (two squares), but Black's own 2...Ke8-e6 came first: the first irregularity
    is Black's, found in checking the claim; the arbiter corrects it and White gets the 2 minutes (7.5.5)."""
    record = "1. e4 e5 2. d3 Ke8-e6 3. Nf3 Nc6 4. Ke1-e3"
    result = ruling(book, ruleset="fide-standard", claimant="black", record=record)
    assert result.evidence["ply"] == 4 and result.evidence["offender"] == "black"
    assert adjustments(result) == [("white", 120)]
    assert result.reasons[0].startswith("Black claimed that White's move was illegal, but Black's own illegal move "
                                        "came first")


# ---------------------------------------------------------------- checkers (ACF Standard Laws, improper moves)

def checkers(book: RulesetBook, **fields: Any) -> Ruling:
    return rule(parse_case({"game": "checkers", "ruleset": "acf", "claim": "illegal-move", **fields}), book)


def test_checkers_the_offender_reporting_his_own_missed_jump_is_not_a_claim(book: RulesetBook) -> None:
    """White missed the jump 23x14 (30-26 instead); White says so himself: the correction is Red's to ask for."""
    record = '[FEN "W:W23,30:B18,1"]\n30-26'
    result = checkers(book, claimant="white", record=record)
    assert result.verdict == "rejected" and "not Red's claim" in result.reasons[0]
    assert result.evidence["reported_by"] == "offender"
    assert result.instructions == ("Play continues; Red may ask for the correction before making the next move, "
                                   "otherwise the move stands.",)
    seen = checkers(book, claimant="white", record=record, arbiter_observed=True)
    assert seen.verdict == "upheld" and seen.instructions[0].startswith("Reinstate the position before ply 1")
    assert checkers(book, claimant="red", record=record).verdict == "upheld"


def test_checkers_the_first_improper_move_decides_when_corrections_are_open_all_game(
    config: dict[str, Any]
) -> None:
    """With ``correction_window = "game"``: White's missed jump at ply 1 comes before Red's at ply 2; White's
    claim naming Red's move finds White's own first, and the position before ply 1 is reinstated."""
    changed = copy.deepcopy(config)
    changed["rulesets"]["acf"]["illegal_move"]["correction_window"] = "game"
    book = RulesetBook.from_config(changed)
    record = '[FEN "W:W23,30:B18,1"]\n30-26 1-5'  # 30-26 misses 23x14; 1-5 misses 18x27
    result = checkers(book, claimant="white", record=record, alleged_illegal_ply=2)
    assert result.verdict == "upheld" and result.evidence["ply"] == 1
    assert any("the first irregularity decides" in r for r in result.reasons)
    assert result.instructions[0].startswith("Reinstate the position before ply 1")


# ---------------------------------------------------------------- property: the earliest correctable one, always


def _teleport(board: chess.Board) -> chess.Move | None:
    """An illegal move of the side to move: a piece (not a pawn or king) to an empty square three away it does
    not attack (no piece moves that way), as a player writes a move that cannot have been played."""
    own = board.occupied_co[board.turn] & ~board.pawns & ~board.kings
    for origin in chess.SquareSet(own):
        for target in chess.SQUARES:
            if board.piece_at(target) is None and chess.square_distance(origin, target) == 3 \
                    and not board.attacks_mask(origin) & chess.BB_SQUARES[target]:
                return chess.Move(origin, target)
    return None


def _game(seed: int, gaps: tuple[int, int, int]) -> tuple[str, list[int]] | None:
    """A game: gaps[0] legal plies, an illegal move, gaps[1] legal plies, an illegal move, gaps[2] legal plies."""
    import random

    rng = random.Random(seed)
    board = chess.Board()
    tokens: list[str] = []
    illegal: list[int] = []
    for index, count in enumerate(gaps):
        for _ in range(count):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves:
                return None
            move = rng.choice([m for m in moves if not board.gives_check(m)] or moves)
            tokens += [f"{board.fullmove_number}." if board.turn else "", board.san(move)]
            board.push(move)
        if index < 2:
            bad = _teleport(board)
            if bad is None:
                return None
            tokens += [f"{board.fullmove_number}." if board.turn else "", describe(board, bad)]
            board.push(bad)
            illegal.append(len(board.move_stack))
    return " ".join(t for t in tokens if t), illegal


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), gaps=st.tuples(st.integers(2, 20), st.integers(0, 12), st.integers(0, 8)),
       ruleset=st.sampled_from(["fide-standard", "uschess", "fide-rapid"]))
def test_the_ruling_reinstates_before_the_earliest_illegal_move_still_correctable(
    book: RulesetBook, seed: int, gaps: tuple[int, int, int], ruleset: str
) -> None:
    built = _game(seed, gaps)
    assume(built is not None)
    assert built is not None
    record, illegal = built
    replay = replay_chess(record)
    assume([p.number for p in replay.illegal] == illegal)
    n = len(replay.plies)
    window = {"fide-standard": n, "uschess": 19, "fide-rapid": 0}[ruleset]  # plies after it still correctable
    open_ = [p for p in illegal if n - p <= window]
    result = ruling(book, ruleset=ruleset, record=record, alleged_illegal_ply=illegal[1], prompt=True)
    if open_:
        assert result.verdict == "upheld" and result.evidence["ply"] == open_[0]
        assert result.instructions[0].startswith(f"reinstate the position before {replay.label(open_[0])}")
        if open_[0] != illegal[1]:
            assert any("the first irregularity decides" in r for r in result.reasons)
        assert result.evidence.get("standing_illegal_plies", []) == [p for p in illegal if p < open_[0]]
    else:
        assert result.verdict == "rejected" and not result.adjustments


def test_checkers_an_improper_move_that_stands_does_not_hide_the_one_just_made(book: RulesetBook) -> None:
    """ACF (correction before the reply): White's 30-26 (missing 23x14) stands once Red replied; Red's reply
    1-5 missed 18x27 and White claims at once: that is the improper move still correctable."""
    record = '[FEN "W:W23,30:B18,1"]\n30-26 1-5'
    result = checkers(book, claimant="white", record=record)
    assert result.verdict == "upheld" and result.evidence["ply"] == 2
    assert result.evidence["standing_illegal_plies"] == [1]
    assert any("White's move 1 (30-26, ply 1) can no longer be corrected and stand" in r for r in result.reasons)
    assert "18x27" in result.instructions[1]
