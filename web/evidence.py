"""The evidence made visible: the game as played with the plies that matter marked,
the helpmate or engine lines as playable lines, and the clocks.

Drawing only. What the ruling established comes typed (:class:`adjudicator.evidence.Evidence`, read from
the stored ruling's JSON, so a ruling kept before it existed draws the same); the game's positions are the
ones the ruling established, kept with it (:class:`adjudicator.played.PlayedGame`, read once right after the
ruling): the page draws them without replaying the record. Only a ruling kept before the game was kept with it
is replayed here (:func:`adjudicator.played.played_case`, in the language and with the readings the ruling
used). Whatever else the evidence holds is listed as plain facts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.clocks.dead_position import METHOD_WORDS
from adjudicator.evidence import CheckersLine, DatabaseLeaf, Evidence, FoundLine, GameEnd
from adjudicator.played import PlayedGame, PlayedMove, ReadingNote, played_case, played_checkers, played_line
from web.charts import ClockSeries

LINE_TITLES = {
    "helpmate": "Helpmate: a series of legal moves that mates",
    "pv": "Engine line",
    "line": "Engine line",
    "best_line": "Engine line",
    "mate_line": "Mating line",
    "forced_win": "Forced win",
}


@dataclass(frozen=True)
class Step:
    """One move of a line."""

    ply: int
    label: str
    fen: str
    uci: str | None
    is_illegal: bool = False
    is_marked: bool = False
    note: str = ""
    """What the evidence says of the position after this move (e.g. where a proof enters the database)."""


@dataclass(frozen=True)
class Line:
    """A sequence of positions the page can step through move by move."""

    key: str
    title: str
    start_fen: str
    steps: tuple[Step, ...]
    focus: int = 0
    note: str = ""

    def fen_at(self, ply: int) -> str:
        return self.steps[ply - 1].fen if 0 < ply <= len(self.steps) else self.start_fen

    def step(self, ply: int) -> Step | None:
        return self.steps[ply - 1] if 0 < ply <= len(self.steps) else None

    def clamp(self, ply: int) -> int:
        return max(0, min(len(self.steps), ply))


ENDINGS = {
    "dead-position": "a dead position",
    "checkmate": "checkmate",
    "stalemate": "stalemate",
    "fivefold": "the fifth occurrence of a position",
    "seventy-five-moves": "75 moves by each player without a capture or pawn move",
}


@dataclass(frozen=True)
class GameOver:
    """The game had ended by itself before the claim: where, how, and the proof in words."""

    ply: int
    where: str
    """``after 40... Bxc1 (ply 1)``, ``in the position given (ply 0)``."""
    ending: str
    proof: tuple[str, ...]
    is_mandatory: bool = True
    """False: the TD may declare the draw (US 14D under ``material-then-td``)."""


ReadingShown = ReadingNote
"""A reading of the record beyond plain SAN, as the page lists it (:class:`adjudicator.played.ReadingNote`)."""


@dataclass(frozen=True)
class Presentation:
    """Everything the ruling page and the sheet show besides the ruling's own words."""

    game: str
    lines: dict[str, Line] = field(default_factory=dict)
    position_fen: str | None = None
    clocks: ClockSeries | None = None
    facts: tuple[tuple[str, str], ...] = ()
    record_note: str = ""
    game_over: GameOver | None = None
    readings: tuple[ReadingShown, ...] = ()
    """How the record was read, where it took more than plain SAN (the replay's notes)."""

    @property
    def main_line(self) -> Line | None:
        return self.lines.get("game") or next(iter(self.lines.values()), None)


_METHOD_TITLES = {
    "database": "Best play from the endgame database",
    "proof": "Main line of the proof",
    "search": "Best line found (not a proof)",
}


