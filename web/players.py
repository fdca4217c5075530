"""The players of a claim nobody typed, for every way in (the claim form and the JSON API).

Typed names win; else the event's imported pairings (a TRF file) for the round and board; else
the record's own tags (PGN ``White``/``Black``; PDN ``Black`` or ``Red``, and ``White``), and the
round from its ``Round`` tag. History search, the ruling page, the sheet and the exports all read
the names stored with the case, so a TD never types them twice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from adjudicator.chess.movetext import split_games
from web.events.pairings import pairing_for
from web.tables.events import EventFacts

UNKNOWN = ("", "?", "-", "??")
"""Tag values that mean "not known" in PGN and PDN."""


def record_tags(record: str) -> dict[str, str]:
    """The first game's tags with a value, read leniently (the record's own errors are the ruling's)."""

    if not record.lstrip().startswith("["):
        return {}
    try:
        game = next(iter(split_games(record)), None)
    except Exception:  # the record's own errors are reported when it is ruled on
        return {}
    if game is None:
        return {}
    return {key: value.strip() for key, value in game.tags if value.strip() not in UNKNOWN}


def players(session: Session, event: EventFacts | None, game: str, record: str, round_text: str,
            board_text: str) -> tuple[str, str] | None:
    """(first player, second player) from the pairings, else the record's tags; None when neither knows."""
    if event is not None:
        pairing = pairing_for(session, event, round_text, board_text)
        if pairing is not None:
            return pairing.white, pairing.black
    tags = record_tags(record)
    first = tags.get("White") if game == "chess" else tags.get("Black") or tags.get("Red")
    second = tags.get("Black") if game == "chess" else tags.get("White")
    if not (first or second):
        return None
    return (first or "")[:200], (second or "")[:200]


def completed_meta(session: Session, event: EventFacts | None, data: Mapping[str, Any],
                   meta: Mapping[str, Any]) -> dict[str, Any]:
    """``meta`` with the round and the players nobody gave filled in (see the module docstring)."""
    filled = dict(meta)
    given = data.get("record")
    record = given if isinstance(given, str) else ""
    if not str(filled.get("round") or "").strip():
        found = record_tags(record).get("Round")
        if found:
            filled["round"] = found[:20]
    if str(filled.get("first_player") or "").strip() or str(filled.get("second_player") or "").strip():
        return filled
    game = "checkers" if data.get("game") == "checkers" else "chess"
    names = players(session, event, game, record, str(filled.get("round") or ""), str(filled.get("board") or ""))
    if names is not None:
        filled["first_player"], filled["second_player"] = names
    return filled


def _tokens(name: str) -> list[str]:
    return [t for t in re.split(r"[^\w]+", name.casefold()) if t and not t.isdigit()]


def same_person(first: str, second: str) -> bool:
    """Whether two spellings name the same player: every word of the shorter name is in the longer, an
    initial standing for any word it begins (``Carlsen, M.`` is ``Magnus Carlsen``; the order is free)."""
    a, b = _tokens(first), _tokens(second)
    if not a or not b:
        return True  # nothing to compare
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return all(any(w == t or (len(w) == 1 and t.startswith(w)) or (len(t) == 1 and w.startswith(t)) for t in long)
               for w in short)


def record_names(game: str, record: str) -> tuple[str, str]:
    """(first player, second player) as the record's tags name them (empty where a tag is missing)."""
    tags = record_tags(record)
    first = tags.get("White") if game == "chess" else tags.get("Black") or tags.get("Red")
    second = tags.get("Black") if game == "chess" else tags.get("White")
    return first or "", second or ""


def names_mismatch(game: str, record: str, first: str | None, second: str | None) -> tuple[str, str] | None:
    """The record's own names when they are not the players given (typed, or from the pairings): the
    names were not silently replaced, so the TD is shown both (None: they agree, or one side is unknown)."""
    tagged = record_names(game, record)
    given = (first or "", second or "")
    if not any(tagged) or not any(given):
        return None
    if all(same_person(t, g) for t, g in zip(tagged, given, strict=True) if t and g):
        return None
    return tagged
