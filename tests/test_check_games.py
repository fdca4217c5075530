"""Checking a collection of games: each recorded result against the laws, one finding per fault.

Each test builds a small game whose record the laws contradict in one way (contract:
"Checking a collection of games"), and checks the line the check gives for it: the
finding's code, ply and article, and the lawful result. Also: the clean game, the
rulesets (US Chess 14E and 14K, ACF checkers), the undecided budget, how a file is cut
into records, and that a chunk of games gives the same answer in any order of calls.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from adjudicator.chess.collection import check_chess
from adjudicator.chess.movetext import split_games
from adjudicator.collection import check_record, is_collection, records
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from engines.chess.unwinnable import UnwinnabilityAnalyser
from engines.collection import Part, check_part, check_parts, numbered, text_parts


def check_texts(texts: list[str], config: dict[str, Any]) -> list[dict[str, Any]]:
    """The lines of one part holding ``texts`` (each a record), checked here."""
    lines: list[dict[str, Any]] = check_part({"game": "chess", "ruleset": "fide-standard", "config": config,
                                             "records": texts})["lines"]
    return lines


def pgn(moves: str, result: str, fen: str | None = None, **tags: str) -> str:
    head = [f'[Event "{tags.pop("Event", "test")}"]', '[White "W"]', '[Black "B"]', f'[Result "{result}"]']
    head += [f'[{name} "{value}"]' for name, value in tags.items()]
    if fen:
        head.append(f'[FEN "{fen}"]')
    return "\n".join(head) + f"\n\n{moves} {result}\n\n"


# one game per finding code (and the clean one); tests/test_check_games_cli.py builds its collections from these
CLEAN = pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#", "1-0")
TIME_UNWINNABLE = pgn("1. Qh2 Kc4", "0-1", "8/8/8/8/8/2k5/8/K6Q w - - 0 1", Termination="Time forfeit")
"""White (K+Q) lost on time, but Black has a lone king: FIDE 6.9, a draw."""
TIME_WON = pgn("1. Kg1 {[%clk 0:00:00]} Kc2", "0-1", "8/8/8/8/8/2k5/q7/7K w - - 0 1")
"""White's clock shows 0 and Black (K+Q) can mate: the loss on time stands."""
DEAD = pgn("1. Bxd2 Kd4 2. Kb2 Kc4", "1-0", "8/8/8/4k3/8/8/3r4/K1B5 w - - 0 1")
FIVEFOLD = pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4", "1-0")
SEVENTY_FIVE = pgn("100. Rb3 Kd4 101. Rb4+ Kc5", "1-0", "8/8/8/4k3/8/8/1R6/K7 w - - 148 100")
CHECKMATE_MISMATCH = pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#", "1/2-1/2")
STALEMATE_MISMATCH = pgn("1. Qb6", "1-0", "k7/8/8/1Q6/8/8/8/K7 w - - 0 1")
ILLEGAL = pgn("1. e4 e5 2. Ke3 Nc6 3. Nf3", "1-0")
UNREADABLE = pgn("1. e4 e5 2. Nxx Nc6", "1-0")

CHESS_GAMES = {
    "clean": CLEAN,
    "time-forfeit-unwinnable": TIME_UNWINNABLE,
    "time-won": TIME_WON,
    "dead-position": DEAD,
    "fivefold": FIVEFOLD,
    "seventy-five-moves": SEVENTY_FIVE,
    "checkmate-mismatch": CHECKMATE_MISMATCH,
    "stalemate-mismatch": STALEMATE_MISMATCH,
    "illegal-move": ILLEGAL,
    "unreadable": UNREADABLE,
}


@pytest.fixture(scope="module")
def services() -> Services:
    return Services(mate=UnwinnabilityAnalyser(time_limit=float("inf")))


def check(text: str, book: RulesetBook, services: Services, ruleset: str = "fide-standard") -> dict[str, Any]:
    (game,) = list(split_games(text))
    return check_chess(game, book[ruleset], services).to_json(1)


def codes(line: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(f["code"], f["ply"], f["article"]) for f in line["findings"]]


def test_a_clean_game_has_no_findings_and_its_result_is_lawful(book: RulesetBook, services: Services) -> None:
    line = check(CLEAN, book, services)
    assert line == {
        "index": 1,
        "headers": {"Event": "test", "White": "W", "Black": "B", "Result": "1-0"},
        "recorded_result": "1-0", "lawful_result": "1-0", "findings": [],
    }


def test_6_9_lost_on_time_but_the_winner_cannot_mate_is_a_draw(book: RulesetBook, services: Services) -> None:
    line = check(TIME_UNWINNABLE, book, services)
    assert line["recorded_result"] == "0-1" and line["lawful_result"] == "1/2-1/2"
    assert codes(line) == [("time-forfeit-unwinnable", 2, "FIDE 6.9")]
    finding = line["findings"][0]
    assert finding["message"].startswith("White lost on time")
    assert "Black cannot checkmate by any series of legal moves" in finding["message"]


