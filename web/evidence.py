"""The evidence made visible: the game as played with the plies that matter marked,
the helpmate or engine lines as playable lines, and the clocks.

Built from the stored case and ruling (contract JSON), so a page shows the same
thing whenever it is opened. Claim modules put different facts in ``evidence``;
this reads the common shapes (``occurrences``, ``plies``, ``ply``, ``helpmate``,
``pv``, ``lines``) and lists whatever else there is as plain facts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess

from adjudicator.case_facts import Facts
from adjudicator.checkers.replay import replay_checkers
from adjudicator.chess.replay import replay_chess
from adjudicator.clocks.dead_position import METHOD_WORDS
from web.charts import ClockSeries

PLY_KEYS = (
    "ended_at_ply",
    "occurrences",
    "plies",
    "repeated_plies",
    "ply",
    "illegal_ply",
    "illegal_plies",
    "alleged_illegal_ply",
    "claim_ply",
)
LINE_KEYS = {
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


@dataclass(frozen=True)
class ReadingShown:
    """A reading of the record beyond plain SAN, for the page: where, the move as read, and what was assumed."""

    ply: int
    label: str
    """The move as read (``4. O-O``)."""
    token: str
    """As written."""
    kind: str
    text: str


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


def _ints(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _ints(item)
    elif isinstance(value, Mapping):
        for key in ("plies", "ply", "occurrences"):
            if key in value:
                yield from _ints(value[key])


def marked_plies(evidence: Mapping[str, Any]) -> set[int]:
    """The plies the evidence points at (repeated positions, the illegal move, ...)."""
    marked: set[int] = set()
    for key in PLY_KEYS:
        marked.update(_ints(evidence.get(key)))
    for key in ("repetitions", "illegal", "illegal_moves"):
        marked.update(_ints(evidence.get(key)))
    return {p for p in marked if p >= 0}


def illegal_plies(evidence: Mapping[str, Any]) -> set[int]:
    found: set[int] = set()
    for key in ("ply", "illegal_ply", "illegal_plies", "alleged_illegal_ply"):
        found.update(_ints(evidence.get(key)))
    for key in ("illegal", "illegal_moves"):
        found.update(_ints(evidence.get(key)))
    return found


def move_label(board: chess.Board, text: str) -> str:
    number = board.fullmove_number
    return f"{number}. {text}" if board.turn == chess.WHITE else f"{number}... {text}"


def _replay_game(
    record: str, start_fen: str | None, language: str | None = None, stated: Mapping[int, str] | None = None
) -> tuple[str, list[tuple[str, str, str | None, bool]], list[float | None], tuple[ReadingShown, ...]]:
    """(start FEN, [(label, fen after, uci, is_illegal)], clocks, readings beyond plain SAN) from the
    record, read leniently in the language the ruling read it in, with the readings the case states."""

    replay = replay_chess(record, start_fen, language, allow_unreadable=True, readings=stated)
    steps: list[tuple[str, str, str | None, bool]] = []
    for number, ply in enumerate(replay.plies, start=1):
        label = replay.label(number).replace(".", ". ", 1) if ply.mover == chess.WHITE else replay.label(number)
        label = label.replace("...", "... ", 1) if ply.mover == chess.BLACK else label
        uci = ply.move.uci() if ply.move else None
        steps.append((label, ply.fen_after, uci, not ply.is_legal))
    readings = tuple(
        ReadingShown(n.ply, steps[n.ply - 1][0] if n.ply <= len(steps) else "", n.token, n.note.kind, n.note.text)
        for n in replay.notes
    )
    return replay.start_fen, steps, [p.clock for p in replay.plies], readings


def _replay_checkers(record: str, start_fen: str | None) -> tuple[str, list[tuple[str, str, str | None, bool]]]:
    """(start FEN, [(label, fen after, the squares ``11-15`` / ``18x11x4``, is_illegal)]) of a checkers record."""

    replay = replay_checkers(record, start_fen)
    steps: list[tuple[str, str, str | None, bool]] = []
    first = replay.start.fen().startswith("B")
    for ply in replay.plies:
        number = (ply.number + (0 if first else 1) + 1) // 2
        is_first_mover = ply.side in ("red", "black")
        label = f"{number}. {ply.token}" if is_first_mover else f"{number}... {ply.token}"
        squares = str(ply.move) if ply.move is not None else None
        steps.append((label, ply.after.fen(), squares, not ply.is_legal))
    return replay.start.fen(), steps


_METHOD_TITLES = {
    "database": "Best play from the endgame database",
    "proof": "Main line of the proof",
    "search": "Best line found (not a proof)",
}


def leaf_note(leaf: Mapping[str, Any]) -> str:
    """``in the endgame database: Red to move wins in 23 plies`` for a proof's ``database_leaf``."""
    fen = str(leaf.get("fen", ""))
    mover = "Red" if fen.startswith("B") else "White"
    value, plies = leaf.get("value"), leaf.get("plies")
    said = "a draw" if value == "draw" else f"{mover} to move {'wins' if value == 'win' else 'loses'} in {plies} plies"
    return f"in the endgame database: {said}"


