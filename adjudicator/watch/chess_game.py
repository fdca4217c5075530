"""One live chess game read as the arbiter watches it: its findings (:class:`adjudicator.watch.alerts.Finding`).

The record is replayed as played (:func:`adjudicator.chess.replay.replay_game`) and asked what the claims ask:

- the endings that need no claim, from :func:`adjudicator.chess.claims.automatic.endings` (fivefold 9.6.1,
  75 moves 9.6.2, checkmate 5.1.1 and stalemate 5.2.1 with play going on) and
  :func:`adjudicator.clocks.game_end.dead_endings` (5.2.2, US 14D) with the analysis the caller offers
  (:class:`adjudicator.services.MateOracle`; without it, the material test only). The first mandatory ending
  ended the game: nothing after it is a fact of the game (Arbiters' Manual on 6.9 and 9.6), faults aside;
- a claim a player could make now: the position standing for the third time (9.2.2, same position by 9.2.3:
  castling rights and a legal en-passant capture count, so a position that only looks repeated raises
  nothing), once per position, at the ply it first could be claimed; and 50 moves by each player (9.3.2), once
  per stretch;
- ``[%clk 0:00:00]`` (6.8 / A.5.3 / US 13C1), an illegal move (7.5.1 / A.5.2 / US 11A), a draw result before
  the event's ``draw_offer.no_offer_before_move`` with no law or claim behind it (9.1.1).

What the board gets wrong is a fault, never a game fact: king moves to d4/d5/e4/e5 after the result (lila strips
them: the players setting up the result on a DGT board) are set aside and the record ruled without them; a
move no piece could make from the board's position (a misread piece, a piece dragged across squares) is
``move-not-legal``, while a move a player could make but the Laws forbid (the own king left in check) is
``illegal-move``; a ply without ``[%clk]`` in a game or round that has clocks is ``missing-clock``.
"""

from __future__ import annotations

import re

import chess

from adjudicator.chess.claims.automatic import endings
from adjudicator.chess.movetext import RawGame
from adjudicator.chess.replay import RecordError, Replay, replay_game
from adjudicator.clocks.game_end import Deadness, GameEnd, dead_endings
from adjudicator.contract import ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.services import MateOracle
from adjudicator.watch import policy
from adjudicator.watch.alerts import Finding
from adjudicator.words import ordinal

_KING_AT_RESULT = re.compile(r"^K[x:]?[de][45][+#]?$")
"""A king move to d4, d5, e4 or e5: what a DGT board records when the players set up the result."""
DECIDED = ("1-0", "0-1", "1/2-1/2")


def result_of(game: RawGame) -> str | None:
    """The game's result as the source writes it (the movetext's, else the Result tag); None while in play."""
    if game.result in DECIDED:
        return game.result
    if game.result == "*":
        return None
    tag = (game.tag("Result") or "").strip()
    return tag if tag in DECIDED else None


def king_moves_at_result(game: RawGame) -> int:
    """How many of the last plies are king moves to the centre after a result (at most one per side)."""
    if result_of(game) is None:
        return 0
    count = 0
    while count < 2 and count < len(game.moves) and _KING_AT_RESULT.match(game.moves[-1 - count].text.strip()):
        count += 1
    return count


def read(game: RawGame, ruleset: ChessRuleset) -> tuple[Replay | None, list[Finding]]:
    """The game replayed without its king moves at the result, and the faults of reading it."""
    faults: list[Finding] = []
    stripped = king_moves_at_result(game)
    moves = game.moves[: len(game.moves) - stripped]
    if stripped:
        first = len(moves) + 1
        written = " ".join(m.text for m in game.moves[len(moves):])
        faults.append(Finding(
            "king-moves-at-result", first, "check-board", (),
            f"The last {stripped} plies ({written}) are king moves to the centre after the result: the board "
            "recorded the players setting up the result. The record is read without them.", written,
        ))
    raw = RawGame(list(game.tags), list(moves), game.result, game.offset, list(game.notes))
    try:
        replay = replay_game(raw, language=ruleset.record.language or "en")
    except (RecordError, ContractError) as exc:
        faults.append(Finding("unreadable-record", 0, "check-board", (), f"The record cannot be read: {exc}"))
        return None, faults
    if replay.unreadable:
        bad = replay.unreadable[0]
        hint = f" (it may be {' or '.join(bad.candidates)})" if bad.candidates else ""
        faults.append(Finding(
            "move-not-legal", bad.ply, "check-board", (),
            f"Ply {bad.ply} ({bad.token}) is no move from the board's position: {bad.reason}{hint}. A misread "
            "piece or a piece dragged across squares; the record is read up to it.", bad.token,
        ))
    return replay, faults


