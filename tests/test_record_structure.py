"""Nothing set aside in silence (issue 34, classes 5 and 8c): a second game, a result or draw-offer mark before
the last move, a game of tags alone.

FIDE Appendix C.13 writes a draw offer ``(=)``; a ``½`` between two moves is an offer in some players' habits
and a result in others'. A claim is ruled on one game, so a record with two is refused naming where the second
starts; ``replay`` and ``check-games`` read every game of a file, each as a game, as python-chess does.
"""

from __future__ import annotations

import io
import json
from typing import Any

import chess
import chess.pgn
import pytest

from adjudicator.chess import bulk
from adjudicator.chess.bulk.games import CleanGame, read, split_mixed
from adjudicator.chess.movetext import split_games
from adjudicator.chess.replay import replay_chess, replay_game
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from tests.cli_runs import run_in_process


def ruling(book: RulesetBook, **case: Any) -> Ruling:
    case.setdefault("ruleset", "fide-standard")
    case.setdefault("claim", "illegal-move")
    case.setdefault("claimant", "white")
    return rule(parse_case(case), book)


def python_chess_games(text: str) -> list[tuple[str | None, int]]:
    handle, found = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        found.append((game.headers.get("Event"), len(list(game.mainline_moves()))))
    return found


# -- a second game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("record, line, start", [
    ('[Event "Round 3"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event "Round 4"]\n\n1. d4 d5 *', 5, '[Event "Round 4"]'),
    ("1. e4 e5 2. Nf3 Nc6 1-0 1. d4 d5 2. c4 *", 1, "1. d4 d5"),  # a result, then White's first move again
    ("1. e4 e5 2. Nf3 Nc6\n\n1. d4 d5 *", 3, "1. d4 d5"),  # games written without tags, apart by a blank line
])
def test_a_second_game_in_a_claims_record_is_refused_naming_where_it_starts(
    book: RulesetBook, record: str, line: int, start: str
) -> None:
    with pytest.raises(ContractError) as refused:
        ruling(book, record=record)
    assert refused.value.code == "several_games" and refused.value.field == "record"
    assert f"line {line}" in refused.value.message and start in refused.value.message


def test_a_second_checkers_game_is_refused_too(book: RulesetBook) -> None:
    with pytest.raises(ContractError) as refused:
        rule(parse_case({"game": "checkers", "ruleset": "acf", "claim": "illegal-move", "claimant": "red",
                         "record": "1. 11-15 23-19 2. 8-11 22-17 1-0\n1. 9-13 22-18 *"}), book)
    assert refused.value.code == "several_games" and "9-13" in refused.value.message


# -- a result or draw-offer mark before the last move -----------------------------------------------


def test_a_half_between_moves_is_noted_with_its_ply_and_both_readings(book: RulesetBook) -> None:
    record = "1. e4 e5 2. Nf3 Nc6 ½ 3. Bb5 a6 4. Ba4 Nf6 *"
    replay = replay_chess(record)
    assert len(replay.plies) == 8  # the moves after it are the game's, not dropped
    (mark,) = [n for n in replay.notes if n.note.kind == "result-mark"]
    assert mark.ply == 5 and mark.token == "½"
    assert "draw offer" in mark.note.text and "result" in mark.note.text and "(=)" in mark.note.text
    result = ruling(book, record=record)
    assert result.verdict == "rejected"  # no illegal move, ruled on the whole record
    assert any(r.startswith("Ply 5: ½ is written after ply 4 (Nc6)") for r in result.reasons)
    assert result.evidence["result_marks"][0]["ply"] == 5


def test_a_decisive_result_before_the_last_move_is_a_conflict_the_td_sees(book: RulesetBook) -> None:
    record = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 1-0 4. Qxf7# *"
    replay = replay_chess(record)
    assert len(replay.plies) == 7 and replay.final_board.is_checkmate()
    (mark,) = [n for n in replay.file_notes if n.kind == "result-mark"]
    assert mark.ply == 7 and "conflicts with the moves after it" in mark.text
    result = ruling(book, record=record)
    assert any("Ply 7: 1-0" in r and "the arbiter checks the scoresheet" in r for r in result.reasons)


