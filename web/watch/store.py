"""The watch's writes: the lease of an event's watch, its alerts, its games, and acknowledgements.

The lease (``watch_leases``): a process reads an event's broadcast only while it holds the event's row, taken
when it is free or expired and renewed each poll; every other process finds it held and waits. A process that
dies stops renewing, and another takes the lease once ``expires_at`` passes.

Alerts are written once (unique on event, game, kind, ply, action): a restarted watch reads the round again
from nothing and raises the same alerts, which find their rows, their acknowledgements with them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.watch import Alert, WatchState
from web.tables.users import User
from web.tables.watch import WatchAck, WatchAlert, WatchGame, WatchLease


class AlreadyAcknowledged(ValueError):
    """The alert was acknowledged before (by the user and at the time it names)."""


def take_lease(session: Session, event_id: int, holder: str, seconds: float, now: float | None = None) -> bool:
    """Take or renew the event's lease for ``holder``; False when another holder's lease runs."""
    now = time.time() if now is None else now
    renewed = session.execute(
        update(WatchLease).where(WatchLease.event_id == event_id,
                                 (WatchLease.holder == holder) | (WatchLease.expires_at < now))
        .values(holder=holder, expires_at=now + seconds)
    )
    if renewed.rowcount:  # type: ignore[attr-defined]
        session.commit()
        return True
    if session.get(WatchLease, event_id) is not None:
        session.rollback()
        return False
    try:
        session.add(WatchLease(event_id=event_id, holder=holder, expires_at=now + seconds))
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True


def store(session: Session, event_id: int, alerts: Sequence[Alert], state: WatchState) -> None:
    """The copy's alerts (new rows; withdrawn ones marked) and every game as read now."""
    now = time.time()
    for alert in alerts:
        if alert.kind == "source-unavailable":
            continue
        row = session.scalar(select(WatchAlert).where(
            WatchAlert.event_id == event_id, WatchAlert.game == alert.game, WatchAlert.kind == alert.kind,
            WatchAlert.ply == alert.ply, WatchAlert.action == alert.action))
        if alert.withdrawn:
            if row is not None and row.withdrawn_at is None:
                row.withdrawn_at = now
            continue
        if row is None:
            session.add(WatchAlert(
                event_id=event_id, game=alert.game, board=alert.board, round=alert.round, kind=alert.kind,
                action=alert.action, ply=alert.ply, move=alert.move, rule_refs_json=json.dumps(list(alert.rule_refs)),
                players_json=json.dumps(list(alert.players)), reason=alert.reason, raised_at=now))
        else:
            row.withdrawn_at, row.board = None, alert.board
    for game in state.games.values():
        row_game = session.scalar(select(WatchGame).where(WatchGame.event_id == event_id,
                                                          WatchGame.game == game.identity))
        if row_game is None:
            row_game = WatchGame(event_id=event_id, game=game.identity)
            session.add(row_game)
        elif row_game.record == game.text and row_game.board == game.board:
            continue
        row_game.board, row_game.round = game.board, game.round
        row_game.players_json = json.dumps(list(game.players))
        row_game.last_move, row_game.result, row_game.plies = game.last_move, game.result, len(game.moves)
        row_game.clock_first, row_game.clock_second = game.clocks.first, game.clocks.second
        row_game.record, row_game.updated_at = game.text, now
    session.commit()


def acknowledge(session: Session, alert: WatchAlert, user: User, now: float | None = None) -> WatchAck:
    """Store who acknowledged ``alert`` and when (:raises AlreadyAcknowledged: someone did before)."""
    if alert.ack is not None:
        raise AlreadyAcknowledged(f"acknowledged by {alert.ack.user.name}")
    ack = WatchAck(alert_id=alert.id, user_id=user.id, acknowledged_at=time.time() if now is None else now)
    session.add(ack)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise AlreadyAcknowledged("acknowledged meanwhile by someone else") from None
    return ack
