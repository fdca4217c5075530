"""Fifty moves (FIDE 9.3, US 14F) and the automatic endings (FIDE 9.6, US 14K): P07-P11, P29, P35, P36."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from adjudicator.chess.claims.move_rule import can_claim_fifty_moves
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling

SHUFFLE_5 = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(4))


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("claim", "fifty-move")
    return rule(parse_case(case), book)


def quiet_walk(board: chess.Board, plies: int) -> list[str]:
    """SAN moves with no capture, no pawn move, no repeated position, no mate or stalemate."""
    seen = {board._transposition_key()}
    sans = []
    for _ in range(plies):
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            if board.is_zeroing(move):
                continue
            board.push(move)
            key = board._transposition_key()
            ok = key not in seen and not board.is_checkmate() and not board.is_stalemate()
            board.pop()
            if ok:
                break
        else:
            raise AssertionError("no quiet move")
        sans.append(board.san(move))
        board.push(move)
        seen.add(board._transposition_key())
    return sans


def movetext(start: chess.Board, sans: list[str]) -> str:
    board = start.copy()
    out = []
    for san in sans:
        if board.turn == chess.WHITE:
            out.append(f"{board.fullmove_number}.")
        elif not out:
            out.append(f"{board.fullmove_number}...")
        out.append(san)
        board.push_san(san)
    return " ".join(out)


def test_p07_fifty_moves_completed(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", claimant="white", fen="8/8/4k3/8/8/2b5/4K3/R7 w - - 100 120")
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert "FIDE 9.3.2" in result.rule_refs and result.evidence["counter"] == 100


def test_p08_written_capture_restarts_the_count(book: RulesetBook) -> None:
    fen = "8/8/4k3/8/8/2b5/4K3/R7 b - - 99 120"
    result = ruling(book, ruleset="fide-standard", claimant="black", fen=fen, intended_move="Bxa1")
    assert result.verdict == "rejected"
    assert [(a.side, a.seconds) for a in result.adjustments] == [("white", 120)]
    assert "Black must play the written move 120...Bxa1" in result.instructions
    other = ruling(book, ruleset="fide-standard", claimant="black", fen=fen, intended_move="Bd4")
    assert other.verdict == "upheld" and "FIDE 9.3.1" in other.rule_refs


def test_p09_seventy_five_moves_end_the_game_and_a_later_flag_is_irrelevant(book: RulesetBook) -> None:
    start = "6k1/8/8/8/8/8/5K2/7R b - - 149 130"
    replay = replay_chess("130... Kf7", start)
    assert replay.counter_after(0) == 149 and replay.counter == 150
    result = ruling(book, ruleset="fide-standard", start_fen=start, record="130... Kf7",
                    fen="8/5k2/8/8/8/8/5K2/7R w - - 150 131", clock={"white": 0, "black": 30, "flagged": ["white"]})
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert "FIDE 9.6.2" in result.rule_refs
    assert any("flag" in r and "irrelevant" in r for r in result.reasons)


def test_p10_mate_on_the_75th_move_takes_precedence(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", start_fen="7k/8/6K1/8/8/8/8/R7 w - - 149 150", record="150. Ra8#")
    assert result.result == "1-0"
    assert {"FIDE 5.1.1", "FIDE 9.6.2"} <= set(result.rule_refs)


def test_p11_fivefold_walk_and_ruling(book: RulesetBook) -> None:
    replay = replay_chess(SHUFFLE_5)
    assert [i for i, k in enumerate(replay.keys) if k == replay.start_key] == [0, 4, 8, 12, 16]
    result = ruling(book, ruleset="fide-standard", record=SHUFFLE_5,
                    fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9")
    assert result.verdict == "upheld" and result.result == "1/2-1/2"
    assert result.evidence["ended_at_ply"] == 16 and "FIDE 9.6.1" in result.rule_refs


def test_fivefold_earlier_in_the_record_ended_the_game_there(book: RulesetBook) -> None:
    result = ruling(book, ruleset="fide-standard", record=SHUFFLE_5 + " 9. e4 e5 10. d4")
    assert result.result == "1/2-1/2" and result.evidence["ended_at_ply"] == 16
    assert any("later plies" in r for r in result.reasons)


def test_p35_us_chess_td_may_declare_a_draw_after_five_consecutive(book: RulesetBook) -> None:
    result = ruling(book, ruleset="uschess", record=SHUFFLE_5)
    assert result.verdict == "deferred" and result.result is None
    assert "US Chess 14K" in result.rule_refs
    assert "the TD may declare the game drawn" in result.instructions


def test_us_chess_non_consecutive_repetitions_are_not_14k(book: RulesetBook) -> None:
    # the start position five times, but a four-move cycle between the fourth and the fifth
    record = SHUFFLE_5[: SHUFFLE_5.rindex("7.")] + "7. Nc3 Nc6 8. Nf3 Nf6 9. Ng1 Ng8 10. Nb1 Nb8"
    replay = replay_chess(record)
    assert [i for i, k in enumerate(replay.keys) if k == replay.start_key] == [0, 4, 8, 12, 20]
    us = ruling(book, ruleset="uschess", claimant="white", record=record)
    assert us.verdict == "rejected" and us.result is None
    fide = ruling(book, ruleset="fide-standard", record=record)
    assert fide.result == "1/2-1/2" and fide.evidence["ended_at_ply"] == 20


def test_p29_promotion_inside_the_window_is_a_pawn_move(book: RulesetBook) -> None:
    start = chess.Board("7k/4P3/8/8/3r4/8/8/K5R1 w - - 0 1")
    board = start.copy()
    sans = quiet_walk(board, 44)  # 22 moves each
    board.push_san("e8=Q")
    sans.append("e8=Q")
    sans += quiet_walk(board, 58)  # 52 moves by White and 51 by Black without a capture; Black to move
    record = movetext(start, sans)
    replay = replay_chess(record, start.fen())
    promo = 45
    assert replay.plies[promo - 1].move is not None and replay.plies[promo - 1].move.promotion == chess.QUEEN
    # the walk: the count rises ply by ply, the promotion resets it, and it never reaches 100
    for ply in replay.plies:
        expected = ply.number if ply.number < promo else ply.number - promo
        assert ply.counter == expected
        assert not can_claim_fifty_moves(ply.counter) or ply.number < promo
    assert replay.final_board.turn == chess.BLACK
    result = ruling(book, ruleset="uschess", claimant="black", record=record, start_fen=start.fen())
    assert result.verdict == "rejected" and not result.adjustments
    assert any("promotion, which is a pawn move" in r for r in result.reasons)
    assert any("the TD may add 2:00" in i for i in result.instructions)


def test_p36_without_a_scoresheet_only_a_td_count_supports_the_claim(book: RulesetBook) -> None:
    fen = "8/8/4k3/8/8/2b5/4K3/R7 w - - 100 120"
    denied = ruling(book, ruleset="uschess", claimant="white", fen=fen, scoresheet=False)
    assert denied.verdict == "rejected" and "US Chess 14F4" in denied.rule_refs
    counted = ruling(book, ruleset="uschess", claimant="white", fen=fen, scoresheet=False, td_count=50)
    assert counted.verdict == "upheld"


@pytest.mark.parametrize("value", ["yes", 1])
def test_case_fields_are_validated(book: RulesetBook, value: object) -> None:
    from adjudicator.contract import ContractError

    with pytest.raises(ContractError) as err:
        ruling(book, ruleset="uschess", claimant="white", fen="8/8/4k3/8/8/2b5/4K3/R7 w - - 100 120",
               scoresheet=value)
    assert err.value.field == "scoresheet"


def test_stalemate_in_the_record_ended_the_game(book: RulesetBook) -> None:
    record = ("1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 "
              "8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6")
    replay = replay_chess(record)
    assert [p.number for p in replay.plies if p.is_stalemate] == [19]
    assert not any(p.is_checkmate for p in replay.plies)
    result = ruling(book, ruleset="fide-standard", record=record)
    assert result.result == "1/2-1/2" and result.evidence["ending"] == "stalemate"


def test_checkmate_is_found_ply_by_ply() -> None:
    replay = replay_chess("1. f3 e5 2. g4 Qh4#")
    assert [p.is_checkmate for p in replay.plies] == [False, False, False, True]


# ---------------------------------------------------------------- one position, one verdict; 9.3.2 with a written move

KING_AND_ROOK = "6k1/8/8/8/8/8/5K2/7R b - - 140 130"  # 70 moves each without a pawn move or capture


def play_quietly(start: str, plies: int) -> tuple[chess.Board, str]:
    board = chess.Board(start)
    sans = quiet_walk(board.copy(), plies)
    text = movetext(board, sans)
    for san in sans:
        board.push_san(san)
    return board, text


@pytest.mark.parametrize("ruleset", ["uschess", "uschess-variation-14h", "calchess-scholastic"])
def test_us_14f_a_correct_claim_past_75_moves_is_upheld_from_the_fen_as_from_the_record(
    book: RulesetBook, ruleset: str
) -> None:
    """14F: 50 moves each without a pawn move or capture draw on a claim; 14K's "may" is the TD acting
    unasked, so a player's correct claim at 80 moves is upheld, however the position is entered."""
    board, text = play_quietly(KING_AND_ROOK, 20)
    assert board.halfmove_clock == 160  # python-chess, the oracle
    claimant = "white" if board.turn == chess.WHITE else "black"
    from_fen = ruling(book, ruleset=ruleset, claimant=claimant, fen=board.fen())
    from_record = ruling(book, ruleset=ruleset, claimant=claimant, start_fen=KING_AND_ROOK, record=text)
    for result in (from_fen, from_record):
        assert (result.verdict, result.result) == ("upheld", "1/2-1/2"), result.reasons
        assert "US Chess 14F" in result.rule_refs and result.evidence["counter"] == 160


