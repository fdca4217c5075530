"""``unfinished-game``: a result for a game left unfinished at the end of a round (chess).

Adjudication is not part of the FIDE Laws or the US Chess rules; where an event uses it,
the analysis is *evidence for the committee*, not the ruling (rules README §5.6). The
ruleset's ``adjudication.mode`` chooses how the evidence is used:

A record that passed through an ending (checkmate, stalemate, a dead position, 9.6) and
went on is not adjudicated: the game ended there (:mod:`.over`), whatever the mode.

* ``recommend`` (FIDE, US Chess and the events built on them): rules first (checkmate
  5.1.1, stalemate 5.2.1, dead position 5.2.2), then tablebases, then the engine (see
  :mod:`adjudicator.chess.assessment`). The ruling recommends 1-0, 0-1 or 1/2-1/2 with a
  confidence; a position the engine cannot settle is *unclear* (result null).
* ``engine-event`` (computer chess, cutechess-cli(6) and TCEC practice, README §6): the
  event's own rules decide: ``-resign movecount=C score=S [twosided]`` and
  ``-draw movenumber=N movecount=C score=S`` on the engines' reported scores (case field
  ``engine_scores``), ``-maxmoves N``, and tablebase adjudication (``-tb``, ``-tbpieces``,
  ``-tbignore50``). When none applies, the game goes on (result null).
* ``tablebase-claim`` (ICCF, 2013 Kraków / 2019 Vilnius decisions): the player on move
  claims a win or draw (case field ``tablebase_claim``) on the position now or on a
  proposed move written but not played (``intended_move``); a claim on the opponent's turn
  must wait (cases P51).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import chess

from adjudicator.chess.assessment import COLOR_NAMES, Assessment, Thresholds, assess
from adjudicator.chess.claims import over
from adjudicator.chess.positions import JudgedPosition, judged_position
from adjudicator.contract import Case, ContractError
from adjudicator.evidence import LAW_ENDINGS
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Ruling, Verdict, unique
from adjudicator.services import Services

CLAIM = "unfinished-game"


def rule(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    """Adjudicate (or recommend a result for) the unfinished game of ``case``."""
    position = judged_position(case)  # a record ending in an impossible position: 7.5.1 reinstates
    board = position.board
    mode = ruleset.adjudication.mode
    ended = _ended_earlier(case, ruleset, services, position)
    if ended is not None:
        ruling = ended
    elif mode == "engine-event":
        ruling = _engine_event(case, board, ruleset, services)
    elif mode == "tablebase-claim":
        ruling = _tablebase_claim(case, board, ruleset, services)
    else:
        ruling = recommend(board, ruleset, services)
    if position.reinstated is None:
        return ruling
    return dataclasses.replace(
        ruling,
        rule_refs=unique([*ruling.rule_refs, position.article(ruleset)]),
        reasons=(*position.notes(), *ruling.reasons),
        instructions=(*position.instructions(), *ruling.instructions),
        evidence={**ruling.evidence, "reinstated_before_ply": position.reinstated.number},
    )


def _ended_earlier(
    case: Case, ruleset: ChessRuleset, services: Services, position: JudgedPosition
) -> Ruling | None:
    """The game ended before the position judged (:mod:`.over`): that ending is the result, not an adjudication.

    An ending in the position judged itself is the adjudication's first step
    (:func:`adjudicator.chess.assessment.assess`: the rules before tables and engine).
    """
    replay = position.replay
    if replay is None or not replay.plies:
        return None
    last = len(replay.plies) if position.reinstated is None else position.reinstated.number - 1
    game = over.check(CLAIM, case, ruleset, services, replay, position.board, until=last)
    if not game.is_over or game.ended is None or game.ended.ply >= last:
        return None
    return game.ruling()


def recommend(board: chess.Board, ruleset: ChessRuleset, services: Services) -> Ruling:
    """The committee's recommendation: rules, tables, engine; unclear when nothing settles it."""
    a = assess(board, ruleset, services)
    basis = ruleset.adjudication.basis
    instructions: list[str] = []
    if a.is_unclear:
        instructions.append(
            "No result is recommended: the committee must analyse the position itself "
            "(or the game must be finished or adjourned)."
        )
    elif a.confidence < 1.0:
        instructions.append(
            f"Recommendation only ({a.confidence:.0%} confidence): the committee verifies the line and votes."
        )
    elif a.method in LAW_ENDINGS:
        instructions.append("The Laws ended the game in this position: record the result; there is nothing for "
                            "the committee to decide.")
    else:
        instructions.append("The result is proven from the position; the committee confirms it.")
    return Ruling(
        claim=CLAIM,
        verdict=Verdict.ADJUDICATED,
        result=a.result,
        rule_refs=unique([*a.rule_refs, basis]),
        reasons=(*a.reasons, *([] if a.result else ["The position is unclear; no result is given."])),
        instructions=tuple(instructions),
        evidence={"fen": board.fen(), "recommendation": a.result, **a.evidence()},
        confidence=round(a.confidence, 3),
    )


