"""Who wins this position? Rules first, then tablebases, then the engine (README §5.6, §6).

The layered judgement both engine-backed claims share (``unfinished-game`` and
``insufficient-losing-chances``):

1. **The rules**: checkmate (FIDE 5.1.1), stalemate (5.2.1), a dead position (5.2.2,
   through the helpmate analysis ``services.mate``; without it, the material rule), and,
   per side, whether it can still mate at all (a side that cannot mate cannot win).
2. **Tablebases**: a position the tables cover is proven (confidence 1); the 50-move rule
   is honoured unless the ruleset says otherwise (cursed wins and blessed losses are draws).
3. **The engine**: a score at or beyond ``win_score_cp`` is a win, within ``draw_score_cp``
   of zero a draw; a score in between is searched again with ten times the nodes, up to
   ``max_nodes``, and if it still lies in between the position is *unclear*: no result is
   recommended, never one rounded silently. The thresholds follow engine-tournament
   practice (cutechess-cli ``-resign``/``-draw``, TCEC, OpenBench) scaled to a single static
   judgement, and were checked against tablebase-known endings (shared/notes/adjudication.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import chess

from adjudicator.chess.analysis import AnalysisLimits, EngineEvidence, EngineUnavailable, TablebaseEvidence
from adjudicator.chess.positions import position_problem
from adjudicator.contract import ContractError
from adjudicator.rulebook.articles import article_for
from adjudicator.rulebook.chess import Adjudication
from adjudicator.rulesets import ChessRuleset
from adjudicator.ruling import Result
from adjudicator.services import Analyst, Services, ServicesClosed, TablebaseProber

Method = Literal["checkmate", "stalemate", "move-rule", "dead-position", "tablebase", "engine", "none"]

COLOR_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}


@dataclass(frozen=True)
class Thresholds:
    """The ruleset's adjudication thresholds (``[rulesets.<id>.adjudication]``, defaults and checks in
    :class:`adjudicator.rulebook.chess.Adjudication`)."""

    win_score_cp: int
    draw_score_cp: int
    nodes: int
    max_nodes: int
    escalate_below_cp: int
    """Scores between ``draw_score_cp`` and this are searched again with more nodes."""
    tablebase_pieces: int
    tablebase_50_move_rule: bool
    engine_confidence_cap: float

    @classmethod
    def from_ruleset(cls, ruleset: ChessRuleset) -> Thresholds:
        return cls.of(ruleset.adjudication)

    @classmethod
    def of(cls, adjudication: Adjudication) -> Thresholds:
        a = adjudication
        return cls(
            win_score_cp=a.win_score_cp,
            draw_score_cp=a.draw_score_cp,
            nodes=a.nodes,
            max_nodes=a.max_nodes,
            escalate_below_cp=a.escalate_below_cp,
            tablebase_pieces=a.tablebase_pieces,
            tablebase_50_move_rule=a.tablebase_50_move_rule,
            engine_confidence_cap=a.engine_confidence_cap,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "win_score_cp": self.win_score_cp,
            "draw_score_cp": self.draw_score_cp,
            "nodes": self.nodes,
            "max_nodes": self.max_nodes,
            "escalate_below_cp": self.escalate_below_cp,
            "tablebase_pieces": self.tablebase_pieces,
            "tablebase_50_move_rule": self.tablebase_50_move_rule,
        }


@dataclass(frozen=True)
class Assessment:
    """The judgement on one position, with everything it rests on."""

    outcome: int | None
    """+1 White wins, 0 draw, -1 Black wins, None unclear."""
    method: Method
    confidence: float
    reasons: tuple[str, ...]
    rule_refs: tuple[str, ...]
    can_mate: Mapping[chess.Color, bool | None]
    """Per side: can it still checkmate by any series of legal moves (None: not known)."""
    tablebase: TablebaseEvidence | None = None
    engine: tuple[EngineEvidence, ...] = ()
    """Every engine search made, the last one deciding."""
    engine_error: str | None = None
    thresholds: Thresholds = field(default_factory=lambda: Thresholds.of(Adjudication()))

    @property
    def result(self) -> Result | None:
        return None if self.outcome is None else {1: "1-0", 0: "1/2-1/2", -1: "0-1"}[self.outcome]  # type: ignore[return-value]

    @property
    def is_unclear(self) -> bool:
        return self.outcome is None

    def score_for(self, color: chess.Color) -> int | None:
        """The deciding engine score from ``color``'s side (centipawns; a mate counts as ±100000)."""
        if not self.engine:
            return None
        score = self.engine[-1].white_score()
        return score if color == chess.WHITE else -score

    def evidence(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "can_mate": {
                COLOR_NAMES[c].lower(): self.can_mate.get(c) for c in (chess.WHITE, chess.BLACK)
            },
            "tablebase": self.tablebase.to_json() if self.tablebase else None,
            "engine": [e.to_json() for e in self.engine],
            "engine_error": self.engine_error,
            "thresholds": self.thresholds.to_json(),
        }