def test_6_9_a_clock_at_zero_is_a_loss_on_time_and_stands_when_the_winner_can_mate(
    book: RulesetBook, services: Services
) -> None:
    line = check(TIME_WON, book, services)
    assert line["lawful_result"] == "0-1" and line["findings"] == []
    at_zero = TIME_UNWINNABLE.replace('[Termination "Time forfeit"]\n', "").replace("Qh2", "Qh2 {[%clk 0:00:00]}")
    line = check(at_zero, book, services)
    assert codes(line) == [("time-forfeit-unwinnable", 2, "FIDE 6.9")]
    assert "clock reading" in line["findings"][0]["message"]


def test_a_loss_not_on_time_is_not_tested_for_6_9(book: RulesetBook, services: Services) -> None:
    resigned = TIME_UNWINNABLE.replace('[Termination "Time forfeit"]\n', "")
    assert check(resigned, book, services)["findings"] == []


def test_us_14e_under_a_us_ruleset_fide_6_9_under_fide(book: RulesetBook, config: dict[str, Any]) -> None:
    """K+N against K+R: under 6.9 the knight's side can mate (a helpmate exists); under 14E2 it has no forced win."""
    from engines import build_services

    kn_v_kr = pgn("1. Rg1 Kc4", "0-1", "8/8/8/8/8/2k5/7n/K6R w - - 0 1", Termination="Time forfeit")
    real = build_services(config, deterministic=True, engine=False)
    fide = check(kn_v_kr, book, real)
    assert fide["lawful_result"] == "0-1" and fide["findings"] == []
    us = check(kn_v_kr, book, real, "uschess")
    assert us["lawful_result"] == "1/2-1/2"
    assert codes(us) == [("time-forfeit-unwinnable", 2, "US Chess 14E2")]
    real.close()


def test_undecided_within_the_budget_gives_no_lawful_result_and_says_so(book: RulesetBook) -> None:
    tiny = Services(mate=UnwinnabilityAnalyser(node_limit=1, time_limit=float("inf")))
    crowded = pgn("1. Rb2 Kd7", "0-1", "4k3/8/8/2n5/8/2K5/8/1R6 w - - 0 1", Termination="Time forfeit")
    line = check(crowded, book, tiny)
    assert line["lawful_result"] is None
    assert [f["code"] for f in line["findings"]] == ["time-forfeit-undecided"]
    assert "The arbiter decides" in line["findings"][0]["message"]


def test_5_2_2_a_dead_position_draws_at_its_ply_and_later_moves_do_not_count(
    book: RulesetBook, services: Services
) -> None:
    line = check(DEAD, book, services)
    assert line["lawful_result"] == "1/2-1/2"
    assert codes(line) == [("dead-position", 1, "FIDE 5.2.2")]
    assert "3 more plies were recorded after it" in line["findings"][0]["message"]


def test_dead_position_under_us_chess_is_14d_listed_endings_and_the_td_may_end_the_rest(
    book: RulesetBook, services: Services
) -> None:
    """K+B v K is on 14D's list: the game ended there. A locked wall is not on the list: the TD may declare it
    drawn (flag.dead_position = "material-then-td"), so a recorded win breaks no rule, as under 14K."""
    assert codes(check(DEAD, book, services, "uschess")) == [("dead-position", 1, "US Chess 14D")]
    locked = pgn("1. g4 Kc7 2. Ke3 Kd6", "1-0", "8/8/1k6/p1p1p1p1/P1P1P3/6P1/5K2/8 w - - 0 1")
    line = check(locked, book, services, "uschess")
    assert codes(line) == [] and line["lawful_result"] == "1-0"


def test_5_2_2_a_pawn_blockade_reached_in_play_is_dead_there(config: dict[str, Any]) -> None:
    """P15: after 1.g4 no pawn can move and neither king can cross; a flag in a dead position changes nothing."""
    locked = pgn("1. g4 Kc7 2. Ke3 Kd6 3. Kf3 Ke7", "1-0", "8/8/1k6/p1p1p1p1/P1P1P3/6P1/5K2/8 w - - 0 1")
    flagged = pgn("1. Kg2 Kc7 2. Kf3 Kd6", "0-1", "8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2/8 w - - 0 1",
                  Termination="Time forfeit")
    first, second = check_texts([locked, flagged], config)
    assert [(f["code"], f["ply"]) for f in first["findings"]] == [("dead-position", 1)]
    assert first["lawful_result"] == "1/2-1/2"
    assert [(f["code"], f["ply"]) for f in second["findings"]] == [("dead-position", 0)]
    assert second["lawful_result"] == "1/2-1/2"


