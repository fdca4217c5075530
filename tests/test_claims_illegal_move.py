"""Illegal moves (FIDE 7.5, A.3, A.5.2; US Chess 11): cases P17-P22, P34, P41."""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from adjudicator.chess.claims.illegal_move import increment_seconds
from adjudicator.chess.replay import replay_chess
from adjudicator.chess.san import describe
from adjudicator.clocks import TimeControlError, parse_time_control
from adjudicator.contract import ContractError, parse_case
from adjudicator.requirements import CaseRefused, checked_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import MateSearch, Services

# 2...Qh4+ checks the White king; 3.Nc3 ignores the check.
P17 = "1. e4 e5 2. f4 Qh4+ 3. Nc3"
BARE_KING = "8/8/3k4/8/8/8/3KQ3/8 w - - 0 70"


def ruling(book: RulesetBook, services: Services | None = None, **case: Any) -> Ruling:
    case.setdefault("claim", "illegal-move")
    return rule(parse_case(case), book, services)


def test_p17_walk_then_first_illegal_move(book: RulesetBook) -> None:
    replay = replay_chess(P17)
    assert [p.is_legal for p in replay.plies] == [True, True, True, True, False]
    assert replay.final_board.piece_at(chess.C3) == chess.Piece(chess.KNIGHT, chess.WHITE)  # as played
    result = ruling(book, ruleset="fide-standard", claimant="black", record=P17,
                    clock={"white": "0:14:10", "black": "0:09:00"}, time_control="40/5400+30:1800+30")
    assert result.verdict == "upheld" and result.result is None
    assert result.instructions[0] == (
        "reinstate the position before 3.Nb1-c3 (rnb1kbnr/pppp1ppp/8/4p3/4PP1q/8/PPPP2PP/RNBQKBNR w KQkq - 1 3)"
    )
    assert "the knight on b1 has no legal move: White may make any legal move" in result.instructions
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120), ("white", -30)]
    assert any("0:09:00 becomes 0:11:00" in i for i in result.instructions)
    assert {"FIDE 7.5.1", "FIDE 7.5.5"} <= set(result.rule_refs)


def test_touched_piece_with_a_legal_move_must_move(book: RulesetBook) -> None:
    # 3.g4 does not stop the check from h4, but the g-pawn has a legal move (g3)
    result = ruling(book, ruleset="fide-standard", record="1. e4 e5 2. f4 Qh4+ 3. g4", claimant="black")
    assert "White must move the pawn on g2 if it has a legal move (4.3)" in result.instructions


def test_p18_second_illegal_move_against_a_bare_king_is_a_draw(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", start_fen=BARE_KING, record="70. Kd2-d4", previous_illegal_moves=1)
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert "has_insufficient_material" in result.evidence["mate_check"]["method"]


def test_second_illegal_move_loses_when_the_opponent_can_mate(book: RulesetBook) -> None:
    fen = "8/8/3k4/8/8/8/3KQ3/7r w - - 0 70"
    result = ruling(book, ruleset="fide-standard", start_fen=fen, record="70. Kd2-d4", previous_illegal_moves=1)
    assert result.result == "0-1"


class _Oracle:
    """A mate oracle that answers what it is told about Black (the real one is engines/chess/unwinnable).

    White (the queen's side) can always mate here, so the dead-position check every claim makes
    first (adjudicator/chess/claims/over.py) finds the game alive after asking about White.
    """

    def __init__(self, unwinnable: bool | None) -> None:
        self.unwinnable = unwinnable
        self.asked: list[tuple[str, bool]] = []

    def search(self, board: chess.Board, color: chess.Color) -> MateSearch:
        self.asked.append((board.fen(), color))
        if color == chess.WHITE:
            return MateSearch(color, False, ("e2e8",), "test-oracle", 7)
        helpmate = None if self.unwinnable is not False else ("h1h2",)
        return MateSearch(color, self.unwinnable, helpmate, "test-oracle", 7)


def test_the_mate_oracle_decides_and_is_asked_about_the_reinstated_position(book: RulesetBook) -> None:
    oracle = _Oracle(unwinnable=True)
    fen = "8/8/3k4/8/8/8/3KQ3/7r w - - 0 70"
    result = ruling(book, Services(mate=oracle), ruleset="fide-standard", start_fen=fen, record="70. Kd2-d4",
                    previous_illegal_moves=1)
    assert oracle.asked == [(fen, chess.WHITE), (fen, chess.BLACK)]  # the game alive, then 7.5.5's question
    assert result.result == "1/2-1/2" and result.evidence["mate_check"]["method"] == "test-oracle"
    undecided = ruling(book, Services(mate=_Oracle(None)), ruleset="fide-standard", start_fen=fen,
                       record="70. Kd2-d4", previous_illegal_moves=1)
    assert undecided.verdict == "deferred" and undecided.result is None


def test_p19_rapid_first_illegal_move_one_minute(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-rapid", claimant="black", record=P17, time_control="1500+10")
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 60), ("white", -10)]
    assert "FIDE A.3" in result.rule_refs