def side_can_mate(board: chess.Board, color: chess.Color, services: Services) -> tuple[bool | None, str]:
    """Can ``color`` checkmate by any series of legal moves (FIDE 5.2.2, 6.9)?

    The material rule answers first when it can (python-chess's insufficient-material test
    is sound: it says "cannot" only when no mate exists); otherwise the helpmate analysis
    ``services.mate``; without it, "can".
    """
    if board.has_insufficient_material(color):
        return (False, "material")
    if services.mate is not None:
        found = services.mate.search(board, color)
        if found.unwinnable is not None:
            return (not found.unwinnable, found.method)
    return (True, "material")


def _material(board: chess.Board, color: chess.Color) -> int:
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    return sum(v * len(board.pieces(p, color)) for p, v in values.items())


def assess(
    board: chess.Board,
    ruleset: ChessRuleset,
    services: Services,
    thresholds: Thresholds | None = None,
) -> Assessment:
    """Judge ``board`` under ``ruleset``: the rules, then the tables, then the engine."""
    t = thresholds or Thresholds.from_ruleset(ruleset)
    mover = COLOR_NAMES[board.turn]
    problem = position_problem(board)
    if problem:
        raise ContractError("invalid_fen", f"the position cannot be judged: {problem}", "fen")
    if board.is_checkmate():
        winner = not board.turn
        return Assessment(
            1 if winner == chess.WHITE else -1, "checkmate", 1.0,
            (f"{mover} is checkmated.",), _cite(ruleset, "checkmate"),
            {winner: True, board.turn: False}, thresholds=t,
        )
    if board.is_stalemate():
        return Assessment(
            0, "stalemate", 1.0, (f"{mover} is stalemated.",), _cite(ruleset, "stalemate"),
            {chess.WHITE: False, chess.BLACK: False}, thresholds=t,
        )
    automatic = ruleset.move_rule.automatic_moves
    if ruleset.move_rule.automatic == "mandatory" and board.halfmove_clock >= 2 * automatic:
        return Assessment(
            0, "move-rule", 1.0,
            (f"{board.halfmove_clock // 2} moves by each side without a capture or pawn move: the game is drawn "
             f"under the {automatic}-move rule.",),
            _cite(ruleset, "seventy-five-moves"), {chess.WHITE: None, chess.BLACK: None}, thresholds=t,
        )
    _report(services, 0.0, "checking whether either side can still checkmate")
    # Dead position (5.2.2): ask first about the side more likely to mate; once one side can,
    # the position is not dead and the other side is asked only if a result depends on it.
    mates: dict[chess.Color, bool | None] = {chess.WHITE: None, chess.BLACK: None}
    methods: dict[chess.Color, str] = {}
    for color in sorted((chess.WHITE, chess.BLACK), key=lambda c: -_material(board, c)):
        mates[color], methods[color] = side_can_mate(board, color, services)
        if mates[color]:
            break
    if mates[chess.WHITE] is False and mates[chess.BLACK] is False:
        return Assessment(
            0, "dead-position", 1.0,
            ("Neither side can checkmate by any series of legal moves: the position is dead "
             f"(White: {methods[chess.WHITE]}; Black: {methods[chess.BLACK]}).",),
            _cite(ruleset, "dead-position"), mates, thresholds=t,
        )
    for color in (chess.WHITE, chess.BLACK):
        if mates[color] is None and board.has_insufficient_material(color):
            mates[color] = False
    reasons: list[str] = []
    refs: list[str] = []
    for color in (chess.WHITE, chess.BLACK):
        if mates[color] is False:
            reasons.append(f"{COLOR_NAMES[color]} cannot checkmate by any series of legal moves, so cannot win.")
            refs.extend(_cite(ruleset, "dead-position"))

    tb = _probe(board, services.tablebase, t)
    if tb is not None:
        return _from_tablebase(board, tb, t, mates, reasons, refs)

    if services.engine is None:
        return Assessment(
            None, "none", 0.0,
            (*reasons, "No engine or tablebase is available here, so the position cannot be judged."),
            tuple(refs), mates, thresholds=t,
        )
    return _from_engine(board, services, t, mates, reasons, refs)


