"""A ruling's evidence in words, for the sheet the players sign and the ruling page (issue 22).

The claim modules put facts in ``evidence`` for the record (the contract's JSON): plies, FENs,
moves in UCI, clocks in seconds, the engine's settings. People read them here as an arbiter
would say them: a clock as ``0:58:00``, a move in notation with its move number, a ply with
the move played there, a procedure by its name; what the diagram or the lines already show
(the position, a line's moves in UCI) and what only a machine needs (node counts, thresholds,
the time the search took) are left to the raw evidence (the ruling page's "raw" view, the API).
Nothing is invented: a fact this module does not know is still listed, in plain words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from adjudicator.clocks import hms
from adjudicator.evidence import Evidence
from web.evidence import Line, Presentation

HIDDEN = frozenset({
    "fen", "position", "fen_before", "final_fen", "start_fen", "claimant", "thresholds", "engine_settings",
    "nodes", "proof_nodes", "proof_size", "depth", "seconds", "elapsed", "time_ms", "duration_ms", "nps",
    "notes", "record_notes", "token_readings", "game_end", "td_may_end", "needed", "engine_error",
    "flag_order_known", "method_details", "uci", "helpmate", "pv", "line", "best_line", "mate_line", "forced_win",
    "in_order_ruling", "in_order_error", "unreadable_ply",
})
"""Keys shown elsewhere (the diagram, the header, the lines, the game-over card) or only for machines."""

PROCEDURES = {
    "guidelines-iii": "FIDE Guidelines III (quickplay finish)",
    "variation-14h": "US Chess Variation 14H",
    "clear-draw-appeal": "appeal to the arbiter for a draw (a clear draw)",
    "none": "none in force",
}

LABELS = {
    "occurrences": "Repeated position", "counter": "Half-moves without a capture or pawn move",
    "method": "How it was found", "flagged": "Flag down", "period": "The period", "win_test": "Can the other side win",
    "can_mate": "Can checkmate", "claimant_seconds": "Claimant's clock", "finding": "Finding",
    "ilc_mode": "Procedure", "request": "The player asks for", "signs": "Material", "tablebase": "Endgame tablebase",
    "clocks_before": "Clocks before the illegal move", "illegal_move_count": "Illegal moves by the offender",
    "illegal_plies": "Illegal move", "ply": "Ply", "move": "Move", "offender": "Offender",
    "recommendation": "The app recommends", "time_control": "Time control", "intended_move": "Move written",
    "count": "Count", "last_reset_move": "Last capture or man move",
    "last_reset_ply": "Last capture or man move", "moves_since": "Moves since",
    "needed_plies": "Plies needed", "plies_without_man_move_or_capture": "Plies without a man move or capture",
    "forfeited_games": "Games lost", "legal_moves": "Legal moves there", "illegal": "Illegal move",
    "line_pdn": "Line", "settled": "Settled", "plies_to_end": "Plies to the end", "score": "Engine score",
    "value_for_side_to_move": "For the side to move", "record_reading": "The record was read",
    "same_verdict_readings": "Piece letters read, the same verdict each way",
    "delay_seconds": "Delay", "claimant_new_seconds": "Claimant's clock after", "increment_seconds": "Increment",
    "td_finding": "The arbiter's finding", "postponed": "Postponed earlier",
    "unproven_reason": "Why nothing is proven", "wdl": "Database: win, draw or loss", "favours": "Favours",
    "numbering_gaps": "The move numbers", "missing_moves": "Not written on the record",
    "missing_moves_given": "Missing moves given by the arbiter", "result_marks": "Result marks before the end",
}
UNPROVEN = {
    "budget": "the search ran out of its budget before every line reached a result",
    "depth": "a line ran past the search's depth limit",
    "out-of-database": "no endgame database is installed for the lines to end in",
}
"""Why an adjudication proved nothing, in plain words (the stored codes: :mod:`adjudicator.checkers.analysis`)."""


def _missing(value: Any) -> str:
    """``Black's move 2 (2...), before ply 4`` for each move a numbering gap leaves out."""
    items = value if isinstance(value, list) else []
    return "; ".join(
        f"{str(m.get('side', '?')).capitalize()}'s move {m.get('number')}, before ply {m.get('ply')}"
        for m in items if isinstance(m, Mapping)
    )