def test_p20_unsupervised_rapid_castling_through_check_seen_in_time(book: RulesetBook) -> None:
    start = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1"
    result = ruling(book, ruleset="fide-rapid", start_fen=start, record="1. O-O")
    assert result.verdict == "upheld"
    assert "White must make a legal move with the king (4.4.3)" in result.instructions
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 60)]
    assert {"FIDE A.5.2", "FIDE 7.5.5", "FIDE A.3"} <= set(result.rule_refs)
    late = ruling(book, ruleset="fide-rapid", start_fen=start, record="1. O-O Kd7")
    assert late.verdict == "rejected" and not late.adjustments
    assert any("stands" in r for r in late.reasons)


def test_p21_unreplaced_promotion_becomes_a_queen(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", start_fen="8/4P1k1/8/8/8/8/8/4K3 w - - 0 60", record="60. e8")
    assert result.verdict == "upheld"
    assert result.evidence["position"] == "4Q3/6k1/8/8/8/8/8/4K3 b - - 0 60"
    assert result.evidence["illegal_move_count"] == 1
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)]
    assert "FIDE 7.5.2" in result.rule_refs


def test_p22_clock_pressed_without_a_move(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="black", record="1. e4 e5",
                    clock_pressed_without_move=True)
    assert result.verdict == "upheld"
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)]
    assert "FIDE 7.5.3" in result.rule_refs
    assert any("distraction" in r for r in result.reasons)
    second = ruling(book, ruleset="fide-standard", claimant="black", fen=BARE_KING,
                    clock_pressed_without_move=True, previous_illegal_moves=1)
    assert second.result == "1/2-1/2"


def game_with_illegal_move(before: int, after: int, seed: int = 7) -> str:
    """A legal game of ``before`` plies, one illegal move as played (wrong geometry), ``after`` legal plies."""
    rng = random.Random(seed)
    board = chess.Board()
    tokens: list[str] = []

    def play(move: chess.Move, token: str) -> None:
        if board.turn == chess.WHITE:
            tokens.append(f"{board.fullmove_number}.")
        tokens.append(token)
        board.push(move)

    def legal_plies(count: int) -> None:
        for _ in range(count):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            quiet = [m for m in moves if not board.is_capture(m) and not board.gives_check(m)] or moves
            move = rng.choice(quiet)
            play(move, board.san(move))

    legal_plies(before)
    own = board.occupied_co[board.turn] & ~board.pawns & ~board.kings
    for origin in chess.SquareSet(own):
        targets = [sq for sq in chess.SQUARES if board.piece_at(sq) is None
                   and chess.square_distance(origin, sq) == 3 and not board.attacks_mask(origin) & chess.BB_SQUARES[sq]]
        if targets:
            move = chess.Move(origin, targets[0])
            play(move, describe(board, move))
            break
    legal_plies(after)
    return " ".join(tokens)


def test_p34_us_chess_illegal_move_found_four_moves_later(book: RulesetBook) -> None:
    record = game_with_illegal_move(50, 9)  # 26.(illegal) ... 30.x, Black to move
    replay = replay_chess(record)
    bad = replay.illegal[0]
    assert bad.move_number == 26 and bad.side == "white" and len(replay.plies) == 60
    result = ruling(book, ruleset="uschess", claimant="black", record=record)
    assert result.verdict == "upheld" and not result.adjustments
    assert result.instructions[0].startswith(f"reinstate the position before {replay.label(51)}")
    assert any("was not made before Black's own next move" in r for r in result.reasons)
    assert {"US Chess 11A", "US Chess 11D"} <= set(result.rule_refs)


def test_us_chess_illegal_move_older_than_ten_moves_stands(book: RulesetBook) -> None:
    record = game_with_illegal_move(50, 21)
    assert len(replay_chess(record).plies) - 51 == 21
    result = ruling(book, ruleset="uschess", claimant="black", record=record)
    assert result.verdict == "rejected" and "US Chess 11B" in result.rule_refs


