"""Illegal-move claims (FIDE 7.5 and Appendices A.3, A.5.2; US Chess 11A, 11B, 11D).

The record keeps illegal moves as played; this module rules on one of them: the first
irregularity still correctable, whatever ply was alleged (:mod:`.irregularity`; FIDE 7.5.1
"the position immediately before the irregularity"), and says so when it is not the one
alleged. A report by the player who made the move follows ``claim_by_offender`` (same module).

- FIDE 7.5.1: reinstate the position immediately before the irregularity; the
  touch-move rules (4.3, 4.4.3 for castling) apply to the replacement move.
  7.5.2: a promotion with the pawn not replaced: the pawn becomes a queen.
  7.5.3: pressing the clock without a move (case field ``clock_pressed_without_move``,
  or ``--`` in the record). 7.5.4: two hands (case field ``two_hands``).
- 7.5.5: the first completed illegal move gives the opponent 2 minutes (A.3: 1 in
  rapid and blitz); the ``loss_on_count``-th loses, unless the opponent cannot
  checkmate by any series of legal moves (then a draw). Earlier completed illegal
  moves of the same player that were corrected: case field ``previous_illegal_moves``.
  Arbiters' Manual on 7.5: the increment gained by pressing the clock is removed
  (``remove_increment``): the increment in force on the move, read from the case's
  ``time_control`` by the reader every claim uses (:func:`read_time_control`); with no
  control (or ``?``) the ruling tells the arbiter to remove it if the clock added one.
- Correction window (``correction_window``): ``game`` (FIDE standard: any time),
  ``before-reply`` (A.5.2: only before the opponent's next move; otherwise the
  move stands), ``last-moves`` (US 11A: among either player's last
  ``correction_window_moves`` moves; 11B: earlier ones stand).
- US 11D (``bonus_only_if_prompt``): the 2 minutes only when claimed before the
  claimant's own next move; US Chess has no automatic loss (``loss_on_count = 0``).

A game already over comes before the illegal move (:mod:`.over`, where the order of
events is argued): an ending (a dead position, mate, 9.6) that arose *before* the illegal
move means the move came after the end of the game: neither corrected nor penalised,
the ending is the ruling. An ending the illegal move itself produced ends nothing
(5.2.2's proviso). An ending that arose *after* it is cancelled with the later moves
when the move is corrected (7.5.1, US 11A), and stands with them when it can no longer
be (A.5.2 after the reply, US 11B): then the game ended there, and the ruling says both.

The arbiter's correction comes first: every test the rules make on "the position" after
the irregularity is made on the position the arbiter's action leaves, and the ruling's
evidence shows it (``fen``). 7.5.1: the position before the illegal move, reinstated;
7.5.2: the position with the new queen (the move stands); 7.5.3: the position on the
board, the offender still to move; a move that stands (A.5.2, US 11B): the position as
it stands. So the 7.5.5 question "can the opponent checkmate by any series of legal
moves" after an unreplaced promotion that captured the opponent's last piece is asked
with the queen on the board, and answered no: a draw, not a loss.
"""

from __future__ import annotations

import chess

from adjudicator.chess.claims import irregularity, over
from adjudicator.chess.claims.penalties import format_clock, format_duration, is_reduced_period, time_award
from adjudicator.chess.positions import legal_replay
from adjudicator.chess.replay import Ply, Replay, parse_fen, replay_chess
from adjudicator.chess.san import piece_name
from adjudicator.clocks.flagfall import time_control_and_source
from adjudicator.clocks.notation import parse_time_control
from adjudicator.clocks.timecontrol import TimeControl
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Adjustment, Result, Ruling, Verdict, unique, win_for
from adjudicator.services import Services

CLAIM = "illegal-move"


def read_time_control(case: Case) -> TimeControl | None:
    """The case's ``time_control`` read by the one reader every claim uses (:func:`parse_time_control`).

    ``None`` when none is given (the ruling then says "if the clock added an increment, remove it").

    :raises TimeControlError: a control nobody can read (``invalid_time_control``, field ``time_control``),
        as the flag and insufficient-losing-chances claims refuse it.
    """
    text = case.time_control
    if text is None or not text.strip():
        return None
    return parse_time_control(text, "time_control")


