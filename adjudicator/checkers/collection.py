"""Checking one American checkers game of a collection against the ACF laws.

The shape of the check is chess's (:mod:`adjudicator.collection`, :mod:`adjudicator.findings`); the laws are checkers':

- the only ending the laws make by themselves is a player who cannot move (every piece
  captured or blocked) on his turn: he has lost (Standard Laws). A record that reaches
  such a position with another result gets ``no-moves-mismatch``;
- the forty-move rule and the third repetition (WCDF 2008 draw rules (a), (b); the
  traditional count) are *claims*: a player must ask for them, so a record that goes on
  past them breaks no law and gives no finding;
- a loss on time stands whatever the material ("checkers has no 'cannot win'
  exception", :mod:`adjudicator.checkers.claims.flag`), so it gives no finding either;
- illegal and unreadable moves come from the PDN reader (:mod:`adjudicator.checkers.replay`), and so
  does a move written split by spacing that it read joined (``reading``).
"""

from __future__ import annotations

from adjudicator.checkers.claims import ART_IMPROPER_MOVE
from adjudicator.checkers.pdn import RESULTS, PdnGame, read_game
from adjudicator.checkers.replay import CheckersRecordError, CheckersReplay, replay_game
from adjudicator.contract import quoted
from adjudicator.findings import Finding, GameCheck, later_plies, numbering_gap

ART_NO_MOVES = "Standard Laws, a player who cannot move loses"
ART_RECORD = "ACF tournament rules (recording the game)"


def looks_like_checkers_game(game: PdnGame) -> bool:
    """Whether a record is a checkers game at all: tags, a result, or a first token that is a move."""
    return bool(game.tags) or game.result is not None or bool(game.moves and game.moves[0].unreadable is None)


def check_checkers(text: str) -> GameCheck:
    """Check one PDN game's recorded result (see the module docstring)."""
    game = read_game(text)
    tags = tuple(game.tags)
    recorded = RESULTS.get(game.result or "") or RESULTS.get(game.tag("Result") or "")
    try:
        replay = replay_game(game)
    except CheckersRecordError as exc:
        return GameCheck(tags, recorded, None, (Finding("unreadable", 0, ART_RECORD, f"{exc.message}."),))
    findings = [
        Finding(
            "illegal-move", p.number, ART_IMPROPER_MOVE,
            f"{p.label} was illegal as played: {p.reason}."
            + ("" if p.is_made else " It cannot be made on the board, so the record is checked only up to it."),
        )
        for p in replay.illegal
    ]
    findings.extend(
        Finding("reading", j.ply, ART_RECORD, f"Ply {j.ply} ({j.written!r}): read as {j.move}, one move split by "
                "spacing; together it is the only legal reading.", {"token": j.written})
        for j in replay.joined
    )
    findings.extend(numbering_gap(gap, ART_RECORD) for gap in replay.numbering_gaps)
    stopped = bool(replay.plies) and not replay.plies[-1].is_made
    ended = _no_moves(replay)
    if ended is not None:
        ply, lawful = ended
        if lawful != recorded:
            findings.append(_mismatch(replay, ply, lawful, recorded))
        return GameCheck(tags, recorded, lawful, tuple(findings))
    if stopped:
        return GameCheck(tags, recorded, None, tuple(findings))
    if replay.unreadable:
        bad = replay.unreadable[0]
        hint = f"; it may be {' or '.join(bad.candidates)}" if bad.candidates else ""
        findings.append(
            Finding(
                "unreadable", bad.ply, ART_RECORD,
                f"Ply {bad.ply} ({quoted(bad.token)!r}) cannot be read as a move: {bad.reason}{hint}. "
                "The record is checked only up to it.",
                {"token": quoted(bad.token), "candidates": list(bad.candidates)},
            )
        )
        return GameCheck(tags, recorded, None, tuple(findings))
    if recorded is None:
        findings.append(
            Finding("no-result", len(replay.plies), ART_RECORD,
                    "The record gives no result and the laws did not end the game: its result cannot be checked.")
        )
    return GameCheck(tags, recorded, recorded, tuple(findings))


def _no_moves(replay: CheckersReplay) -> tuple[int, str] | None:
    """The first ply after which the side to move could not move, with the result it gives (first mover first)."""
    positions = [(0, replay.start)] + [(p.number, p.after) for p in replay.plies if p.is_made]
    for ply, position in positions:
        if position.is_game_over():
            return ply, "0-1" if position.red_to_move else "1-0"
    return None


def _mismatch(replay: CheckersReplay, ply: int, lawful: str, recorded: str | None) -> Finding:
    position = replay.position_after(ply)
    loser, winner = ("Red", "White") if position.red_to_move else ("White", "Red")
    how = "has no piece left" if not position.mover else "has every piece blocked"
    later = len(replay.plies) - ply
    after = later_plies(later)
    where = "At the start" if ply == 0 else f"After ply {ply}"
    return Finding(
        "no-moves-mismatch", ply, ART_NO_MOVES,
        f"{where} {loser}, to move, {how} and cannot move: {winner} has won.{after} "
        f"The laws give {lawful}; the record gives {recorded or 'no result'}.",
        {"fen": position.fen()},
    )