def test_9_6_2_a_record_that_starts_past_75_moves_had_already_ended(book: RulesetBook) -> None:
    """9.6.2: the counter of the record's start position already stands at 75 moves: the game ended there,
    and a later capture does not bring it back (the same verdict as the FEN of that start)."""
    start = "8/8/4k3/8/8/R1b5/4K3/8 w - - 150 120"
    board = chess.Board(start)
    board.push_san("Rxc3")
    assert board.halfmove_clock == 0  # the capture restarts python-chess's counter
    from_record = ruling(book, ruleset="fide-standard", claimant="black", start_fen=start, record="120. Rxc3")
    from_fen = ruling(book, ruleset="fide-standard", claimant="white", fen=start)
    for result in (from_record, from_fen):
        assert (result.verdict, result.result, result.adjustments) == ("upheld", "1/2-1/2", ())
        assert "FIDE 9.6.2" in result.rule_refs
    assert "The later ply was played after the end of the game and does not count." in from_record.reasons


def test_a_stalemate_given_as_a_fen_is_a_draw_not_an_incorrect_claim(book: RulesetBook) -> None:
    """5.2.1: the stalemate ended the game; a fifty-move claim on it (counter 11) is no incorrect claim to
    penalise, as the record reaching it shows."""
    start = "7k/5Q2/8/6K1/8/8/8/8 w - - 10 70"
    board = chess.Board(start)
    board.push_san("Kg6")
    assert board.is_stalemate() and board.halfmove_clock == 11  # python-chess, the oracle
    from_fen = ruling(book, ruleset="fide-standard", claimant="black", fen=board.fen())
    from_record = ruling(book, ruleset="fide-standard", claimant="black", start_fen=start, record="70. Kg6")
    for result in (from_fen, from_record):
        assert (result.verdict, result.result, result.adjustments) == ("upheld", "1/2-1/2", ())
        assert "FIDE 5.2.1" in result.rule_refs


