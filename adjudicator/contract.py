"""The case going in: parsing and validating the contract's "Case (input)" JSON.

Every entry point (command line, JSON API, web forms) turns its input into a
:class:`Case` here, so every one gives the same error for the same mistake: a
:class:`ContractError` naming the field and the problem.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.case_facts import Facts
from adjudicator.claim_registry import REGISTRY
from adjudicator.contract_error import ContractError as ContractError  # where the claims import it from
from adjudicator.contract_text import CLOCK_TEXT
from adjudicator.contract_text import MAX_RECORD_CHARS as MAX_RECORD_CHARS
from adjudicator.contract_text import Game as Game
from adjudicator.contract_text import unstorable as unstorable

CLAIMS: tuple[str, ...] = tuple(claim.id for claim in REGISTRY)
"""Claim ids of the contract (:mod:`adjudicator.claim_registry`)."""

SIDES: dict[Game, tuple[str, str]] = {"chess": ("white", "black"), "checkers": ("red", "white")}
"""Each game's sides, first mover first. In checkers ``black`` is another name for red."""


MAX_RUN_CHARS = 1_000
"""Longest run of characters without a space that a record may hold. A move, a result, a NAG, a clock
comment's ``[%clk 1:23:45]`` or a list of arrows is a few dozen; a longer run is no record, and reading
it would cost the reader time for nothing (its search for what a misspelt move meant grows with the
token), so the record is refused before it is read."""

_LONG_RUN = re.compile(rf"(?<!\S)\S{{{MAX_RUN_CHARS + 1}}}")
"""The start of a run longer than :data:`MAX_RUN_CHARS` (anchored at the run's first character, so each run
is scanned once: linear time whatever the text)."""
_SPACE = re.compile(r"\s")


MAX_QUOTED_CHARS = 40
"""Longest token an answer quotes whole: a longer one (a run the reader could not read) is quoted by its first
characters and its length, so an answer never echoes a megabyte back."""


def quoted(token: str) -> str:
    """``token`` as an answer quotes it: whole up to :data:`MAX_QUOTED_CHARS` characters, else its start and length."""
    if len(token) <= MAX_QUOTED_CHARS:
        return token
    return f"{token[:MAX_QUOTED_CHARS]}… ({len(token):,} characters)"


def check_runs(text: str, name: str) -> None:
    """Refuse ``text`` when it holds a run of more than :data:`MAX_RUN_CHARS` characters without a space;
    the message quotes the run's first characters only (never the run itself)."""
    found = _LONG_RUN.search(text)
    if found is not None:
        start = found.start()
        space = _SPACE.search(text, found.end())
        length = (len(text) if space is None else space.start()) - start
        raise ContractError(
            "invalid_field",
            f"{name} holds {length:,} characters without a space at character {start + 1:,} "
            f"({text[start:start + 20]!r}...); no move, result or comment word is longer than {MAX_RUN_CHARS:,}",
            name,
        )


@dataclass(frozen=True)
class Clock:
    """Remaining time per side in seconds, and the flags that are down (first to fall first)."""

    remaining: Mapping[str, float]
    flagged: tuple[str, ...] = ()

    def has_flag_down(self, side: str) -> bool:
        return side in self.flagged

    def seconds(self, side: str) -> float | None:
        return self.remaining.get(side)


@dataclass(frozen=True)
class Case:
    """One claim (or unfinished game) as the contract describes it."""

    game: Game
    ruleset: str
    claim: str
    claimant: str | None = None
    record: str | None = None
    start_fen: str | None = None
    fen: str | None = None
    intended_move: str | None = None
    clock: Clock | None = None
    time_control: str | None = None
    alleged_illegal_ply: int | None = None
    language: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Optional fields beyond the core contract, validated by the claim that reads them."""

    @property
    def sides(self) -> tuple[str, str]:
        return SIDES[self.game]

    def opponent(self, side: str) -> str:
        first, second = self.sides
        return second if side == first else first

    @property
    def facts(self) -> Facts:
        """The case's facts beyond the core, typed (:mod:`adjudicator.case_facts`)."""
        return Facts(self.extra)


_KNOWN = {
    "game", "ruleset", "claim", "claimant", "record", "start_fen", "fen", "intended_move",
    "clock", "time_control", "alleged_illegal_ply", "language",
}
_HMS = re.compile(rf"^\s*{CLOCK_TEXT[1:-1]}\s*$")
"""A clock reading as h:mm:ss or m:ss: the pattern the case's schema publishes, spaces around allowed."""


def parse_seconds(value: object, name: str) -> float:
    """A clock reading: seconds (number) or an ``h:mm:ss`` / ``m:ss`` string."""
    if isinstance(value, bool):
        raise ContractError("invalid_field", f"{name} must be seconds or h:mm:ss", name)
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str):
        text = value.strip()
        if _HMS.match(text):
            *hours, minutes, secs = text.split(":")
            if int(minutes) >= 60 and hours or float(secs) >= 60:
                raise ContractError("invalid_field", f"{name}: {value!r} is not a valid h:mm:ss time", name)
            seconds = (int(hours[0]) * 3600 if hours else 0) + int(minutes) * 60 + float(secs)
        else:
            try:
                seconds = float(text)
            except ValueError:
                raise ContractError(
                    "invalid_field", f"{name}: {value!r} is not seconds or h:mm:ss", name
                ) from None
    else:
        raise ContractError("invalid_field", f"{name} must be seconds or an h:mm:ss string", name)
    if not math.isfinite(seconds) or seconds < 0 or seconds > 100 * 3600:
        raise ContractError("invalid_field", f"{name} must be between 0 and 100 hours", name)
    return seconds


