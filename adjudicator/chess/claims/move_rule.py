"""Fifty-move claims and the automatic 75-move and fivefold endings (FIDE 9.3, 9.6; US Chess 14F, 14K).

- 9.3.2 (US 14F): the last 50 moves by each player were made without a pawn move
  or a capture (the counter is at least 100 half-moves). A promotion is a pawn move;
  castling and checks are not resets.
- 9.3.1: the written move (``intended_move``), not played, would complete them; a
  capture or pawn move restarts the count, so such a claim fails.
- The game already over is checked first (:mod:`.over`): checkmate, stalemate, a dead
  position (5.2.2, US 14D), and 9.6.1 / 9.6.2: fivefold repetition and 75 moves end the
  game by themselves (a mate on the 75th move takes precedence); later moves and flags
  are irrelevant.
  US Chess 14K only lets the TD declare the draw, after five *consecutive*
  repetitions: the ruling is then ``deferred`` with that instruction.
- US 14F4 (case fields ``scoresheet: false`` and ``td_count``): a player who has
  stopped recording can only rely on a count kept by the TD or a deputy.
- A written move when the 50 moves are already complete: 9.3 draws "upon a correct
  claim" when *either* 9.3.1 (the written move completes them) *or* 9.3.2 (they have
  been completed) holds, and US 14F reads the same. The claim is correct on the board
  (9.3.2), so it is upheld whatever the written move is (a pawn move, a capture, even an
  illegal move): the written move is not played (9.2.1 / 9.3.1: it is only declared), so
  it cannot undo a count already complete. Judging only the written move would reject a
  correct claim and add 2 minutes to the opponent's clock for it.
- US 14K: the TD *may* declare a draw at 75 moves without a claim; a player's correct
  claim under 14F is upheld, however far past 75 moves the count stands (the "may" is
  about the TD acting unasked, not about the claim).

A claim with no record uses the half-move field of ``fen``: the same position with the
same counters gets the same verdict as the record reaching it (the endings that need no
claim, a dead position among them, are judged on the given position too, see :mod:`.over`).
"""

from __future__ import annotations

import chess

from adjudicator.chess.claims import common, over
from adjudicator.chess.claims.automatic import describe, first_discretionary
from adjudicator.chess.positions import legal_position, legal_replay
from adjudicator.chess.replay import Replay, replay_chess
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Ruling, Verdict, unique
from adjudicator.services import Services

CLAIM = "fifty-move"


def can_claim_fifty_moves(counter: int, moves: int = 50) -> bool:
    """Whether ``moves`` moves by each player have been made without a pawn move or capture."""
    return counter >= 2 * moves


def _last_reset(replay: Replay) -> int | None:
    """The last ply that was a capture or a pawn move (None: none in the record)."""
    for ply in reversed(replay.plies):
        if ply.counter == 0:
            return ply.number
    return None


def _replay(case: Case) -> Replay:
    if case.record:
        return legal_replay(case)
    fen = case.fen or case.start_fen
    if not fen:
        raise ContractError("missing_field", "give the record or the position (fen)", "record")
    field = "fen" if case.fen else "start_fen"
    legal_position(fen, field)
    return replay_chess("", fen)