def findings(
    game: RawGame, ruleset: ChessRuleset, mate: MateOracle | None, clocks_expected: bool = False
) -> tuple[Replay | None, list[Finding]]:
    """Every finding of one live game (see the module docstring), in order of ply."""
    replay, found = read(game, ruleset)
    if replay is None:
        return None, found
    n = len(replay.plies)
    ended_at, end_findings = _endings(replay, ruleset, mate)
    found.extend(end_findings)
    last = n if ended_at is None else ended_at
    found.extend(_claimable(replay, ruleset, last, ended_at))
    found.extend(_illegal(replay, ruleset, last))
    found.extend(_clocks(replay, ruleset, last, clocks_expected, mate))
    found.extend(_early_draw(game, replay, ruleset, end_findings))
    found.sort(key=lambda f: f.ply)
    return replay, found


def _endings(replay: Replay, ruleset: ChessRuleset, mate: MateOracle | None) -> tuple[int | None, list[Finding]]:
    """The endings up to the first mandatory one (its ply, or None: the game goes on)."""
    n = len(replay.plies)
    all_ends: list[tuple[int, str, bool, tuple[str, ...], str]] = []
    for e in endings(replay, ruleset):
        all_ends.append((e.ply, e.kind, e.is_mandatory, (e.article,), ""))
    dead: list[GameEnd] = dead_endings(replay, ruleset, Deadness(ruleset.flag.dead_position, mate))
    for d in dead:
        all_ends.append((d.ply, d.kind, d.is_mandatory, d.articles, d.reason))
    all_ends.sort(key=lambda e: e[0])
    ended_at = next((ply for ply, _, mandatory, _, _ in all_ends if mandatory), None)
    found: list[Finding] = []
    for ply, kind, mandatory, refs, why in all_ends:
        if ended_at is not None and ply > ended_at:
            break
        if kind in ("checkmate", "stalemate") and ply >= n:
            continue  # the game ended there and nobody played on: nothing to do
        label = replay.label(ply)
        later = n - ply
        if kind in ("checkmate", "stalemate"):
            reason = f"{label} was {kind}; the game ended there, and {later} more plies were played."
        elif kind == "dead-position":
            reason = why
        elif kind == "fivefold":
            plies = replay.occurrences(ply)
            verb = "the game is drawn and the arbiter must intervene" if mandatory else "the TD may declare a draw"
            reason = f"After {label} the same position stood for the fifth time (plies {plies}): {verb}."
        else:
            verb = "the game is drawn and the arbiter must intervene" if mandatory else "the TD may declare a draw"
            reason = (f"After {label} each player has made 75 moves without a pawn move or capture "
                      f"(counter {replay.counter_after(ply)}): {verb}.")
        found.append(Finding(kind, ply, policy.ending_action(mandatory), refs, reason, label))
        if mandatory:
            break
    return ended_at, found


def _claimable(replay: Replay, ruleset: ChessRuleset, last: int, ended_at: int | None) -> list[Finding]:
    us = ruleset.is_a("uschess")
    needed = ruleset.repetition.claim_occurrences
    limit = 2 * ruleset.move_rule.claim_moves
    seen: dict[object, list[int]] = {replay.start_key: [0]}
    found: list[Finding] = []
    previous_counter = replay.counter_after(0)
    for ply in replay.plies[:last]:
        n = ply.number
        plies = seen.setdefault(ply.key, [])
        plies.append(n)
        if n == ended_at:
            break
        if len(plies) == needed:  # once per position: it stays claimable whenever it stands again
            side = "Black" if ply.mover == chess.WHITE else "White"
            found.append(Finding(
                "threefold-available", n, "claimable",
                (ruleset.ref("14C"),) if us else (ruleset.ref("9.2.2"), ruleset.ref("9.2.3")),
                f"After {replay.label(n)} the position stands for the {ordinal(len(plies))} time (plies {plies}): "
                f"{side}, to move, may claim a draw.", replay.label(n),
            ))
        if ply.counter >= limit > previous_counter:
            found.append(Finding(
                "fifty-available", n, "claimable", (ruleset.ref("14F"),) if us else (ruleset.ref("9.3.2"),),
                f"After {replay.label(n)} each player has made {ruleset.move_rule.claim_moves} moves without a pawn "
                "move or capture: the player to move may claim a draw.", replay.label(n),
            ))
        previous_counter = ply.counter
    return found


