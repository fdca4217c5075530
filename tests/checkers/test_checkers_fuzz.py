"""Any text is read without a crash: games come back, or a clear record error naming the field."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.checkers import replay_games

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