def rule(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    """Rule on a fifty-move claim, checking first whether the game was already over (:mod:`.over`)."""
    replay = _replay(case)
    game = over.check(CLAIM, case, ruleset, services, replay)  # a position given (ply 0) is judged too
    if game.is_over:
        return game.ruling()
    return game.finish(_rule(case, ruleset, replay))


def _rule(case: Case, ruleset: ChessRuleset, replay: Replay) -> Ruling:
    board = replay.final_board
    us = ruleset.is_a("uschess")
    moves = ruleset.move_rule.claim_moves
    claimant = case.claimant or common.side_name(board.turn)
    opponent = case.opponent(claimant)
    refused = common.admissible(CLAIM, case, ruleset, board, claimant)
    if refused is not None:
        return refused
    method = "record replayed ply by ply" if replay.plies else "half-move field of the FEN"
    counter = replay.counter
    base = [ruleset.ref("14F")] if us else []
    if not case.facts.scoresheet:
        td_count = case.facts.td_count
        if td_count is None:
            return common.rejected(
                CLAIM, case, ruleset, replay, claimant, opponent,
                [
                    f"{claimant.capitalize()} has no up-to-date scoresheet, and no count was kept by the "
                    f"{'TD or a deputy' if us else 'arbiter'}, so the claim cannot be supported."
                ],
                [ruleset.ref("14F4")] if us else [ruleset.ref("9.3"), ruleset.ref("11.12")],
                {"scoresheet": False, "td_count": None}, None,
            )
        counter, method = 2 * td_count, "count kept by the TD or a deputy"
    intended = common.read_intended(case, replay, board)
    evidence: dict[str, object] = {"counter": counter, "needed": 2 * moves, "method": method}
    reset = _last_reset(replay)
    if reset is not None:
        evidence["last_reset_ply"] = reset
    if intended is not None and can_claim_fifty_moves(counter, moves):
        # 9.3.2 / 14F: the 50 moves are already complete on the board, so the claim is correct
        # whatever move was written; the written move is not played (module docstring).
        evidence["intended_move"] = intended.san
        evidence["route"] = "completed"
        return _upheld(replay, ruleset, [*base] if us else [ruleset.ref("9.3.2")], evidence, counter, None,
                       written=intended)
    if intended is None:
        refs = [*base] if us else [ruleset.ref("9.3.2")]
        if can_claim_fifty_moves(counter, moves):
            return _upheld(replay, ruleset, refs, evidence, counter, None)
        reasons = [_short_reason(replay, counter, moves, reset)]
        completing = [m for m in sorted(board.legal_moves, key=lambda m: m.uci()) if not board.is_zeroing(m)]
        if can_claim_fifty_moves(counter + 1, moves) and completing and claimant == common.side_name(board.turn):
            article = ruleset.ref("14F") if us else ruleset.ref("9.3.1")
            evidence["completing_moves"] = [board.san(m) for m in completing]
            reasons.append(common.had_written(
                claimant, [common.move_label(board, m) for m in completing],
                f"any move that is neither a pawn move nor a capture completes {moves} moves by each player",
                article))
            refs = [*refs, article]
    else:
        evidence["intended_move"] = intended.san
        refs = [*base] if us else [ruleset.ref("9.3.1")]
        if not intended.is_legal:
            return common.illegal_intended(CLAIM, case, ruleset, replay, intended, claimant, opponent)
        resets = board.is_zeroing(intended.move)
        after = 0 if resets else counter + 1
        evidence["counter_after_intended_move"] = after
        if can_claim_fifty_moves(after, moves):
            return _upheld(replay, ruleset, refs, evidence, after, intended)
        if resets:
            kind = "pawn move" if board.piece_type_at(intended.move.from_square) == chess.PAWN else "capture"
            reasons = [
                f"The written move {intended.label} is a {kind}, which restarts the count, so it cannot "
                f"complete 50 moves by each player."
            ]
        else:
            reasons = [_short_reason(replay, after, moves, reset, written=intended.label)]
    discretionary = first_discretionary(replay, ruleset)
    if discretionary is not None:
        return Ruling(
            claim=CLAIM, verdict=Verdict.DEFERRED, result=None,
            rule_refs=unique([*refs, discretionary.article]),
            reasons=(*reasons, describe(replay, discretionary)),
            instructions=("the TD may declare the game drawn", "otherwise play continues"),
            evidence={**evidence, "td_may_declare_draw_at_ply": discretionary.ply},
        )
    return common.rejected(CLAIM, case, ruleset, replay, claimant, opponent, reasons, refs, evidence, intended)


def _made_words(counter: int, last_mover: chess.Color) -> str:
    """How many moves each player made in ``counter`` half-moves: "49 moves by each player", or, for an odd
    count, "50 moves by White and 49 by Black" (the player who moved last made one more)."""
    if counter % 2 == 0:
        return f"{counter // 2} moves by each player"
    more, fewer = ("White", "Black") if last_mover == chess.WHITE else ("Black", "White")
    return f"{counter // 2 + 1} moves by {more} and {counter // 2} by {fewer}"


def _short_reason(replay: Replay, counter: int, moves: int, reset: int | None, written: str | None = None) -> str:
    to_move = replay.final_board.turn
    made = _made_words(counter, to_move if written else not to_move)  # a written move is the side to move's
    head = f"With the written move {written}, " if written else ""
    since = ""
    if reset is not None:
        move = replay.plies[reset - 1].move
        before = replay.board_after(reset - 1)
        is_promotion = move is not None and move.promotion is not None
        kind = "a promotion, which is a pawn move" if is_promotion else (
            "a pawn move" if move is not None and before.piece_type_at(move.from_square) == chess.PAWN
            else "a capture"
        )
        since = f" since {replay.label(reset)} ({kind})"
    text = f"only {counter} half-moves ({made}) were made without a pawn move or capture"
    return f"{head}{text if written else text[0].upper() + text[1:]}{since}; the claim needs {moves}."


def _upheld(
    replay: Replay, ruleset: ChessRuleset, refs: list[str], evidence: dict[str, object], counter: int,
    intended: common.Intended | None, written: common.Intended | None = None,
) -> Ruling:
    reasons = [
        f"{counter // 2} moves by each player were made without a pawn move or capture "
        f"({counter} half-moves{', including the written move ' + intended.label if intended else ''})."
    ]
    if written is not None:
        reasons.append(
            f"They were already complete on the board, so the claim is correct whatever the written move "
            f"{written.label} would do."
        )
    instructions = ["the game is drawn"]
    shown = intended or written
    if shown is not None:
        instructions.append(f"the written move {shown.label} is not played")
    board = replay.final_board
    reasons.extend(common.no_offer_note(ruleset, board, upheld=True))
    all_refs = [*refs] if ruleset.is_a("uschess") else [*refs, ruleset.ref("9.5.2")]
    if common.has_no_offer_rule(ruleset, board):
        all_refs.append(ruleset.ref("9.1.1"))
    return Ruling(
        claim=CLAIM, verdict=Verdict.UPHELD, result="1/2-1/2", rule_refs=unique(all_refs),
        reasons=tuple(reasons), instructions=tuple(instructions), evidence=evidence,
    )