def test_p41_calchess_illegal_move_three_moves_ago_gets_two_minutes(book: RulesetBook) -> None:
    record = game_with_illegal_move(51, 6)  # Black's 26th move, then three moves each
    replay = replay_chess(record)
    assert replay.illegal[0].side == "black" and replay.illegal[0].number == 52
    result = ruling(book, ruleset="calchess-scholastic", claimant="white", record=record)
    assert result.verdict == "upheld"
    assert [(a.side, a.seconds) for a in result.adjustments] == [("white", 120)]
    assert result.instructions[0].startswith(f"reinstate the position before {replay.label(52)}")


def test_a_legal_alleged_move_is_rejected(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", record="1. e4 e5 2. f4 Qh4+ 3. g3", alleged_illegal_ply=3)
    assert result.verdict == "rejected" and "was a legal move" in result.reasons[0]


def test_a_legal_alleged_move_with_an_illegal_one_later_the_illegal_one_is_found(book: RulesetBook) -> None:
    """7.5.1: "if during a game it is found that an illegal move has been completed": replaying the record
    to check the claim finds 3.Nc3, and that is what the arbiter corrects; the ruling says 2.f4 was legal."""
    result = ruling(book, ruleset="fide-standard", record=P17, alleged_illegal_ply=3)
    assert result.verdict == "upheld" and result.evidence["ply"] == 5 and result.evidence["alleged_ply"] == 3
    assert any("The claim names 2.f4 (ply 3), which was legal; the irregularity found is 3.Nb1-c3" in r
               for r in result.reasons)


def test_alleged_ply_beyond_the_record_names_the_field(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as err:
        ruling(book, ruleset="fide-standard", record=P17, alleged_illegal_ply=40)
    assert err.value.field == "alleged_illegal_ply"


@pytest.mark.parametrize(
    ("tc", "move", "seconds"),
    [("40/5400+30:1800+30", 10, 30), ("40/5400:1800+30", 10, 0), ("40/5400:1800+30", 41, 30),
     ("1800+5d", 3, 0), ("G/90;d5", 3, 0), ("40/120, SD/30;inc30", 5, 30), ("900+10", 1, 10),
     ("G/90+30", 3, 30), ("G/25+10", 3, 10), ("G/90;inc30", 3, 30), ("G/10+2 delay", 3, 0), ("G/30;b5", 3, 0),
     ("G/90;inc30 from move 41", 40, 0), ("G/90;inc30 from move 41", 41, 30), ("40/7200:20/3600+30", 65, 30),
     ("40/7200:20/3600+30", 40, 0), ("-", 3, 0), ("?", 3, 0), ("*180", 3, 0)],
)
def test_increment_in_force(tc: str, move: int, seconds: float) -> None:
    assert increment_seconds(parse_time_control(tc), move) == seconds


def test_each_side_has_the_increment_of_its_own_control() -> None:
    armageddon = parse_time_control("300+3 v 240+2")
    assert increment_seconds(armageddon, 5, first_mover=True) == 3
    assert increment_seconds(armageddon, 5, first_mover=False) == 2


def test_p17_the_increment_of_a_us_spelled_control_is_removed(book: RulesetBook) -> None:
    # the walk-through's case: "G/90+30" gave no increment, so the 30 s White gained stayed on the clock
    result = ruling(book, ruleset="fide-standard", claimant="black", record=P17,
                    clock={"white": "0:14:10", "black": "0:09:00"}, time_control="G/90+30")
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120), ("white", -30)]
    assert "remove the 30 s increment White gained by pressing the clock" in result.instructions
    assert result.evidence["time_control"]["description"] == "1:30:00 for the rest of the game, 30 s increment"


def test_p19_the_same_rapid_control_however_written_gets_the_same_adjustments(book: RulesetBook) -> None:
    rulings = [ruling(book, ruleset="fide-rapid", claimant="black", record=P17, time_control=tc)
               for tc in ("1500+10", "G/25+10", "G/25;inc10", "G/25 inc 10")]
    assert {tuple((a.side, a.seconds) for a in r.adjustments) for r in rulings} == {(("black", 60), ("white", -10))}
    assert len({r.instructions for r in rulings}) == 1


@pytest.mark.parametrize("given", [{}, {"time_control": "?"}, {"time_control": "  "}])
def test_without_a_known_control_the_arbiter_is_told_to_remove_any_increment(
    book: RulesetBook, given: dict[str, str]
) -> None:
    result = ruling(book, None, ruleset="fide-standard", claimant="black", record=P17, **given)
    assert "if the clock added an increment for White's move, remove it" in result.instructions
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)]