def test_fides_draw_offer_mark_is_a_draw_offer_not_a_variation() -> None:
    """FIDE 9.1.2.2: each player notes the offer with the symbol (=); 9.1.2.3 is the claim that counts as one."""
    record = "1. d4 Nf6 2. c4 e6 (=) 3. Nc3 Bb4 *"
    replay = replay_chess(record)
    assert len(replay.plies) == 6
    (offer,) = [n for n in replay.file_notes if n.kind == "draw-offer"]
    assert offer.ply == 5 and offer.token == "(=)" and "after ply 4 (e6)" in offer.text
    assert "FIDE 9.1.2.2," in offer.text


def test_replay_and_check_games_show_the_marks() -> None:
    text = '[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 1/2 3. Bb5 (=) a6 *\n'
    shown = json.loads(run_in_process(["replay", "-"], stdin=text).stdout)
    kinds = {(n["ply"], n["kind"]) for n in shown["notes"]}
    assert {(5, "result-mark"), (6, "draw-offer")} <= kinds and shown["plies"] == 6
    line = json.loads(run_in_process(["check-games", "-"], stdin=text).stdout.splitlines()[0])
    readings = {(f["ply"], f["evidence"]["token"]) for f in line["findings"] if f["code"] == "reading"}
    assert {(5, "1/2"), (6, "(=)")} <= readings


def test_a_result_then_white_first_move_is_still_the_next_game_in_a_collection() -> None:
    games = list(split_games("1. e4 e5 1-0 1. d4 d5 0-1"))
    assert [(len(g.moves), g.result, g.notes) for g in games] == [(2, "1-0", []), (2, "0-1", [])]


# -- a game of tags alone ----------------------------------------------------------------------------

HEADERS_ONLY = (
    '[Event "A"]\n[Site "Hall"]\n[Result "*"]\n\n\n'
    '[Event "B"]\n[Site "Hall"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
    '[Event "C"]\n[Site "Hall"]\n[Result "*"]\n\n1. d4 d5 *\n'
)


def test_a_game_with_tags_and_no_moves_counts_as_a_game_as_python_chess_reads_it() -> None:
    games = list(split_games(HEADERS_ONLY))
    assert [(g.tag("Event"), len(g.moves)) for g in games] == [("A", 0), ("B", 7), ("C", 2)]
    assert [(g.tag("Event"), len(g.moves)) for g in games] == python_chess_games(HEADERS_ONLY)
    assert games[0].notes[0].kind == "new-game"


TAGS_THEN_A_GAME = (
    '[Event "R1"]\n[White "P"]\n[Black "R"]\n[Result "1-0"]\n\n'
    '[Event "R1"]\n[White "Q"]\n[Black "S"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
)
"""A forfeit written as tags alone, one blank line, then the next game (python-chess reads one game, Q-S)."""


def test_a_game_of_tags_alone_before_the_next_games_tags_is_a_game_of_its_own() -> None:
    """A game's header names each tag once: a second ``Event`` is the next game's. The game of tags alone was
    lost before (its tags taken over by the next game's), so a collection check counted one game for two."""
    games = list(split_games(TAGS_THEN_A_GAME))
    assert [(g.tag("White"), len(g.moves), g.tag("Result")) for g in games] == [("P", 0, "1-0"), ("Q", 7, "1-0")]
    assert games[0].notes[0].kind == "new-game" and "(Event)" in games[0].notes[0].text
    lines = run_in_process(["check-games", "-"], stdin=TAGS_THEN_A_GAME).stdout.splitlines()
    out = [json.loads(line) for line in lines]
    assert [(line["index"], line["headers"]["White"]) for line in out if "index" in line] == [(1, "P"), (2, "Q")]
    assert [finding["code"] for finding in out[0]["findings"]] == ["reading"]