def increment_seconds(control: TimeControl, move_number: int, first_mover: bool = True) -> float:
    """The increment (not a delay) the clock adds after the side's ``move_number``-th move; 0 if none.

    Read from the parsed control, so every spelling of one control gives the same increment
    (``G/90+30``, ``G/90;inc30``, ``5400+30``): the period the move falls in (a final period
    with a move count repeats), that side's periods when each side has its own (``G/5 v G/4``),
    none before the control's ``from move N``, none for a delay (``d5``, ``+5d``, Bronstein),
    an hourglass, no control (``-``) or an unknown one (``?``).
    """
    if control.is_untimed or control.is_unknown or control.is_hourglass or move_number < control.bonus_from_move:
        return 0.0
    index = control.period_index_for_move(move_number, first_mover)
    return control.period(index, first_mover).increment


def _mate_check(board: chess.Board, color: chess.Color, services: Services) -> tuple[bool | None, dict[str, object]]:
    """Whether ``color`` can still checkmate (FIDE 7.5.5 last sentence), with the method used."""
    if services.mate is not None:
        search = services.mate.search(board, color)
        evidence: dict[str, object] = {"method": search.method, "nodes": search.nodes}
        if search.helpmate:
            evidence["helpmate"] = list(search.helpmate)
        can = None if search.unwinnable is None else not search.unwinnable
        return can, evidence
    return not board.has_insufficient_material(color), {
        "method": "python-chess has_insufficient_material (the unwinnability analysis is not available here)"
    }


_refs = irregularity.refs


def _replay(case: Case) -> Replay:
    if case.record:
        return legal_replay(case)
    fen = case.fen or case.start_fen
    if fen is None:
        raise ContractError("missing_field", "an illegal-move claim needs the record (or the position)", "record")
    parse_fen(fen, "fen" if case.fen else "start_fen")
    return replay_chess("", fen)