def checkers_line(evidence: Mapping[str, Any], fen: str | None) -> Line | None:
    """The checkers analysis's ``line`` from its ``fen`` as a steppable line; the move where a proof's line enters
    the endgame database (``database_leaf``) marked, with the database's value and distance there."""
    moves = evidence.get("line")
    start = evidence.get("fen") if isinstance(evidence.get("fen"), str) else fen
    if not start or not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
        return None
    try:
        origin, raw = _replay_checkers(" ".join(moves), start)
    except Exception:  # a line that cannot be replayed is still listed in the evidence
        return None
    leaf = evidence.get("database_leaf")
    leaf_ply = leaf.get("ply") if isinstance(leaf, Mapping) and evidence.get("method") == "proof" else None
    note = leaf_note(leaf) if isinstance(leaf, Mapping) and leaf_ply else ""
    steps = tuple(Step(n, label, after, squares, is_illegal, n == leaf_ply, note if n == leaf_ply else "")
                  for n, (label, after, squares, is_illegal) in enumerate(raw, start=1))
    if not steps:
        return None
    title = _METHOD_TITLES.get(str(evidence.get("method")), "Line")
    return Line("line", title, origin, steps, 0, note)


def _play_line(start_fen: str, moves: Sequence[Any]) -> list[Step]:
    try:
        board = chess.Board(start_fen)
    except ValueError:
        return []
    steps: list[Step] = []
    for number, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            break
        try:
            move = chess.Move.from_uci(text)
            if move not in board.legal_moves:
                raise ValueError(text)
        except ValueError:
            try:
                move = board.parse_san(text)
            except ValueError:
                break
        label = move_label(board, board.san(move))
        board.push(move)
        steps.append(Step(number, label, board.fen(), move.uci()))
    return steps


def _engine_title(item: Mapping[str, Any]) -> str:
    """``Stockfish 15.1 line: mate in 5`` / ``... line: +1.35 (depth 20)``."""
    name = item.get("engine") if isinstance(item.get("engine"), str) else "Engine"
    title = f"{name} line"
    mate, score = item.get("mate"), item.get("score_cp", item.get("score"))
    if isinstance(mate, int) and not isinstance(mate, bool):
        title += f": mate in {abs(mate)} for {'White' if mate > 0 else 'Black'}"
    elif isinstance(score, int | float) and not isinstance(score, bool):
        title += f": {score / 100:+.2f}"
    if isinstance(item.get("depth"), int):
        title += f" (depth {item['depth']})"
    return title


def _found_lines(evidence: Mapping[str, Any], depth: int = 0) -> Iterator[tuple[str, str, Sequence[Any], str | None]]:
    """(key, title, moves, start fen) for every move list in the evidence."""
    fen = evidence.get("fen") if isinstance(evidence.get("fen"), str) else None
    for key, value in evidence.items():
        if key in LINE_KEYS and isinstance(value, list) and value and all(isinstance(m, str) for m in value):
            yield key, LINE_KEYS[key], value, fen
        elif isinstance(value, list) and any(isinstance(i, Mapping) and ("pv" in i or "moves" in i) for i in value):
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    pv = item.get("pv") or item.get("moves")
                    if isinstance(pv, list) and pv:
                        start = item.get("fen") if isinstance(item.get("fen"), str) else fen
                        yield f"{key}-{index}", _engine_title(item), pv, start
        elif isinstance(value, Mapping) and depth < 2:
            for sub_key, title, moves, start in _found_lines(value, depth + 1):
                yield f"{key}-{sub_key}", title, moves, start