def _side(value: object, game: Game, name: str) -> str:
    if not isinstance(value, str):
        raise ContractError("invalid_field", f"{name} must be a side name", name)
    side = value.strip().lower()
    if game == "checkers" and side == "black":
        side = "red"
    if side not in SIDES[game]:
        raise ContractError(
            "invalid_field", f"{name} must be {' or '.join(SIDES[game])} for {game}, not {value!r}", name
        )
    return side


def _optional_str(data: Mapping[str, Any], name: str) -> str | None:
    """A text field, at most as long as the case's schema says (:class:`adjudicator.documents.CaseFields`)."""
    from adjudicator.documents import CaseFields, max_length  # the models load only when a case is read

    limit = max_length(CaseFields, name)
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ContractError("invalid_field", f"{name} must be a string", name)
    if len(value) > limit:
        raise ContractError("invalid_field", f"{name} is longer than {limit} characters", name)
    problem = unstorable(value)
    if problem is not None:
        raise ContractError("invalid_field", f"{name} contains {problem}", name)
    return value


def _clock(value: object, game: Game) -> Clock | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ContractError("invalid_field", "clock must be an object", "clock")
    remaining: dict[str, float] = {}
    flagged: list[str] = []
    for key, item in value.items():
        if key == "flagged":
            if item is None:
                continue
            if not isinstance(item, list):
                raise ContractError("invalid_field", "clock.flagged must be a list of sides", "clock.flagged")
            for entry in item:
                side = _side(entry, game, "clock.flagged")
                if side in flagged:
                    raise ContractError("invalid_field", f"clock.flagged names {side} twice", "clock.flagged")
                flagged.append(side)
        elif isinstance(key, str) and key.lower() in (*SIDES[game], "black"):
            side = _side(key, game, f"clock.{key}")
            if item is not None:
                remaining[side] = parse_seconds(item, f"clock.{key}")
        else:
            raise ContractError("invalid_field", f"clock has an unknown entry {key!r}", f"clock.{key}")
    return Clock(remaining=remaining, flagged=tuple(flagged))


MAX_RECORD_WORDS = 40_000
"""Most words a record's moves may take: twice the plies any game can have (``MAX_PLIES``, 20,000 in chess and in
checkers: the longest game the laws allow is under 18,000 plies), the rest for variations. A longer record is
refused by counting, before any reading or replay (issue 39, item 2)."""

_NOT_MOVES = re.compile(r"\{[^}]*\}|;[^\n]*|^\s*\[[^\]\n]*\]\s*$|(?<!\S)(?:\d+\.+|\$\d+)(?!\S)", re.MULTILINE)
"""What in a record is no move: comments, tag lines, move numbers and NAGs."""


def check_length(text: str, name: str) -> None:
    """Refuse a record with more move words than any game can have, by a count that costs a few milliseconds a
    megabyte: a hostile record is refused before the reader or the replay spend anything on it."""
    if len(text) < MAX_RECORD_WORDS * 2:  # fewer characters than that cannot hold as many words
        return
    words = len(_NOT_MOVES.sub(" ", text).split())
    if words > MAX_RECORD_WORDS:
        raise ContractError("unreadable_record", f"the record holds {words:,} moves and other words, more than any "
                            f"game can have ({MAX_RECORD_WORDS:,} at most)", name)


def _record(data: Mapping[str, Any]) -> str | None:
    record = _optional_str(data, "record")
    if record is not None:
        check_runs(record, "record")
        check_length(record, "record")
    return record


def parse_case(data: object) -> Case:
    """Validate a decoded JSON case; raise :class:`ContractError` naming the first bad field."""
    if not isinstance(data, Mapping):
        raise ContractError("invalid_case", "a case must be a JSON object", None)
    game = data.get("game", "chess")
    if game is None:
        game = "chess"
    if game not in ("chess", "checkers"):
        raise ContractError("invalid_field", f"game must be chess or checkers, not {game!r}", "game")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset:
        raise ContractError("missing_field", "ruleset is required (a ruleset id from config.toml)", "ruleset")
    claim = data.get("claim")
    if not isinstance(claim, str) or not claim:
        raise ContractError("missing_field", "claim is required", "claim")
    if claim not in CLAIMS:
        raise ContractError("unknown_claim", f"unknown claim {claim!r}; one of: {', '.join(CLAIMS)}", "claim")
    claimant = data.get("claimant")
    ply = data.get("alleged_illegal_ply")
    if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int) or ply < 1):
        raise ContractError(
            "invalid_field", "alleged_illegal_ply must be a whole number of at least 1", "alleged_illegal_ply"
        )
    return Case(
        game=game,
        ruleset=ruleset,
        claim=claim,
        claimant=None if claimant is None else _side(claimant, game, "claimant"),
        record=_record(data),
        start_fen=_optional_str(data, "start_fen"),
        fen=_optional_str(data, "fen"),
        intended_move=_optional_str(data, "intended_move"),
        clock=_clock(data.get("clock"), game),
        time_control=_optional_str(data, "time_control"),
        alleged_illegal_ply=ply,
        language=_optional_str(data, "language"),
        extra={k: v for k, v in data.items() if k not in _KNOWN},
    )
