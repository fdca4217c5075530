"""Threefold repetition claims (FIDE 9.2; US Chess 14C).

- Only the player having the move may claim (9.2), and not after touching a piece
  with the intention of moving it (9.4; case field ``touched_piece``).
- 9.2.2 (US 14C): the position on the board has appeared at least three times.
- 9.2.1 (US 14C2): the move written on the scoresheet (``intended_move``), not
  played, would make it appear at least the third time.
- 9.2.3: same side to move, same pieces on the same squares, same castling
  rights, and an en-passant capture counts only where it was actually possible.
- 9.5.2: a correct claim draws at once. 9.5.3: an incorrect claim adds time to the
  opponent (see :mod:`adjudicator.chess.claims.penalties`), the written move must be
  played, and (9.1.2.3) the claim stands as a draw offer.
- The game already over is checked first (:mod:`.over`): checkmate, stalemate, a dead
  position (5.2.2, US 14D), fivefold, 75 moves; a game already over stays over, and that
  ending is the ruling.
- A written move when the position on the board already stands for the third time:
  9.2 draws "upon a correct claim" when the position *either* is about to appear
  (9.2.1) *or* has just appeared (9.2.2) for at least the third time, and US 14C reads
  the same ("about to appear, or has just appeared"). The claim is correct on the
  board (9.2.2), so it is upheld whatever the written move would do: that move is only
  declared, never played (9.2.1), so it cannot take away a repetition already there.
  Judging only the written move would reject a correct claim and penalise it.
- A position given without its record (``fen`` only): the repetitions cannot be seen,
  so the claim cannot be proven and is a contract error asking for the record; unless
  the position itself already ended the game (checkmate, stalemate, a dead position,
  the 75-move counter), which the record reaching it would show the same way.
"""

from __future__ import annotations

import chess

from adjudicator.chess.claims import common, over
from adjudicator.chess.positions import legal_position, legal_replay
from adjudicator.chess.replay import RepetitionKey, Replay, repetition_key, replay_chess
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Ruling, Verdict, unique
from adjudicator.services import Services
from adjudicator.words import ordinal, times

CLAIM = "threefold-repetition"


def occurrences_of(replay: Replay, key: RepetitionKey) -> list[int]:
    """Plies (0 = start) after which the position with ``key`` stood."""
    return [i for i, k in enumerate(replay.keys) if k == key]


def can_claim_threefold(replay: Replay, needed: int = 3) -> bool:
    """Whether the position on the board now has appeared ``needed`` times (9.2.2)."""
    return len(occurrences_of(replay, replay.keys[-1])) >= needed


def completing_moves(replay: Replay, needed: int = 3) -> list[chess.Move]:
    """The legal moves after which a position of the record would stand for the ``needed``-th time: the moves a
    claimant on move could have written to claim by 9.2.1 (in UCI order)."""
    board = replay.final_board
    counts: dict[RepetitionKey, int] = {}
    for key in replay.keys:
        counts[key] = counts.get(key, 0) + 1
    found = []
    for move in sorted(board.legal_moves, key=lambda m: m.uci()):
        if board.is_zeroing(move):
            continue  # a capture or a pawn move never returns to an earlier position
        board.push(move)
        key = repetition_key(board)
        board.pop()
        if counts.get(key, 0) + 1 >= needed:
            found.append(move)
    return found


def _near_misses(
    replay: Replay, target: chess.Board, plies: list[int], castling_ref: str, ep_ref: str
) -> list[str]:
    """Why positions that look the same do not count (9.2.3.1 e.p., 9.2.3.2 castling)."""
    placement = target.board_fen()
    notes: list[str] = []
    for ply in range(len(replay.plies) + 1):
        if ply in plies:
            continue
        fen = replay.fen_at(ply)
        fields = fen.split()
        if fields[0] != placement or (fields[1] == "w") != target.turn:
            continue
        board = replay.board_after(ply)
        where = "at the start" if ply == 0 else f"after {replay.label(ply)}"
        if board.clean_castling_rights() != target.clean_castling_rights():
            notes.append(
                f"The same pieces stood on the same squares {where} (ply {ply}), but the castling rights were "
                f"{board.castling_xfen()} then and are {target.castling_xfen()} now, so it is not the same "
                f"position ({castling_ref})."
            )
        elif board.has_legal_en_passant() != target.has_legal_en_passant():
            ep = next((board.san(m) for m in board.legal_moves if board.is_en_passant(m)), None)
            possible = f"the en passant capture {ep} was possible" if ep else "an en passant capture was possible"
            notes.append(
                f"The same pieces stood on the same squares {where} (ply {ply}), but {possible} then, "
                f"so it is not the same position ({ep_ref})."
            )
    return notes


