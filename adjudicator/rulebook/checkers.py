"""The options of an American checkers ruleset (ACF Standard Laws, 2016 national rules, WCDF 2008).

One model per ``[rulesets.<id>.<section>]`` table; each field's default and meaning is
written here and nowhere else (the reference ``docs/rulesets.md`` is generated from it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from adjudicator.rulebook.common import Ruleset
from adjudicator.rulebook.options import Section, checks, option


class Repetition(Section):
    """``repetition``: the repetition draw (WCDF 2008 draw rule (a))."""

    claim_occurrences: int = option(default=3, description="Occurrences of a position that make a claim correct.")


class MoveRule(Section):
    """``move_rule``: the forty-move rule (WCDF 2008 draw rule (b); README 3.2)."""

    count: Literal["harmonised", "traditional"] = option(
        default="harmonised",
        description="harmonised (counted mechanically from the record) or traditional (the referee's count "
        "after notice).",
    )
    moves: int = option(default=40, description="Moves by each side without a capture or man move for the draw.")


class FlagRefs(Section):
    """``flag.refs``: the articles flag rulings cite."""

    flag: str | None = option(default=None, description="A flag fall; unset: `<authority> time forfeit`.")
    both_flags: str | None = option(default=None, description="Both flags down; unset: the flag article.")
    round: str | None = option(
        default=None,
        description="A game not started in time (round.unstarted_drawn_minutes); unset: `<authority> round rules`.",
    )
    lowder: str | None = option(default=None, description="The Lowder Rule; unset: `<authority> Lowder Rule`.")


class Flag(Section):
    """``flag``: time forfeits (ACF tournament rules)."""

    forfeit_games: int = option(default=1, description="Games a flag fall forfeits: 1 (this game) or 2 (and the next).")
    both_flags: Literal["draw", "last-period-draw", "td-may-draw"] = option(
        default="draw", description="Both flags down: draw, or (either other value) the referee decides."
    )
    next_game: Literal["same-match", "next-round"] = option(
        default="same-match",
        description="With forfeit_games = 2 after the match's last game: same-match (nothing more is forfeited) "
        "or next-round (the next round's first game).",
    )
    refs: FlagRefs = option(default_factory=FlagRefs, description="The articles flag rulings cite.")

    @checks("forfeit_games")
    @classmethod
    def _one_or_two(cls, value: int) -> int:
        if value not in (1, 2):
            raise ValueError(f"must be 1 or 2, not {value}")
        return value


class Lowder(Section):
    """``lowder``: the Lowder Rule (one minute per move near the end of a round), off unless adopted."""

    enabled: bool = option(default=False, description="Whether the event uses the Lowder Rule.")
    move_limit_seconds: int = option(default=60, description="The time allowed for one move.")
    warning_at_seconds: int = option(
        default=50,
        description="When the warning is called; unset: move_limit_seconds - 10.",
        default_text="move_limit_seconds - 10",
    )
    penalty: Literal["loss-after-warning", "loss", "warning", "td-decides"] = option(
        default="loss-after-warning", description="What overstepping the limit costs."
    )

    @classmethod
    def prepare(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """``warning_at_seconds`` left out follows ``move_limit_seconds``."""
        if "warning_at_seconds" not in data:
            limit = data.get("move_limit_seconds", 60)
            if isinstance(limit, int) and not isinstance(limit, bool):
                return {**data, "warning_at_seconds": limit - 10}
        return data


class Round(Section):
    """``round``: rules about the round's end."""

    unstarted_drawn_minutes: int = option(
        default=0, description="Games not started this many minutes before the round ends are drawn; 0: no such rule."
    )


class Adjudication(Section):
    """``adjudication``: unfinished games, by proof search (engines/checkers/proof.py)."""

    proof_nodes: int = option(
        default=200_000,
        description="Positions the proof search may expand for one adjudication (deterministic); "
        "[checkers] proof_nodes caps it on this machine.",
    )

    @checks("proof_nodes")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value <= 0:
            raise ValueError("must be a positive number of positions")
        return value


class IncorrectClaim(Section):
    """``incorrect_claim``: an incorrect draw claim (no ACF time penalty; an event may set one)."""

    opponent_bonus_seconds: int = option(default=0, description="Time for the claimant's opponent; 0: none.")
    penalty: Literal["automatic", "discretionary"] = option(
        default="discretionary", description="automatic: it is added; discretionary: the referee may add it."
    )


class IllegalMove(Section):
    """``illegal_move``: improper moves such as a missed jump (Standard Laws)."""

    correction_window: Literal["before-reply", "game"] = option(
        default="before-reply", description="Until when an improper move can be corrected: before-reply or game."
    )
    opponent_bonus_seconds: int = option(default=0, description="Time for the offender's opponent; 0: none.")
    claim_by_offender: Literal["arbiter-acts", "not-a-claim"] = option(
        default="not-a-claim",
        description="The player who made the improper move reports it himself: not-a-claim (the Standard Laws "
        "give the correction to the opponent: nothing is corrected or awarded unless the referee saw it himself, "
        "case field arbiter_observed) or arbiter-acts (the referee corrects it as on a claim) [verify ACF current "
        "practice].",
    )


class Watch(Section):
    """``watch``: what the arbiter's watch of a live round tells the referee to do (docs/watch.md)."""

    flag_call: Literal["referee", "never"] = option(
        default="referee",
        description="A clock at 0:00:00 in the live record: referee (the referee acts on a time forfeit under "
        "the match-clock rule [verify]) or never (only the opponent may claim it).",
    )


class CheckersRuleset(Ruleset):
    """An American checkers ruleset: the ACF laws or an event's local rules built on them."""

    game: Literal["checkers"] = option(description="checkers.")
    repetition: Repetition = option(default_factory=Repetition, description="Repetition of position.")
    move_rule: MoveRule = option(default_factory=MoveRule, description="The forty-move rule.")
    flag: Flag = option(default_factory=Flag, description="Time forfeits.")
    lowder: Lowder = option(default_factory=Lowder, description="The Lowder Rule.")
    round: Round = option(default_factory=Round, description="The round's end.")
    adjudication: Adjudication = option(default_factory=Adjudication, description="Unfinished games.")
    incorrect_claim: IncorrectClaim = option(default_factory=IncorrectClaim, description="Incorrect draw claims.")
    illegal_move: IllegalMove = option(default_factory=IllegalMove, description="Improper moves.")
    watch: Watch = option(default_factory=Watch, description="The arbiter's watch of a live round.")