def test_a_tag_named_again_with_no_blank_line_before_it_stays_the_games_as_python_chess_reads_it() -> None:
    text = ('[Event "a"]\n[White "P"]\n[Black "Q"]\n[Result "1-0"]\n[White "P"]\n\n'
            '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    assert [(g.tag("Event"), len(g.moves)) for g in split_games(text)] == [("a", 7)]
    assert [len(g.moves) for g in split_games('[Event "a"] [Site "x"] [Site "y"] 1. e4 e5 1-0')] == [2]


def test_one_blank_line_between_tags_keeps_them_one_game_as_python_chess_does() -> None:
    text = '[Event "A"]\n\n[Site "Hall"]\n\n1. e4 e5 *\n'
    assert len(list(split_games(text))) == 1 == len(python_chess_games(text))


def test_replay_and_check_games_number_the_games_as_other_tools_do() -> None:
    lines = run_in_process(["replay", "-"], stdin=HEADERS_ONLY).stdout.splitlines()
    assert [json.loads(line)["plies"] for line in lines] == [0, 7, 2]
    out = [json.loads(line) for line in run_in_process(["check-games", "-"], stdin=HEADERS_ONLY).stdout.splitlines()]
    games = [line for line in out if "index" in line]
    assert [(g["index"], g["headers"].get("Event")) for g in games] == [(1, "A"), (2, "B"), (3, "C")]


@pytest.mark.skipif(not bulk.COMPILED, reason="the compiled reader is not built (python3 setup.py build_ext)")
@pytest.mark.parametrize("text", [
    HEADERS_ONLY,
    TAGS_THEN_A_GAME,
    '[Event "a"]\n\n1. Nf3 Nf6 2. Nc3 3. e3 d6 *\n',
    '[Event "a"]\n\n1. d4 Nf6 2. c4 e6 (=) 3. Nc3 Bb4 *\n',
    '[Event "a"]\n[FEN "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 23"]\n\n23... Kf8 24. Re2 *\n',
    '[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 2. Bb5 a6 *\n',
])
def test_the_compiled_reader_agrees_with_the_lenient_one(text: str) -> None:
    mixed = list(split_mixed(text))
    lenient = list(split_games(text))
    assert len(mixed) == len(lenient)
    for fast, slow in zip(mixed, lenient, strict=True):
        if isinstance(fast, CleanGame):
            replayed = read(fast)
            if replayed is not None:
                assert replayed.to_json() == replay_game(slow).to_json()
                continue
            fast = fast.raw()
        assert replay_game(fast).to_json() == replay_game(slow).to_json()


def test_a_result_mark_then_a_blank_line_then_the_next_move_number_is_one_game_everywhere() -> None:
    """A scoresheet copied in paragraphs: ``½`` at the end of a line, a blank line, then ``3.``: the game goes
    on (check-games cuts its records at a blank line after a result only when no move number goes on)."""
    text = "1. e4 e5 2. Nf3 Nc6 ½\n\n3. Bb5 a6 *\n\n1. d4 d5 *\n"
    assert [len(g.moves) for g in split_games(text)] == [6, 2]
    replayed = [json.loads(line)["plies"] for line in run_in_process(["replay", "-"], stdin=text).stdout.splitlines()]
    assert replayed == [6, 2]
    out = [json.loads(line) for line in run_in_process(["check-games", "-"], stdin=text).stdout.splitlines()]
    assert [line["index"] for line in out if "index" in line] == [1, 2]


@pytest.mark.skipif(not bulk.COMPILED, reason="the compiled reader is not built (python3 setup.py build_ext)")
def test_the_replay_command_reads_numbers_from_a_given_start_as_the_lenient_reader_does() -> None:
    """``--start-fen`` is a set-up position even when it is the initial one: only the side of the first numbered
    move is weighed, by both readers."""
    text = '[Event "a"]\n\n5. e4 e5 6. Nf3 *\n\n[Event "b"]\n\n5... e5 *\n'
    lines = run_in_process(["replay", "--start-fen", chess.STARTING_FEN, "-"], stdin=text).stdout.splitlines()
    shown = [json.loads(line) for line in lines]
    assert [len(s["numbering_gaps"]) for s in shown] == [0, 1]
    lenient = [replay_game(game, chess.STARTING_FEN).to_json() for game in split_games(text)]
    assert shown == lenient