def test_9_6_1_fivefold_draws_even_when_the_game_went_on(book: RulesetBook, services: Services) -> None:
    line = check(FIVEFOLD, book, services)
    assert line["lawful_result"] == "1/2-1/2"
    assert codes(line) == [("fivefold", 16, "FIDE 9.6.1")]
    assert line["findings"][0]["evidence"]["occurrences"] == [0, 4, 8, 12, 16]


def test_9_6_2_seventy_five_moves_draw(book: RulesetBook, services: Services) -> None:
    line = check(SEVENTY_FIVE, book, services)
    assert line["lawful_result"] == "1/2-1/2"
    assert codes(line) == [("seventy-five-moves", 2, "FIDE 9.6.2")]


def test_us_14k_the_td_may_declare_these_draws_so_the_result_stands(book: RulesetBook, services: Services) -> None:
    for text in (FIVEFOLD, SEVENTY_FIVE):
        line = check(text, book, services, "uschess")
        assert line["lawful_result"] == "1-0" and line["findings"] == []


def test_a_drawn_result_after_an_automatic_draw_is_right(book: RulesetBook, services: Services) -> None:
    drawn = FIVEFOLD.replace("1-0", "1/2-1/2")
    assert check(drawn, book, services)["findings"] == []


def test_checkmate_and_stalemate_mismatch(book: RulesetBook, services: Services) -> None:
    mate = check(CHECKMATE_MISMATCH, book, services)
    assert mate["lawful_result"] == "1-0" and codes(mate) == [("checkmate-mismatch", 7, "FIDE 5.1.1")]
    stale = check(STALEMATE_MISMATCH, book, services)
    assert stale["lawful_result"] == "1/2-1/2" and codes(stale) == [("stalemate-mismatch", 1, "FIDE 5.2.1")]


def test_an_illegal_move_is_reported_at_its_ply_and_the_result_stands(book: RulesetBook, services: Services) -> None:
    line = check(ILLEGAL, book, services)
    assert codes(line) == [("illegal-move", 3, "FIDE 7.5.1")]
    assert "a king cannot move from e1 to e3" in line["findings"][0]["message"]
    assert line["lawful_result"] == "1-0"
    assert codes(check(ILLEGAL, book, services, "uschess")) == [("illegal-move", 3, "US Chess 11A")]


def test_an_unreadable_token_stops_the_check_at_its_ply(book: RulesetBook, services: Services) -> None:
    line = check(UNREADABLE, book, services)
    assert codes(line) == [("unreadable", 3, "FIDE 8.1.1")]
    assert line["findings"][0]["evidence"]["token"] == "Nxx"
    assert "Nc3" in line["findings"][0]["evidence"]["candidates"]
    assert line["lawful_result"] is None


def test_a_result_tag_that_contradicts_the_result_after_the_moves_is_shown(
    book: RulesetBook, services: Services
) -> None:
    line = check(CLEAN.replace('[Result "1-0"]', '[Result "0-1"]'), book, services)
    assert line["recorded_result"] == "1-0" and line["lawful_result"] == "1-0"
    assert [(f["code"], f["ply"]) for f in line["findings"]] == [("result-conflict", 7)]


def test_no_result_recorded(book: RulesetBook, services: Services) -> None:
    line = check(pgn("1. e4 e5", "*"), book, services)
    assert line["recorded_result"] is None and line["lawful_result"] is None
    assert [f["code"] for f in line["findings"]] == ["no-result"]


def test_a_record_of_another_variant_is_not_checked(book: RulesetBook, services: Services) -> None:
    line = check(pgn("1. e4 e5", "1-0", Variant="Crazyhouse"), book, services)
    assert line["lawful_result"] is None and [f["code"] for f in line["findings"]] == ["unsupported-variant"]


# ---------------------------------------------------------------- checkers (ACF)

CHECKERS_CLEAN = '[Event "c"]\n[Result "1-0"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n'
CHECKERS_NO_MOVES = '[Event "n"]\n[FEN "B:W18:B14"]\n[Result "0-1"]\n1. 14x23 0-1\n\n'
CHECKERS_ILLEGAL = '[Event "i"]\n[Result "1-0"]\n1. 11-15 23-19 2. 15-24 1-0\n\n'
CHECKERS_UNREADABLE = '[Event "u"]\n[Result "1-0"]\n1. 11-15 33-37 1-0\n\n'
CHECKERS_FORTY = '[Event "f"]\n[FEN "B:WK27:BK6"]\n[Result "1-0"]\n' + "6-10 27-23 10-6 23-27 " * 25 + "1-0\n\n"


def checkers(text: str, book: RulesetBook, services: Services) -> dict[str, Any]:
    (line,) = check_record(text, "checkers", book["acf"], services)
    return line.to_json(1)


