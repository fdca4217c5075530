"""An unfinished-game ruling referred to the committee (issue 22, item 7): the new-case form filled from the
ruling, so the TD types nothing the product has.

What fills it, fact by fact (never asked again):

- the game, the ruleset, the record (its start position too), the time control, the round and the board: the
  ruled case's own;
- the position: the record's end as the ruling read it (:func:`web.committee.position.position_of`), else the
  position ruled on; the form's board editor shows it;
- the clocks: the readings the TD gave (a number of seconds written ``h:mm:ss``);
- the players: the names stored with the ruled case (the claim form filled them from the event's pairings or
  the record's tags), else the event's pairings for the round and board, else the record's tags;
- each player's club and team: the record's ``WhiteClub``/``WhiteTeam`` (``BlackClub``...) tags, else what an
  earlier committee case of the same event gave for that player (clubs are what the committee's conflict rule
  reads).

The form then carries the ruling's id; :func:`web.committee.service.referred_ruling` checks it and the
database holds one committee case per ruling (migration 0015).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.contract import ContractError, parse_case
from web.boards import parse_pdn_fen
from web.charts import hms
from web.committee.position import position_of
from web.players import players, record_tags
from web.tables.committee import CommitteeCase
from web.tables.events import Event
from web.tables.rulings import CaseRow, RulingRow


def referral_values(session: Session, ruling: RulingRow, case: CaseRow, event: Event) -> dict[str, Any]:
    """The new-case form's values (as :func:`web.committee.views._form_case` reads them back) for ``ruling``."""
    data = case.data
    game = "checkers" if case.game == "checkers" else "chess"
    sides = ("red", "white") if game == "checkers" else ("white", "black")
    record = data.get("record") if isinstance(data.get("record"), str) else None
    values: dict[str, Any] = {
        "game": game,
        "ruleset": case.ruleset,
        "record": record,
        "start_fen": data.get("start_fen") if isinstance(data.get("start_fen"), str) else None,
        "fen": _position(data),
        "time_control": None if data.get("time_control") is None else str(data["time_control"]),
        "round": case.round,
        "board": case.board,
        "members": [],
        "event": event.slug,
        "ruling": ruling.id,
        "clock": _clocks(data.get("clock"), sides),
    }
    names = (case.first_player, case.second_player)
    if not any(names):
        names = players(session, event, game, record or "", case.round or "", case.board or "") or (None, None)
    values["players"] = {side: {"name": name or None, **_affiliation(session, event, record or "", side, name)}
                         for side, name in zip(sides, names, strict=True)}
    return values


def _position(data: Mapping[str, Any]) -> str | None:
    """The position the committee adjudicates: the record's end, else the position ruled on."""
    try:
        found = position_of(parse_case(data))
    except ContractError:
        return data.get("fen") if isinstance(data.get("fen"), str) else None
    fen = found.get("fen")
    return fen if isinstance(fen, str) else None


def _clocks(clock: object, sides: tuple[str, str]) -> dict[str, str]:
    if not isinstance(clock, Mapping):
        return {}
    found: dict[str, str] = {}
    for side in sides:
        value = clock.get(side)
        if isinstance(value, bool) or value is None:
            continue
        found[side] = hms(float(value)) if isinstance(value, int | float) else str(value)
    return found


def _affiliation(session: Session, event: Event, record: str, side: str,
                 name: str | None) -> dict[str, str | None]:
    """The player's club and team: the record's tags, else an earlier committee case of the event."""
    tag = {"white": "White", "black": "Black", "red": "Black"}[side]  # PDN: Black is Red's tag
    tags = record_tags(record)
    found: dict[str, str | None] = {"club": tags.get(f"{tag}Club"), "team": tags.get(f"{tag}Team")}
    if name and not (found["club"] and found["team"]):
        for earlier in session.scalars(select(CommitteeCase).where(CommitteeCase.event_id == event.id)
                                       .order_by(CommitteeCase.id.desc())):
            for entry in earlier.players.values():
                if isinstance(entry, Mapping) and entry.get("name") == name:
                    found["club"] = found["club"] or entry.get("club")
                    found["team"] = found["team"] or entry.get("team")
            if found["club"] and found["team"]:
                break
    return found


def position_differs(data: Mapping[str, Any]) -> str | None:
    """Why the form's position and record cannot both stand (None: they agree, or only one is given).

    With a record the committee adjudicates the record's end (the record rules); a board edited away from it
    would be set aside in silence, so the form refuses it and says how to choose."""
    fen, record = data.get("fen"), data.get("record")
    if not (isinstance(fen, str) and fen.strip() and isinstance(record, str) and record.strip()):
        return None
    end = _position({k: v for k, v in data.items() if k != "fen"})
    if end is None or _same_position(str(data.get("game")), end, fen):
        return None
    return ("the position on the board is not the record's end (the record rules): clear the record to "
            "adjudicate the board's position, or set the board back")


def _same_position(game: str, first: str, second: str) -> bool:
    if game == "checkers":
        a, b = parse_pdn_fen(first), parse_pdn_fen(second)
        return a is not None and a == b and first.strip()[:1].upper() == second.strip()[:1].upper()
    return first.split()[:2] == second.split()[:2]
