"""Adjudication of an unfinished checkers game (ACF Master Division local rules, README 3.5 and 5.6).

At the end of the round a committee of three adjudicates unfinished games. A
computer may be consulted, but the committee must verify the position; under the
Master Division rules a **win needs a unanimous vote**, anything less is a draw
(``committee.vote_rule``, recorded by the committee pages). This ruling is the
committee's evidence:

* **proven by database**: the position is in the endgame database; the result is
  exact and the winning line (best play to the end) is given for the committee to
  play through on a board;
* **proven by the proof search**: the proof-number search, with the database at its
  leaves, proved a win, a loss or a **draw** (neither side can force a win) within the
  ruleset's budget ``adjudication.proof_nodes``; the proof's main line (to the position
  where it enters the database, with the database's value and distance there: evidence
  ``database_leaf``) and size are given;
* otherwise the best line and score of the alpha-beta search, the calibrated chance
  that the favoured side wins, the reason no proof was found (the budget, a line past
  the depth cap, or no database here), and **no result** (the notes' advice: report
  "favours Red", never declare a result from an evaluation); the case is deferred to
  the committee's vote.

Games not started ``round.unstarted_drawn_minutes`` (30) minutes before the end of the
round are drawn (Master Division). Case fields: ``game_started`` (false: never
started) or ``started_minutes_before_end``. A record given with either is read first, as for any
unfinished game: an unreadable token is refused with its ply (the draw is never ruled past a token
nobody read), and ``game_started`` false beside a record with moves is refused, naming
``game_started``: a game with moves was started (the facts contradict; neither is chosen silently).
"""

from __future__ import annotations

import math
from typing import Any

from adjudicator.checkers.analysis import CheckersAnalysis
from adjudicator.checkers.board import Position
from adjudicator.checkers.claims import game_for_case, side_name, side_to_move
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import CheckersRuleset
from adjudicator.ruling import Result, Ruling, Verdict, win_for
from adjudicator.services import Services

CLAIM = "unfinished-game"


def numbered_line(moves: tuple[str, ...], red_to_move: bool) -> str:
    """PDN move text: ``1. 11-15 23-19 2. ...``, ``1... 23-19`` when White moves first."""
    parts: list[str] = []
    number = 1
    red = red_to_move
    for i, move in enumerate(moves):
        if red:
            parts.append(f"{number}. {move}")
        else:
            parts.append(f"{number}... {move}" if i == 0 else move)
            number += 1
        red = not red
    return " ".join(parts)


def confidence_of(score: int) -> float:
    """How sure an evaluation is that the favoured side wins: 0.5 (level) up to 0.95 (a man or more ahead).

    A heuristic, not a probability: evaluations are evidence for the committee, not results.
    """
    return round(0.5 + 0.45 * math.tanh(abs(score) / 150), 2)


def _proof_nodes(ruleset: CheckersRuleset) -> int:
    """``adjudication.proof_nodes``: positions the proof search may expand for one adjudication."""
    return ruleset.adjudication.proof_nodes


_REASONS = {
    "budget": "the proof search's budget ran out before every line reached a result",
    "depth": "a line ran past the proof search's depth cap without reaching the database",
    "out-of-database": "no endgame database is installed here for the lines to end in",
}


def _article(ruleset: CheckersRuleset) -> str:
    return ruleset.committee.article


def _vote_note(ruleset: CheckersRuleset) -> str:
    if ruleset.committee.vote_rule == "unanimous-for-win":
        return "A win needs the committee's unanimous vote; anything less is a draw."
    return "The committee decides by majority vote."


def rule(case: Case, ruleset: CheckersRuleset, services: Services) -> Ruling:
    """Evidence and, where proven, the result of an unfinished game."""
    refs = (ruleset.ref(_article(ruleset)),)
    unstarted = _unstarted(case, ruleset, refs)
    if unstarted is not None:
        return unstarted
    game = game_for_case(case)
    position = game.position
    mover = side_to_move(position)
    if not position.legal_moves():
        winner = case.opponent(mover)
        reasons: tuple[str, ...] = (
            f"{side_name(mover)} is to move and has no legal move (no pieces, or all blocked): he has lost.",
        )
        evidence = {"method": "rules", "fen": position.fen()}
        return Ruling(CLAIM, Verdict.ADJUDICATED, win_for(winner, "red"), refs, reasons, evidence=evidence)
    if services.checkers is None:
        reasons = ("No checkers analysis is available on this machine; the committee must analyse the position.",)
        return Ruling(CLAIM, Verdict.DEFERRED, None, refs, reasons, (), (_vote_note(ruleset),),
                      {"fen": position.fen()}, 0.0)
    analysis = services.checkers.analyse(position, _proof_nodes(ruleset))
    return _ruling(case, ruleset, refs, position, analysis, game.notes)