# ---------------------------------------------------------------- engine events (cutechess-cli)


def _scores(case: Case) -> dict[chess.Color, list[int]]:
    raw = case.extra.get("engine_scores")
    if raw is None:
        return {chess.WHITE: [], chess.BLACK: []}
    if not isinstance(raw, Mapping):
        raise ContractError("invalid_field", "engine_scores must be an object {white: [...], black: [...]}",
                            "engine_scores")
    scores: dict[chess.Color, list[int]] = {}
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        values = raw.get(name, [])
        if not isinstance(values, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values
        ):
            raise ContractError("invalid_field", f"engine_scores.{name} must be a list of centipawn scores",
                                f"engine_scores.{name}")
        scores[color] = [int(v) for v in values]
    unknown = set(raw) - {"white", "black"}
    if unknown:
        raise ContractError("invalid_field", f"engine_scores has an unknown entry {sorted(unknown)[0]!r}",
                            "engine_scores")
    return scores


def _engine_event(case: Case, board: chess.Board, ruleset: ChessRuleset, services: Services) -> Ruling:
    rules = ruleset.adjudication
    cli = rules.event_rules
    rules_only = Services(mate=services.mate)
    base = assess(board, ruleset, rules_only, Thresholds.from_ruleset(ruleset))
    evidence: dict[str, Any] = {"fen": board.fen(), **base.evidence()}
    if base.method in LAW_ENDINGS:
        return _decided(base, evidence)
    played = board.fullmove_number - 1
    max_moves = rules.max_moves
    if max_moves and played >= max_moves:
        return Ruling(
            CLAIM, Verdict.ADJUDICATED, "1/2-1/2", (f"{cli} -maxmoves",),
            (f"{played} full moves have been played, reaching the event's limit of {max_moves}: a draw.",),
            evidence={**evidence, "full_moves": played, "max_moves": max_moves},
        )
    t = Thresholds.from_ruleset(ruleset)
    if services.tablebase is not None and chess.popcount(board.occupied) <= t.tablebase_pieces:
        tb = assess(board, ruleset, Services(mate=services.mate, tablebase=services.tablebase), t)
        if tb.method == "tablebase":
            return Ruling(CLAIM, Verdict.ADJUDICATED, tb.result, (f"{cli} -tb",), tb.reasons,
                          evidence={"fen": board.fen(), **tb.evidence()})
    scores = _scores(case)
    evidence["engine_scores"] = {"white": scores[chess.WHITE], "black": scores[chess.BLACK]}
    resign_count, resign_score, twosided = rules.resign_movecount, rules.resign_score_cp, rules.resign_twosided
    if resign_count:
        for loser in (chess.WHITE, chess.BLACK):
            own, other = scores[loser][-resign_count:], scores[not loser][-resign_count:]
            if len(own) < resign_count or any(s > -resign_score for s in own):
                continue
            if twosided and (len(other) < resign_count or any(s < resign_score for s in other)):
                continue
            winner = COLOR_NAMES[not loser]
            told = f"{COLOR_NAMES[loser]}'s engine reported {', '.join(map(str, own))} cp on its last " \
                   f"{resign_count} moves: at least {resign_score} cp below zero every time"
            if twosided:
                told += f", and {winner}'s engine at least +{resign_score} cp on the same moves"
            return Ruling(
                CLAIM, Verdict.ADJUDICATED, "1-0" if loser == chess.BLACK else "0-1",
                (f"{cli} -resign",), (told + f": {winner} wins by adjudication.",),
                evidence={**evidence, "resign": {"movecount": resign_count, "score": resign_score,
                                                 "twosided": twosided}},
            )
    draw_count, draw_score, draw_from = rules.draw_movecount, rules.draw_score_cp, rules.draw_movenumber
    if draw_count and board.fullmove_number > draw_from and board.halfmove_clock >= 2 * draw_count:
        both = [scores[c][-draw_count:] for c in (chess.WHITE, chess.BLACK)]
        if all(len(s) == draw_count and all(abs(v) <= draw_score for v in s) for s in both):
            return Ruling(
                CLAIM, Verdict.ADJUDICATED, "1/2-1/2", (f"{cli} -draw",),
                (f"Both engines reported scores within {draw_score} cp of zero on their last {draw_count} "
                 f"moves, after move {draw_from}, with no capture or pawn move in between: a draw.",),
                evidence={**evidence, "draw": {"movenumber": draw_from, "movecount": draw_count,
                                               "score": draw_score}},
            )
    return Ruling(
        CLAIM, Verdict.ADJUDICATED, None, (cli,),
        ("None of the event's adjudication rules (resign, draw, move limit, tablebases) applies yet: "
         "the game goes on.",),
        instructions=("Play continues.",),
        evidence=evidence, confidence=1.0,
    )