@pytest.mark.parametrize("written", ["Bxa1", "Kd5", "Bh9"])
def test_9_3_2_fifty_moves_already_complete_draw_whatever_move_was_written(book: RulesetBook, written: str) -> None:
    """9.3: the claim is correct when the 50 moves "have been completed" (9.3.2); a written capture, a quiet
    move or an impossible move is not played and cannot undo them: no penalty, the game is drawn."""
    fen = "8/8/4k3/8/8/2b5/4K3/R7 b - - 100 120"
    assert chess.Board(fen).halfmove_clock >= 100
    if written == "Bh9":
        with pytest.raises(ContractError):  # not a move at all: the field is wrong, not the claim
            ruling(book, ruleset="fide-standard", claimant="black", fen=fen, intended_move=written)
        return
    result = ruling(book, ruleset="fide-standard", claimant="black", fen=fen, intended_move=written)
    assert (result.verdict, result.result, result.adjustments) == ("upheld", "1/2-1/2", ())
    assert "FIDE 9.3.2" in result.rule_refs and "FIDE 9.3.1" not in result.rule_refs
    assert any(i.startswith("the written move 120...") and i.endswith("is not played") for i in result.instructions)


def test_us_14f_a_written_capture_after_fifty_completed_moves_is_still_a_correct_claim(book: RulesetBook) -> None:
    """14F (as FIDE 9.3.2): with 50 moves each already made, the claim is upheld whatever the written move."""
    fen = "8/8/4k3/8/8/2b5/4K3/R7 b - - 120 120"
    result = ruling(book, ruleset="uschess", claimant="black", fen=fen, intended_move="Bxa1")
    assert (result.verdict, result.result) == ("upheld", "1/2-1/2")
    assert result.evidence["route"] == "completed" and "US Chess 14F" in result.rule_refs