def _cite(ruleset: ChessRuleset, fact: str) -> tuple[str, ...]:
    """The ruleset's own article for ``fact`` (FIDE 5.2.2, US Chess 14D), or none when its rulebook has none."""
    article = article_for(ruleset, fact)
    return () if article is None else (article,)


def _report(services: Services, done: float, message: str) -> None:
    """Tell the caller how far the analysis is; a raise from the callback cancels it (and propagates)."""
    if services.progress is not None:
        services.progress(done, message)


def _probe(board: chess.Board, prober: TablebaseProber | None, t: Thresholds) -> TablebaseEvidence | None:
    if prober is None or chess.popcount(board.occupied) > min(prober.max_pieces, t.tablebase_pieces):
        return None
    return prober.probe(board)


def _clamp(outcome: int, can_mate: Mapping[chess.Color, bool | None]) -> int:
    if outcome == 1 and can_mate.get(chess.WHITE) is False:
        return 0
    if outcome == -1 and can_mate.get(chess.BLACK) is False:
        return 0
    return outcome


def _from_tablebase(
    board: chess.Board,
    tb: TablebaseEvidence,
    t: Thresholds,
    can_mate: Mapping[chess.Color, bool | None],
    reasons: list[str],
    refs: list[str],
) -> Assessment:
    mover, other = COLOR_NAMES[board.turn], COLOR_NAMES[not board.turn]
    for_mover = tb.result_for_mover(t.tablebase_50_move_rule)
    table = f"The {tb.source.capitalize()} tables ({tb.pieces} pieces)"
    distance = (f" (DTZ {tb.dtz} for {mover})" if tb.dtz is not None
                else f" (mate in {abs(tb.dtm or 0)} plies)" if tb.dtm else "")
    said = {
        "win": f"a win for {mover}{distance}",
        "loss": f"a win for {other}{distance}",
        "draw": "a draw",
        "cursed-win": f"a cursed win for {mover}: a win, but not within the 50-move rule{distance}",
        "blessed-loss": f"a blessed loss for {mover}: {other} wins only if the 50-move rule is ignored{distance}",
    }[tb.outcome]
    reasons.append(f"{table} show {said}.")
    if tb.outcome in ("win", "loss") and for_mover == 0:
        reasons.append(
            f"With {tb.halfmove_clock} half-moves already played without a capture or pawn move, the win "
            "cannot be completed within the 50-move rule: a draw under it."
        )
    if t.tablebase_50_move_rule and tb.outcome in ("cursed-win", "blessed-loss"):
        reasons.append("The 50-move rule is honoured here, so this counts as a draw.")
        refs.append("50-move rule (FIDE 9.3)")
    elif not t.tablebase_50_move_rule and tb.outcome in ("cursed-win", "blessed-loss"):
        reasons.append("This ruleset adjudicates by tablebase without the 50-move rule, so it counts as decisive.")
    outcome = for_mover if board.turn == chess.WHITE else -for_mover
    return Assessment(
        _clamp(outcome, can_mate), "tablebase", 1.0, tuple(reasons), tuple(refs), can_mate, tablebase=tb, thresholds=t
    )