def test_with_no_control_given_the_record_s_timecontrol_tag_is_used(book: RulesetBook) -> None:
    # never ask for a fact the product has: the PGN's TimeControl tag says the increment, as for a flag claim
    record = '[TimeControl "5400+30"]\n\n' + P17
    result = ruling(book, ruleset="fide-standard", claimant="black", record=record)
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120), ("white", -30)]
    assert ("remove the 30 s increment White gained by pressing the clock (the time control from the record's "
            "TimeControl tag)") in result.instructions
    assert result.evidence["time_control_source"] == "the record's TimeControl tag"
    given = ruling(book, ruleset="fide-standard", claimant="black", record=record, time_control="G/90")
    assert [(a.side, a.seconds) for a in given.adjustments] == [("black", 120)]  # the case's own control first


def test_with_no_control_given_the_ruleset_s_default_is_used(book: RulesetBook) -> None:
    # us-senior's default is 40/5400+30:1800+30: move 3 is in the first period, 30 s increment
    result = ruling(book, ruleset="us-senior", claimant="black", record=P17)
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120), ("white", -30)]
    assert result.evidence["time_control_source"] == "the ruleset's default time control"
    unreadable_tag = ruling(book, ruleset="fide-standard", claimant="black", record='[TimeControl "zz"]\n\n' + P17)
    assert "if the clock added an increment for White's move, remove it" in unreadable_tag.instructions


def test_a_delay_or_no_clock_control_removes_nothing_and_says_nothing_of_increments(book: RulesetBook) -> None:
    for tc in ("G/90;d5", "5400+5d", "-"):
        result = ruling(book, ruleset="fide-standard", claimant="black", record=P17, time_control=tc)
        assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 120)], tc
        assert not any("increment" in i for i in result.instructions), tc


@pytest.mark.parametrize("tc", ["40/90+30/30+30", "zzz+30", "G/90;inc30;inc5"])
def test_a_control_nobody_can_read_is_refused_naming_the_field(book: RulesetBook, tc: str) -> None:
    # as the flag and insufficient-losing-chances claims refuse it; before, it ruled with no increment
    with pytest.raises(TimeControlError) as err:
        ruling(book, ruleset="fide-standard", claimant="black", record=P17, time_control=tc)
    assert err.value.code == "invalid_time_control" and err.value.field == "time_control"
    with pytest.raises(CaseRefused) as refused:
        checked_case({"claim": "illegal-move", "ruleset": "fide-standard", "record": P17, "time_control": tc}, book)
    assert refused.value.code == "invalid_time_control" and refused.value.field == "time_control"


def test_clock_times_from_the_record_are_evidence_and_later_moves_are_cancelled(book: RulesetBook) -> None:
    record = ("1. e4 {[%clk 1:29:50]} e5 {[%clk 1:29:40]} 2. f4 {[%clk 1:29:00]} Qh4+ {[%clk 1:28:00]} "
              "3. Nc3 {[%clk 1:27:30]} Nc6 {[%clk 1:27:00]}")
    result = ruling(book, ruleset="fide-standard", claimant="black", record=record)
    assert result.evidence["clocks_before"] == {"white": 5340, "black": 5280}
    assert result.instructions[0].endswith("; the 1 later move(s) are cancelled")
    assert any("White 1:29:00, Black 1:28:00" in r for r in result.reasons)


def test_second_illegal_move_with_the_real_unwinnability_analysis(book: RulesetBook) -> None:
    unwinnable = pytest.importorskip("engines.chess.unwinnable", reason="the unwinnability analysis is not merged here")
    services = Services(mate=unwinnable.UnwinnabilityAnalyser())
    # a bare king cannot mate: a draw
    bare = ruling(book, services, ruleset="fide-standard", start_fen=BARE_KING, record="70. Kd2-d4",
                  previous_illegal_moves=1)
    assert bare.result == "1/2-1/2"
    assert "has_insufficient_material" not in bare.evidence["mate_check"]["method"]
    # K+N against K+P: Black can mate by some series of legal moves, so White loses
    knight = ruling(book, services, ruleset="fide-standard", start_fen="8/8/8/3k4/8/2n5/6P1/6K1 w - - 0 1",
                    record="1. Kg1-g3", previous_illegal_moves=1)
    assert knight.result == "0-1"
    assert knight.evidence["mate_check"].get("helpmate")


# ---------------------------------------------------------------- the arbiter's correction first (7.5.1-7.5.5)

ROOK_TAKEN_BY_PROMOTION = "3r4/4P1k1/8/8/8/8/8/4K3 w - - 0 60"  # exd8 takes Black's last piece


