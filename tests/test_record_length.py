"""A record longer than any game is refused by counting, before it is read or replayed (issue 39, item 2): the
longest game the laws allow is known, so a megabyte of legal moves costs the server a count, not a replay.
Its message (``moves and other words``) is the count's own: the replay's refusal says ``the record has N moves``."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.contract import MAX_RECORD_WORDS, ContractError, parse_case

SHUFFLE = ("Nf3", "Nf6", "Ng1", "Ng8")


def shuffling(plies: int, comments: bool = False) -> str:
    """``plies`` legal plies of knights going back and forth, numbered, with clock comments if asked."""
    words: list[str] = []
    for ply in range(plies):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(SHUFFLE[ply % 4])
        if comments:
            words.append("{[%clk 1:29:58]}")
    return " ".join(words) + " *"


def case(record: str, game: str = "chess") -> dict[str, Any]:
    if game == "checkers":
        return {"game": "checkers", "ruleset": "acf", "claim": "unfinished-game", "record": record}
    return {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": record}


def test_two_megabytes_of_legal_moves_are_refused_by_the_count() -> None:
    record = shuffling(250_000)
    assert len(record) > 1_800_000
    with pytest.raises(ContractError) as refused:
        parse_case(case(record))
    assert refused.value.code == "unreadable_record" and refused.value.field == "record"
    assert "moves and other words" in str(refused.value)


def test_the_longest_games_the_laws_allow_pass_the_count() -> None:
    """17,697 plies is about the longest possible chess game (the 75-move rule); clock comments, move numbers,
    tags and NAGs are not counted as moves."""
    record = '[Event "Marathon"]\n[Site "?"]\n\n' + shuffling(17_700, comments=True).replace(" 5. ", " 5. $1 ")
    assert parse_case(case(record)).record == record


def test_the_count_is_of_words_not_characters() -> None:
    """A record just over the count is refused; one of the same length in comments is not."""
    with pytest.raises(ContractError):
        parse_case(case(" ".join(["11-15", "23-19"] * (MAX_RECORD_WORDS // 2 + 1)), game="checkers"))
    padded = "{" + "x " * MAX_RECORD_WORDS + "} 11-15 23-19 *"
    assert parse_case(case(padded, game="checkers")).record == padded
