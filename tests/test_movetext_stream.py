"""Reading a collection game by game (``adjudicator replay`` streams): the same games as reading it whole.

:func:`adjudicator.chess.stream.stream_games` cuts a stream of lines into games without
holding more than one; whatever the layout (tags or none, comments across lines,
results, stray brackets, lines cut into pieces), the games it gives are exactly
those :func:`~adjudicator.chess.movetext.split_games` finds in the whole text.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.chess.movetext import split_games
from adjudicator.chess.stream import OversizedGame, stream_games

FRAGMENTS = [
    '[Event "a"]', '[White "b"]', '[Result "1-0"]', '[FEN "8/8/8/8/8/8/8/k6K w - - 0 1"]', "1.", "e4", "e5", "2...",
    "Nf3", "1-0", "0-1", "1/2-1/2", "*", "{", "}", "{ [%clk 1:00:00] }", "{comment}", ";", "; line", "(", ")",
    "$1", "!?", "]", "[", "%escape", "\ufeff", "12", "O-O", '[Event "x', "½-½",
    # real files (issue 20): other tag names, a forum's wrapper, other dashes, brackets enclosing nothing
    '[BlackType "program"]', '[Black-Elo "2800"]', "[pgn]", "[/pgn]", "1–0", "½–½", "(((", ")))", "[Round 3]", "\n\n1.",
]
SPACING = [" ", "\n", "\n\n", "\t", "\r\n"]


def key(game: Any) -> tuple[Any, ...]:
    return (game.tags, [(m.text, m.clock, m.emt, m.unreadable) for m in game.moves], game.result, game.notes)


def pieces(text: str, size: int) -> Iterator[str]:
    for line in io.StringIO(text, newline=""):
        for start in range(0, len(line), size):
            yield line[start:start + size]


def streamed(text: str, size: int, every: int) -> list[tuple[Any, ...]]:
    out = []
    for game in stream_games(pieces(text, size), check_every=every):  # hand games on after every piece, or rarely
        assert not isinstance(game, OversizedGame)
        out.append(key(game))
    return out


texts = st.lists(st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(SPACING)), max_size=60).map(
    lambda parts: "".join(a + b for a, b in parts)
)


@settings(max_examples=400, deadline=None)
@given(text=texts, size=st.sampled_from([1, 3, 8, 65536]), every=st.sampled_from([1, 7, 50, 1 << 16]))
def test_streamed_games_are_the_games_of_the_whole_text(text: str, size: int, every: int) -> None:
    assert streamed(text, size, every) == [key(game) for game in split_games(text)], (text, size)


def test_a_collection_is_read_a_little_at_a_time() -> None:
    game = '[Event "e"]\n[White "w"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
    read: list[int] = []

    def lines() -> Iterator[str]:
        for number, line in enumerate(io.StringIO(game * 20_000), start=1):
            read.append(number)
            yield line

    stream = stream_games(lines())
    first = next(stream)
    assert not isinstance(first, OversizedGame) and first.tag("Event") == "e" and len(first.moves) == 4
    assert len(read) < 20_000  # some kilobytes read, not the 1 MB collection
    assert sum(1 for _ in stream) == 19_999


def test_a_game_beyond_the_limit_is_reported_and_the_next_one_read() -> None:
    long_game = '[Event "long"]\n\n' + ("1. e4 {" + "x" * 5000 + "} e5\n") * 40 + "1-0\n\n"
    short = '[Event "short"]\n\n1. d4 d5 1/2-1/2\n'
    found = list(stream_games(io.StringIO((long_game + short) * 3), max_chars=100_000))
    kinds = [type(game).__name__ for game in found]
    assert kinds == ["OversizedGame", "RawGame"] * 3
    assert found[0].chars > 100_000  # type: ignore[union-attr]
    assert found[1].tag("Event") == "short"  # type: ignore[union-attr]


def test_pdn_files_stream_into_the_same_games(test_data: Path) -> None:
    from adjudicator.checkers import pdn

    for name in ("acf_archive_sample500.pdn", "tinsley.pdn"):
        text = (test_data / "checkers" / name).read_text(encoding="utf-8", errors="replace")
        assert list(pdn.stream_games(pieces(text, 50))) == pdn.split_games(text)


def test_a_pdn_game_beyond_the_limit_is_reported_and_the_next_one_read() -> None:
    from adjudicator.checkers import pdn

    text = '[Event "long"]\n1. 11-15 {' + "x" * 300 + "} 23-19 *\n" + '[Event "short"]\n1. 9-13 22-18 *\n'
    found = list(pdn.stream_games(pieces(text, 7), max_chars=200))
    assert isinstance(found[0], OversizedGame)
    assert found[1:] == pdn.split_games('[Event "short"]\n1. 9-13 22-18 *\n')


def test_a_checkers_record_longer_than_any_game_is_refused() -> None:
    from adjudicator.checkers.pdn import read_game
    from adjudicator.checkers.replay import MAX_PLIES, CheckersRecordError, replay_game

    with pytest.raises(CheckersRecordError, match="more than any game"):
        replay_game(read_game("11-15 15-11 " * (MAX_PLIES // 2 + 1)))
