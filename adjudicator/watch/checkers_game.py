"""One live checkers game (PDN) read as the referee watches it, under the ACF rules.

- ``threefold-available``: the position stood for the ``repetition.claim_occurrences``-th time (WCDF 2008 draw
  rule (a)); ``forty-available``: ``move_rule.moves`` moves by each side without a capture or man move, once
  per stretch (draw rule (b), harmonised count; the traditional count starts only on notice, so nothing is
  raised). Both ``claimable``.
- ``flag-down``: ``[%clk 0:00:00]`` in a move's comment, a time forfeit under the match-clock rule
  (``watch.flag_call``).
- ``illegal-move`` (Standard Laws, improper moves): ``check-board``; a move that cannot be made on the board
  at all (the replay stops) is the source fault ``move-not-legal``; ``missing-clock`` as in chess.
"""

from __future__ import annotations

import re

from adjudicator.checkers.claims import ART_FORTY_HARMONISED, ART_IMPROPER_MOVE, ART_REPETITION
from adjudicator.checkers.pdn import PdnGame
from adjudicator.checkers.replay import CheckersRecordError, CheckersReplay, replay_game
from adjudicator.chess.movetext import seconds_of
from adjudicator.contract import ContractError
from adjudicator.rulesets import CheckersRuleset
from adjudicator.watch import policy
from adjudicator.watch.alerts import Finding
from adjudicator.words import ordinal

_CLK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")


def clock_of(comment: str | None) -> float | None:
    """Seconds left after the move, from its comment's ``[%clk h:mm:ss]``."""
    found = _CLK.search(comment or "")
    return seconds_of(found.group(1)) if found else None


def findings(
    game: PdnGame, ruleset: CheckersRuleset, clocks_expected: bool = False
) -> tuple[CheckersReplay | None, list[Finding]]:
    """Every finding of one live checkers game, in order of ply."""
    try:
        replay = replay_game(game)
    except (CheckersRecordError, ContractError) as exc:
        return None, [Finding("unreadable-record", 0, "check-board", (), f"The record cannot be read: {exc}")]
    found: list[Finding] = []
    if replay.unreadable:
        bad = replay.unreadable[0]
        found.append(Finding(
            "move-not-legal", bad.ply, "check-board", (),
            f"Ply {bad.ply} ({bad.token}) is no move from the board's position: {bad.reason}.", bad.token,
        ))
    made = [p for p in replay.plies if p.is_made]
    for ply in replay.plies:
        if not ply.is_made:
            found.append(Finding(
                "move-not-legal", ply.number, "check-board", (),
                f"{ply.label} cannot be made on the board: {ply.reason}. See the board first.", ply.token,
            ))
        elif not ply.is_legal:
            found.append(Finding(
                "illegal-move", ply.number, "check-board", (ruleset.ref(ART_IMPROPER_MOVE),),
                f"{ply.label} was improper: {ply.reason}.", ply.token,
            ))
    needed = ruleset.repetition.claim_occurrences
    seen: dict[object, list[int]] = {replay.start.key: [0]}
    limit = 2 * ruleset.move_rule.moves
    previous = 0
    for ply in made:
        plies = seen.setdefault(ply.after.key, [])
        plies.append(ply.number)
        if len(plies) == needed:  # once per position
            found.append(Finding(
                "threefold-available", ply.number, "claimable", (ruleset.ref(ART_REPETITION),),
                f"After {ply.label} the position stands for the {ordinal(len(plies))} time (plies {plies}).", ply.token,
            ))
        if ruleset.move_rule.count == "harmonised" and ply.counter >= limit > previous:
            found.append(Finding(
                "forty-available", ply.number, "claimable", (ruleset.ref(ART_FORTY_HARMONISED),),
                f"After {ply.label} each side has made {ruleset.move_rule.moves} moves without a capture or a man "
                "move.", ply.token,
            ))
        previous = ply.counter
    clocks = [clock_of(p.comment) for p in made]
    if clocks_expected or any(c is not None for c in clocks):
        missing = next((p for p, c in zip(made, clocks, strict=True) if c is None), None)
        if missing is not None:
            found.append(Finding(
                "missing-clock", missing.number, "check-board", (),
                f"{missing.label} has no [%clk]: the clock times from there are not known from the source.",
                missing.token,
            ))
    flag = next((p for p, c in zip(made, clocks, strict=True) if c is not None and c <= 0), None)
    if flag is not None:
        action, refs = policy.checkers_flag(ruleset)
        found.append(Finding(
            "flag-down", flag.number, action, refs, f"{flag.side.capitalize()}'s clock shows 0:00:00 after "
            f"{flag.label}.", flag.token,
        ))
    found.sort(key=lambda f: f.ply)
    return replay, found