def rule(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    """Rule on an illegal-move claim: reinstate, clocks, and the count towards a loss.

    Whether the game was already over is asked first, in the order of events of
    :mod:`.over`: an ending before the illegal move is the ruling; one after it counts only
    when the illegal move can no longer be corrected (the moves, and the ending, stand).
    """
    read_time_control(case)  # an unreadable control is refused whatever the record shows (as a flag claim does)
    replay = _replay(case)
    us = ruleset.is_a("uschess")
    if case.facts.clock_pressed_without_move:
        game = over.check(CLAIM, case, ruleset, services, replay)  # the claimed point: the position now
        if game.is_over:
            return game.ruling()
        return game.finish(_no_move(case, ruleset, replay, services))
    found = irregularity.find(case, replay, ruleset)
    ply = found.ply
    two_hands = case.facts.two_hands and ply is not None and found.alleged is not None \
        and ply.number == found.alleged.number
    if ply is not None:
        earlier = over.check(CLAIM, case, ruleset, services, replay, until=ply.number - 1)
        if earlier.is_over:
            late = f"{replay.label(ply.number)} (ply {ply.number}) was made after the game had ended"
            return earlier.ruling(after=(f"{late}: it is neither corrected nor penalised.",))
    if ply is None or (ply.is_legal and not two_hands):
        if ply is None:
            reason = "The record has no illegal move."
        else:
            reason = f"{replay.label(ply.number)} (ply {ply.number}) was a legal move."
        game = over.check(CLAIM, case, ruleset, services, replay)
        if game.is_over:
            return game.ruling(lead=(reason,))
        return game.finish(Ruling(
            claim=CLAIM, verdict=Verdict.REJECTED, result=None,
            rule_refs=tuple(_refs(ruleset, "11A" if us else "7.5.1")),
            reasons=(reason,), instructions=("play continues",),
            evidence={"illegal_plies": [p.number for p in replay.illegal], "method": "record replayed ply by ply"},
        ))
    offender = ply.side
    opponent = case.opponent(offender)
    label = replay.label(ply.number)
    why = ply.reason or ("made with two hands (7.5.4)" if two_hands else "illegal")
    reasons = [f"{label} (ply {ply.number}) was illegal: {why}.", *found.reasons]
    correctable, window_reason, refs = irregularity.window(ruleset, replay, ply.number)
    refs = [*refs, *found.rule_refs]
    reasons.append(window_reason)
    evidence: dict[str, object] = {
        "ply": ply.number, "move": replay.san(ply.number), "offender": offender,
        "illegal_plies": [p.number for p in replay.illegal], "method": "record replayed ply by ply",
    }
    if found.alleged is not None:
        evidence["alleged_ply"] = found.alleged.number
    if found.stood:
        evidence["standing_illegal_plies"] = list(found.stood)
    who = irregularity.report(case, ruleset, offender, found.anchor)
    evidence["claimant"] = who.claimant
    if who.reason is not None:
        reasons.insert(0, who.reason)
        evidence["reported_by"] = "offender"
        evidence["claim_by_offender"] = who.mode
        refs = [*refs, *who.rule_refs]
    if not correctable or not who.corrects:
        game = over.check(CLAIM, case, ruleset, services, replay)  # the moves stand, and an ending among them
        if game.is_over:
            return game.ruling(lead=reasons, refs=refs)
        evidence["fen"] = replay.final_board.fen()  # the moves stand: the position as it stands
        standing = ["the moves stand; play continues"]
        if correctable:  # not a claim: the opponent may still claim before his next move
            refs = [*refs, *_refs(ruleset, "11A" if us else "A.5.2")]
            until = " before making the next move" if ruleset.illegal_move.correction_window == "before-reply" else ""
            standing = [f"play continues; {opponent.capitalize()} may claim the illegal move{until}, "
                        "otherwise it stands"]
        return game.finish(Ruling(
            claim=CLAIM, verdict=Verdict.REJECTED, result=None, rule_refs=unique(refs),
            reasons=tuple(reasons), instructions=tuple(standing), evidence=evidence,
        ))
    before = replay.board_after(ply.number - 1)
    corrected = before  # 7.5.1 (and 7.5.3 with ``--``): the position before the irregularity
    instructions: list[str] = []
    if ply.irregularity == "unreplaced-promotion":
        corrected = replay.final_board  # 7.5.2: the move stands with a queen; later moves stand too
        square = chess.SQUARE_NAMES[ply.move.to_square] if ply.move else "?"
        instructions.append(f"replace the pawn on {square} by a {offender} queen; the move stands")
        refs += _treated_as_illegal(ruleset, "7.5.2", reasons)
        evidence["position"] = replay.fen_at(ply.number)
    elif ply.irregularity == "no-move":
        instructions.append(f"{offender.capitalize()} is still to move: restart {offender.capitalize()}'s clock")
        refs += _treated_as_illegal(ruleset, "7.5.3", reasons)
        evidence["position"] = replay.fen_at(ply.number - 1)
    else:
        later = len(replay.plies) - ply.number
        annulled = f"; the {later} later move(s) are cancelled" if later else ""
        instructions.append(f"reinstate the position before {label} ({replay.fen_at(ply.number - 1)}){annulled}")
        clocks = _clocks_before(replay, ply.number)
        if clocks:
            evidence["clocks_before"] = clocks
            reasons.append(
                "The record's clock times before the illegal move: "
                + ", ".join(f"{side.capitalize()} {format_clock(seconds)}" for side, seconds in clocks.items())
                + f" (the arbiter sets the clocks by best judgement, {ruleset.ref('7.1') if not us else 'TD'})."
            )
        instructions.extend(_touch_move(before, ply, ruleset))
        evidence["position"] = replay.fen_at(ply.number - 1)
        if two_hands:
            refs += _treated_as_illegal(ruleset, "7.5.4", reasons)
    evidence["fen"] = corrected.fen()
    return earlier.finish(_penalise(case, ruleset, replay, services, ply, corrected, offender, opponent, reasons,
                                   instructions, refs, evidence, bonus=who.awards_bonus))


def _treated_as_illegal(ruleset: ChessRuleset, article: str, reasons: list[str]) -> list[str]:
    """FIDE 7.5.2-7.5.4 treat these as illegal moves; US Chess has no such article, so none is cited there and
    the ruling says the TD applies 11A / 11D to it by analogy, with the discretion of 1C2b."""
    if not ruleset.is_a("uschess"):
        return _refs(ruleset, article)
    reasons.append(
        "The US Chess rules have no article treating this as an illegal move (FIDE has "
        f"{article}); it is ruled as one here, and the TD may decide otherwise ({ruleset.ref('1C2b')})."
    )
    return _refs(ruleset, "1C2b")


def _clocks_before(replay: Replay, ply: int) -> dict[str, float]:
    """The last ``[%clk]`` reading of each side before ``ply``, when the record has them."""
    clocks: dict[str, float] = {}
    for earlier in reversed(replay.plies[: ply - 1]):
        if earlier.clock is not None and earlier.side not in clocks:
            clocks[earlier.side] = earlier.clock
        if len(clocks) == 2:
            break
    return dict(sorted(clocks.items(), key=lambda item: item[0] != "white"))


def _touch_move(before: chess.Board, ply: Ply, ruleset: ChessRuleset) -> list[str]:
    """4.3 / 4.4.3: the replacement move is made with the piece touched, if it can move legally."""
    if ply.move is None or not ply.move:
        return []
    side = ply.side.capitalize()
    piece = before.piece_type_at(ply.move.from_square)
    if piece is None:
        return []
    legal = [m for m in before.legal_moves if m.from_square == ply.move.from_square]
    square = chess.SQUARE_NAMES[ply.move.from_square]
    article = "10" if ruleset.is_a("uschess") else ("4.4.3" if before.is_castling(ply.move) else "4.3")
    if before.is_castling(ply.move) or (piece == chess.KING and abs(ply.move.to_square - ply.move.from_square) == 2):
        if legal:
            return [f"{side} must make a legal move with the king ({article})"]
        return [f"{side}'s king has no legal move: {side} may make any legal move"]
    if legal:
        return [f"{side} must move the {piece_name(piece)} on {square} if it has a legal move ({article})"]
    return [f"the {piece_name(piece)} on {square} has no legal move: {side} may make any legal move"]


def _no_move(case: Case, ruleset: ChessRuleset, replay: Replay, services: Services) -> Ruling:
    """7.5.3: the clock pressed without a move, treated and penalised as an illegal move."""
    board = replay.final_board
    offender = case.opponent(case.claimant) if case.claimant else ("white" if board.turn else "black")
    opponent = case.opponent(offender)
    reasons = [
        f"{offender.capitalize()} pressed the clock without making a move, which is treated and penalised as "
        f"an illegal move.",
        "The arbiter first considers whether it was a distraction rather than an illegal move "
        "(Arbiters' Manual on 7.5.3).",
    ]
    instructions = [f"restart {offender.capitalize()}'s clock: {offender.capitalize()} must now make a move"]
    evidence: dict[str, object] = {
        "offender": offender, "position": board.fen(), "fen": board.fen(), "method": "case fields",
    }
    fake = Ply(len(replay.plies) + 1, "--", chess.Move.null(), False, "no move",
               mover=chess.WHITE if offender == "white" else chess.BLACK, move_number=board.fullmove_number,
               irregularity="no-move")
    return _penalise(case, ruleset, replay, services, fake, board, offender, opponent, reasons, instructions,
                     _treated_as_illegal(ruleset, "7.5.3", reasons), evidence, prompt_default=True)


def _penalise(
    case: Case, ruleset: ChessRuleset, replay: Replay, services: Services, ply: Ply, corrected: chess.Board,
    offender: str, opponent: str, reasons: list[str], instructions: list[str], refs: list[str],
    evidence: dict[str, object], prompt_default: bool | None = None, bonus: bool = True,
) -> Ruling:
    us = ruleset.is_a("uschess")
    previous = case.facts.previous_illegal_moves
    count = previous + 1
    evidence["illegal_move_count"] = count
    loss_on = ruleset.illegal_move.loss_on_count
    if loss_on and count >= loss_on:
        return _loss(ruleset, corrected, ply, offender, opponent, count, reasons, instructions, refs, evidence,
                     services)
    if loss_on:
        reasons.append(f"This is {offender.capitalize()}'s illegal move number {count} in the game.")
    elif us:
        reasons.append("US Chess has no automatic loss for repeated illegal moves; the TD may penalise (1C2b).")
    adjustments: list[Adjustment] = []
    seconds = ruleset.illegal_move.opponent_bonus_seconds
    only_prompt = ruleset.illegal_move.bonus_only_if_prompt
    prompt = prompt_default if prompt_default is not None else ply.number == len(replay.plies)
    given = case.facts.prompt
    if given is not None:
        prompt = given
    bonus_refs = _refs(ruleset, "11D", "1C2a") if us else _refs(ruleset, "7.5.5")
    if not us and is_reduced_period(ruleset):
        bonus_refs += _refs(ruleset, "A.3")
    if not bonus:
        pass  # the offender's own report: the reason (irregularity.report) says why nothing is added
    elif only_prompt and not prompt:
        reasons.append(
            f"No {format_duration(seconds)} is awarded: the claim was not made before {opponent.capitalize()}'s "
            f"own next move."
        )
        refs += _refs(ruleset, "11D")
    else:
        award = time_award(
            ruleset, seconds=seconds, side=opponent, clock=case.clock,
            why=f"{offender.capitalize()} completed an illegal move", refs=bonus_refs,
        )
        adjustments.extend(award.adjustments)
        instructions.extend(award.instructions)
        reasons.extend(award.reasons)
        refs += list(award.rule_refs)
    if ruleset.illegal_move.remove_increment:
        control = read_time_control(case)
        source = "the case"
        if control is None:  # never ask for a fact the product has: the record's tag, else the ruleset's default
            control, source = time_control_and_source(None, ruleset, replay.tag("TimeControl"))
        if control is not None:
            evidence["time_control"] = control.to_json()
            evidence["time_control_source"] = source
        if control is None or control.is_unknown:
            instructions.append(f"if the clock added an increment for {offender.capitalize()}'s move, remove it")
        else:
            inc = increment_seconds(control, ply.move_number, first_mover=offender == "white")
            if inc > 0:
                adjustments.append(
                    Adjustment(offender, -inc, "the increment gained by pressing the clock after the illegal move "
                                               "(Arbiters' Manual on 7.5)")
                )
                instructions.append(
                    f"remove the {inc:g} s increment {offender.capitalize()} gained by pressing the clock"
                    + ("" if source == "the case" else f" (the time control from {source})")
                )
    return Ruling(
        claim=CLAIM, verdict=Verdict.UPHELD, result=None, rule_refs=unique(refs), reasons=tuple(reasons),
        adjustments=tuple(adjustments), instructions=tuple(instructions), evidence=evidence,
    )


def _loss(
    ruleset: ChessRuleset, corrected: chess.Board, ply: Ply, offender: str, opponent: str, count: int,
    reasons: list[str], instructions: list[str], refs: list[str], evidence: dict[str, object], services: Services,
) -> Ruling:
    """7.5.5: the n-th completed illegal move loses, unless the opponent cannot mate (then a draw).

    The question is asked of ``corrected``, the position the arbiter's action leaves (module docstring).
    """
    refs = [*refs, ruleset.ref("7.5.5")]
    color = chess.WHITE if opponent == "white" else chess.BLACK
    can_mate, mate_evidence = _mate_check(corrected, color, services)
    evidence["mate_check"] = mate_evidence
    reasons.append(f"This is {offender.capitalize()}'s illegal move number {count}, which loses the game")
    first = "white"
    result: Result
    if can_mate is None:
        reasons[-1] += ", unless the opponent cannot checkmate by any series of legal moves; that is undecided."
        return Ruling(
            claim=CLAIM, verdict=Verdict.DEFERRED, result=None, rule_refs=unique(refs), reasons=tuple(reasons),
            instructions=(*instructions[:0], f"the arbiter must establish whether {opponent.capitalize()} can "
                          "checkmate by any series of legal moves: if so 0-1/1-0 for the opponent, else a draw"),
            evidence=evidence, confidence=0.5,
        )
    if can_mate:
        reasons[-1] += "."
        result = win_for(opponent, first)
        text = f"the game is over: {opponent.capitalize()} wins"
    else:
        reasons[-1] += (
            f", but {opponent.capitalize()} cannot checkmate by any series of legal moves, so the game is drawn."
        )
        result = "1/2-1/2"
        text = "the game is over: drawn"
    return Ruling(
        claim=CLAIM, verdict=Verdict.UPHELD, result=result, rule_refs=unique(refs), reasons=tuple(reasons),
        instructions=(text,), evidence=evidence,
    )
