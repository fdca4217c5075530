"""``check-games`` on untidy real files (issue 20, item 5): what the reader reads past is a ``reading`` finding at
its ply, never an ``unreadable`` one, and the lines of a clean file stay as they were.

The reading rules themselves are tests/test_movetext_files.py's (chess) and
tests/checkers/test_checkers_split_moves.py's (a checkers move split by spacing).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from adjudicator.collection import block_spans, check_record, records
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from engines.chess.unwinnable import UnwinnabilityAnalyser
from tests.cli_runs import run_in_process

SCHOLAR = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"
"""White mates at ply 7."""


@pytest.fixture(scope="module")
def services() -> Services:
    return Services(mate=UnwinnabilityAnalyser(time_limit=float("inf")))


def lines(text: str, book: RulesetBook, services: Services, game: str = "chess") -> list[dict[str, Any]]:
    ruleset = book["fide-standard" if game == "chess" else "acf"]
    return [check.to_json(n) for n, check in enumerate(check_record(text, game, ruleset, services), start=1)]


def findings(line: dict[str, Any]) -> list[tuple[str, int]]:
    return [(f["code"], f["ply"]) for f in line["findings"]]


@pytest.mark.parametrize("result", ["1–0", "1—0", "1\u20110"], ids=["en dash", "em dash", "non-breaking hyphen"])
def test_a_result_with_another_dash_is_the_recorded_result_not_an_unreadable_token(
    result: str, book: RulesetBook, services: Services
) -> None:
    (line,) = lines(f'[Event "e"]\n\n{SCHOLAR} {result}\n', book, services)
    assert line["recorded_result"] == "1-0" == line["lawful_result"] and line["findings"] == []


def test_a_tag_name_outside_the_standard_is_a_header(book: RulesetBook, services: Services) -> None:
    (line,) = lines(f'[Event "e"]\n[BlackType "program"]\n[Black-Elo "2800"]\n\n{SCHOLAR} 1-0\n', book, services)
    assert line["headers"] == {"Event": "e", "BlackType": "program", "Black-Elo": "2800"} and line["findings"] == []


def test_a_pgn_wrapper_is_read_past(book: RulesetBook, services: Services) -> None:
    (line,) = lines(f'[pgn][Event "e"]\n\n{SCHOLAR} 1-0[/pgn]\n', book, services)
    assert line["headers"] == {"Event": "e"} and line["findings"] == [] and line["lawful_result"] == "1-0"


def test_a_stray_bracket_is_a_reading_finding_and_the_result_is_still_checked(
    book: RulesetBook, services: Services
) -> None:
    (line,) = lines('[Event "e"]\n\n1. e4 e5 2. Qh5 ) Nc6 3. Bc4 Nf6 4. Qxf7# 1/2-1/2\n', book, services)
    assert findings(line) == [("reading", 4), ("checkmate-mismatch", 7)]
    assert line["findings"][0]["article"] == "FIDE 8.1.1" and "closes nothing" in line["findings"][0]["message"]


def test_untagged_games_apart_by_a_blank_line_are_checked_as_two_games(book: RulesetBook, services: Services) -> None:
    first, second = lines(f"{SCHOLAR}\n\n1. d4 d5 2. c4 e6 *\n", book, services)
    assert findings(first) == [("reading", 8), ("checkmate-mismatch", 7)]  # no result written; the mate ended it
    assert first["lawful_result"] == "1-0"
    assert findings(second) == [("no-result", 4)]  # before: one game, with 1. d4 read as Black's illegal 4th move


def test_records_are_cut_after_a_result_with_another_dash_too() -> None:
    text = f"{SCHOLAR} 1–0\n\n1. d4 d5 ½–½\n\n"
    assert list(records(io.StringIO(text))) == [f"{SCHOLAR} 1–0\n\n", "1. d4 d5 ½–½\n\n"]


def test_checkers_a_move_split_by_spacing_is_a_reading_finding(book: RulesetBook, services: Services) -> None:
    (line,) = lines('[Event "c"]\n[Result "1-0"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x 17 1–0\n',
                    book, services, "checkers")
    assert findings(line) == [("reading", 7)] and line["recorded_result"] == "1-0"
    assert "'10x 17'" in line["findings"][0]["message"]


@pytest.mark.parametrize("text", [
    '[Event "a"]\n1. e4 e5 1-0 [Event "b"]\n[White "X"]\n1. d4 d5 0-1\n',
    '[Event "a"]\n1. e4 e5 1-0\r[Event "b"]\r[White "X"]\n1. d4 d5 0-1\n',
])
def test_a_header_begun_after_the_moves_on_a_line_stays_one_games_tags(text: str) -> None:
    """The record cutter cut at the next tag line and made a game of the tags before it (no moves, a
    ``no-result`` finding) and a game of its moves without them: three games where the file holds two."""
    found = list(records(io.StringIO(text)))
    assert found == [text]
    spans = [span.text for span in block_spans([text.encode()])]
    assert spans == found
    out = [json.loads(line) for line in run_in_process(["check-games", "-"], stdin=text).stdout.splitlines()]
    assert [line["headers"] for line in out if "index" in line] == [{"Event": "a"}, {"Event": "b", "White": "X"}]


def test_files_put_together_keep_each_games_tags_after_a_byte_order_mark() -> None:
    """Files written with a byte-order mark and put together (``cat *.pgn``): the mark then stands before a
    game's first tag line, which the record cutter did not take for a tag line; it cut the game's header
    after it, a game of one tag and a game of the rest (python-chess's utf8-bom sample, doubled)."""
    text = '[Event "x"]\n\n1. e4 *\n\n\ufeff[Event "A"]\n[Site "?"]\n[Result "*"]\n\n *\n'
    out = [json.loads(line) for line in run_in_process(["check-games", "-"], stdin=text).stdout.splitlines()]
    assert [line["headers"] for line in out if "index" in line] == [
        {"Event": "x"}, {"Event": "A", "Site": "?", "Result": "*"}]
