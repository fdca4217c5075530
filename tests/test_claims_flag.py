"""Flag claims in chess (FIDE 6.9, Guidelines III.3.1; US Chess 13C1, 14E, 14G2; local rules).

Each test is a case of ``shared/rules/cases.md`` (P09, P12-P16, P26, P30, P31, P37, P39)
or a rule the cases rest on, sent through the contract (``parse_case`` + ``rule``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest

from adjudicator.clocks import hms
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services
from engines import build_services
from engines.chess.forced_mate import ForcedMateSearch


@pytest.fixture(scope="module")
def services(config: dict[str, Any], tablebase_dirs: tuple[Path, Path]) -> Services:
    """The real services, with the installed 3-4 piece Syzygy tables for US 14E."""
    local = dict(config, tablebases={"syzygy": [str(tablebase_dirs[0])]})
    built = build_services(local)
    assert built.mate is not None, "the helpmate analysis (engines.chess.unwinnable) is needed for FIDE 6.9"
    return built


@pytest.fixture(scope="module")
def judge(book: RulesetBook, services: Services) -> Iterator[Any]:
    def run(ruleset: str, services_: Services | None = None, **fields: Any) -> Ruling:
        ruling = rule(parse_case({"ruleset": ruleset, "claim": "flag", **fields}), book, services_ or services)
        json.dumps(ruling.to_json())  # the contract's ruling is JSON, evidence included
        return ruling

    yield run


P12 = "8/8/8/3k4/8/2n5/6P1/6K1 w - - 0 1"
P14 = "8/8/3k4/8/8/8/3KQ3/8 b - - 0 70"
P15 = "8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2/8 w - - 0 1"
P16 = "8/2b5/8/3k4/8/8/3K4/6B1 w - - 0 1"
P30 = "8/8/8/3k4/8/2n2n2/6P1/6K1 w - - 0 1"
P31 = "8/8/3k4/8/1b6/8/6P1/6K1 w - - 0 1"
P39 = "8/5k2/8/3r4/8/8/2R5/5K2 w - - 0 60"
WHITE_DOWN = {"white": 0, "black": "0:00:37", "flagged": ["white"]}


def mates(fen: str, line: list[str], winner: chess.Color) -> bool:
    board = chess.Board(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves
        board.push(move)
    return board.is_checkmate() and board.turn != winner


# ---------------------------------------------------------------- one flag down (6.9, 14E)


@pytest.mark.parametrize("ruleset", ["fide-standard", "fide-rapid", "fide-blitz", "us-senior"])
def test_p12_knight_against_pawn_wins_on_time_under_fide(judge: Any, ruleset: str) -> None:
    """P12: K+N v K+P, White's flag falls: 0-1, because Black can mate by some series of legal moves."""
    ruling = judge(ruleset, fen=P12, clock=WHITE_DOWN, time_control="40/5400+30:1800+30")
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert "FIDE 6.9" in ruling.rule_refs or "FIDE A.5.3" in ruling.rule_refs
    assert mates(P12, ruling.evidence["win_test"]["helpmate"], chess.BLACK)