def _replay(case: Case) -> tuple[Replay, bool]:
    """The record, or the position alone (True: only a position, see the module docstring)."""
    if case.record or not (case.fen or case.start_fen):
        return legal_replay(case), False
    field = "fen" if case.fen else "start_fen"
    fen = case.fen or case.start_fen or ""
    legal_position(fen, field)
    return replay_chess("", fen), True


def rule(case: Case, ruleset: ChessRuleset, services: Services) -> Ruling:
    """Rule on a threefold-repetition claim (FIDE 9.2 / US Chess 14C)."""
    replay, position_only = _replay(case)
    game = over.check(CLAIM, case, ruleset, services, replay)
    if game.is_over:
        return game.ruling()
    if position_only:
        raise ContractError(
            "missing_field",
            "a threefold-repetition claim needs the game record: the position alone does not show its repetitions",
            "record",
        )
    return game.finish(_rule(case, ruleset, replay))


def _rule(case: Case, ruleset: ChessRuleset, replay: Replay) -> Ruling:
    board = replay.final_board
    us = ruleset.is_a("uschess")
    claimant = case.claimant or common.side_name(board.turn)
    opponent = case.opponent(claimant)
    needed = ruleset.repetition.claim_occurrences
    refused = common.admissible(CLAIM, case, ruleset, board, claimant)
    if refused is not None:
        return refused
    n = len(replay.plies)
    intended = common.read_intended(case, replay, board)
    base_refs = [ruleset.ref("14C")] if us else []
    on_board = occurrences_of(replay, replay.keys[-1])
    written: common.Intended | None = None
    if intended is not None and len(on_board) >= needed:
        written, intended = intended, None  # 9.2.2: the claim is correct on the board (module docstring)
    if intended is None:
        key = replay.keys[-1]
        plies = occurrences_of(replay, key)
        target = board
        route_refs = [ruleset.ref("14C")] if us else [ruleset.ref("9.2.2"), ruleset.ref("9.2.3")]
        where = "now on the board" if n == 0 else f"after {replay.label(n)}"
    else:
        if not intended.is_legal:
            return common.illegal_intended(CLAIM, case, ruleset, replay, intended, claimant, opponent)
        target = board.copy(stack=False)
        target.push(intended.move)
        key = repetition_key(target)
        plies = [*occurrences_of(replay, key), n + 1]
        route_refs = [ruleset.ref("14C"), ruleset.ref("14C2")] if us else [ruleset.ref("9.2.1"), ruleset.ref("9.2.3")]
        where = f"after the written move {intended.label}"
    side = "White" if target.turn == chess.WHITE else "Black"
    listed = common.list_plies(replay, plies, n)
    evidence = {
        "occurrences": plies,
        "position": target.fen(),
        "needed": needed,
        "method": "record replayed ply by ply",
    }
    if intended is not None:
        evidence["intended_move"] = intended.san
    if written is not None:
        evidence["intended_move"] = written.san
        evidence["route"] = "has-just-appeared"
    if len(plies) >= needed:
        reasons = [
            f"The position {where} with {side} to move occurs for the {ordinal(len(plies))} time: {listed}."
        ]
        if written is not None:
            reasons.append(
                f"It already stands on the board for the {ordinal(len(plies))} time, so the claim is correct "
                f"whatever the written move {written.label} would do."
            )
        instructions = ["the game is drawn"]
        shown = intended or written
        if shown is not None:
            instructions.append(f"the written move {shown.label} is not played")
        reasons.extend(common.no_offer_note(ruleset, board, upheld=True))
        refs = [*base_refs, *route_refs, *([] if us else [ruleset.ref("9.5.2")])]
        if common.has_no_offer_rule(ruleset, board):
            refs.append(ruleset.ref("9.1.1"))
        return Ruling(
            claim=CLAIM, verdict=Verdict.UPHELD, result="1/2-1/2", rule_refs=unique(refs),
            reasons=tuple(reasons), instructions=tuple(instructions), evidence=evidence,
        )
    count = len(plies)
    reasons = [
        f"The position {where} with {side} to move occurs only {times(count)} ({listed}); "
        f"the claim needs {times(needed)}."
    ]
    if us:
        castling_ref = ep_ref = ruleset.ref("14C")
    else:
        castling_ref, ep_ref = "9.2.3.2", "9.2.3.1"
    reasons.extend(_near_misses(replay, target, plies, castling_ref, ep_ref))
    if intended is None:
        completing = completing_moves(replay, needed)
        if completing and claimant == common.side_name(board.turn):
            evidence["completing_moves"] = [board.san(m) for m in completing]
            article = ruleset.ref("14C2") if us else ruleset.ref("9.2.1")
            reasons.append(common.had_written(
                claimant, [common.move_label(board, m) for m in completing],
                f"the position after it would occur for the {ordinal(needed)} time", article))
            route_refs = [*route_refs, article]
    return common.rejected(
        CLAIM, case, ruleset, replay, claimant, opponent, reasons, [*base_refs, *route_refs], evidence, intended
    )