def _from_engine(
    board: chess.Board,
    services: Services,
    t: Thresholds,
    can_mate: Mapping[chess.Color, bool | None],
    reasons: list[str],
    refs: list[str],
) -> Assessment:
    analyst: Analyst | None = services.engine
    assert analyst is not None
    searches: list[EngineEvidence] = []
    nodes = t.nodes
    stages = 1
    while nodes < t.max_nodes:
        stages, nodes = stages + 1, min(nodes * 10, t.max_nodes)
    nodes = t.nodes
    try:
        for stage in range(stages):
            limits = AnalysisLimits(nodes=nodes, deterministic=services.deterministic)
            searches.append(analyst.analyse(board, limits, progress=_scaled(services.progress, stage, stages)))
            last = searches[-1]
            if last.is_mate or not t.draw_score_cp < abs(last.white_score()) < t.escalate_below_cp:
                break
            nodes = min(nodes * 10, t.max_nodes)
    except ServicesClosed:
        raise  # the process is stopping: a ruling from a search cut short by that is never given (nor reproducible)
    except EngineUnavailable:
        if not searches:
            raise  # no analysis at all: an error for the caller, never a ruling without a result (issue 11)
    last = searches[-1]
    score = last.white_score()
    who = "White" if score > 0 else "Black"
    line = " ".join(last.pv_san[:8])
    wdl = f", WDL {last.wdl[0] / 10:.1f}/{last.wdl[1] / 10:.1f}/{last.wdl[2] / 10:.1f}% for White" if last.wdl else ""
    budget = f"{last.engine} at {last.nodes:,} nodes (depth {last.depth})"
    if last.mate is not None:
        outcome = 1 if last.mate > 0 else -1
        reasons.append(f"{budget} finds a forced mate in {abs(last.mate)} for {who}: {line}.")
        confidence = 0.99
    else:
        shown = f"{budget} evaluates the position at {score / 100:+.2f}{wdl}; main line {line}."
        reasons.append(shown)
        if abs(score) >= t.win_score_cp:
            outcome = 1 if score > 0 else -1
            reasons.append(f"That is beyond the win threshold of ±{t.win_score_cp / 100:.2f}: a win for {who}.")
            margin = min(1.0, (abs(score) - t.win_score_cp) / t.win_score_cp)
            confidence = min(t.engine_confidence_cap, 0.7 + 0.25 * margin)
        elif abs(score) <= t.draw_score_cp:
            outcome = 0
            reasons.append(f"That is within the draw band of ±{t.draw_score_cp / 100:.2f}: a draw.")
            margin = 1.0 - abs(score) / max(1, t.draw_score_cp)
            confidence = min(t.engine_confidence_cap, 0.7 + 0.25 * margin)
        else:
            reasons.append(
                f"That lies between the draw band (±{t.draw_score_cp / 100:.2f}) and the win threshold "
                f"(±{t.win_score_cp / 100:.2f}) even at the largest budget: the engine cannot settle this "
                "position, and no result is recommended."
            )
            return Assessment(None, "engine", 0.3, tuple(reasons), tuple(refs), can_mate,
                              engine=tuple(searches), thresholds=t)
    pieces = chess.popcount(board.occupied)
    if confidence < 0.99 and pieces > 7:
        # a static judgement of a position with much play left is less certain than of a bare ending
        confidence -= 0.01 * (pieces - 7)
        reasons.append(f"With {pieces} pieces on the board there is still play left; confidence is lowered.")
    winner = chess.WHITE if outcome == 1 else chess.BLACK
    if outcome != 0 and can_mate.get(winner) is None:
        can_mate = {**can_mate, winner: side_can_mate(board, winner, services)[0]}
    clamped = _clamp(outcome, can_mate)
    if clamped != outcome:
        reasons.append(f"{who} cannot checkmate at all, so the best {who} can get is a draw.")
        confidence = 1.0
    return Assessment(clamped, "engine", confidence, tuple(reasons), tuple(refs), can_mate,
                      engine=tuple(searches), thresholds=t)


def _scaled(
    progress: Callable[[float, str], None] | None, stage: int, stages: int
) -> Callable[[float, str], None] | None:
    """Search ``stage``'s progress as it is: its own share done, its message saying which search it is."""
    if progress is None:
        return None
    report = progress

    def scaled(done: float, message: str) -> None:
        # each search's own share done: a later search runs only if this one leaves the score between the
        # bands, so a bar over all of them would jump when the first one settles the position
        if stages > 1:
            head, found, line = message.partition("; best line ")
            message = f"{head} (search {stage + 1} of up to {stages}){found}{line}"
        report(done, message)

    return scaled
