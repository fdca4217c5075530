"""Every notation in use is read, and a record that reads two ways is read as a whole (issue 34, classes 2, 3, 8).

- ICCF numeric notation (the correspondence players' scoresheet: ``5254`` is e2-e4, a fifth digit
  names a promotion, 1 queen 2 rook 3 bishop 4 knight) is read under any ruleset, and the replay
  says which notation it read (``notation``, ``notations``);
- a lower-case letter that is a file and a piece letter (``bxc6``: the b-pawn or the bishop) is read
  the way that keeps the whole record legal, and the other way is named (FIDE 8.1: the scoresheet is
  the record of the moves made);
- readings that keep the record equally legal with different verdicts defer the claim, with every
  reading and its verdict; the TD names the move meant in the case's ``readings`` field;
- ``check-games`` and ``replay`` carry the same reading notes as a ruling.

The records are scoresheets as players write them: Morphy's Opera game (Paris 1858) in ICCF digits, a
Richter-Rauzer Sicilian copied in lower case, a bishop ending from a FEN.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest

from adjudicator.chess.movetext import word_kind
from adjudicator.chess.notation import notation_of
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from engines.collection import check_part
from tests.cli_runs import run_in_process

OPERA_SAN = (
    "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 "
    "10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8#"
)
OPERA_ICCF = (
    "1. 5254 5755 2. 7163 4746 3. 4244 3874 4. 4455 7463 5. 4163 4655 6. 6134 7866 7. 6323 4857 8. 2133 3736 "
    "9. 3175 2725 10. 3325 3625 11. 3425 2847 12. 5131 1848 13. 4147 4847 14. 8141 5756 15. 2547 6647 "
    "16. 2328 4728 17. 4148"
)
"""Morphy - Duke of Brunswick and Count Isouard, Paris 1858, as a correspondence scoresheet writes it
(queenside castling is the king's move 5131)."""

RAUZER_SAN = (
    "1. e4 c5 2. Nf3 Nc6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 d6 6. Bg5 e6 7. Qd2 Bd7 8. O-O-O Rc8 9. Nxc6 Bxc6 "
    "10. f3 Be7 11. Kb1 O-O 12. h4 b5 13. g4 b4 14. Ne2 Qa5"
)
RAUZER_LOWER = (
    "1. e4 c5 2. nf3 nc6 3. d4 cxd4 4. nxd4 nf6 5. nc3 d6 6. bg5 e6 7. qd2 bd7 8. o-o-o rc8 9. nxc6 bxc6 "
    "10. f3 be7 11. kb1 o-o 12. h4 b5 13. g4 b4 14. ne2 qa5"
)
"""The same game copied in lower case: 9...bxc6 (ply 18) is the b7 pawn's capture or the d7 bishop's. As the
pawn's, 12...b5 (ply 24) is no move at all (the b-pawn is gone from b7): the record says the bishop took."""

ENDING_FEN = "8/8/1p3k2/8/1P6/8/4B3/4K3 w - - 97 90"
ENDING = "90. bb5 ke5 91. kd2 kd4"
"""A bishop ending written in lower case: 90.bb5 is the bishop (the counter goes on to 100 half-moves: the
fifty-move claim holds) or the b4 pawn naming its own file (the counter starts again: it fails). Both keep
every move legal."""


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("game", "chess")
    case.setdefault("ruleset", "fide-standard")
    return rule(parse_case(case), book)


def san_board(moves: str) -> chess.Board:
    board = chess.Board()
    for word in moves.split():
        if not word[0].isdigit():
            board.push_san(word)
    return board


# --- ICCF numeric notation (class 2) ---------------------------------------------------------------

def test_an_iccf_scoresheet_replays_as_the_game_played() -> None:
    replay = replay_chess(OPERA_ICCF)
    reference = san_board(OPERA_SAN)
    assert len(replay.plies) == 33 and not replay.illegal and not replay.notes
    assert replay.final_board.fen() == reference.fen() and replay.plies[-1].is_checkmate
    assert replay.plies[22].move == chess.Move(chess.E1, chess.C1)  # 12.O-O-O written 5131
    assert replay.to_json()["notation"] == "iccf-numeric" and replay.to_json()["notations"] == ["iccf-numeric"]


@pytest.mark.parametrize(("digits", "piece"), [("57581", chess.QUEEN), ("57582", chess.ROOK),
                                                ("57583", chess.BISHOP), ("57584", chess.KNIGHT)])
def test_the_fifth_digit_names_the_promoted_piece(digits: str, piece: int) -> None:
    replay = replay_chess(f"60. {digits} 42414", "8/4P3/8/8/8/6k1/3p4/K7 w - - 0 60")
    assert replay.final_board.piece_at(chess.E8) == chess.Piece(piece, chess.WHITE)
    assert replay.final_board.piece_at(chess.D1) == chess.Piece(chess.KNIGHT, chess.BLACK)  # 42414: d2-d1=N
    assert not replay.illegal


def test_an_iccf_move_is_a_move_not_a_move_number() -> None:
    assert [word_kind(w) for w in ("5254", "57581", "12", "2024", "0000", "5259")] == [
        "move", "move", "move-number", "move-number", "move", "move-number"]


def test_an_illegal_iccf_move_is_kept_as_played_and_an_impossible_one_is_unreadable() -> None:
    replay = replay_chess("1. 5254 5755 2. 5152", allow_unreadable=True)  # 2.Ke1-e2: legal
    assert not replay.illegal
    illegal = replay_chess("1. 5254 5755 2. 6183")  # 2.Bf1-h3 through g2: illegal as played
    assert [p.number for p in illegal.illegal] == [3]
    assert illegal.to_json()["illegal"][0]["move"] == "Bf1-h3"
    nothing = replay_chess("1. 5254 5755 2. 4445", allow_unreadable=True)  # nothing stands on d4
    assert nothing.unreadable and nothing.unreadable[0].ply == 3


@pytest.mark.parametrize("ruleset", ["iccf", "fide-standard", "uschess"])
def test_an_iccf_record_is_ruled_under_any_ruleset(book: RulesetBook, ruleset: str) -> None:
    shuffle = "1. 7163 7866 2. 6371 6678 3. 7163 7866 4. 6371 6678"  # Nf3 Nf6 Ng1 Ng8 twice
    decided = ruling(book, ruleset=ruleset, claim="threefold-repetition", claimant="white", record=shuffle)
    assert decided.verdict == "upheld", decided.reasons


@pytest.mark.parametrize(("token", "notation"), [
    ("e4", "san"), ("Nbd7", "san"), ("nf3", "san"), ("Sf3", "san"), ("e2-e4", "long-algebraic"),
    ("Ng1-f3", "long-algebraic"), ("Bf1xb5+", "long-algebraic"), ("g1f3", "coordinate"), ("e7e8q", "coordinate"),
    ("♘f3", "figurine"), ("7163", "iccf-numeric"), ("O-O", None), ("--", None),
])
def test_each_token_names_its_notation(token: str, notation: str | None) -> None:
    assert notation_of(token) == notation


def test_the_replay_says_which_notations_a_record_mixes() -> None:
    replay = replay_chess("1. e4 5755 2. g1f3 Nc6 3. Bf1-b5 a6")
    assert replay.to_json()["notation"] == "mixed"
    assert replay.to_json()["notations"] == ["san", "iccf-numeric", "coordinate", "long-algebraic"]
    assert replay_chess("1. ♘f3 d5 2. g3").notations == ["figurine"]  # a figurine record's pawn moves


def test_the_replay_command_names_the_notation_whichever_reader_reads_the_game(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(f'[Event "ICCF"]\n\n{OPERA_ICCF} 1-0\n\n[Event "OTB"]\n\n{OPERA_SAN} 1-0\n', encoding="utf-8")
    proc = run_in_process(["replay", str(path)])
    assert proc.returncode == 0, proc.stderr
    iccf, san = (json.loads(line) for line in proc.stdout.splitlines())
    assert (iccf["notation"], san["notation"]) == ("iccf-numeric", "san")
    assert iccf["final_fen"] == san["final_fen"] and iccf["plies"] == san["plies"] == 33


# --- whole-record readings (class 8a) ---------------------------------------------------------------

def test_a_lower_case_bxc6_is_the_bishop_where_the_pawn_would_invent_a_later_move() -> None:
    replay = replay_chess(RAUZER_LOWER)
    assert not replay.illegal and not replay.unreadable
    assert replay.final_board.fen() == san_board(RAUZER_SAN).fen()
    assert replay.plies[17].move == chess.Move(chess.D7, chess.C6)  # 9...Bxc6
    (two,) = [n for n in replay.notes if n.note.kind == "two-readings"]
    assert two.ply == 18 and two.note.readings == ("Bxc6", "bxc6")
    assert "every move of the record is legal" in two.note.text and "ply 24 (b5) cannot be read" in two.note.text
    assert replay.to_json()["notes"][[n["kind"] for n in replay.to_json()["notes"]].index("two-readings")][
        "readings"] == ["Bxc6", "bxc6"]


def test_a_record_where_both_readings_keep_every_move_legal_is_read_as_san_reads_it() -> None:
    replay = replay_chess(RAUZER_LOWER.split(" 12.")[0])  # stopped before 12...b5: both readings legal
    assert replay.plies[17].move == chess.Move(chess.B7, chess.C6)
    (two,) = [n for n in replay.notes if n.note.kind == "two-readings"]
    assert two.note.readings == ("bxc6", "Bxc6") and "as in SAN" in two.note.text


def test_a_claim_on_the_move_the_other_reading_invents_is_rejected_and_names_that_reading(
    book: RulesetBook,
) -> None:
    decided = ruling(book, claim="illegal-move", claimant="white", record=RAUZER_LOWER, alleged_illegal_ply=24)
    assert decided.verdict == "rejected"
    (other,) = decided.evidence["token_readings"]
    assert (other["ply"], other["this_reading"], other["that_reading"]) == (18, "Bxc6", "bxc6")
    assert not other["keeps_record_legal"] and other["invents"] == [24]
    assert any("Ply 18 is written bxc6" in reason and "FIDE 8.1" in reason for reason in decided.reasons)


def test_where_no_reading_keeps_every_move_legal_the_one_legal_furthest_is_read() -> None:
    record = RAUZER_LOWER + " 15. bc4"  # 15.Bf1-c4 through the e2 knight: illegal whichever 9...bxc6 was
    replay = replay_chess(record)
    assert [p.number for p in replay.illegal] == [29] and replay.plies[17].move == chess.Move(chess.D7, chess.C6)
    (two,) = [n for n in replay.notes if n.note.kind == "two-readings"]
    assert "every move before ply 29 is legal" in two.note.text


# --- readings that change the verdict (class 3) ------------------------------------------------------

def test_two_readings_as_legal_with_different_verdicts_defer_the_claim_with_both(book: RulesetBook) -> None:
    decided = ruling(book, claim="fifty-move", claimant="white", record=ENDING, start_fen=ENDING_FEN)
    assert decided.verdict == "deferred" and decided.result is None and not decided.adjustments
    (other,) = decided.evidence["token_readings"]
    assert other == {"ply": 1, "token": "bb5", "this_reading": "Bb5", "that_reading": "b5", "verdict": "rejected",
                     "result": None, "keeps_record_legal": True, "case_field": {"readings": {"1": "b5"}}}
    assert decided.evidence["chosen_reading"]["verdict"] == "upheld"
    assert "read as Bb5 the claim is upheld" in decided.reasons[0] and "read as b5 it is rejected" in decided.reasons[0]
    assert '"readings": {"1": "b5"}' in decided.instructions[0]


@pytest.mark.parametrize(("meant", "verdict"), [("Bb5", "upheld"), ("b5", "rejected"), ("e2b5", "upheld"),
                                                 ("b4b5", "rejected")])
def test_the_td_names_the_move_meant_in_the_readings_field(book: RulesetBook, meant: str, verdict: str) -> None:
    decided = ruling(book, claim="fifty-move", claimant="white", record=ENDING, start_fen=ENDING_FEN,
                     readings={"1": meant})
    assert decided.verdict == verdict
    assert any("as the case states (readings)" in reason for reason in decided.reasons)


def test_readings_with_the_same_verdict_rule_and_list_the_readings(book: RulesetBook) -> None:
    decided = ruling(book, claim="threefold-repetition", claimant="white", record=ENDING, start_fen=ENDING_FEN)
    assert decided.verdict == "rejected"
    (other,) = decided.evidence["token_readings"]
    assert other["that_reading"] == "b5" and other["verdict"] == "rejected" and other["keeps_record_legal"]
    assert any("reads as Bb5 or as b5" in reason and "either way" in reason for reason in decided.reasons)


@pytest.mark.parametrize("readings", [{"1": "Kd2"}, {"1": "Nf3"}, {"9": "b5"}, {"x": "b5"}, ["b5"]])
def test_a_reading_that_is_no_reading_of_its_token_is_refused_naming_the_field(
    book: RulesetBook, readings: Any,
) -> None:
    with pytest.raises(ContractError) as err:
        ruling(book, claim="fifty-move", claimant="white", record=ENDING, start_fen=ENDING_FEN, readings=readings)
    assert err.value.field == "readings"


# --- check-games and replay carry the notes (class 8b) -----------------------------------------------

def test_check_games_names_the_reading_chosen_and_the_illegal_move_after_it(config: dict[str, Any]) -> None:
    games = [
        f'[Event "Club"]\n[Result "*"]\n\n{RAUZER_LOWER} *\n\n',
        f'[Event "Club"]\n[Result "*"]\n\n{RAUZER_LOWER} 15. bc4 *\n\n',
        f'[Event "ICCF"]\n[Result "1-0"]\n\n{OPERA_ICCF} 1-0\n\n',
    ]
    clean, illegal, iccf = check_part({"game": "chess", "ruleset": "fide-standard", "config": config,
                                       "records": games})["lines"]
    codes = [(f["code"], f["ply"]) for f in clean["findings"]]
    assert ("reading", 18) in codes and not any(code == "illegal-move" for code, _ in codes)
    reading = next(f for f in clean["findings"] if f["code"] == "reading")
    assert reading["evidence"]["readings"] == ["Bxc6", "bxc6"] and "bxc6" in reading["message"]
    wrong = next(f for f in illegal["findings"] if f["code"] == "illegal-move")
    assert wrong["ply"] == 29 and "Ply 18, bxc6, was read as Bxc6; it also reads as bxc6" in wrong["message"]
    assert iccf["findings"] == [] and iccf["lawful_result"] == "1-0"


def test_the_check_games_command_gives_the_same_findings_through_the_compiled_reader(tmp_path: Path) -> None:
    path = tmp_path / "club.pgn"
    path.write_text(f'[Event "A"]\n[Result "1-0"]\n\n{OPERA_SAN} 1-0\n\n[Event "B"]\n[Result "*"]\n\n'
                    f'{RAUZER_LOWER} *\n\n[Event "C"]\n[Result "1-0"]\n\n{OPERA_ICCF} 1-0\n', encoding="utf-8")
    proc = run_in_process(["check-games", str(path)])
    assert proc.returncode == 0, proc.stderr
    first, second, third, _summary = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["findings"] == [] and third["findings"] == []
    assert [f["code"] for f in second["findings"]] == ["reading", "no-result"]


def test_check_games_names_another_languages_reading_that_keeps_the_record_legal(config: dict[str, Any]) -> None:
    # English reads 2.Bb5 as the f1 bishop passing e2 (illegal as played); German letters (B = Bauer) read the
    # legal 2.b5: the illegal-move finding says the record reads as legally in German, and a reading finding where
    (line,) = check_part({"game": "chess", "ruleset": "fide-standard", "config": config,
                          "records": ['[Event "x"]\n[Result "*"]\n\n1. b4 e5 2. Bb5 Ke7 *\n\n']})["lines"]
    by_code = {f["code"]: f for f in line["findings"]}
    assert by_code["illegal-move"]["ply"] == 3 and "In German letters" in by_code["illegal-move"]["message"]
    assert by_code["reading"]["ply"] == 3 and by_code["reading"]["evidence"]["language"] == "de"
    assert "2.b5" in by_code["reading"]["message"]