def _facts(evidence: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    facts: list[tuple[str, str]] = []
    for key, value in evidence.items():
        label = key.replace("_", " ")
        if isinstance(value, str | int | float | bool) or value is None:
            facts.append((label, "—" if value is None else str(value)))
        elif isinstance(value, list) and len(value) <= 20 and all(isinstance(v, str | int | float) for v in value):
            facts.append((label, ", ".join(str(v) for v in value)))
        else:
            text = json.dumps(value, ensure_ascii=False, default=str)
            facts.append((label, text if len(text) <= 300 else text[:297] + "..."))
    return tuple(facts)


def facts(evidence: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The evidence's plain facts as (label, text), for a page to list."""
    return _facts(evidence)


def _proof_words(end: Mapping[str, Any]) -> tuple[str, ...]:
    """The proof of a dead position (``evidence.game_end``) in an arbiter's words."""

    proof = end.get("proof")
    words: list[str] = []
    if isinstance(proof, Mapping):
        listed = proof.get("listed")
        if isinstance(listed, str):
            words.append(f"{listed[0].upper()}{listed[1:]}: neither player can checkmate with this material.")
        else:
            for side in ("white", "black"):
                found = proof.get(side)
                if isinstance(found, Mapping):
                    method = str(found.get("method", ""))
                    words.append(
                        f"{side.capitalize()} cannot checkmate by any series of legal moves: "
                        f"{METHOD_WORDS.get(method, method)}."
                    )
    alive = end.get("alive_before")
    if isinstance(alive, Mapping) and isinstance(alive.get("side"), str):
        words.append(
            f"One ply earlier (ply {alive.get('ply')}) {alive['side'].capitalize()} could still checkmate: the "
            "helpmate below shows how, so the game ended here and not before."
        )
    return tuple(words)


def _game_over(evidence: Mapping[str, Any], game: Line | None) -> GameOver | None:
    """What ended the game, from ``evidence.game_end`` (every claim) or ``evidence.td_may_end``."""
    end, mandatory = evidence.get("game_end"), True
    if not isinstance(end, Mapping):
        end, mandatory = evidence.get("td_may_end"), False
    if not isinstance(end, Mapping) or not isinstance(end.get("ply"), int):
        return None
    ply = int(end["ply"])
    step = game.step(ply) if game is not None else None
    if step is not None:
        where = f"after {step.label} (ply {ply})"
    elif ply == 0 and game is not None:
        where = "at the start of the record (ply 0)"
    else:
        where = f"in the position given (ply {ply})"
    kind = str(end.get("kind", ""))
    proof = _proof_words(end) if kind == "dead-position" else ()
    return GameOver(ply, where, ENDINGS.get(kind, kind), proof, mandatory)


def present(case: Mapping[str, Any], ruling: Mapping[str, Any] | None) -> Presentation:
    """What to show for a case and its ruling."""
    game = str(case.get("game") or "chess")
    evidence: Mapping[str, Any] = (ruling or {}).get("evidence") or {}
    if not isinstance(evidence, Mapping):
        evidence = {}
    lines: dict[str, Line] = {}
    clocks = None
    note = ""
    final_fen = case.get("fen") or case.get("start_fen")
    readings: tuple[ReadingShown, ...] = ()
    if game == "chess" and isinstance(case.get("record"), str) and case["record"].strip():
        try:
            reading = evidence.get("record_reading")
            language = reading.get("language") if isinstance(reading, Mapping) else None
            stated = Facts({"readings": case.get("readings")}).readings  # the TD's choice (docs/reading-records.md)
            start, raw, clock_values, readings = _replay_game(
                case["record"], case.get("start_fen"), language or case.get("language"), stated
            )
        except Exception as exc:
            note = f"The record could not be replayed for display: {exc}"
        else:
            marked = marked_plies(evidence)
            illegal = illegal_plies(evidence) if case.get("claim") == "illegal-move" else set()
            steps = tuple(
                Step(n, label, fen, uci, is_illegal or n in illegal, n in marked)
                for n, (label, fen, uci, is_illegal) in enumerate(raw, start=1)
            )
            ended = evidence.get("ended_at_ply")
            if isinstance(ended, int) and not isinstance(ended, bool) and 0 <= ended <= len(steps):
                focus = ended  # the game ended there: the board opens on that position
            elif illegal:
                focus = (
                    min(p for p in illegal if p <= len(steps)) if any(p <= len(steps) for p in illegal) else len(steps)
                )
            elif marked:
                focus = min(max(marked), len(steps))
            else:
                focus = len(steps)
            lines["game"] = Line("game", "The game as played", start, steps, focus)
            final_fen = steps[-1].fen if steps else start
            clocks = ClockSeries.from_plies(chess.Board(start).turn == chess.WHITE, clock_values)
    if game == "checkers" and isinstance(case.get("record"), str) and case["record"].strip():
        try:
            start, raw = _replay_checkers(case["record"], case.get("start_fen"))
        except Exception as exc:
            note = f"The record could not be replayed for display: {exc}"
        else:
            marked = marked_plies(evidence)
            steps = tuple(
                Step(n, label, fen, squares, is_illegal, n in marked)
                for n, (label, fen, squares, is_illegal) in enumerate(raw, start=1)
            )
            focus = min(max(marked), len(steps)) if marked else len(steps)
            lines["game"] = Line("game", "The game as played", start, steps, focus)
            final_fen = steps[-1].fen if steps else start
    if game == "checkers" and case.get("claim") == "unfinished-game":
        proof_line = checkers_line(evidence, final_fen)
        if proof_line is not None:
            lines["line"] = proof_line
    if game == "chess":
        base = final_fen or chess.STARTING_FEN
        for key, title, moves, line_start in _found_lines(evidence):
            origin = line_start or base
            steps_list = _play_line(origin, moves)
            if steps_list:
                lines[key] = Line(key, title, origin, tuple(steps_list), 0)
    for key in ("final_fen", "position", "fen"):
        if not final_fen and isinstance(evidence.get(key), str) and "/" in evidence[key]:
            final_fen = evidence[key]
    return Presentation(
        game=game,
        lines=lines,
        position_fen=final_fen,
        clocks=clocks,
        facts=_facts(evidence),
        record_note=note,
        game_over=_game_over(evidence, lines.get("game")) if game == "chess" else None,
        readings=readings,
    )
