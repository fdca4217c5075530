"""The sides in the order the game is played: White first in chess, Red (the first mover) first in
checkers (ACF; PDN's ``black`` is another name for Red, :data:`adjudicator.contract.SIDES`). Stored
objects (players, clocks) come back from JSON in any order; pages list them with :func:`in_play_order`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from adjudicator.contract import SIDES

NOT_SIDES = frozenset({"flagged"})
"""Keys of a clock object that are no side (``clock.flagged``)."""


def in_play_order(by_side: Mapping[str, Any] | None, game: str | None) -> list[tuple[str, Any]]:
    """``(label, value)`` for each side in ``by_side``, the first mover first (``White``, ``Black`` in chess;
    ``Red``, ``White`` in checkers, where a ``black`` key is Red); keys that are no side (``flagged``) left
    out; any other key after the sides, as stored."""
    if not by_side:
        return []
    checkers = game == "checkers"
    order = SIDES["checkers" if checkers else "chess"]

    def side_of(key: str) -> str:
        return "red" if checkers and key.lower() == "black" else key.lower()

    keys = [k for k in by_side if k not in NOT_SIDES]
    known = sorted((k for k in keys if side_of(k) in order), key=lambda k: order.index(side_of(k)))
    rest = [k for k in keys if side_of(k) not in order]
    return [(side_of(k).capitalize(), by_side[k]) for k in known] + [(k.capitalize(), by_side[k]) for k in rest]


def init_app(app: Flask) -> None:
    app.jinja_env.filters["in_play_order"] = in_play_order