def leaf_note(leaf: DatabaseLeaf) -> str:
    """``in the endgame database: Red to move wins in 23 plies`` for a proof's ``database_leaf``."""
    mover = "Red" if leaf.fen.startswith("B") else "White"
    outcome = "wins" if leaf.value == "win" else "loses"
    said = "a draw" if leaf.value == "draw" else f"{mover} to move {outcome} in {leaf.plies} plies"
    return f"in the endgame database: {said}"


def _steps(moves: Sequence[PlayedMove], marked: frozenset[int] | set[int] = frozenset(),
           illegal: frozenset[int] | set[int] = frozenset()) -> tuple[Step, ...]:
    return tuple(Step(m.ply, m.label, m.fen, m.move, m.is_illegal or m.ply in illegal, m.ply in marked) for m in moves)


def checkers_line(evidence: Mapping[str, Any], fen: str | None) -> Line | None:
    """The checkers analysis's ``line`` from its ``fen`` as a steppable line; the move where a proof's line enters
    the endgame database (``database_leaf``) marked, with the database's value and distance there."""
    found = evidence.checkers_line if isinstance(evidence, Evidence) else CheckersLine.read(evidence)
    return _checkers_line(found, fen)


def _checkers_line(found: CheckersLine | None, fen: str | None) -> Line | None:
    start = found.fen if found is not None and found.fen is not None else fen
    if found is None or not start:
        return None
    try:
        played = played_checkers(" ".join(found.moves), start)
    except Exception:  # a line that cannot be replayed is still listed in the evidence
        return None
    leaf_ply = found.leaf_ply
    note = leaf_note(found.leaf) if found.leaf is not None and leaf_ply else ""
    steps = tuple(Step(m.ply, m.label, m.fen, m.move, m.is_illegal, m.ply == leaf_ply,
                       note if m.ply == leaf_ply else "") for m in played.moves)
    if not steps:
        return None
    return Line("line", _METHOD_TITLES.get(found.method, "Line"), played.start_fen, steps, 0, note)


def _line_title(line: FoundLine) -> str:
    """``Helpmate: ...``, or ``Stockfish 15.1 line: mate in 5`` / ``... line: +1.35 (depth 20)``."""
    if line.kind != "engine":
        return LINE_TITLES[line.kind]
    title = f"{line.engine or 'Engine'} line"
    if line.mate is not None:
        title += f": mate in {abs(line.mate)} for {'White' if line.mate > 0 else 'Black'}"
    elif line.score is not None:
        title += f": {line.score / 100:+.2f}"
    if line.depth is not None:
        title += f" (depth {line.depth})"
    return title