def test_7_5_2_then_7_5_5_the_mate_test_is_made_with_the_new_queen_on_the_board(book: RulesetBook) -> None:
    """7.5.2: the unreplaced pawn becomes a queen and the move stands; 7.5.5: the second illegal move loses
    unless the opponent cannot mate by any series of legal moves, asked of that position: Black's rook is
    gone, a bare king cannot mate: a draw, not 0-1."""
    queen = chess.Board(ROOK_TAKEN_BY_PROMOTION)
    queen.push(chess.Move.from_uci("e7d8q"))
    assert queen.has_insufficient_material(chess.BLACK)  # python-chess, the oracle
    assert not chess.Board(ROOK_TAKEN_BY_PROMOTION).has_insufficient_material(chess.BLACK)
    result = ruling(book, ruleset="fide-standard", start_fen=ROOK_TAKEN_BY_PROMOTION, record="60. exd8",
                    previous_illegal_moves=1)
    assert (result.verdict, result.result) == ("upheld", "1/2-1/2")
    assert result.evidence["fen"] == queen.fen()
    assert {"FIDE 7.5.2", "FIDE 7.5.5"} <= set(result.rule_refs)


def test_7_5_2_the_mate_test_uses_the_helpmate_search_on_the_queen_position(book: RulesetBook) -> None:
    """The same with the unwinnability analysis: it is asked about the position with the queen."""
    from engines.chess.unwinnable import UnwinnabilityAnalyser

    services = Services(mate=UnwinnabilityAnalyser())
    result = ruling(book, services, ruleset="fide-standard", start_fen=ROOK_TAKEN_BY_PROMOTION,
                    record="60. exd8", previous_illegal_moves=1)
    assert result.result == "1/2-1/2"
    assert result.evidence["fen"].startswith("3Q4/6k1/")


def test_7_5_1_the_mate_test_is_made_on_the_reinstated_position(book: RulesetBook) -> None:
    """7.5.1: the position before the illegal move is reinstated, and 7.5.5 asks about it: the king's
    illegal capture of the rook is taken back, Black keeps the rook and can mate: White loses."""
    start = "8/8/8/8/8/3k4/4r3/4K3 w - - 0 70"  # Kxe2 is illegal (the rook is defended)
    before = chess.Board(start)
    assert not before.is_legal(chess.Move.from_uci("e1e2"))
    result = ruling(book, ruleset="fide-standard", start_fen=start, record="70. Kxe2", previous_illegal_moves=1)
    assert (result.verdict, result.result) == ("upheld", "0-1")
    assert result.evidence["fen"] == before.fen()


def test_7_5_3_the_clock_pressed_without_a_move_is_judged_on_the_board_as_it_stands(book: RulesetBook) -> None:
    """7.5.3: nothing to correct; the position used (and shown) is the one on the board, White to move."""
    result = ruling(book, ruleset="fide-standard", claimant="black", fen=BARE_KING,
                    clock_pressed_without_move=True, previous_illegal_moves=1)
    assert result.evidence["fen"] == chess.Board(BARE_KING).fen()
    assert chess.Board(BARE_KING).has_insufficient_material(chess.BLACK) and result.result == "1/2-1/2"


def test_a_5_2_before_the_reply_the_arbiter_reinstates_and_shows_that_position(book: RulesetBook) -> None:
    """A.5.2 (rapid, unsupervised): the opponent has not yet moved, so the arbiter corrects; the evidence
    is the reinstated position and A.3 gives the opponent one minute."""
    start = "8/8/8/8/8/3k4/4r3/4K3 w - - 0 70"
    result = ruling(book, ruleset="fide-rapid", start_fen=start, record="70. Kxe2")
    assert result.verdict == "upheld" and result.evidence["fen"] == chess.Board(start).fen()
    assert [(a.side, a.seconds) for a in result.adjustments] == [("black", 60)]


def test_a_5_2_after_the_reply_the_illegal_move_stands_and_so_does_its_position(book: RulesetBook) -> None:
    """A.5.2: once the opponent has moved the illegal move stands; the position shown is the one on the board."""
    start = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 70"
    board = chess.Board(start)
    board.push(chess.Move.from_uci("e1d3"))  # the king jumps two squares (illegal), then Black replies
    board.push(chess.Move.from_uci("e8e7"))
    result = ruling(book, ruleset="fide-rapid", start_fen=start, record="70. Kd3 Ke7")
    assert result.verdict == "rejected" and not result.adjustments
    assert result.evidence["fen"].split()[0] == board.fen().split()[0]