def test_a_claim_one_move_short_says_that_a_written_quiet_move_would_have_completed_it(book: RulesetBook) -> None:
    """9.3.1: 99 half-moves on the board; Black, on move, claims without writing a move. Rejected, and the ruling
    says that any written move that is neither a pawn move nor a capture would have made the claim correct,
    naming such moves."""
    fen = "8/8/4k3/8/8/2b5/4K3/R7 b - - 99 120"
    result = ruling(book, ruleset="fide-standard", claimant="black", fen=fen)
    assert result.verdict == "rejected"
    said = " ".join(result.reasons)
    assert "Had Black written a move such as 120...B" in said and "would have been correct" in said
    assert "Bxa1" not in result.evidence["completing_moves"] and "Bd4" in result.evidence["completing_moves"]
    assert "FIDE 9.3.1" in result.rule_refs
    far = ruling(book, ruleset="fide-standard", claimant="black", fen="8/8/4k3/8/8/2b5/4K3/R7 b - - 90 120")
    assert "completing_moves" not in far.evidence


def test_an_odd_count_says_who_made_the_extra_move(book: RulesetBook) -> None:
    """99 half-moves with Black on move: White made 50 moves and Black 49, not "49 moves by each player". A
    written move counts for the side on move; an even count is the same for both."""
    def first_reason(fen: str, **more: str) -> str:
        return ruling(book, ruleset="fide-standard", claimant=fen.split()[1].replace("b", "black").replace(
            "w", "white"), fen=fen, **more).reasons[0]

    assert "Only 99 half-moves (50 moves by White and 49 by Black)" in first_reason(
        "8/8/4k3/8/8/2b5/4K3/R7 b - - 99 120")
    assert "Only 97 half-moves (49 moves by Black and 48 by White)" in first_reason(
        "8/8/4k3/8/8/2b5/4K3/R7 w - - 97 120")
    assert "only 98 half-moves (49 moves by each player)" in first_reason(
        "8/8/4k3/8/8/2b5/4K3/R7 w - - 97 120", intended_move="Ra2")