def facts(evidence: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The evidence's plain facts as (label, text), for a page to list."""
    listed: list[tuple[str, str]] = []
    for key, value in evidence.items():
        label = key.replace("_", " ")
        if isinstance(value, str | int | float | bool) or value is None:
            listed.append((label, "—" if value is None else str(value)))
        elif isinstance(value, list) and len(value) <= 20 and all(isinstance(v, str | int | float) for v in value):
            listed.append((label, ", ".join(str(v) for v in value)))
        else:
            text = json.dumps(value, ensure_ascii=False, default=str)
            listed.append((label, text if len(text) <= 300 else text[:297] + "..."))
    return tuple(listed)


def _proof_words(end: GameEnd) -> tuple[str, ...]:
    """The proof of a dead position (``evidence.game_end``) in an arbiter's words."""
    words: list[str] = []
    if end.listed is not None:
        words.append(f"{end.listed[0].upper()}{end.listed[1:]}: neither player can checkmate with this material.")
    else:
        for side, method in end.methods:
            words.append(f"{side.capitalize()} cannot checkmate by any series of legal moves: "
                         f"{METHOD_WORDS.get(method, method)}.")
    if end.alive_before is not None:
        ply, side = end.alive_before
        words.append(
            f"One ply earlier (ply {ply}) {side.capitalize()} could still checkmate: the "
            "helpmate below shows how, so the game ended here and not before."
        )
    return tuple(words)


def _game_over(end: GameEnd | None, game: Line | None) -> GameOver | None:
    """What ended the game, from ``evidence.game_end`` (every claim) or ``evidence.td_may_end``."""
    if end is None:
        return None
    step = game.step(end.ply) if game is not None else None
    if step is not None:
        where = f"after {step.label} (ply {end.ply})"
    elif end.ply == 0 and game is not None:
        where = "at the start of the record (ply 0)"
    else:
        where = f"in the position given (ply {end.ply})"
    proof = _proof_words(end) if end.kind == "dead-position" else ()
    return GameOver(end.ply, where, ENDINGS.get(end.kind, end.kind), proof, end.is_mandatory)


def _focus(evidence: Evidence, illegal: frozenset[int], length: int) -> int:
    """The ply the board opens on: where the game ended, else the illegal move, else the last ply marked."""
    ended, marked = evidence.ended_at_ply, evidence.marked_plies
    if ended is not None and 0 <= ended <= length:
        return ended  # the game ended there: the board opens on that position
    if illegal:
        return min(p for p in illegal if p <= length) if any(p <= length for p in illegal) else length
    return min(max(marked), length) if marked else length


def kept_game(played_json: str | None) -> PlayedGame | None:
    """The game a ruling kept (``rulings.played_json``), typed; None: none kept, or one that cannot be read
    (the page then replays the record, as for a ruling kept before games were kept)."""
    if not played_json:
        return None
    try:
        return PlayedGame.from_json(json.loads(played_json))
    except ValueError:  # not JSON, or not a kept game (StoredGameError)
        return None


def present(case: Mapping[str, Any], ruling: Mapping[str, Any] | None,
            kept: PlayedGame | None = None) -> Presentation:
    """What to show for a case and its ruling (the ruling's JSON, as stored: its evidence read typed).

    ``kept``: the game as the ruling read it, kept with the ruling; drawn as it is, the record is not
    replayed. Without it (a ruling kept before games were kept with rulings) the case's record is replayed
    as the ruling read it.
    """
    game = str(case.get("game") or "chess")
    evidence = Evidence.read((ruling or {}).get("evidence"))
    lines: dict[str, Line] = {}
    clocks = None
    note = ""
    final_fen = case.get("fen") or case.get("start_fen")
    readings: tuple[ReadingShown, ...] = ()
    if game in ("chess", "checkers"):
        try:
            played = kept if kept is not None else played_case(case, evidence.language)
        except Exception as exc:
            played, note = None, f"The record could not be replayed for display: {exc}"
        if played is not None:
            illegal = evidence.illegal_plies if game == "chess" and case.get("claim") == "illegal-move" else frozenset()
            steps = _steps(played.moves, evidence.marked_plies, illegal)
            if game == "chess":
                focus = _focus(evidence, illegal, len(steps))
                clocks = ClockSeries.from_plies(chess.Board(played.start_fen).turn == chess.WHITE, played.clocks)
                readings = played.readings
            else:
                focus = min(max(evidence.marked_plies), len(steps)) if evidence.marked_plies else len(steps)
            lines["game"] = Line("game", "The game as played", played.start_fen, steps, focus)
            final_fen = steps[-1].fen if steps else played.start_fen
    if game == "checkers" and case.get("claim") == "unfinished-game":
        proof_line = _checkers_line(evidence.checkers_line, final_fen)
        if proof_line is not None:
            lines["line"] = proof_line
    if game == "chess":
        base = final_fen or chess.STARTING_FEN
        for found in evidence.lines:
            origin = found.start_fen or base
            line_steps = _steps(played_line(origin, found.moves))
            if line_steps:
                lines[found.key] = Line(found.key, _line_title(found), origin, line_steps, 0)
    if not final_fen:
        final_fen = evidence.position_fen
    return Presentation(
        game=game,
        lines=lines,
        position_fen=final_fen,
        clocks=clocks,
        facts=facts(evidence),
        record_note=note,
        game_over=_game_over(evidence.game_end, lines.get("game")) if game == "chess" else None,
        readings=readings,
    )
