"""Fuzzing the reader and the case JSON: no exception escapes but a located RecordError/ContractError."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.chess.replay import RecordError, replay_chess, replay_games
from adjudicator.contract import ContractError, parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook

ROOT = Path(__file__).resolve().parent.parent
BOOK = RulesetBook.from_config(tomllib.loads((ROOT / "config.toml").read_text(encoding="utf-8")))

GAME = """[Event "Fuzz"]
[FEN "4k1n1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"]
[SetUp "1"]

1... d5 {[%clk 0:10:00]} 2. exd6 (2. Nf3 Nh6 (2... Nf6)) Nh6 $1 3. Nf3 Ng4 4. Ke2 Kd7 5. Ke3 Kxd6 6. Kxg4 Ke5
7. Nd4 Kxd4 8. Kf3 Ke5 9. Bc1-d3 O-O 10. e8=Q+ Nx7 1/2-1/2
"""
RULESETS = sorted(BOOK.rulesets)
CLAIMS = ["threefold-repetition", "fifty-move", "illegal-move"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated(draw: st.DrawFn, base: str = GAME) -> str:
    text = base
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.text(alphabet="()[]{}\";%.x-+#=0Oabcdefgh12345678KQRBNPSLTDCFA♘♞Кр \n\\", max_size=5))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + len(piece):]
        else:
            text = text[:i] + piece + text[i + len(piece):]
    return text


def read_all(text: str) -> None:
    try:
        for number, replay in enumerate(replay_games(text)):
            replay.to_json()
            if number == 0 and len(text) < 10_000:
                assert replay_chess(text, allow_unreadable=True).to_json() == replay.to_json()
    except RecordError as exc:
        assert exc.field in ("record", "start_fen") and exc.message
    except ContractError as exc:
        assert exc.field and exc.message


@FAST
@given(mutated())
def test_mutated_records_never_crash(text: str) -> None:
    read_all(text)


@FAST
@given(st.text(max_size=400))
def test_random_text_never_crashes(text: str) -> None:
    read_all(text)


@FAST
@given(st.binary(max_size=400))
def test_random_bytes_never_crash(data: bytes) -> None:
    read_all(data.decode("utf-8", errors="replace"))


@pytest.mark.parametrize(
    "text",
    [
        "(" * 200_000 + "1. e4",
        "{" * 100_000,
        "[" * 100_000,
        "1. e4 e5 " + "2. Nf3 Nf6 3. Ng1 Ng8 " * 60_000,
        "x" * 1_000_000,
        "1. e4 " + "$1 !? " * 150_000,
        "\x00\x01\x02" * 300_000,
    ],
    ids=["deep-variations", "unclosed-comments", "brackets", "megabyte-of-moves", "megabyte-junk", "nags", "control"],
)
def test_megabyte_and_deeply_nested_inputs(text: str) -> None:
    read_all(text)


def case_strategy() -> st.SearchStrategy[dict[str, Any]]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.text(max_size=12), st.floats())
    return st.fixed_dictionaries(
        {"ruleset": st.sampled_from(RULESETS), "claim": st.sampled_from(CLAIMS)},
        optional={
            "game": st.sampled_from(["chess", "go", None]),  # checkers: its own package
            "claimant": st.sampled_from(["white", "black", "red", "x", None]),
            "record": mutated(),
            "start_fen": st.one_of(st.none(), st.sampled_from(["8/8/8/8/8/8/8/8 w - - 0 1", "k7/8/8/8/8/8/8/7K w - -",
                                                               "bad", "8/8/8/8/8/8/8/8 b KQkq e3 0 1"])),
            "fen": st.one_of(st.none(), st.text(max_size=30), st.just("4k3/8/8/8/8/8/8/4K3 w - - 120 90")),
            "intended_move": st.one_of(st.none(), st.text(max_size=8), st.sampled_from(["Ke2", "O-O", "e8", "--"])),
            "alleged_illegal_ply": scalars,
            "clock": st.one_of(st.none(), st.fixed_dictionaries({"white": scalars, "black": scalars})),
            "time_control": st.one_of(st.none(), st.text(max_size=20), st.just("40/5400+30:1800+30")),
            "touched_piece": scalars,
            "scoresheet": scalars,
            "td_count": scalars,
            "previous_illegal_moves": scalars,
            "clock_pressed_without_move": scalars,
            "two_hands": scalars,
            "language": st.one_of(st.none(), st.sampled_from(["de", "fr", "xx", ""])),
        },
    )


@FAST
@given(case_strategy())
def test_case_json_never_crashes(data: dict[str, Any]) -> None:
    try:
        ruling = rule(parse_case(json.loads(json.dumps(data))), BOOK)
    except ContractError as exc:
        assert exc.message
        assert exc.field is not None or exc.code in ("invalid_case",)
    else:
        json.dumps(ruling.to_json())


def test_deeply_nested_case_json_is_a_contract_error() -> None:
    from web.commands.rule import decode

    with pytest.raises(ContractError) as err:
        parse_case(decode("[" * 100_000 + "]" * 100_000))
    assert err.value.field in ("case", None)


def test_a_long_unreadable_token_is_quoted_by_its_start_and_length_never_whole() -> None:
    """A 99 kB token (under the collection's line limit) is unreadable at once, and every answer about it
    quotes 40 characters and the length: the replay's JSON, its error, and check-games' finding."""
    import time

    from adjudicator.chess.replay import RecordError, replay_chess

    token = "x" * 99_000
    started = time.process_time()
    replay = replay_chess(f"1. e4 {token} 1-0", allow_unreadable=True)
    assert time.process_time() - started < 1.0
    shown = replay.to_json()["unreadable"][0]["token"]
    assert shown == "x" * 40 + "… (99,000 characters)"
    try:
        replay_chess(f"1. e4 {token} 1-0")
    except RecordError as exc:
        assert len(str(exc)) < 300 and "(99,000 characters)" in str(exc)
    else:  # pragma: no cover - the token is no move
        raise AssertionError("an unreadable token must be refused")
