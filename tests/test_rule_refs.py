"""Every article a ruling cites is one its ruleset's rulebook has (issue 34, class 7).

Every claim kind of each game is ruled under every ruleset of config.toml, on realistic cases (the
cases of shared/rules/cases.md the claim tests use, and the usual routes through each claim: upheld,
rejected, the penalty, the game already over), and each ``rule_refs`` entry is checked against the
ruleset's article index (:mod:`adjudicator.rulebook.articles`): a US Chess ruling never cites a FIDE
number, a checkers ruling never a chess article.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import claim_ids, rule
from adjudicator.rulebook.articles import FIDE, US_CHESS, article_for, problem, rulebook_of
from adjudicator.rulesets import RulesetBook
from adjudicator.ruling import Ruling
from adjudicator.services import Services
from engines import build_services

pytestmark = pytest.mark.engine

P17 = "1. e4 e5 2. f4 Qh4+ 3. Nc3"
SHUFFLE = " ".join(f"{n}. {'Nf3 Nf6' if n % 2 else 'Ng1 Ng8'}" for n in range(1, 5))
KN_V_KP = "8/8/8/3k4/8/2n5/6P1/6K1 w - - 0 1"
BARE_KING = "8/8/3k4/8/8/8/3KQ3/8 b - - 0 70"
ROOK_ENDING = "8/5k2/8/3r4/8/8/2R5/5K2 b - - 0 60"
WHITE_DOWN = {"white": 0, "black": 65, "flagged": ["white"]}
FIFTY = "8/8/3k4/8/8/3K4/8/R7 w - - 100 90"

CHESS: dict[str, list[dict[str, Any]]] = {
    "threefold-repetition": [
        {"claimant": "white", "record": SHUFFLE},  # 9.2.2: the start position a third time, White to move
        {"claimant": "black", "record": SHUFFLE[: SHUFFLE.rindex(" ")], "intended_move": "Ng8"},  # 9.2.1
        {"claimant": "white", "record": "1. e4 e5 2. Nf3 Nc6"},  # incorrect: the penalty, the draw offer
        {"claimant": "black", "record": SHUFFLE},  # not on move
        {"claimant": "white", "record": SHUFFLE, "touched_piece": True},
        {"claimant": "black", "record": "1. e4 e5 2. Nf3", "intended_move": "Ke7e5"},  # an illegal written move
    ],
    "fifty-move": [
        {"claimant": "white", "fen": FIFTY},
        {"claimant": "white", "fen": FIFTY.replace(" 100 90", " 99 90"), "intended_move": "Ra2"},
        {"claimant": "white", "fen": FIFTY.replace(" 100 90", " 20 90")},
        {"claimant": "white", "fen": FIFTY.replace(" 100 90", " 20 90"), "scoresheet": False, "td_count": 50},
        {"claimant": "black", "fen": "8/5k2/8/8/8/8/5K2/7R w - - 150 131"},  # 75 moves: over already
    ],
    "flag": [
        {"claimant": "black", "fen": KN_V_KP, "clock": WHITE_DOWN, "time_control": "G/90"},
        {"claimant": "black", "fen": BARE_KING, "clock": {"white": 0, "black": 4, "flagged": ["white"]}},
        {"claimant": "black", "fen": "8/2b5/8/3k4/8/8/3K4/6B1 w - - 0 1", "clock": WHITE_DOWN},  # dead position
        {"fen": KN_V_KP, "clock": {"white": 0, "black": 0, "flagged": ["white", "black"]}, "time_control": "G/90"},
        {"fen": KN_V_KP, "clock": {"white": 0, "black": 0, "flagged": ["white", "black"]},
         "time_control": "40/5400:1800"},
        {"claimant": "black", "record": "1. f3 e5 2. g4 Qh4#", "clock": WHITE_DOWN},  # mate came first
    ],
    "insufficient-losing-chances": [
        {"claimant": "black", "fen": ROOK_ENDING, "clock": {"white": 720, "black": 95}, "time_control": "G/90",
         "td_finding": finding}
        for finding in ("clear", "unclear", "incorrect")
    ] + [
        {"claimant": "black", "fen": ROOK_ENDING, "clock": {"white": 720, "black": 95}, "time_control": "G/90",
         "request": "increment"},
        {"claimant": "black", "fen": ROOK_ENDING, "clock": {"white": 720, "black": 95}, "time_control": "G/90+30"},
        {"claimant": "black", "fen": ROOK_ENDING, "clock": {"white": 720, "black": 95}, "time_control": "G/90",
         "postponed": True, "td_finding": "clear"},
    ],
    "unfinished-game": [
        {"fen": "8/8/8/4k3/8/8/8/KQ6 w - - 0 80"},
        {"fen": "8/8/8/4k3/8/8/8/KQ6 w - - 0 80", "claimant": "white"},  # an ICCF tablebase claim
        {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 80"},  # stalemate
        {"fen": "6Qk/8/6K1/8/8/8/8/8 b - - 0 80"},  # checkmate
        {"fen": "8/8/3k4/8/8/3K4/8/8 w - - 0 80"},  # dead position
    ],
    "illegal-move": [
        {"claimant": "black", "record": P17, "clock": {"white": "0:14:10", "black": "0:09:00"},
         "time_control": "40/5400+30:1800+30"},
        {"claimant": "white", "record": P17},  # the offender's own report
        {"claimant": "black", "record": "1. e4 e5 2. f4 Qh4+ 3. g4"},  # touch-move on the replacement
        {"start_fen": "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "record": "1. O-O"},  # castling: the king
        {"start_fen": "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "record": "1. O-O Kd7"},  # after the reply
        {"start_fen": "8/4P1k1/8/8/8/8/8/4K3 w - - 0 60", "record": "60. e8"},  # an unreplaced promotion
        {"claimant": "black", "record": "1. e4 e5", "clock_pressed_without_move": True},
        {"claimant": "black", "record": "1. e4 e5 2. f4 Qh4+ 3. Nc3 Nc6 4. Nf3", "alleged_illegal_ply": 7},
        {"record": "1. e4 e5 2. f4 Qh4+ 3. g3", "alleged_illegal_ply": 3},  # a legal move named
        {"start_fen": "8/8/8/8/8/8/3kr3/4K3 w - - 0 70", "record": "70. Kxe2", "previous_illegal_moves": 1},
        {"start_fen": "8/8/3k4/8/8/8/3KQ3/8 w - - 0 70", "record": "70. Kd2-d4", "previous_illegal_moves": 1},
        {"record": "1. e4 e5 2. Nf3", "two_hands": True, "alleged_illegal_ply": 3},
        {"claimant": "black", "record": "1. f3 e5 2. g4 Qh4# 3. Kf2"},  # after the game ended
    ],
}

CHECKERS_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def _forty_king_moves() -> str:
    moves = ["30x23"]
    for n in range(40):
        moves += ["32-28", "14-18"] if n % 2 == 0 else ["28-32", "18-14"]
    return '[FEN "W:WK14,K30:BK1,K32,26"]\n' + " ".join(moves) + " *"


CHECKERS: dict[str, list[dict[str, Any]]] = {
    "threefold-repetition": [
        {"claimant": "white", "start_fen": "B:WK27:BK6", "record": "6-10 27-23 10-6 23-27 6-10 27-23 10-6",
         "intended_move": "23-27"},
        {"claimant": "white", "start_fen": "B:WK27:BK6", "record": "6-10 27-23 10-6", "intended_move": "23-27"},
    ],
    "forty-move": [
        {"claimant": "red", "record": _forty_king_moves()},
        {"claimant": "white", "record": _forty_king_moves().replace(" 18-14 *", " *")},
    ],
    "flag": [
        {"fen": CHECKERS_START, "claimant": "white", "clock": {"red": 0, "white": 600, "flagged": ["red"]}},
        {"fen": CHECKERS_START, "clock": {"red": 0, "white": 0, "flagged": ["red", "white"]}},
        {"fen": CHECKERS_START, "lowder": {"side": "white", "seconds": "1:03", "warned": True}},
        {"fen": CHECKERS_START, "match_game": 2, "round_ends_at": "18:30", "now": "18:05", "game_started": False,
         "clock": {"white": 0, "flagged": ["white"]}},
    ],
    "unfinished-game": [
        {"fen": "B:WK14:BK1"},
        {"fen": "W:W20,K15:B12,K28"},
        {"fen": CHECKERS_START, "game_started": False, "started_minutes_before_end": 10},
    ],
    "illegal-move": [
        {"claimant": "red", "record": '[FEN "W:W23,30:B18,1"]\n30-26'},  # a missed jump
        {"claimant": "white", "record": '[FEN "W:W23,30:B18,1"]\n30-26'},  # the offender's own report
        {"claimant": "red", "record": '[FEN "W:W23,30:B18,1"]\n30-26 1-5'},  # it stands after the reply
        {"record": "11-15 23-19"},  # every move legal
    ],
}


@pytest.fixture(scope="module")
def services(config: dict[str, Any], tablebase_dirs: tuple[Path, Path]) -> Iterator[Services]:
    built = build_services({**config, "tablebases": {"syzygy": [str(tablebase_dirs[0])]}}, deterministic=True)
    yield built
    built.close()


def _rulings(book: RulesetBook, services: Services, game: str, ruleset: str, claim: str) -> list[Ruling]:
    cases = (CHESS if game == "chess" else CHECKERS)[claim]
    found = []
    for fields in cases:
        data = {"game": game, "ruleset": ruleset, "claim": claim, **fields}
        try:
            ruling = rule(parse_case(data), book, services)
        except ContractError:
            continue  # a case this ruleset refuses (e.g. a claim its rules do not allow): nothing cited
        json.dumps(ruling.to_json())
        found.append(ruling)
    return found


def _every(book: RulesetBook) -> list[tuple[str, str, str]]:
    return [(rs.game, rs.id, claim) for rs in book for claim in claim_ids(rs.game)]


def test_every_ruleset_has_a_rulebook_index(book: RulesetBook) -> None:
    assert all(rulebook_of(rs) is not None for rs in book)
    assert book["iccf"].ref("9.2.2") == "FIDE 9.2.2"  # ICCF Playing Rules 1a: the FIDE Laws apply


def test_every_claim_of_every_ruleset_cites_only_its_own_rulebook(book: RulesetBook, services: Services) -> None:
    wrong: list[str] = []
    for game, ruleset, claim in _every(book):
        rulings = _rulings(book, services, game, ruleset, claim)
        if not rulings:
            wrong.append(f"{ruleset}: no {claim} case was ruled")
        for ruling in rulings:
            if not ruling.rule_refs:
                wrong.append(f"{ruleset} {claim}: a ruling with no article ({ruling.reasons[:1]})")
            for ref in ruling.rule_refs:
                why = problem(book[ruleset], ref)
                if why is not None:
                    wrong.append(f"{ruleset} {claim}: {why}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_a_us_chess_ruling_cites_14d_for_a_dead_position_never_fide_5_2_2(book: RulesetBook) -> None:
    """The issue's example: an unfinished game in a dead position under US Chess cites 14D."""
    for ruleset, article in (("uschess", "US Chess 14D"), ("fide-standard", "FIDE 5.2.2")):
        ruling = rule(parse_case({"ruleset": ruleset, "claim": "unfinished-game",
                                  "fen": "8/8/3k4/8/8/3K4/8/8 w - - 0 80"}), book, Services())
        assert article in ruling.rule_refs and not any(r.endswith(" 5.2.2") for r in ruling.rule_refs
                                                       if not r.startswith("FIDE"))