def _illegal(replay: Replay, ruleset: ChessRuleset, last: int) -> list[Finding]:
    found: list[Finding] = []
    n = len(replay.plies)
    for ply in replay.plies[:last]:
        if ply.is_legal or ply.move is None:
            continue
        before = replay.board_after(ply.number - 1)
        label = replay.label(ply.number)
        if ply.move and not before.is_pseudo_legal(ply.move):
            found.append(Finding(
                "move-not-legal", ply.number, "check-board", (),
                f"{label} is not a move that piece can make from the board's position ({ply.reason}): a misread "
                "piece or a piece dragged across squares. See the board before anything else.", label,
            ))
            continue
        action, refs = policy.chess_illegal(ruleset, replied=ply.number < n)
        found.append(Finding(
            "illegal-move", ply.number, action, refs, f"{label} was illegal: {ply.reason}.", label,
        ))
    return found


def _clocks(replay: Replay, ruleset: ChessRuleset, last: int, clocks_expected: bool,
            mate: MateOracle | None = None) -> list[Finding]:
    found: list[Finding] = []
    plies = replay.plies[:last]
    has_clocks = clocks_expected or any(p.clock is not None for p in replay.plies)
    missing = next((p for p in plies if p.clock is None), None) if has_clocks else None
    if missing is not None:
        label = replay.label(missing.number)
        found.append(Finding(
            "missing-clock", missing.number, "check-board", (),
            f"{label} has no [%clk]: the clock times from there are not known from the source.", label,
        ))
    flag = next((p for p in plies if p.clock is not None and p.clock <= 0), None)
    if flag is not None:
        action, refs = policy.chess_flag(ruleset)
        side = "White" if flag.mover == chess.WHITE else "Black"
        label = replay.label(flag.number)
        reason = f"{side}'s clock shows 0:00:00 after {label}."
        if action == "act":  # the arbiter calls it: say what the call gives (6.9)
            reason += " " + _flag_result(replay.board_after(flag.number), not flag.mover, mate)
            refs = (*refs, ruleset.ref("6.9"))
        found.append(Finding("flag-down", flag.number, action, refs, reason, label))
    return found


def _flag_result(board: chess.Board, opponent: chess.Color, mate: MateOracle | None) -> str:
    """FIDE 6.9: the flag loses, unless the opponent cannot checkmate by any series of legal moves (a draw).
    Without the unwinnability analysis only material settles a draw; an open question is said as such."""
    name, flagged = ("White", "Black") if opponent == chess.WHITE else ("Black", "White")
    if board.has_insufficient_material(opponent):
        cannot: bool | None = True
    elif mate is None:
        cannot = None
    else:
        cannot = mate.search(board, opponent).unwinnable
    if cannot is True:
        return f"{name} cannot checkmate by any series of legal moves: the game is drawn."
    if cannot is False:
        return f"{name} can checkmate: {flagged} loses on time."
    return f"{flagged} loses on time if {name} can checkmate by a series of legal moves; the arbiter checks."


def _early_draw(game: RawGame, replay: Replay, ruleset: ChessRuleset, ends: list[Finding]) -> list[Finding]:
    before = ruleset.draw_offer.no_offer_before_move
    if not before or result_of(game) != "1/2-1/2":
        return []
    n = len(replay.plies)
    moves = replay.plies[-1].move_number if n else 0
    if moves >= before or any(f.kind != "checkmate" for f in ends):
        return []
    if len(replay.occurrences(n)) >= ruleset.repetition.claim_occurrences:
        return []  # a threefold claim may stand behind the result
    if replay.counter >= 2 * ruleset.move_rule.claim_moves:
        return []
    return [Finding(
        "early-draw", n, "event-rule", (ruleset.ref("9.1.1"),),
        f"The game is given as drawn after {moves} moves, before move {before}, with no claim or law behind "
        "it in the record: the event forbids a draw by agreement before then.", replay.label(n) if n else None,
    )]
