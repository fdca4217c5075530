"""An event's pairings from its TRF file: imported by a TD, looked up by round and board so
the claim form fills in the players (and History search, the sheet and the exports, which
read the case's players, get them without the TD typing them twice)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from adjudicator.trf import parse_trf
from web.audit import append, now
from web.inputs import whole_number
from web.tables.events import Event, EventFacts
from web.tables.pairings import Pairing


def import_trf(session: Session, event: Event, text: str, actor: str) -> int:
    """Replace the event's pairings with the file's; the number of games imported (audited).

    :raises adjudicator.trf.TrfError: the file cannot be read (nothing is changed).
    """
    tournament = parse_trf(text)
    session.execute(delete(Pairing).where(Pairing.event_id == event.id))
    stamp = now()
    for p in tournament.pairings:
        session.add(Pairing(event_id=event.id, round=p.round, board=p.board, white=p.white.name[:200],
                            black=p.black.name[:200], white_rating=p.white.rating, black_rating=p.black.rating,
                            imported_at=stamp))
    append(session, "event-pairings", event.subject,
           {"games": len(tournament.pairings), "players": len(tournament.players), "name": tournament.name},
           actor=actor)
    session.commit()
    return len(tournament.pairings)


def pairing_for(session: Session, event: EventFacts, round_text: str, board_text: str) -> Pairing | None:
    """The game on that board in that round (round and board as typed: whole numbers in digits 0-9, within
    the columns' range; anything else is no pairing)."""
    round_number, board_number = whole_number(round_text), whole_number(board_text)
    if round_number is None or board_number is None:
        return None
    return session.scalar(select(Pairing).where(Pairing.event_id == event.id, Pairing.round == round_number,
                                                Pairing.board == board_number))


def rounds_of(session: Session, event: Event) -> list[Pairing]:
    return list(session.scalars(select(Pairing).where(Pairing.event_id == event.id)
                                .order_by(Pairing.round, Pairing.board)))