def test_checkers_a_player_who_cannot_move_has_lost(book: RulesetBook, services: Services) -> None:
    assert checkers(CHECKERS_CLEAN, book, services)["findings"] == []
    line = checkers(CHECKERS_NO_MOVES, book, services)
    assert line["lawful_result"] == "1-0"
    assert [(f["code"], f["ply"]) for f in line["findings"]] == [("no-moves-mismatch", 1)]
    assert "White, to move, has no piece left" in line["findings"][0]["message"]


def test_checkers_illegal_and_unreadable_moves(book: RulesetBook, services: Services) -> None:
    illegal = checkers(CHECKERS_ILLEGAL, book, services)
    assert [(f["code"], f["ply"]) for f in illegal["findings"]] == [("illegal-move", 3)]
    assert illegal["lawful_result"] is None  # the move cannot be made: what followed is unknown
    unreadable = checkers(CHECKERS_UNREADABLE, book, services)
    assert [(f["code"], f["ply"]) for f in unreadable["findings"]] == [("unreadable", 2)]
    assert unreadable["lawful_result"] is None


def test_checkers_forty_moves_and_repetition_are_claims_not_automatic(book: RulesetBook, services: Services) -> None:
    line = checkers(CHECKERS_FORTY, book, services)
    assert line["lawful_result"] == "1-0" and line["findings"] == []


# ---------------------------------------------------------------- the collection, cut and chunked


def test_records_are_cut_at_tag_lines_after_moves_one_at_a_time() -> None:
    text = CLEAN + FIVEFOLD + "1. d4 d5 1-0\n1. c4 c5 0-1\n" + ILLEGAL
    lines = iter(io.StringIO(text))
    found = records(lines)
    first = next(found)
    assert first == CLEAN
    rest = list(found)
    # a blank line after a result ends a record too (games without tags); games with no
    # blank line between them stay in one record, and the game's own splitter splits them
    assert rest == [FIVEFOLD, "1. d4 d5 1-0\n1. c4 c5 0-1\n", ILLEGAL]
    assert len(list(split_games(rest[1]))) == 2


def test_a_file_without_tag_lines_is_still_read_a_game_at_a_time() -> None:
    games = "".join(f"1. e4 e5 2. Nf3 Nc6 {n}. a3 1-0\n\n" for n in range(3, 1003))
    cut = list(records(io.StringIO(games)))
    assert len(cut) == 1000 and all(len(list(split_games(r))) == 1 for r in cut)


def test_what_is_no_collection(book: RulesetBook) -> None:
    assert is_collection(CLEAN, "chess") and is_collection("1. e4 e5 1-0\n", "chess")
    assert not is_collection("hello world\n", "chess")
    assert not is_collection("\x00\x01\x02ELF", "chess")
    assert is_collection(CHECKERS_CLEAN, "checkers") and not is_collection("hello world\n", "checkers")


def test_a_part_gives_the_same_lines_whenever_and_in_whatever_process(config: dict[str, Any]) -> None:
    texts = list(CHESS_GAMES.values())
    first = check_texts(texts, config)
    assert [sorted({f["code"] for f in line["findings"]}) for line in first] == [
        [], ["time-forfeit-unwinnable"], [], ["dead-position"], ["fivefold"], ["seventy-five-moves"],
        ["checkmate-mismatch"], ["stalemate-mismatch"], ["illegal-move"], ["unreadable"],
    ]
    assert check_texts(texts[::-1], config) == first[::-1]
    assert check_texts(texts, config) == first


def test_parts_checked_by_local_processes_come_back_in_file_order_with_few_in_flight(
        config: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Parts go to the local processes with at most 2 per worker out at once, and their lines come back in file
    order, numbered as when the parts are checked here one after the other."""
    from concurrent.futures import ProcessPoolExecutor  # the pool engines.collection starts (imported there)

    texts = list(CHESS_GAMES.values()) * 3
    outstanding: list[int] = []
    submit = ProcessPoolExecutor.submit

    def counting(pool: Any, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        outstanding.append(sum(not f.done() for f in futures) + 1)
        future = submit(pool, fn, *args, **kwargs)
        futures.append(future)
        return future

    futures: list[Any] = []
    monkeypatch.setattr(ProcessPoolExecutor, "submit", counting)
    expected = list(numbered(check_parts(text_parts(texts, 1), game="chess", ruleset="fide-standard",
                                         config=config)))
    got = list(numbered(check_parts(text_parts(texts, 1), game="chess", ruleset="fide-standard", config=config,
                                    workers=2)))
    assert got == expected and [line["index"] for line in got] == list(range(1, len(texts) + 1))
    assert len(futures) == len(texts) and isinstance(text_parts(texts, 1).__next__(), Part)
    assert max(outstanding) <= 4
