"""From an alert of the watch to the claim form, filled from the live game (issue 36, item 3): nothing typed
twice. The alert's kind names the claim the TD will most likely rule on (a fivefold: the threefold claim, whose
first check finds the game already over; a flag: the flag claim with both clocks as the board shows them)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from sqlalchemy.orm import Session

from web.events.access import Actor, may_rule
from web.tables.events import Event
from web.tables.watch import WatchAlert, WatchGame

CLAIM_OF = {
    "threefold-available": "threefold-repetition", "fivefold": "threefold-repetition",
    "fifty-available": "fifty-move", "seventy-five-moves": "fifty-move", "forty-available": "forty-move",
    "flag-down": "flag", "illegal-move": "illegal-move", "dead-position": "unfinished-game",
    "checkmate": "unfinished-game", "stalemate": "unfinished-game", "early-draw": "unfinished-game",
}
"""The claim form an alert opens (source faults open none: the board is looked at first)."""


def hms(seconds: float | None) -> str:
    if seconds is None:
        return ""
    whole = max(0, int(round(seconds)))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def values_from_alert(session: Session, actor: Actor, alert_id: int) -> dict[str, Any] | None:
    """The claim form's values for the alert's game (None: no such alert, or one the actor may not rule on)."""
    alert = session.get(WatchAlert, alert_id)
    if alert is None or alert.kind not in CLAIM_OF:
        return None
    event = session.get(Event, alert.event_id)
    if event is None or not may_rule(session, actor, event):
        return None
    game = session.query(WatchGame).filter_by(event_id=alert.event_id, game=alert.game).one_or_none()
    if game is None:
        return None
    first, second = game.players
    book = current_app.extensions["rulesets"]
    kind = book[event.ruleset].game if event.ruleset and event.ruleset in book.rulesets else "chess"
    values: dict[str, Any] = {
        "claim": CLAIM_OF[alert.kind], "record": game.record, "event_slug": event.slug,
        "round": str(game.round or ""), "board": str(game.board or ""), "first_player": first or "",
        "second_player": second or "",
    }
    values["game"] = kind
    if alert.kind == "illegal-move":
        values["alleged_illegal_ply"] = str(alert.ply)
    if alert.kind == "flag-down":
        first_side, second_side = ("red", "white") if kind == "checkers" else ("white", "black")
        values[f"clock_{first_side}"], values[f"clock_{second_side}"] = hms(game.clock_first), hms(game.clock_second)
    return values
