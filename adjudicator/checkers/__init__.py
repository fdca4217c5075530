"""American checkers (ACF): board and moves, PDN records, ballots, claims, diagrams.

Entry point for ``adjudicator replay FILE --game checkers``: :func:`replay_games`.
"""

from __future__ import annotations

from typing import Any


class GameError:
    """A game of a multi-game file that could not be read at all (its JSON is an error line)."""

    def __init__(self, number: int, error: Exception) -> None:
        self.number = number
        self.error = error

    def to_json(self) -> dict[str, Any]:
        from adjudicator.contract import ContractError

        if isinstance(self.error, ContractError):
            body = self.error.to_json()
        else:
            body = {"error": {"code": "unreadable_record", "message": str(self.error), "field": "record"}}
        body["error"]["game"] = self.number
        return body


def replay_games(text: str) -> list[Any]:
    """Every game of a PDN file replayed; each item has ``to_json()`` (the contract's replay shape,
    or an ``{"error": ...}`` object naming the game that could not be read)."""
    from adjudicator.checkers.pdn import read_game, split_games
    from adjudicator.checkers.replay import CheckersRecordError, replay_game

    out: list[Any] = []
    for number, game in enumerate(split_games(text), start=1):
        try:
            out.append(replay_game(read_game(game)))
        except CheckersRecordError as exc:
            out.append(GameError(number, exc))
    return out
