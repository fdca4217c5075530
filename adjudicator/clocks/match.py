"""Checkers match clocks: one allowance for the two games of a ballot, carried from game 1 to game 2.

ACF national events (README 3.4, 4): each balloted opening is played twice with
colours reversed, on a match clock (90 min, or 80 min + 10 s) shared by both games.
Each player starts game 2 with what he had left at the end of game 1, now with the
other colour (P45: Red uses 52:30 and White 61:00 of 90 minutes; in game 2 the
game-1 Red player, now White, has 37:30 and the game-1 White player, now Red, 29:00).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.clocks.timecontrol import TimeControl, hms

RED, WHITE = "red", "white"


@dataclass(frozen=True)
class MatchClock:
    """What each player has left for game 2 of the match, by his colour in game 2."""

    game2: dict[str, float]
    """Seconds by colour in game 2 (``red``/``white``)."""
    game1_remaining: dict[str, float]
    """Seconds left at the end of game 1, by colour in game 1."""

    def describe(self) -> str:
        return (
            f"Game 2: the game-1 Red player plays White with {hms(self.game2[WHITE])}; "
            f"the game-1 White player plays Red with {hms(self.game2[RED])}."
        )

    def to_json(self) -> dict[str, object]:
        return {"game2": dict(self.game2), "game1_remaining": dict(self.game1_remaining)}


def carry_over(
    control: TimeControl,
    *,
    used: dict[str, float] | None = None,
    remaining: dict[str, float] | None = None,
    moves: dict[str, int] | None = None,
) -> MatchClock:
    """Game 2's starting clocks from game 1's time ``used`` (or the clocks ``remaining``) per colour.

    With an increment, each move of game 1 earned it: ``moves`` (per colour) adds them
    when the time *used* is given; clock readings (``remaining``) already include them.
    """
    if (used is None) == (remaining is None):
        raise ValueError("give either the time used or the time remaining in game 1")
    if remaining is None:
        assert used is not None
        base = {RED: control.base_seconds(True), WHITE: control.base_seconds(False)}
        bonus = control.periods(True)[0].increment if control.first else 0.0
        remaining = {
            side: max(0.0, base[side] - used[side] + bonus * (moves or {}).get(side, 0)) for side in (RED, WHITE)
        }
    return MatchClock(game2={WHITE: remaining[RED], RED: remaining[WHITE]}, game1_remaining=dict(remaining))
