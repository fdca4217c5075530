"""The case's facts beyond the contract's core, typed: one property per field a claim reads.

The fields are those of docs/case-fields.md, "Case fields beyond the core contract". Each is read leniently
and checked when its claim reads it (a fact no claim reads is never refused, as the contract keeps
fields beyond its core for the claims that read them); a wrong type or range is an ``invalid_field``
:class:`~adjudicator.contract.ContractError` naming the field. A fact whose default depends on the
ruleset or on other facts is ``None`` when the case does not give it; the claim says the default.

Facts with their own shapes (``lowder``, ``moves_completed``, ``engine_scores``, ``strengthening_plies``,
the checkers round's ``hh:mm`` times) are read by the claim module that owns them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar

from adjudicator.contract_error import ContractError

TD_FINDINGS = ("clear", "unclear", "incorrect")
"""The arbiter's findings on an insufficient-losing-chances claim (``td_finding``)."""
CheckersSide = Literal["red", "white", "black"]
Choice = TypeVar("Choice", bound=str)


class Facts:
    """The case's optional facts, each read when a claim asks for it (:attr:`adjudicator.contract.Case.facts`)."""

    def __init__(self, extra: Mapping[str, Any]) -> None:
        self._extra = extra

    # -- the readers: the contract's messages, one per kind of field ------------------------------

    def _bool(self, name: str) -> bool | None:
        value = self._extra.get(name)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise _invalid(f"{name} must be true or false", name)
        return value

    def _choice(self, name: str, options: tuple[Choice, ...]) -> Choice | None:
        value = self._extra.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or value not in options:
            raise _invalid(f"{name} must be one of: {', '.join(options)}", name)
        return value

    def _int(self, name: str, minimum: int) -> int | None:
        value = self._extra.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise _invalid(f"{name} must be a whole number of at least {minimum}", name)
        return value

    # -- both games -------------------------------------------------------------------------------

    @property
    def readings(self) -> dict[int, str]:
        """``readings``: the TD's choice where a token of the record reads two ways (``{"17": "Bxc6"}``:
        ply 17 is the bishop's capture), ply -> the move meant in English SAN or coordinates
        (docs/reading-records.md). Empty when not given."""
        value = self._extra.get("readings")
        if value is None:
            return {}
        message = 'readings must map plies to moves, such as {"17": "Bxc6"}'
        if not isinstance(value, Mapping):
            raise _invalid(message, "readings")
        found: dict[int, str] = {}
        for key, move in value.items():
            ply = key if isinstance(key, int) and not isinstance(key, bool) else (
                int(key) if isinstance(key, str) and key.strip().isdigit() else 0
            )
            if ply < 1 or not isinstance(move, str) or not move.strip():
                raise _invalid(message, "readings")
            found[ply] = move.strip()
        return found

    @property
    def missing_moves(self) -> str | None:
        """The moves a numbering gap leaves out, as the TD reads them on the scoresheet, numbered
        (``2... Nc6``; ``2... 24-20`` in checkers), or ``none`` when the number is a slip and no move is
        missing (:mod:`adjudicator.record_gaps`)."""
        value = self._extra.get("missing_moves")
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if not isinstance(value, str) or len(value) > 200:
            raise _invalid("missing_moves must be text of at most 200 characters: the missing moves, numbered as on "
                           "the scoresheet (2... Nc6), or none", "missing_moves")
        return value.strip()

    @property
    def flag_order_known(self) -> bool:
        """With two flags down, the clock shows which fell first (``clock.flagged`` lists it first)."""
        return self._bool("flag_order_known") or False

    @property
    def flag_period(self) -> int | None:
        """The period whose time ran out, 1-based (a period indicator, a mechanical clock's hour mark)."""
        return self._int("flag_period", 1)

    # -- checkers ---------------------------------------------------------------------------------

    @property
    def ballot(self) -> int | None:
        """The ballot (opening) the game was played from, by its number."""
        return self._int("ballot", 1)

    @property
    def count_requested_ply(self) -> int | None:
        """Traditional forty-move count: the ply at which the count was asked for."""
        return self._int("count_requested_ply", 0)

    @property
    def count_side(self) -> CheckersSide | None:
        """Traditional forty-move count: the side that must win within the count (default: the claimant's
        opponent)."""
        return self._choice("count_side", ("red", "white", "black"))

    @property
    def match_game(self) -> int | None:
        """The game of the two-game match the flag fell in."""
        return self._int("match_game", 1)

    @property
    def game_started(self) -> bool | None:
        """Whether the game had started (the round's unstarted-game rule)."""
        return self._bool("game_started")

    @property
    def started_minutes_before_end(self) -> int | None:
        """When the game started, in minutes before the end of the round."""
        return self._int("started_minutes_before_end", 0)

    # -- chess: the claim, as it was made ---------------------------------------------------------

    @property
    def clock_not_pressed(self) -> bool:
        """US Chess 14C4: the claimant made the move but did not press the clock."""
        return self._bool("clock_not_pressed") or False

    @property
    def touched_piece(self) -> bool:
        """The claimant touched a piece meaning to move it before claiming (FIDE 9.4, 4.3)."""
        return self._bool("touched_piece") or False

    @property
    def scoresheet(self) -> bool:
        """False: the claimant stopped recording, the claim rests on :attr:`td_count` (US 14F4)."""
        value = self._bool("scoresheet")
        return True if value is None else value

    @property
    def td_count(self) -> int | None:
        """Moves by each player without a capture or pawn move, counted by the TD or a deputy."""
        return self._int("td_count", 0)

    @property
    def clock_pressed_without_move(self) -> bool:
        """The clock was pressed without a move (FIDE 7.5.3)."""
        return self._bool("clock_pressed_without_move") or False

    @property
    def two_hands(self) -> bool:
        """The move at ``alleged_illegal_ply`` was made with two hands (FIDE 7.5.4)."""
        return self._bool("two_hands") or False

    @property
    def previous_illegal_moves(self) -> int:
        """The same player's illegal moves earlier in the game, already corrected (FIDE 7.5.5)."""
        return self._int("previous_illegal_moves", 0) or 0

    @property
    def arbiter_observed(self) -> bool:
        """The arbiter (referee) saw the illegal move himself (FIDE A.5.2: he acts before the opponent's next move)."""
        return self._bool("arbiter_observed") or False

    @property
    def prompt(self) -> bool | None:
        """Whether the claim came before the claimant's own next move (US 11D); default: from the record."""
        return self._bool("prompt")

    @property
    def armageddon(self) -> bool | None:
        """An Armageddon game (default: the ruleset's)."""
        return self._bool("armageddon")

    @property
    def final_period(self) -> bool | None:
        """Whether the flag fell in the last period, when no ``time_control`` tells."""
        return self._bool("final_period")

    # -- chess: insufficient losing chances (US 14H, FIDE Guidelines III) -------------------------

    @property
    def td_finding(self) -> str | None:
        """The arbiter's own finding on "cannot lose / cannot win by normal means"."""
        return self._choice("td_finding", TD_FINDINGS)

    @property
    def delay_clock_available(self) -> bool | None:
        """A delay clock (14H), or one that can give increment (III.4), is at hand."""
        return self._bool("delay_clock_available")

    @property
    def request(self) -> Literal["draw", "increment"]:
        """Guidelines III: ``increment`` is the III.4 request, ``draw`` (default) the III.5 claim."""
        return self._choice("request", ("draw", "increment")) or "draw"

    @property
    def postponed(self) -> bool:
        """III.5.2: the claim was postponed earlier and is decided now."""
        return self._bool("postponed") or False

    @property
    def opponent_accepts_draw(self) -> bool:
        """III.4: the opponent accepts the implied draw offer."""
        return self._bool("opponent_accepts_draw") or False

    @property
    def arbiter_agrees(self) -> bool:
        """III.4: the arbiter agrees to the increment (default true)."""
        value = self._bool("arbiter_agrees")
        return True if value is None else value

    @property
    def opponent_bonus(self) -> bool:
        """III.5.2: the arbiter gives the opponent the 2 minutes he may give."""
        return self._bool("opponent_bonus") or False

    # -- chess: unfinished games ------------------------------------------------------------------

    @property
    def tablebase_claim(self) -> Literal["win", "draw"]:
        """``unfinished-game`` under ``iccf``: what the player on move claims (default ``win``)."""
        return self._choice("tablebase_claim", ("win", "draw")) or "win"


def _invalid(message: str, name: str) -> ContractError:
    return ContractError("invalid_field", message, name)