def test_the_index_refuses_another_rulebooks_numbers(book: RulesetBook) -> None:
    assert "5.2.2" in FIDE and "5.2.2" not in US_CHESS and "14D" in US_CHESS
    assert problem(book["uschess"], "US Chess 5.2.2") is not None
    assert problem(book["uschess"], "FIDE 5.2.2") is not None
    assert problem(book["acf"], "ACF 7.5.1") is not None
    assert problem(book["calchess-scholastic"], "CalChess scholastic local rules (both flags down: draw)") is None
    assert problem(book["engine-event"], "cutechess-cli(6) -resign") is None
    assert article_for(book["uschess"], "dead-position") == "US Chess 14D"
    assert article_for(book["uschess"], "no-move") is None


@pytest.mark.parametrize(("ruleset", "article"), [("fide-standard", "FIDE 8.1.1"), ("uschess", "US Chess 15A")])
def test_a_ruling_waiting_for_a_missing_move_cites_its_rulebooks_scoresheet_article(
        book: RulesetBook, ruleset: str, article: str) -> None:
    """The move numbers skip Black's move 2: the ruling waits for the scoresheets and cites the duty to keep
    them (FIDE 8.1.1, US Chess 15A), an article of the ruleset's own index."""
    ruling = rule(parse_case({"ruleset": ruleset, "claim": "illegal-move", "claimant": "white",
                              "record": "1. Nf3 Nf6 2. Nc3 3. e3 d6"}), book, Services())
    assert ruling.verdict.value == "deferred" and article in ruling.rule_refs
    assert problem(book[ruleset], article) is None