@pytest.mark.parametrize("ruleset", ["uschess", "uschess-variation-14h", "calchess-scholastic"])
def test_p13_the_same_position_is_a_draw_under_us_chess(judge: Any, ruleset: str) -> None:
    """P13: K+N and no forced win (14E2): draw. The tablebase proves there is no forced win."""
    ruling = judge(ruleset, claimant="black", fen=P12, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("upheld", "1/2-1/2")
    assert "US Chess 14E2" in ruling.rule_refs
    assert ruling.evidence["win_test"]["method"] == "tablebase"


@pytest.mark.parametrize(
    ("ruleset", "article"),
    [("fide-standard", "FIDE 6.9"), ("uschess", "US Chess 14E1"), ("sabah-active30", "FIDE 6.9")],
)
def test_p14_a_lone_king_cannot_win_on_time(judge: Any, ruleset: str, article: str) -> None:
    """P14: White (K+Q) overstepped; Black has a bare king: draw under FIDE, US 14E1 and Sabah."""
    ruling = judge(ruleset, claimant="black", fen=P14, clock={"white": 0, "black": 4, "flagged": ["white"]})
    assert (ruling.verdict, ruling.result) == ("upheld", "1/2-1/2")
    assert article in ruling.rule_refs


def test_p15_blocked_pawns_dead_position_then_a_flag(judge: Any) -> None:
    """P15: the blocked position is dead at once (5.2.2); a flag ten moves later is irrelevant."""
    shuffle = (
        "1. Kg2 Kb7 2. Kf2 Kb6 3. Kg2 Kc7 4. Kf2 Kb6 5. Ke2 Kb7 6. Kd2 Kc7 7. Kd3 Kd7 8. Ke2 Ke7 9. Kf2 Kf7 10. Kg2 Kf6"
    )
    record = f'[SetUp "1"]\n[FEN "{P15}"]\n\n{shuffle} *'
    ruling = judge("fide-standard", record=record, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("rejected", "1/2-1/2")
    assert "FIDE 5.2.2" in ruling.rule_refs
    assert ruling.evidence["game_end"]["dead_ply"] == 0


def test_p15_position_alone_is_dead(judge: Any) -> None:
    ruling = judge("fide-standard", fen=P15, clock=WHITE_DOWN)
    assert ruling.result == "1/2-1/2" and ruling.evidence["game_end"]["kind"] == "dead-position"


@pytest.mark.parametrize(("ruleset", "article"), [("fide-standard", "FIDE 5.2.2"), ("uschess", "US Chess 14D")])
def test_p16_same_coloured_bishops_are_dead_as_soon_as_they_arise(judge: Any, ruleset: str, article: str) -> None:
    """P16: K+B v K+B, bishops on dark squares: dead position, draw; the flag changes nothing."""
    ruling = judge(ruleset, fen=P16, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("rejected", "1/2-1/2")
    assert article in ruling.rule_refs


def test_dead_position_earlier_in_the_record_is_found_where_it_arose(judge: Any) -> None:
    """2...Bxd4 leaves same-coloured bishops: the game was drawn at ply 4; White flags at ply 10."""
    start = "8/2b5/8/3k4/8/8/3K4/4N1B1 w - - 0 1"
    record = f'[SetUp "1"]\n[FEN "{start}"]\n\n1. Nf3 Bb6 2. Nd4 Bxd4 3. Ke2 Ke4 4. Kf1 Kf3 5. Ke1 Kg2 *'
    for ruleset in ("fide-standard", "uschess"):
        ruling = judge(ruleset, record=record, clock=WHITE_DOWN)
        assert (ruling.verdict, ruling.result) == ("rejected", "1/2-1/2")
        assert ruling.evidence["game_end"]["dead_ply"] == 4


@pytest.mark.parametrize("ruleset", ["fide-standard", "uschess"])
def test_p30_two_knights_against_a_pawn_win_on_time(judge: Any, ruleset: str) -> None:
    """P30: 14E3 applies only when the flagged player has no pawns; White has one: 0-1 (and 0-1 under FIDE)."""
    ruling = judge(ruleset, fen=P30, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")


def test_p31_bishop_against_pawn_us_draw_fide_win(judge: Any) -> None:
    """P31: K+B v K+P: draw under US 14E2 (no forced win), 0-1 under FIDE (a helpmate exists)."""
    us = judge("uschess", fen=P31, clock=WHITE_DOWN)
    assert (us.verdict, us.result) == ("upheld", "1/2-1/2") and "US Chess 14E2" in us.rule_refs
    fide = judge("fide-standard", fen=P31, clock=WHITE_DOWN)
    assert (fide.verdict, fide.result) == ("upheld", "0-1")
    assert mates(P31, fide.evidence["win_test"]["helpmate"], chess.BLACK)


def test_p39_sabah_win_on_time_with_own_flag_up(judge: Any) -> None:
    """P39: White's flag falls; Black stops the clock with his own flag up (0:00:04) and K+R: 0-1."""
    ruling = judge("sabah-active30", claimant="black", fen=P39, clock={"white": 0, "black": 4, "flagged": ["white"]})
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert any("Sabah" in ref for ref in ruling.rule_refs)


def test_fide_without_the_helpmate_analysis_falls_back_to_material_and_says_so(judge: Any) -> None:
    ruling = judge("fide-standard", services_=Services(), fen=P31, clock=WHITE_DOWN)
    assert ruling.result == "0-1" and ruling.confidence < 1
    assert "material" in ruling.evidence["win_test"]["method"]
    drawn = judge("fide-standard", services_=Services(), fen=P14, clock=WHITE_DOWN)
    assert drawn.result == "1/2-1/2" and drawn.confidence == 1.0


# ---------------------------------------------------------------- US 14E "forced win"


FORCED = "7K/4n2P/6k1/2P5/8/8/8/8 w - - 0 1"  # K+N v K+2P, Black mates by force: 1.c6 Kf7 2.c7 Ng6#


def test_us_knight_with_a_forced_mate_wins_on_time(judge: Any) -> None:
    ruling = judge("uschess", fen=FORCED, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert mates(FORCED, ruling.evidence["win_test"]["line"], chess.BLACK)


def test_us_forced_win_that_cannot_be_settled_is_left_to_the_td(judge: Any) -> None:
    """K+B v K+2P (five pieces, beyond the tables): no forced mate found, none ruled out: deferred."""
    ruling = judge("uschess", fen="8/8/3k4/8/1b6/8/5PP1/6K1 w - - 0 1", clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("deferred", None)
    assert "TD decides" in " ".join(ruling.instructions)
    no_search = judge("uschess", services_=Services(), fen=P12, clock=WHITE_DOWN)
    assert (no_search.verdict, no_search.result) == ("deferred", None)


def test_forced_mate_search_alone() -> None:
    search = ForcedMateSearch(max_moves=3)
    found = search.forced_win(chess.Board(FORCED), chess.BLACK)
    assert found.has_forced_win is True and found.method == "search"
    assert mates(FORCED, list(found.line or ()), chess.BLACK)
    lone = search.forced_win(chess.Board("8/8/3k4/8/8/8/3KN3/8 b - - 0 1"), chess.WHITE)
    assert lone.has_forced_win is False and lone.method == "material"


# ---------------------------------------------------------------- both flags (III.3.1, 14G2, local)


def test_p26_clock_shows_only_blacks_flag(judge: Any) -> None:
    """P26: both displays 0:00, the flag indicator on Black's side only: White wins (with mating material)."""
    ruling = judge("fide-standard", time_control="G/90", fen=P39, clock={"white": 0, "black": 0, "flagged": ["black"]})
    assert (ruling.verdict, ruling.result) == ("upheld", "1-0")
    assert "fell first" in ruling.reasons[0]
    known = judge(
        "fide-standard",
        time_control="G/90",
        fen=P39,
        flag_order_known=True,
        clock={"white": 0, "black": 0, "flagged": ["black", "white"]},
    )
    assert (known.verdict, known.result) == ("upheld", "1-0")
    assert "FIDE Guidelines III.3.1" in known.rule_refs


def test_p26_order_cannot_be_established_in_the_last_period(judge: Any) -> None:
    ruling = judge("fide-standard", time_control="G/90", fen=P39, clock={"white": 0, "black": 0})
    assert (ruling.verdict, ruling.result) == ("upheld", "1/2-1/2")
    assert ruling.rule_refs == ("FIDE Guidelines III.3.1",)


def test_both_flags_before_the_last_period_play_continues(judge: Any) -> None:
    """III.3.1.1: not the last period and the order unknown: play continues (move 30 of 40/5400:1800)."""
    ruling = judge(
        "fide-standard-guidelines-iii",
        time_control="40/5400:1800",
        fen="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 30",
        clock={"white": 0, "black": 0, "flagged": ["white", "black"]},
    )
    assert (ruling.verdict, ruling.result) == ("rejected", None)
    assert "next period" in ruling.instructions[0]


def test_both_flags_without_a_time_control(judge: Any) -> None:
    fen = P39
    told = judge("fide-standard", fen=fen, final_period=True, clock={"white": 0, "black": 0})
    assert told.result == "1/2-1/2"
    untold = judge("fide-standard", fen=fen, clock={"white": 0, "black": 0})
    assert (untold.verdict, untold.result) == ("upheld", "1/2-1/2")
    assert any("taken as the last period" in reason for reason in untold.reasons)
    earlier = judge("fide-standard", fen=fen, final_period=False, clock={"white": 0, "black": 0})
    assert (earlier.verdict, earlier.result) == ("rejected", None)


@pytest.mark.parametrize("ruleset", ["sabah-active30", "calchess-scholastic"])
def test_p37_local_rules_both_flags_down_is_a_draw(judge: Any, ruleset: str) -> None:
    """P37 (Sabah) and CalChess: both flags down is a draw, whatever the order."""
    ruling = judge(
        ruleset, fen=P39, flag_order_known=True, clock={"white": 0, "black": 0, "flagged": ["white", "black"]}
    )
    assert (ruling.verdict, ruling.result) == ("upheld", "1/2-1/2")
    assert any("local rules" in ref for ref in ruling.rule_refs)


def test_us_both_flags_in_the_final_control(judge: Any) -> None:
    """14G2: both flags down in the final control: draw; the claimant's own flag is down (13C1)."""
    ruling = judge("uschess", claimant="black", time_control="G/60;d5", fen=P39, clock={"white": 0, "black": 0})
    assert (ruling.verdict, ruling.result) == ("upheld", "1/2-1/2")
    assert "US Chess 14G2" in ruling.rule_refs


def test_us_claimant_whose_own_flag_is_down_cannot_claim(judge: Any) -> None:
    ruling = judge("uschess", claimant="white", fen=P39, clock={"white": 0, "black": 30, "flagged": ["white"]})
    assert (ruling.verdict, ruling.result) == ("rejected", None)


# ---------------------------------------------------------------- the game was already over


def test_p09_75_moves_then_a_flag(judge: Any) -> None:
    """P09: ...Kf7 completed 75 moves each; Black's flag falls a moment later: still a draw (9.6.2)."""
    ruling = judge("fide-standard", fen="8/5k2/8/8/8/8/5K2/7R w - - 150 131", clock={"black": 0, "flagged": ["black"]})
    assert (ruling.verdict, ruling.result) == ("rejected", "1/2-1/2")
    assert "FIDE 9.6.2" in ruling.rule_refs


def test_p09_record_reaching_the_75th_move(judge: Any) -> None:
    record = '[SetUp "1"]\n[FEN "6k1/8/8/8/8/8/5K2/7R b - - 149 130"]\n\n130... Kf7 131. Kg3 *'
    ruling = judge("fide-standard", record=record, clock={"black": 0, "flagged": ["black"]})
    assert ruling.result == "1/2-1/2" and ruling.evidence["game_end"]["ply"] == 1


def test_fivefold_before_the_flag(judge: Any) -> None:
    """9.6.1: the start position stood for the fifth time after 8...Ng8; a flag afterwards changes nothing."""
    record = " ".join(f"{n}. {'Nf3 Nf6' if n % 2 else 'Ng1 Ng8'}" for n in range(1, 9)) + " 9. e4"
    ruling = judge("fide-standard", record=record, clock={"black": 0, "flagged": ["black"]})
    assert (ruling.verdict, ruling.result) == ("rejected", "1/2-1/2")
    assert ruling.evidence["game_end"]["occurrences"] == [0, 4, 8, 12, 16]
    us = judge("uschess", record=record, clock={"black": 0, "flagged": ["black"]})
    assert us.result == "1-0" and any("TD may" in r or "lets the TD" in r for r in us.reasons)


def test_checkmate_before_the_flag_stands(judge: Any) -> None:
    ruling = judge("fide-standard", record="1. f3 e5 2. g4 Qh4#", clock={"black": 0, "flagged": ["black"]})
    assert (ruling.verdict, ruling.result) == ("rejected", "0-1")


# ---------------------------------------------------------------- was the period's move count reached? (6.4, 13C1)


def quiet_moves(plies: int, seed: int = 7) -> list[str]:
    """A legal game without captures, repeated positions, mate or stalemate (so nothing ends it)."""
    rng = random.Random(seed)
    board = chess.Board()
    seen = {board._transposition_key()}
    sans = []
    for _ in range(plies):
        options = []
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            if board.is_capture(move):
                continue
            board.push(move)
            fresh = board._transposition_key() not in seen and not board.is_game_over()
            board.pop()
            if fresh:
                options.append(move)
        move = rng.choice(options)
        sans.append(board.san(move))
        board.push(move)
        seen.add(board._transposition_key())
    return sans


def clocked_record(white_moves: int, added_after_40: bool) -> str:
    """40/5400:1800 (no increment); White takes 134 s a move, leaving 0:00:40 after move 40."""
    sans = quiet_moves(2 * white_moves)
    parts, white_left, black_left = [], 5400, 5400
    for ply, san in enumerate(sans):
        move = ply // 2 + 1
        if ply % 2 == 0:
            white_left -= 134 if move <= 40 else 60
            if move == 40 and added_after_40:
                white_left += 1800
            parts.append(f"{move}. {san} {{[%clk {hms(white_left)}]}}")
        else:
            black_left -= 60
            parts.append(f"{san} {{[%clk {hms(black_left)}]}}")
    return '[TimeControl "40/5400:1800"]\n\n' + " ".join(parts) + " *"


def test_flag_after_the_period_s_moves_were_made_does_not_lose(judge: Any) -> None:
    """White completed 40 moves with 0:00:40 left, the clock did not add 30 minutes, the flag fell on move 41."""
    ruling = judge(
        "fide-standard", record=clocked_record(40, added_after_40=False), clock={"white": 0, "flagged": ["white"]}
    )
    assert (ruling.verdict, ruling.result) == ("rejected", None)
    (adjustment,) = ruling.adjustments
    assert (adjustment.side, adjustment.seconds) == ("white", 1800)
    assert ruling.evidence["period"]["has_completed_period"] is True
    assert "FIDE 6.4" in ruling.rule_refs
    assert any("made 40 moves, completing the 40 moves of period 1" in r for r in ruling.reasons), ruling.reasons


def test_a_clock_that_never_added_the_second_period_is_corrected_whatever_the_moves_since(judge: Any) -> None:
    """45 moves made and the 30 minutes never added: the flag fell in period 2 only because of the clock;
    the period White completed is the first (its 40 moves), and White gets the 30 minutes (6.4, 6.10)."""
    ruling = judge(
        "fide-standard", record=clocked_record(45, added_after_40=False), clock={"white": 0, "flagged": ["white"]}
    )
    assert (ruling.verdict, ruling.result) == ("rejected", None)
    assert [(a.side, a.seconds) for a in ruling.adjustments] == [("white", 1800)]
    assert any("made 45 moves, completing the 40 moves of period 1" in r for r in ruling.reasons), ruling.reasons


def test_flag_in_the_second_period_loses(judge: Any) -> None:
    """The clock did add the 30 minutes; White then used them all in period 2 (sudden death): 0-1."""
    ruling = judge(
        "fide-standard", record=clocked_record(45, added_after_40=True), clock={"white": 0, "flagged": ["white"]}
    )
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert ruling.evidence["period"]["period"] == 2


def test_flag_period_given_by_the_arbiter(judge: Any) -> None:
    """A mechanical clock's flag at the 2-hour mark: 40 moves made means no loss; 35 means a loss."""
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 41"
    made = judge(
        "fide-standard", time_control="40/2, SD/1", fen=fen, flag_period=1, moves_completed=40, clock=WHITE_DOWN
    )
    assert (made.verdict, made.result) == ("rejected", None)
    assert "Period 2 begins" in made.instructions[0]
    short = judge(
        "fide-standard", time_control="40/2, SD/1", fen=fen, flag_period=1, moves_completed=35, clock=WHITE_DOWN
    )
    assert (short.verdict, short.result) == ("upheld", "0-1")


# ---------------------------------------------------------------- Armageddon


def test_armageddon_draw_counts_as_a_black_win(judge: Any) -> None:
    """US Senior playoff: White 5 min, Black 4; White flags but Black has a bare king: drawn, so Black wins."""
    ruling = judge("us-senior-armageddon", fen=P14, clock={"white": 0, "black": 12, "flagged": ["white"]})
    assert ruling.result == "0-1" and ruling.evidence["game_result"] == "1/2-1/2"
    assert ruling.evidence["time_control"]["second_mover_periods"][0]["seconds"] == 240
    black_flags = judge("fide-blitz", armageddon=True, fen=P39, clock={"white": 3, "black": 0, "flagged": ["black"]})
    assert black_flags.result == "1-0"


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"fen": P12}, "clock"),
        ({"fen": P12, "clock": WHITE_DOWN, "time_control": "G/30;x5"}, "time_control"),
        ({"fen": P12, "clock": {"white": 0, "black": 0}, "flag_order_known": "yes"}, "flag_order_known"),
        ({"fen": P12, "clock": WHITE_DOWN, "moves_completed": -1}, "moves_completed"),
        ({"clock": WHITE_DOWN}, "record"),
        ({"fen": "8/8/8/8/8/8/8/K7 w - - 0 1", "clock": WHITE_DOWN}, "fen"),
        ({"fen": "k6R/8/8/8/8/8/8/K7 w - - 0 1", "clock": WHITE_DOWN}, "fen"),
    ],
)
def test_bad_input_names_the_field(judge: Any, fields: dict[str, Any], field: str) -> None:
    with pytest.raises(ContractError) as err:
        judge("fide-standard", **fields)
    assert err.value.field == field


def test_no_flag_down(judge: Any) -> None:
    ruling = judge("fide-standard", fen=P12, clock={"white": 10, "black": 20})
    assert (ruling.verdict, ruling.result) == ("rejected", None)


def test_us_multi_control_claim_needs_a_scoresheet(judge: Any) -> None:
    """13C1: before the final control the claim stands on the scoresheet; the TD is told to check it."""
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 30"
    bare = judge("uschess", time_control="40/120, SD/30;d5", fen=fen, clock=WHITE_DOWN)
    assert (bare.verdict, bare.result) == ("upheld", "0-1")
    assert "scoresheet" in bare.instructions[0] and "US Chess 13C1" in bare.rule_refs
    counted = judge("uschess", time_control="40/120, SD/30;d5", fen=fen, moves_completed=29, clock=WHITE_DOWN)
    assert (counted.verdict, counted.result) == ("upheld", "0-1")
    assert not any("scoresheet" in i and "13C1" in i for i in counted.instructions)  # only the game's end
    assert counted.instructions == ("Black wins (0–1). Stop the clocks; both players write the result on their "
                                    "scoresheets and sign them.",)


def test_fide_arbiter_calls_the_flag_whoever_is_named(judge: Any) -> None:
    """Supervised FIDE play: the arbiter calls White's flag even if the case names White as the claimant."""
    ruling = judge("fide-standard", claimant="white", fen=P39, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert any("arbiter calls" in reason for reason in ruling.reasons)


def test_unreadable_timecontrol_tag_is_ignored(judge: Any) -> None:
    record = '[TimeControl "ninety minutes"]\n\n1. e4 e5 2. Nf3 Nc6 *'
    ruling = judge("fide-standard", record=record, clock=WHITE_DOWN)
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert ruling.evidence["time_control"] is None


def test_record_and_position_must_agree(judge: Any) -> None:
    with pytest.raises(ContractError) as err:
        judge("fide-standard", record="1. e4 e5 *", fen=P12, clock=WHITE_DOWN)
    assert err.value.field == "fen"


def test_time_ran_out_unnoticed_earlier_in_the_record(judge: Any) -> None:
    """[%emt] shows White's 90 minutes ran out on move 38; play went on to move 42; Black now claims: 0-1."""
    sans = quiet_moves(84)
    parts, left = [], 5400.0
    for ply, san in enumerate(sans):
        move = ply // 2 + 1
        if ply % 2 == 0:
            spent = 145 if move < 38 else 200
            left = max(0.0, left - spent)
            parts.append(f"{move}. {san} {{[%clk {hms(left)}] [%emt {hms(spent)}]}}")
        else:
            parts.append(san)
    record = '[TimeControl "40/5400:1800"]\n\n' + " ".join(parts) + " *"
    ruling = judge("fide-standard", record=record, clock={"white": 0, "flagged": ["white"]})
    assert (ruling.verdict, ruling.result) == ("upheld", "0-1")
    assert "ran out during move 38" in " ".join(ruling.reasons)


# ---------------------------------------------------------------- a record ending in an impossible position (7.5.1)

KING_INTO_CHECK = "1. e4 f5 2. Qh5 Kf7"
"""2...Kf7 walks into the queen's check: the record ends with the side not to move in check."""


@pytest.mark.parametrize("ruleset", ["fide-standard", "fide-blitz", "uschess"])
def test_flag_after_an_illegal_last_move_is_judged_on_the_reinstated_position(judge: Any, ruleset: str) -> None:
    ruling = judge(ruleset, record=KING_INTO_CHECK, clock={"white": 60, "black": 0, "flagged": ["black"]})
    assert ruling.verdict == "upheld" and ruling.result == "1-0"  # White can mate: Black loses on time
    assert "2...Ke8-f7 (ply 4) was illegal" in ruling.reasons[0]
    assert ruling.instructions[0].startswith("Reinstate the position before 2...Ke8-f7")
    assert ruling.evidence["fen"] == "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"
    assert ("US Chess 11A" if ruleset == "uschess" else "FIDE 7.5.1") in ruling.rule_refs


def test_flag_after_a_king_was_taken_goes_back_to_the_first_impossible_position(judge: Any) -> None:
    ruling = judge("fide-standard", record=KING_INTO_CHECK + " 3. Qxf7", clock={"white": 5, "flagged": ["black"]})
    assert ruling.evidence["reinstated_before_ply"] == 4
    assert ruling.result == "1-0"


def test_flag_on_a_record_that_starts_from_three_kings_names_the_record(judge: Any) -> None:
    with pytest.raises(ContractError) as caught:
        judge("fide-standard", record='[FEN "8/8/4k3/8/8/8/8/2K1K3 w - - 0 1"]\n\n1. Kc1-b1',
              clock={"white": 5, "flagged": ["black"]})
    assert caught.value.field == "record" and "more than one king" in caught.value.message


def test_6_4_the_moves_made_before_a_record_starts_count_towards_the_period(book: RulesetBook) -> None:
    """6.4: whether a period's moves were made counts every move of the game: a record from a start FEN at
    move 45 has 44 of White's moves behind it, as the FEN of the same position says."""
    start = "r1bq1rk1/pp3ppp/2n2n2/2bpp3/4P3/2PP1N2/PP1NBPPP/R2QK2R w KQ - 3 45"
    board = chess.Board(start)
    for san in ("O-O", "Re8"):
        board.push_san(san)
    fields = {"ruleset": "fide-standard", "claim": "flag", "time_control": "40/5400+30:1800+30",
              "clock": {"white": 0, "black": 100, "flagged": ["white"]}}
    from_record = rule(parse_case({**fields, "start_fen": start, "record": "45. O-O Re8"}), book, Services())
    from_fen = rule(parse_case({**fields, "fen": board.fen()}), book, Services())
    white_moves = board.fullmove_number - 1  # python-chess: White to move again after 45 moves
    for result in (from_record, from_fen):
        assert result.evidence["period"]["moves_made"] == white_moves == 45
        assert result.evidence["period"]["period"] == 2  # the 40 moves of period 1 were made
    assert (from_record.verdict, from_record.result) == (from_fen.verdict, from_fen.result)