def _decided(a: Assessment, evidence: Mapping[str, Any]) -> Ruling:
    return Ruling(CLAIM, Verdict.ADJUDICATED, a.result, a.rule_refs, a.reasons, evidence=dict(evidence),
                  confidence=a.confidence)


# ---------------------------------------------------------------- ICCF tablebase claims


def _tablebase_claim(case: Case, board: chess.Board, ruleset: ChessRuleset, services: Services) -> Ruling:
    ref = ruleset.adjudication.claim_ref
    claimant = case.claimant
    if claimant is None:
        raise ContractError("missing_field", "claimant is required for a tablebase claim", "claimant")
    claimed = case.facts.tablebase_claim
    color = chess.WHITE if claimant == "white" else chess.BLACK
    if board.turn != color:
        return Ruling(
            CLAIM, Verdict.REJECTED, None, (ref,),
            (f"It is {COLOR_NAMES[board.turn]}'s turn: a claim is made on the claimant's own turn, on the "
             "position then or on a proposed move that has not been played. This claim must wait until "
             f"{COLOR_NAMES[color]}'s next turn.",),
            instructions=("The game goes on; the player may claim again on his next turn.",),
            evidence={"fen": board.fen(), "turn": COLOR_NAMES[board.turn].lower()},
        )
    reasons: list[str] = []
    if case.intended_move:
        try:
            move = board.parse_san(case.intended_move)
        except ValueError:
            try:
                move = board.parse_uci(case.intended_move)
            except ValueError:
                raise ContractError("invalid_field", f"intended_move {case.intended_move!r} is not a legal move "
                                    "in the position", "intended_move") from None
        reasons.append(f"The claim rests on the proposed move {board.san(move)} (not played).")
        board = board.copy(stack=False)
        board.push(move)
    t = Thresholds.from_ruleset(ruleset)
    a = assess(board, ruleset, Services(mate=services.mate, tablebase=services.tablebase), t)
    evidence = {"fen": board.fen(), "tablebase_claim": claimed, **a.evidence()}
    if a.method != "tablebase" and a.method not in LAW_ENDINGS:
        pieces = chess.popcount(board.occupied)
        return Ruling(
            CLAIM, Verdict.DEFERRED, None, (ref,),
            (*reasons, f"The position has {pieces} pieces; no tablebase installed here covers it "
             f"(at most {t.tablebase_pieces} pieces are claimable)."),
            instructions=("Verify the claim against the full tablebases before ruling.",),
            evidence=evidence, confidence=0.0,
        )
    own = 1 if color == chess.WHITE else -1
    proven = (a.outcome or 0) * own
    holds = proven == 1 if claimed == "win" else proven == 0
    reasons.extend(a.reasons)
    if holds:
        result = a.result
        reasons.append(f"The claimed {claimed} is proven.")
        return Ruling(CLAIM, Verdict.UPHELD, result, (ref, *a.rule_refs), tuple(reasons), evidence=evidence)
    reasons.append(f"The tables do not support the claimed {claimed}; the game goes on.")
    return Ruling(CLAIM, Verdict.REJECTED, None, (ref, *a.rule_refs), tuple(reasons),
                  instructions=("Play continues.",), evidence=evidence)
