"""The game was already over: the check every chess claim makes first (FIDE 5.1.1, 5.2.1, 5.2.2, 9.6; US 12A, 14A, 14D).

A claim is about a game in progress. If the game had already ended by itself before the
point the claim is about (checkmate, stalemate, a dead position, the fifth occurrence of
a position, 75 moves: :func:`adjudicator.clocks.game_end.game_end`, the same question the
flag claim and ``check-games`` ask), that ending is the ruling, whichever claim asked:
its result, its articles, the ply at which the game ended and the proof (for a dead
position: the material, or the helpmate analysis of both sides, and a helpmate from the
position before it, showing the game was alive until then). No clock changes, no
penalty, no written move to play. One position, one verdict.

- **The earliest ending wins**, and an ending after the claimed point is irrelevant. The
  claimed point is the position on the board for a draw claim (threefold, fifty-move,
  insufficient losing chances), a flag (:mod:`.flag` asks :func:`game_end` itself) and an
  unfinished game; for an illegal-move claim, see below.
- **A position given alone** (``fen``) is judged as the record reaching it would be: if
  it is dead (or mate, stalemate, the 75-move count), the game ended there, at "ply 0,
  the position given", with the same verdict and result as the record.
- **The move producing the ending must be legal** (5.1.1, 5.2.1, 5.2.2; US 12A, 14A): a
  dead position produced by an illegal move ends nothing. If nobody claimed that move and
  play went on, the move stood, and the game ended at the next dead position a legal
  move produced (:func:`adjudicator.clocks.dead_position.first_dead`).
- **Illegal-move claims** (FIDE 7.5.1, A.5.2; US 11A, 11B), in the order of events:

  1. an ending *before* the illegal move: the illegal move was made after the game was
     over; it is neither corrected nor penalised, and the ruling is the ending;
  2. the illegal move *itself* produced the ending (a dead position, a "mate"): by the
     proviso above nothing ended; the claim is ruled on;
  3. an ending *after* the illegal move, which can still be corrected (7.5.1: at any
     time during the game; US 11A: among either player's last ten moves): the claim is
     ruled on. 7.5.1 (11A) reinstates the position immediately before the irregularity
     and cancels every move made after it, so the positions that followed, the dead one
     among them, are not positions of the game once corrected, and the game did not end
     at them. The other reading (the ending came first in time, so 7.5.1, which acts
     "during a game", is too late) is not taken: under it an illegal move that leaves,
     say, a bare king would keep its effect as soon as the opponent made one more legal
     move, which is exactly what the proviso of 5.2.2 refuses the illegal move itself;
  4. an ending after an illegal move that can no longer be corrected (A.5.2: the
     opponent has replied; US 11B: found earlier than the last ten moves): the law says
     the moves stand, so the ending among them stands too: the game ended there, and
     the ruling says both.

  Only the illegal-move claim asks for an illegal move to be corrected: under every other
  claim an illegal move nobody claimed stands as played, as in ``check-games``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import chess

from adjudicator.chess.replay import Replay
from adjudicator.clocks.game_end import Deadness, GameEnd, game_end
from adjudicator.contract import Case
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Ruling, Verdict, unique
from adjudicator.services import Services

DRAW_CLAIMS = ("threefold-repetition", "fifty-move", "insufficient-losing-chances")


def deadness_for(ruleset: ChessRuleset, services: Services) -> Deadness:
    """The ruleset's dead-position test (``flag.dead_position``) with the analysis ``services`` offer."""
    return Deadness(ruleset.flag.dead_position, services.mate)


