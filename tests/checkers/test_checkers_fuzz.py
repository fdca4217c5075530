"""Any text is read without a crash: games come back, or a clear record error naming the field."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.checkers import replay_games
from adjudicator.checkers.board import START
from adjudicator.checkers.replay import replay_checkers

TOKENS = st.sampled_from([
    "11-15", "23-19", "8x11", "22x15x8", "1.", "2...", "{flag}", "(9-14 22-17)", "1-0", "*", '[FEN "B:W21-32:B1-12"]\n',
    '[FEN "W:WK3:B"]\n', "32-28", "33-1", "x", "-", "K", ";note\n", "\n\n", "[Event \"e\"]\n", "26-22White", "0-0",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(TOKENS, max_size=30).map(" ".join) | st.text(max_size=200))
def test_replay_never_crashes(text: str) -> None:
    for game in replay_games(text):
        body = game.to_json()
        assert "plies" in body or body["error"]["field"].startswith("record")


# ------------------------------------------------------------------ every token accounted for

NOISE = st.one_of(
    st.sampled_from(["33-37", "9x", "5-5", "foo", "0-33", "12-16-", "22", "x", "-", "K", "$", "8-11x", ")", "}",
                     "123-19", "9-444", "1/2", "1-0-"]),
    st.builds("{}-{}".format, st.integers(33, 99), st.integers(1, 32)),
    st.builds("{}x{}".format, st.integers(1, 32), st.sampled_from([0, 33, 40, 64, 99])),
    st.builds("{0}-{0}".format, st.integers(2, 32)),  # 1-1 is a result (a draw)
)
"""Tokens that cannot be a move on a 1-32 board."""
NON_MOVES = st.sampled_from(
    ["{a comment}", "{[%clk 0:04:59]}", "$3", "$14", "!?", "!", "??", "(9-13 22-18)", "(1. 9-14 {x} (22-17))",
     ";a line comment\n", "...", "{}"]
)
"""Tokens that are no move but known: comments, clock comments, NAGs, glyphs, variations, ellipses."""


@st.composite
def noisy_games(draw: st.DrawFn) -> tuple[list[tuple[str, str]], list[str]]:
    """A legal game from the start (the project's move generator), as PDN words with noise and known non-moves.

    Returns ([(kind, word)], [moves played]); kind is move, number, known or noise.
    """
    position, played, words = START, [], []
    for ply, choice in enumerate(draw(st.lists(st.integers(0, 10_000), max_size=40))):
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[choice % len(legal)]
        if ply % 2 == 0:
            words.append(("number", f"{ply // 2 + 1}."))
        words.append(("move", str(move)))
        played.append(str(move))
        position = position.push(move)
    for kind, strategy in (("known", NON_MOVES), ("noise", NOISE)):
        for token in draw(st.lists(strategy, max_size=3 if kind == "noise" else 6)):
            words.insert(draw(st.integers(0, len(words))), (kind, token))
    words.append(("result", draw(st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1"]))))
    return words, played


@settings(max_examples=150, deadline=None)
@given(noisy_games())
def test_the_first_token_that_is_no_move_is_reported_at_its_exact_ply(
    game: tuple[list[tuple[str, str]], list[str]],
) -> None:
    """Noise at random places: the first is unreadable at (moves before it + 1), those moves replayed as written."""
    words, played = game
    replay = replay_checkers(" ".join(word for _, word in words))
    first = next((i for i, (kind, _) in enumerate(words) if kind == "noise"), None)
    if first is None:
        assert replay.unreadable == () and [str(p.move) for p in replay.plies] == played
        return
    before = sum(kind == "move" for kind, _ in words[:first])
    assert [str(p.move) for p in replay.plies] == played[:before]
    assert all(p.is_legal for p in replay.plies)
    assert replay.to_json()["plies"] == before
    assert [(u.ply, u.token) for u in replay.unreadable] == [(before + 1, words[first][1])]