def _ruling(
    case: Case, ruleset: CheckersRuleset, refs: tuple[str, ...], position: Position, analysis: CheckersAnalysis,
    notes: tuple[str, ...],
) -> Ruling:
    mover = side_to_move(position)
    other = case.opponent(mover)
    line = numbered_line(analysis.line, position.red_to_move)
    evidence: dict[str, Any] = {
        "fen": position.fen(),
        "method": analysis.method,
        "value_for_side_to_move": analysis.value,
        "line": list(analysis.line),
        "line_pdn": line,
        "plies_to_end": analysis.plies_to_end,
        "score": analysis.score,
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "seconds": round(analysis.seconds, 3),
        "engine": dict(analysis.engine),
        "notes": list(notes),
        "proof_size": analysis.proof_size,
        "proof_nodes": analysis.proof_nodes,
        "settled": list(analysis.settled),
        "database_leaf": dict(analysis.leaf) if analysis.leaf is not None else None,
    }
    if analysis.method == "database":
        how = "proven by database"
    else:
        size = f", {analysis.proof_size} positions in the proof" if analysis.proof_size else ""
        how = f"proven by search with the database at its leaves ({analysis.nodes} positions searched{size})"
    instructions: tuple[str, ...] = (
        "The committee verifies the position and plays through the line on a board before voting.",
        _vote_note(ruleset),
    )
    leaf = _leaf_text(analysis, position)
    if analysis.value == "draw":
        reasons: tuple[str, ...] = (
            f"The position ({position.fen()}) is a draw with best play: {how}; neither side can force a win.",
        )
        if analysis.line:
            reasons += (f"Main line of the proof: {line}.",)
        return Ruling(CLAIM, Verdict.ADJUDICATED, "1/2-1/2", refs, reasons + leaf, (), instructions, evidence)
    if analysis.value in ("win", "loss"):
        winner = mover if analysis.value == "win" else other
        result: Result = win_for(winner, "red")
        reasons = (
            f"{side_name(winner)} wins: {how}, in {analysis.plies_to_end} plies with best play.",
            f"Winning line: {line}.",
        )
        if analysis.method != "database":
            reasons += leaf
        return Ruling(CLAIM, Verdict.ADJUDICATED, result, refs, reasons, (), instructions, evidence)
    score = analysis.score or 0
    favoured = mover if score > 0 else other
    level = abs(score) < 40
    verdict_text = "The position is about level" if level else f"The position favours {side_name(favoured)}"
    why = _REASONS.get(analysis.unproven_reason or "budget", _REASONS["budget"])
    confidence = analysis.confidence if analysis.confidence is not None else confidence_of(score)
    reasons = (  # plain words first, the engine's figures after them (issue 35)
        f"{verdict_text}; nothing is proven ({why}), so no result is declared. The search: score {score:+d} "
        f"for {side_name(mover)}, depth {analysis.depth}, {analysis.nodes} positions.",
    )
    if not level:
        reasons += (f"Chance that {side_name(favoured)} wins, measured on endgame-database positions: "
                    f"{confidence:.2f}.",)
    if analysis.line:
        reasons += (f"Best line found: {line}.",)
    evidence["favours"] = None if level else favoured
    evidence["unproven_reason"] = analysis.unproven_reason
    return Ruling(
        CLAIM, Verdict.DEFERRED, None, refs, reasons, (), instructions, evidence,
        0.5 if level else confidence,
    )


def _leaf_text(analysis: CheckersAnalysis, position: Position) -> tuple[str, ...]:
    """Where a proof's main line enters the database, and what the database says there."""
    leaf = analysis.leaf
    if analysis.method != "proof" or not leaf:
        return ()
    fen = str(leaf.get("fen", ""))
    ply = int(leaf.get("ply", 0))
    try:
        to_move = side_name(side_to_move(Position.from_fen(fen)))
    except ValueError:
        return ()
    value, plies = leaf.get("value"), int(leaf.get("plies", 0))
    said = ("a draw" if value == "draw" else
            f"{to_move} {'wins' if value == 'win' else 'loses'} in {plies} plies with best play")
    where = "at once" if ply == 0 else f"after {ply} plies"
    return (f"The line reaches the endgame database {where} ({fen}, {to_move} to move): there the database gives "
            f"{said}.",)


def _unstarted(case: Case, ruleset: CheckersRuleset, refs: tuple[str, ...]) -> Ruling | None:
    """Master Division: a game not started in time is drawn."""
    minutes = ruleset.round.unstarted_drawn_minutes
    started = case.facts.game_started is not False
    before_end = case.facts.started_minutes_before_end
    if minutes <= 0 or (started and (before_end is None or before_end >= minutes)):
        return None
    if case.record and case.record.strip():
        replay = game_for_case(case).replay  # raises for an unreadable token, naming its ply
        moves = len(replay.plies) if replay is not None else 0
        if not started and moves:
            raise ContractError(
                "invalid_field", f"game_started is false, but the record has {moves} move(s): a game with moves was "
                "started (give started_minutes_before_end for a late start)", "game_started")
    when = "was not started" if not started else f"started only {before_end} minutes before the end of the round"
    reasons: tuple[str, ...] = (
        f"The game {when}: games not started {minutes} minutes before the end of the round are drawn.",
    )
    evidence = {"unstarted_drawn_minutes": minutes, "game_started": started, "started_minutes_before_end": before_end}
    ref = ruleset.flag.refs.round or ruleset.ref(ruleset.committee.article)  # the event's own round rule
    return Ruling(CLAIM, Verdict.ADJUDICATED, "1/2-1/2", (ref,), reasons, evidence=evidence)