@dataclass(frozen=True)
class Over:
    """How the game stood at the claimed point: the ending that ended it (or lets the TD end it), if any."""

    claim: str
    case: Case
    ruleset: ChessRuleset
    replay: Replay | None
    ended: GameEnd | None

    @property
    def is_over(self) -> bool:
        """The game had ended by itself: :meth:`ruling` is the ruling."""
        return self.ended is not None and self.ended.is_mandatory

    @property
    def td_may_end(self) -> GameEnd | None:
        """A dead position the TD may declare drawn (``flag.dead_position = "material-then-td"``)."""
        ended = self.ended
        return ended if ended is not None and not ended.is_mandatory and ended.kind == "dead-position" else None

    def ruling(self, lead: Sequence[str] = (), refs: Sequence[str] = (), after: Sequence[str] = ()) -> Ruling:
        """The ruling that the game was already over (see the module docstring).

        ``lead``: the claim's own findings before the ending; ``after``: what the ending
        means for the claim; ``refs``: the claim's articles besides the ending's.
        """
        ended = self.ended
        assert ended is not None
        replay = self.replay
        n = len(replay.plies) if replay is not None else 0
        reasons = [*lead, ended.reason, *after]
        if ended.ply < n:
            later = n - ended.ply
            reasons.append(
                "The later ply was played after the end of the game and does not count." if later == 1 else
                f"The {later} later plies were played after the end of the game and do not count."
            )
        if self.case.clock is not None and self.case.clock.flagged:
            reasons.append("A flag that fell after the end of the game is irrelevant.")
        all_refs = [*ended.articles, *refs]
        us = self.ruleset.is_a("uschess")
        limit = 2 * self.ruleset.move_rule.automatic_moves
        if ended.kind == "checkmate" and replay is not None and replay.counter_after(ended.ply) >= limit:
            reasons.append("The mate came with the 75th move; a checkmate on that move takes precedence.")
            all_refs.append(self.ruleset.ref("14K") if us else self.ruleset.ref("9.6.2"))
        if self.claim == "unfinished-game":
            verdict = Verdict.ADJUDICATED
        elif self.claim in DRAW_CLAIMS and ended.result == "1/2-1/2":
            verdict = Verdict.UPHELD  # the draw claimed is the result, though on other grounds
        else:
            verdict = Verdict.REJECTED  # the claim changes nothing: the result stands
        if replay is not None and ended.ply:
            where = f"the game ended after {replay.label(ended.ply)} (ply {ended.ply})"
        elif replay is not None and replay.plies:
            where = "the game was already over at the start of the record (ply 0)"
        else:
            where = "the game was already over in the position given (ply 0)"
        counter = ended.evidence.get("counter")
        if not isinstance(counter, int):
            counter = replay.counter_after(ended.ply) if replay is not None else 0
        return Ruling(
            claim=self.claim, verdict=verdict, result=ended.result, rule_refs=unique(all_refs),
            reasons=tuple(reasons),
            instructions=(f"{where}: record the result {ended.result}",
                          *(() if self.claim == "unfinished-game" else ("no clock change and no penalty",))),
            evidence={
                "ended_at_ply": ended.ply, "ending": ended.kind,
                "game_end": {"kind": ended.kind, "ply": ended.ply, **ended.evidence},
                "occurrences": list(ended.evidence.get("occurrences", [])), "counter": counter,
            },
        )

    def finish(self, ruling: Ruling) -> Ruling:
        """``ruling`` with a dead position the TD may declare drawn, when there is one.

        A claim that would be rejected (with a penalty, or with play going on) is then
        deferred: the TD may declare the draw; the rejection is kept as the recommendation
        if the TD does not.
        """
        ended = self.td_may_end
        if ended is None:
            return ruling
        evidence = {**ruling.evidence, "td_may_end": {"kind": ended.kind, "ply": ended.ply, **ended.evidence}}
        refs = unique([*ruling.rule_refs, *ended.articles])
        if ruling.verdict is not Verdict.REJECTED or ruling.result is not None:
            return replace(ruling, reasons=(*ruling.reasons, ended.reason), rule_refs=refs, evidence=evidence)
        evidence["recommendation"] = {
            "verdict": ruling.verdict.value, "result": ruling.result,
            "adjustments": [a.to_json() for a in ruling.adjustments],
        }
        return replace(
            ruling, verdict=Verdict.DEFERRED, adjustments=(), rule_refs=refs,
            reasons=(*ruling.reasons, ended.reason),
            instructions=(
                f"the TD may declare the game drawn ({', '.join(ended.articles)}): record 1/2-1/2",
                *(f"otherwise: {text}" for text in ruling.instructions),
            ),
            evidence=evidence,
        )


def check(
    claim: str,
    case: Case,
    ruleset: ChessRuleset,
    services: Services,
    replay: Replay | None,
    board: chess.Board | None = None,
    *,
    until: int | None = None,
    deadness: Deadness | None = None,
) -> Over:
    """The game at the claimed point ``until`` (default: the end of the record, or the position alone)."""
    if board is None:
        assert replay is not None
        board = replay.final_board
    test = deadness if deadness is not None else deadness_for(ruleset, services)
    ended = game_end(replay, board, ruleset, test, case.sides, until)
    return Over(claim, case, ruleset, replay, ended)