def _gaps(value: Any) -> str:
    """Each numbering gap by its ply, its number as written and what it leaves out (or repeats)."""
    items = value if isinstance(value, list) else []
    return "; ".join(
        f"ply {g.get('ply')} ({g.get('written')} {g.get('token')}): "
        + (_missing(g.get("missing")) + " not written" if g.get("missing") else "the number repeats")
        for g in items if isinstance(g, Mapping)
    )

RESULTS = {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½"}


def _is_blank(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, list | tuple | Mapping) and not value)


def _side(text: Any) -> str:
    return str(text).replace("_", " ").capitalize()


def _ply(ply: Any, game: Line | None) -> str:
    """``ply 7 (4. Ke1-e3)``; ``ply 0 (the start)``."""
    if not isinstance(ply, int) or isinstance(ply, bool):
        return str(ply)
    if ply == 0:
        return "ply 0 (the start)"
    step = game.step(ply) if game is not None else None
    return f"ply {ply} ({step.label})" if step is not None else f"ply {ply}"


def _plies(value: Any, game: Line | None) -> str:
    items = value if isinstance(value, list | tuple) else [value]
    return ", ".join(_ply(p, game) for p in items)


def _clock(value: Any) -> str:
    """Seconds as a clock shows them, ``0:57:00``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return str(value)
    return hms(value)


def _yes(value: Any) -> str:
    return "yes" if value is True else "no" if value is False else "not examined" if value is None else str(value)


def _period(value: Mapping[str, Any]) -> str:
    side = _side(value.get("side", ""))
    made, required = value.get("moves_made"), value.get("required_moves")
    parts = []
    if isinstance(made, int):
        parts.append(f"{side} had made {made} move{'s' if made != 1 else ''}"
                     + (f" of the {required} the period requires" if isinstance(required, int) else ""))
    if value.get("has_completed_period") is True:
        parts.append("the period's moves were made before the flag fell")
    elif value.get("is_final_period") is True:
        parts.append("in the last period")
    missing = value.get("missing_seconds")
    if isinstance(missing, int | float) and missing > 0:
        parts.append(f"the clock did not add the {_clock(missing)} the time control gives")
    return "; ".join(parts) or "not known from the record"


def _win_test(value: Mapping[str, Any], with_moves: bool) -> str:
    san = value.get("helpmate_san")
    words = _yes(value.get("can_win"))
    if with_moves and isinstance(san, list) and san:
        words += f", for instance by {' '.join(str(m) for m in san)} (a series of legal moves)"
    return words


def _tablebase(value: Mapping[str, Any]) -> str:
    outcome = value.get("outcome")
    pieces, source = value.get("pieces"), value.get("source")
    where = ", ".join(str(x) for x in (f"{pieces} pieces" if pieces else None, source) if x)
    return f"{outcome or 'no answer'}{f' ({where})' if where else ''}"


ORDER = ("white", "red", "black")
"""Sides listed first mover first: White (chess), Red (checkers); then Black or White."""


def _sides(value: Mapping[str, Any], show: Callable[[Any], str]) -> str:
    first = "red" if "red" in value else "white"
    keys = sorted(value, key=lambda k: (k != first, ORDER.index(k) if k in ORDER else 9, str(k)))
    return "; ".join(f"{_side(k)} {show(value[k])}" for k in keys)


def _recommendation(value: Any) -> str:
    if isinstance(value, Mapping):
        result = RESULTS.get(str(value.get("result")), "no result")
        return f"{value.get('verdict', '')}, {result}"
    return RESULTS.get(str(value), str(value))


def _forfeits(value: Sequence[Any]) -> str:
    words = []
    for item in value:
        if isinstance(item, Mapping):
            words.append(f"{item.get('game', 'the game')}: {_side(item.get('loser_colour', ''))} loses "
                         f"({RESULTS.get(str(item.get('result')), item.get('result'))})")
    return "; ".join(words)


def plain(value: Any) -> str:
    """Any other piece of evidence in plain words (no braces, no quotes; seconds as a clock)."""
    if isinstance(value, bool) or value is None:
        return _yes(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Mapping):
        return "; ".join(f"{str(k).replace('_', ' ')} {_clock(v) if str(k).endswith('seconds') else plain(v)}"
                         for k, v in value.items() if not _is_blank(v) and k not in HIDDEN)
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value)
    return str(value)


def _time_control(value: Any) -> str:
    if isinstance(value, Mapping):
        return str(value.get("description") or value.get("text") or plain(value))
    return str(value)


def _word(key: str, value: Any, game: Line | None, lines: set[str]) -> str | None:
    """One piece of evidence in words (None: leave it out)."""
    found: str | None
    if key in ("occurrences", "illegal_plies", "illegal", "repeated_plies", "plies"):
        found = _plies(value, game)
    elif key in ("ply", "last_reset_ply", "ended_at_ply", "claim_ply"):
        found = _ply(value, game)
    elif key.endswith("seconds"):
        found = _clock(value)
    elif key == "clocks_before" and isinstance(value, Mapping):
        found = _sides(value, _clock)
    elif key == "period" and isinstance(value, Mapping):
        found = _period(value)
    elif key == "win_test" and isinstance(value, Mapping):
        found = _win_test(value, with_moves="win_test" not in lines)  # else its line shows the moves
    elif key == "tablebase" and isinstance(value, Mapping):
        found = _tablebase(value)
    elif key == "can_mate" and isinstance(value, Mapping):
        found = _sides(value, _yes)
    elif key == "moves_since" and isinstance(value, Mapping):
        found = _sides(value, plain)
    elif key == "time_control":
        found = _time_control(value)
    elif key == "ilc_mode":
        found = PROCEDURES.get(str(value), str(value))
    elif key == "unproven_reason":
        found = UNPROVEN.get(str(value), str(value))
    elif key == "recommendation":
        found = _recommendation(value)
    elif key == "forfeited_games" and isinstance(value, list):
        found = _forfeits(value)
    elif key in ("flagged", "offender"):
        found = ", ".join(_side(v) for v in (value if isinstance(value, list) else [value]))
    elif key == "signs" and isinstance(value, list):
        found = " ".join(str(v) for v in value)
    elif key == "numbering_gaps":
        found = _gaps(value)
    elif key == "missing_moves":
        found = _missing(value)
    elif key == "result_marks" and isinstance(value, list):
        found = "; ".join(f"ply {m.get('ply')}" for m in value if isinstance(m, Mapping))
    elif key == "record_reading" and isinstance(value, Mapping):
        found = f"in {value.get('language_name') or value.get('language') or 'English'}"
    elif key == "engine" and isinstance(value, Mapping):
        found = str(value.get("name") or value.get("engine") or "") or None
    else:
        found = plain(value)
    return found or None


def evidence_words(found: Mapping[str, Any], presentation: Presentation,
                   limit: int | None = None) -> list[tuple[str, str]]:
    """The evidence as (label, words), each cut to ``limit`` characters when given (see the module)."""
    evidence = Evidence.read(found)
    game = presentation.lines.get("game")
    facts: list[tuple[str, str]] = []
    finding_by = evidence.finding.by
    lines = {name.split("-", 1)[0] for name in presentation.lines if name != "game"}
    shown_elsewhere = set(HIDDEN) | {"finding_by"}
    if evidence.is_illegal_listed:
        shown_elsewhere |= {"ply", "move"}  # the illegal ply is named with its move
    if evidence.is_last_reset_listed:
        shown_elsewhere.add("last_reset_move")
    for key, value in evidence.items():
        if key in shown_elsewhere or _is_blank(value):
            continue
        if isinstance(value, list) and key in lines:
            continue  # shown as a line, its moves in notation (the ruling page's boards, the sheet's lines)
        words = _word(str(key), value, game, lines)
        if words is None:
            continue
        if key == "finding" and finding_by:
            words += " (the arbiter's)" if finding_by == "td" else " (the app's recommendation)"
        if limit is not None and len(words) > limit:
            words = words[: limit - 1].rstrip(" ;,(") + "…"
        facts.append((LABELS.get(str(key), str(key).replace("_", " ").capitalize()), words))
    return facts
