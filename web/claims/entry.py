"""The move-entry board's two questions to the server (issue 21): how it reads a record, and which
moves are likeliest next.

- ``POST /claims/record`` (form fields ``record``, ``game``, ``language``): the record as the ruling
  will read it, ply by ply, as JSON. The board re-reads a typed or pasted record here, so the board,
  the move chips and the ruling never disagree (one position, one verdict): the server's lenient
  reader is the only reader, with its languages, long forms and illegal moves.
- ``GET /claims/candidates?fen=…&seen=…&last=…``: the candidate moves of a position, best first
  (:func:`adjudicator.chess.candidates.rank`). ``seen``: the earlier positions of the record that a
  move could return to (the page sends those since the last capture or pawn move, same side to move);
  ``last``: the move just played (UCI), for the recapture. Answer: ``{"fen", "candidates": [{"uci",
  "san", "source"}], "ms", "engine_problem"}`` (why the engine gave no moves, else null). The page draws
  its own first candidates at once (static/chess-candidates.js: this ranking without the engine), so that
  the next tap never waits for this answer, which replaces them when it comes (issue 37). Served here
  rather than computed in the page because the measured best predictor is an engine (bench/entry.py):
  the heuristic alone, which a page could run, finds the move among eight candidates half as often.
  The answer stays best first; the page lays the row out split (the likeliest first, then by piece and
  square: :func:`adjudicator.chess.candidates.row_order`, static/chess-candidates.js ``rowLayout``).

Both answer a bad field with 422 and ``{"code", "message", "field"}``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import chess
from flask import Blueprint, Flask, current_app, jsonify, request
from werkzeug.wrappers import Response

from adjudicator.chess.candidates import SHOWN, earlier_keys
from adjudicator.chess.movetext import split_games
from adjudicator.chess.notation import LANGUAGES
from adjudicator.chess.replay import RecordError, Replay, replay_game
from adjudicator.contract import ContractError

bp = Blueprint("entry", __name__)

MAX_SEEN = 100
"""Earlier positions a candidate request may name (a repetition needs no capture or pawn move between,
and a game rarely goes 100 plies without one)."""


def _problem(code: str, message: str, field: str, status: int = 422) -> tuple[Response, int]:
    return jsonify({"code": code, "message": message, "field": field}), status


def read_record(text: str, language: str | None) -> dict[str, Any]:
    """The first game of ``text`` as the ruling reads it: every ply with its token's place in the text,
    its SAN (English; the long form for an illegal move), its UCI, the position after it and whether
    it was legal; the first unreadable token, if any.

    :raises RecordError: the record cannot be read at all (a broken FEN tag, another variant).
    :raises ContractError: an unknown language.
    """
    game = next(split_games(text), None)
    if game is None:
        return {"start_fen": chess.STARTING_FEN, "language": language or "en", "plies": [], "unreadable": None,
                "result": None}
    replay = replay_game(game, None, language)
    place = _utf16(text)
    return {
        "start_fen": replay.start_fen,
        "language": replay.language,
        "plies": [_ply_json(replay, ply, place(game.moves[ply - 1].offset), place(game.moves[ply - 1].offset
                                                                                 + len(game.moves[ply - 1].text)))
                  for ply in range(1, len(replay.plies) + 1)],
        "unreadable": _unreadable_json(replay, game.moves, place),
        "result": game.result,
    }


def _utf16(text: str) -> Callable[[int], int]:
    """A character offset of ``text`` as the page counts it (UTF-16 code units, as JavaScript strings do)."""
    if all(ord(ch) <= 0xFFFF for ch in text):
        return lambda offset: offset
    units = [0]
    for ch in text:
        units.append(units[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return lambda offset: units[offset]


def _ply_json(replay: Replay, ply: int, start: int, end: int) -> dict[str, Any]:
    p = replay.plies[ply - 1]
    return {
        "ply": ply,
        "token": p.token,
        "start": start,
        "end": end,
        "san": replay.san(ply),
        "label": replay.label(ply),
        "uci": p.move.uci() if p.move else "0000",
        "fen": p.fen_after,
        "is_legal": p.is_legal,
        "reason": p.reason,
    }


def _unreadable_json(replay: Replay, tokens: list[Any], place: Callable[[int], int]) -> dict[str, Any] | None:
    if not replay.unreadable:
        return None
    bad = replay.unreadable[0]
    offset = tokens[bad.ply - 1].offset
    return {"ply": bad.ply, "token": bad.token, "start": place(offset), "end": place(offset + len(bad.token)),
            "reason": bad.reason, "candidates": list(bad.candidates)}


@bp.post("/claims/record")
def record() -> Response | tuple[Response, int]:
    """The record as the ruling reads it (see the module docstring)."""
    if request.form.get("game", "chess") != "chess":
        return _problem("invalid_field", "game: only chess records are read here", "game")
    language = request.form.get("language", "").strip() or None
    if language is not None and language not in LANGUAGES:
        return _problem("invalid_field", f"language must be one of {', '.join(LANGUAGES)}, not {language!r}",
                        "language")
    try:
        return jsonify(read_record(request.form.get("record", ""), language))
    except RecordError as exc:
        return _problem(exc.code, exc.message, "record")
    except ContractError as exc:
        return _problem(exc.code, exc.message, exc.field or "record")


@bp.get("/claims/candidates")
def candidates() -> Response | tuple[Response, int]:
    """The likeliest next moves of a position, best first (see the module docstring)."""
    fen = request.args.get("fen", "")[:200].strip()
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        return _problem("invalid_fen", f"fen is not a position: {exc}", "fen")
    seen = [f[:200] for f in request.args.getlist("seen")]
    if len(seen) > MAX_SEEN:
        return _problem("invalid_field", f"seen names at most {MAX_SEEN} positions", "seen")
    last_move = None
    if request.args.get("last"):
        try:
            last_move = chess.Move.from_uci(request.args["last"])
        except ValueError:
            return _problem("invalid_field", "last must be a move in UCI (e.g. e2e4)", "last")
    started = time.perf_counter()
    ranker = service(current_app)
    ranked = ranker.rank(board, earlier_keys(seen), last_move, SHOWN)
    response = jsonify({
        "fen": board.fen(),
        "candidates": [c.to_json() for c in ranked],
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "engine_problem": ranker.engine_problem,
    })
    response.headers["Cache-Control"] = "private, max-age=300"
    return response


_lock = threading.Lock()


def service(app: Flask) -> Any:
    """The app's candidate service (:class:`engines.chess.entry.Candidates`), started on first use; an app
    already shut down gets the heuristic alone, with no engine and no book (nothing it would never close)."""
    with _lock:
        found = app.extensions.get("move_entry")
        if found is None:
            from engines.chess.entry import Candidates  # deferred on purpose: the engines load on the board's first use

            made = Candidates.from_config(app.config["ADJUDICATOR"])  # its engine starts on first use only
            if not app.extensions["adjudicator"].add_closer(made.close):
                made.close()
                return Candidates(None, None)
            found = app.extensions["move_entry"] = made
            threading.Thread(target=found.warm_up, name="entry-warm-up", daemon=True).start()
        return found


def piece_letters() -> dict[str, dict[str, str]]:
    """Per language, the letter it writes for each English piece letter (``{"de": {"Q": "D", ...}}``):
    how the entry board writes a move in the record's language, and what the keypad's keys show."""
    english = {chess.KING: "K", chess.QUEEN: "Q", chess.ROOK: "R", chess.BISHOP: "B", chess.KNIGHT: "N"}
    table: dict[str, dict[str, str]] = {}
    for code, letters in LANGUAGES.items():
        table[code] = {}
        for letter, piece in letters.items():
            if piece in english:
                table[code].setdefault(english[piece], letter)
    return table


@bp.app_context_processor
def _entry_context() -> dict[str, Any]:
    return {"entry_letters": piece_letters}
