"""Replaying a chess record as played: positions, repetition keys, move-rule counter, clocks.

The reader is lenient (see :mod:`adjudicator.chess.notation` and :mod:`adjudicator.chess.san`):
moves that were illegal as played stay in the record, marked with the reason, and
the replay goes on from the position as physically played. A token that cannot be
read as any move stops the replay and names its ply with the likely legal moves.

Facts per ply (ply 1 = the record's first move):

- the position after it (FEN, as physically played);
- its repetition key (FIDE 9.2.3: same side to move, same pieces on the same
  squares, same castling rights, and an en-passant square only where the capture
  is actually legal);
- the move-rule counter (half-moves since the last capture or pawn move, FIDE 9.3);
- the clock (``[%clk]``) and the time spent (``[%emt]``) when recorded.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import chess

from adjudicator.chess.fen import read_fen
from adjudicator.chess.language_choice import choose, language_note
from adjudicator.chess.movetext import Note, RawGame, split_games
from adjudicator.chess.notation import LANGUAGES, ReadingNote, notations_of, writes_upper_case_pieces
from adjudicator.chess.numbering import NumberingGap, gaps_in
from adjudicator.chess.san import describe, read_move
from adjudicator.contract import Case, ContractError, quoted

MAX_PLIES = 20_000
"""More plies than any game can have (the longest possible game is under 18,000 plies)."""

RepetitionKey = Hashable
"""A position's identity under FIDE 9.2.3 (python-chess's transposition key with legal e.p. only)."""


class RecordError(ContractError):
    """A record that cannot be read (at all, or at a named ply)."""

    def __init__(
        self, message: str, field: str = "record", ply: int | None = None, candidates: Sequence[str] = ()
    ) -> None:
        super().__init__("unreadable_record", message, field)
        self.ply = ply
        self.candidates = tuple(candidates)


class UnsupportedVariant(RecordError):
    """A record of another game (``[Variant "Crazyhouse"]``): not chess under the Laws."""


def repetition_key(board: chess.Board) -> RepetitionKey:
    """The position as FIDE 9.2.3 identifies it (e.p. counts only when the capture is legal)."""
    return board._transposition_key()


def board_from_key(key: Any, halfmove: int, fullmove: int, chess960: bool = False) -> chess.Board:
    """A board rebuilt from a repetition key and the move counters (cheaper than storing FENs)."""
    pawns, knights, bishops, rooks, queens, kings, white, black, turn, castling, ep = key
    board = chess.Board(None, chess960=chess960)
    board.pawns, board.knights, board.bishops, board.rooks = pawns, knights, bishops, rooks
    board.queens, board.kings = queens, kings
    board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK] = white, black
    board.occupied = white | black
    board.turn, board.castling_rights, board.ep_square = turn, castling, ep
    board.halfmove_clock, board.fullmove_number = halfmove, fullmove
    return board


@dataclass(frozen=True, init=False)
class Ply:
    """One move of the record as played."""

    number: int
    """1 = the record's first move."""
    token: str
    """The move as written."""
    move: chess.Move | None
    """The move as physically made (None when it cannot be made at all)."""
    is_legal: bool
    reason: str | None
    """Why the move was illegal, in an arbiter's words."""
    clock: float | None = None
    """Seconds left on the mover's clock after the move (``[%clk]``)."""
    emt: float | None = None
    """Seconds the mover spent on this move (``[%emt]``)."""
    key: RepetitionKey = None
    """The repetition key of the position after the move (FIDE 9.2.3)."""
    counter: int = 0
    """Half-moves since the last capture or pawn move, after this move (FIDE 9.3)."""
    mover: chess.Color = chess.WHITE
    move_number: int = 1
    """The full-move number the move was made on."""
    is_checkmate: bool = False
    """The move left the opponent checkmated."""
    is_stalemate: bool = False
    """The move left the opponent stalemated."""
    irregularity: str | None = None
    """For an illegal ply: ``illegal``, ``unreplaced-promotion`` (7.5.2) or ``no-move`` (7.5.3)."""
    chess960: bool = False
    notes: tuple[ReadingNote, ...] = ()
    """What reading the token assumed beyond plain SAN (see :mod:`adjudicator.chess.san`)."""

    def __init__(
        self, number: int, token: str, move: chess.Move | None, is_legal: bool, reason: str | None,
        clock: float | None = None, emt: float | None = None, key: RepetitionKey = None, counter: int = 0,
        mover: chess.Color = chess.WHITE, move_number: int = 1, is_checkmate: bool = False,
        is_stalemate: bool = False, irregularity: str | None = None, chess960: bool = False,
        notes: tuple[ReadingNote, ...] = (),
    ) -> None:
        # A replay makes one Ply per move (270,000 in bench/corpus.py): filling __dict__ at once
        # costs half of a frozen dataclass's field-by-field __init__; the instance stays frozen.
        self.__dict__.update(
            number=number, token=token, move=move, is_legal=is_legal, reason=reason, clock=clock, emt=emt,
            key=key, counter=counter, mover=mover, move_number=move_number, is_checkmate=is_checkmate,
            is_stalemate=is_stalemate, irregularity=irregularity, chess960=chess960, notes=notes,
        )

    @property
    def side(self) -> str:
        return "white" if self.mover == chess.WHITE else "black"

    @property
    def board_after(self) -> chess.Board:
        """The position after the move as physically played (built from the repetition key)."""
        return board_from_key(
            self.key, self.counter, self.move_number + (1 if self.mover == chess.BLACK else 0), self.chess960
        )

    @property
    def fen_after(self) -> str:
        """The FEN after the move (e.p. square shown only where the capture is legal)."""
        return self.board_after.fen()


@dataclass(frozen=True)
class Unreadable:
    """A token that could not be read as any move; the replay stopped there."""

    ply: int
    token: str
    reason: str
    candidates: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "token": quoted(self.token), "candidates": list(self.candidates)}


@dataclass(frozen=True)
class PlyNote:
    """A reading beyond plain SAN, with the ply and token it was made at (the contract's ``notes``)."""

    ply: int
    token: str
    note: ReadingNote

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"ply": self.ply, "token": self.token, "kind": self.note.kind, "note": self.note.text}
        if self.note.readings:
            shown["readings"] = list(self.note.readings)
        return shown


@dataclass(frozen=True)
class Replay:
    """A record replayed ply by ply."""

    start_fen: str
    plies: tuple[Ply, ...]
    tags: tuple[tuple[str, str], ...] = ()
    start_key: RepetitionKey = None
    unreadable: tuple[Unreadable, ...] = ()
    language: str = "en"
    chess960: bool = False
    result: str | None = None
    """The result written in the record (tag or final token), if any."""
    reading: str = "english"
    """Which rule chose :attr:`language` (see :func:`replay_game`): ``stated``, ``english``,
    ``only`` (the one other language that reads every token), ``undecided`` (several do,
    with different moves) or ``furthest`` (none reads every token)."""
    alternatives: tuple[Replay, ...] = ()
    """Other languages that read every token but give different moves."""
    file_notes: tuple[Note, ...] = ()
    """What the splitter read past or decided by rule, up to where the replay stopped (a stray bracket,
    the end of the game at a blank line): :class:`adjudicator.chess.movetext.Note`; in :attr:`notes` too."""
    unmatched: tuple[str, ...] = ()
    """Readings the case states (``readings``) that are no reading of their ply's token, in words."""

    @property
    def notations(self) -> list[str]:
        """The notations the moves were read in, in order of first use
        (:data:`adjudicator.chess.notation.NOTATIONS`)."""
        return notations_of(p.token for p in self.plies)

    @property
    def notation(self) -> str | None:
        """The record's notation: the one its moves are written in, ``mixed`` for several, None for no move."""
        found = self.notations
        return found[0] if len(found) == 1 else ("mixed" if found else None)
    numbering_gaps: tuple[NumberingGap, ...] = ()
    """Where the written move numbers and the order of the moves part, up to where the replay stopped
    (:mod:`adjudicator.chess.numbering`); in :attr:`notes` too."""

    def gap_before(self, ply: int) -> NumberingGap | None:
        """The first numbering gap at or before ``ply``: the moves from there on may not be whose the replay
        says they are."""
        return next((gap for gap in self.numbering_gaps if gap.ply <= ply), None)

    @property
    def is_reading_decided(self) -> bool:
        """Whether the rule alone chose this reading (not a pick among equal readings)."""
        return self.reading != "undecided"

    def first_difference(self, other: Replay) -> int:
        """The first ply where ``other`` reads another move (or ends), 1 = the first move."""
        for ply, (mine, theirs) in enumerate(zip(self.plies, other.plies, strict=False), start=1):
            if mine.move != theirs.move:
                return ply
        return min(len(self.plies), len(other.plies)) + 1

    @property
    def start_board(self) -> chess.Board:
        return chess.Board(self.start_fen, chess960=self.chess960)

    @property
    def final_board(self) -> chess.Board:
        """The position after the last move as physically played."""
        return self.board_after(len(self.plies))

    def board_after(self, ply: int) -> chess.Board:
        """The position after ``ply`` (0 = the start position)."""
        return self.plies[ply - 1].board_after if ply else self.start_board

    def tag(self, name: str) -> str | None:
        return dict(self.tags).get(name)

    @property
    def keys(self) -> tuple[RepetitionKey, ...]:
        """Repetition keys by ply: index 0 is the start position."""
        return (self.start_key, *(p.key for p in self.plies))

    def counter_after(self, ply: int) -> int:
        """The move-rule counter after ``ply`` (0 = from the start position's FEN)."""
        return self.plies[ply - 1].counter if ply else self.start_board.halfmove_clock

    @property
    def counter(self) -> int:
        return self.counter_after(len(self.plies))

    def occurrences(self, ply: int) -> list[int]:
        """The plies (up to and including ``ply``) where the position after ``ply`` stood."""
        keys = self.keys
        key = keys[ply]
        return [i for i in range(ply + 1) if keys[i] == key]

    def repetitions(self) -> list[tuple[str, list[int]]]:
        """Positions that occurred more than once, as (FEN, plies), in order of first occurrence."""
        seen: dict[RepetitionKey, list[int]] = {}
        for i, key in enumerate(self.keys):
            seen.setdefault(key, []).append(i)
        return [(self.fen_at(plies[0]), plies) for plies in seen.values() if len(plies) > 1]

    def fen_at(self, ply: int) -> str:
        return self.plies[ply - 1].fen_after if ply else self.start_fen

    @property
    def illegal(self) -> tuple[Ply, ...]:
        return tuple(p for p in self.plies if not p.is_legal)

    def san(self, ply: int) -> str:
        """The move of ``ply`` in English SAN (long form ``Bc1-d3`` when it was illegal)."""
        p = self.plies[ply - 1]
        if p.move is None or not p.move:
            return "--"
        before = self.board_after(ply - 1)
        return before.san(p.move) if p.is_legal else describe(before, p.move)

    def label(self, ply: int) -> str:
        """The move as an arbiter names it: ``23.Ke3`` or ``4...Ng8``; ``the start`` for ply 0."""
        if ply == 0:
            return "the start"
        p = self.plies[ply - 1]
        dots = "." if p.mover == chess.WHITE else "..."
        return f"{p.move_number}{dots}{self.san(ply)}"

    @property
    def notes(self) -> tuple[PlyNote, ...]:
        """Every reading beyond plain SAN, by ply: the language the letters were read in (at the
        first piece letter), then each token's notes (dashes, capture marks supplied, ...)."""
        found: list[PlyNote] = []
        chosen = language_note(self.language, self.reading, [p.token for p in self.plies])
        if chosen is not None:
            found.append(PlyNote(*chosen))
        found.extend(PlyNote(p.number, p.token, note) for p in self.plies for note in p.notes)
        found.extend(PlyNote(n.ply, n.token, ReadingNote(n.kind, n.text)) for n in self.file_notes)
        found.extend(PlyNote(g.ply, g.token, ReadingNote("numbering-gap", g.text)) for g in self.numbering_gaps)
        return tuple(sorted(found, key=lambda n: n.ply))

    def alternative_json(self, other: Replay) -> dict[str, Any]:
        """Another reading of the record, where it first departs from this one."""
        ply = self.first_difference(other)
        return {
            "language": other.language,
            "first_difference": {
                "ply": ply,
                "token": other.plies[ply - 1].token if ply <= len(other.plies) else None,
                "this_reading": self.label(ply) if ply <= len(self.plies) else None,
                "that_reading": other.label(ply) if ply <= len(other.plies) else None,
            },
            "final_fen": other.fen_at(len(other.plies)),
            "illegal": [p.number for p in other.illegal],
        }

    def to_json(self) -> dict[str, Any]:
        """The contract's "Replay output" object."""
        return {
            "plies": len(self.plies),
            "start_fen": self.start_fen,
            "final_fen": self.fen_at(len(self.plies)),
            "illegal": [
                {"ply": p.number, "move": self.san(p.number), "reason": p.reason} for p in self.illegal
            ],
            "unreadable": [u.to_json() for u in self.unreadable],
            "repetitions": [{"fen": fen, "plies": plies} for fen, plies in self.repetitions()],
            "counter": self.counter,
            "language": self.language,
            "notation": self.notation,
            "notations": self.notations,
            "alternative_readings": [self.alternative_json(other) for other in self.alternatives],
            "notes": [note.to_json() for note in self.notes],
            "numbering_gaps": [gap.to_json() for gap in self.numbering_gaps],
        }


def _start(game: RawGame, start_fen: str | None) -> tuple[chess.Board, bool]:
    variant = (game.tag("Variant") or "").strip().lower()
    chess960 = "960" in variant or "fischer" in variant
    if variant and not chess960 and variant not in ("standard", "chess", "normal", "from position", "fromposition"):
        raise UnsupportedVariant(f"the record is a {game.tag('Variant')} game; only chess is supported")
    fen = game.tag("FEN")
    field = "record"
    if fen is None:
        fen, field = start_fen, "start_fen"
    if fen is None or not fen.strip():
        return chess.Board(chess960=chess960), chess960
    try:
        return chess.Board(fen.strip(), chess960=chess960), chess960
    except ValueError as exc:
        if field == "record":
            raise RecordError(f"the record's FEN tag is not a position: {exc}") from None
        raise ContractError("invalid_fen", f"start_fen is not a position: {exc}", field) from None


def _has_no_moves(board: chess.Board, in_check: bool) -> bool:
    """No legal move (mate or stalemate). A king move is looked for first: it almost always exists."""
    king = board.kings & board.occupied_co[board.turn]
    if king and not in_check:
        # not in check: a king step to a square nobody attacks is legal (no x-ray through the king)
        square = chess.msb(king)
        for target in chess.scan_reversed(chess.BB_KING_ATTACKS[square] & ~board.occupied_co[board.turn]):
            if not board.attackers_mask(not board.turn, target):
                return False
    return not any(board.generate_legal_moves())


def replay_game(
    game: RawGame, start_fen: str | None = None, language: str | None = None,
    readings: Mapping[int, str] | None = None,
) -> Replay:
    """Replay one game split from a record (see :func:`replay_chess`).

    One reading of the piece letters, chosen by rule (FIDE C.3 lets each player use
    the letters of their country), never by how many illegal moves a reading gives:
    ``language`` when given (the case's, else the ruleset's default), that reading alone;
    else the rule of :func:`adjudicator.chess.language_choice.choose`: the script of the
    record's piece letters first (Cyrillic letters are read in Russian, Ukrainian or
    Bulgarian only), then English whenever English reads every token, then a language
    whose letters cover the record's and read every token (several: the first, and the
    claim defers where they differ), else the reading that gets furthest. Other full
    readings with different moves are kept as :attr:`Replay.alternatives`.

    A token with two legal readings (``bxc6`` in a record written in lower case: the b-pawn or the
    bishop) is read as the file, as in SAN, unless only the other reading keeps every later move of
    the record legal (:func:`_whole_record`), or ``readings`` (the case's, ply -> the move meant, SAN or
    coordinates) names the reading: the token's note says which was replayed and why.
    """
    stated = {ply: (text, STATED) for ply, text in (readings or {}).items()}
    board, chess960 = _start(game, start_fen)
    fen = game.tag("FEN")
    set_up = bool((fen if fen is not None else start_fen or "").strip())  # its numbers: only the side is weighed
    if len(game.moves) > MAX_PLIES:
        raise RecordError(f"the record has {len(game.moves)} moves, more than any game can have")
    start = board.fen()
    if language is not None:
        if language not in LANGUAGES:
            raise ContractError(
                "invalid_field", f"language must be one of {', '.join(LANGUAGES)}, not {language!r}", "language"
            )
        return _whole_record(game, board, chess960, start, language, "stated", stated, set_up)

    def replay_in(lang: str, rule: str) -> Replay:
        return _whole_record(game, board, chess960, start, lang, rule, stated, set_up)

    choice = choose([token.text for token in game.moves], replay_in)
    chosen = choice.chosen
    if chosen.reading != choice.rule or choice.alternatives:
        return replace(chosen, reading=choice.rule, alternatives=choice.alternatives)
    return chosen


STATED = "as the case states (readings)"
"""Why a token's reading named by the case's ``readings`` is replayed."""
SEARCH_BUDGET = 16
"""Replays tried to find readings of a record's two-way tokens that keep every move legal."""


def _move_named(board: chess.Board, text: str) -> chess.Move | None:
    """The legal move ``text`` names (English SAN or coordinates), else None."""
    try:
        return board.parse_san(text)
    except ValueError:
        pass
    try:
        move = chess.Move.from_uci(text.strip().lower())
    except ValueError:
        return None
    return move if board.is_legal(move) else None


def _first_irregular(replay: Replay) -> int | None:
    """The first ply that is illegal as played or unreadable, else None."""
    found = [p.number for p in replay.plies if not p.is_legal and p.irregularity == "illegal"]
    found += [u.ply for u in replay.unreadable]
    return min(found) if found else None


def _two_way(replay: Replay, after: int, before: int, skip: Mapping[int, object]) -> list[tuple[int, str]]:
    """(ply, other reading) for each token with two legal readings between ``after`` and ``before``."""
    return [
        (p.number, other)
        for p in replay.plies if after < p.number < before and p.number not in skip
        for note in p.notes if note.kind == "two-readings"
        for other in note.readings[1:]
    ]


def _whole_record(
    game: RawGame, board: chess.Board, chess960: bool, start: str, lang: str, rule: str,
    stated: Mapping[int, tuple[str, str]], set_up: bool = False,
) -> Replay:
    """The record replayed in ``lang``, each two-way token read by its first reading (the file, as SAN; the
    piece for ``bb5``) unless another reading keeps the record legal further: every move legal, else up to a
    later ply (FIDE 8.1: the scoresheet records the moves made; a reading that makes a later move illegal or
    unreadable invents a move nobody wrote). Readings changing as few tokens as possible, the earliest first,
    are tried within :data:`SEARCH_BUDGET` replays; the token's note names the other reading and why (a claim
    weighs both: :mod:`adjudicator.chess.readings`)."""
    plain = _replay_in(game, board.copy(stack=False), chess960, start, lang, rule, stated, set_up)
    bad = _first_irregular(plain)
    if bad is None or not any(n.kind == "two-readings" for p in plain.plies for n in p.notes):
        return plain
    budget = [SEARCH_BUDGET]
    best: list[tuple[float, dict[int, str]]] = [(bad, {})]

    def forced_by(flips: Mapping[int, str], why: str) -> dict[int, tuple[str, str]]:
        return {**stated, **{ply: (move, why) for ply, move in flips.items()}}

    def search(replay: Replay, flips: dict[int, str], last: int) -> bool:
        first = _first_irregular(replay)
        if first is None:
            return True
        for ply, other in _two_way(replay, last, first, stated):
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            trial_flips = {**flips, ply: other}
            trial = _replay_in(game, board.copy(stack=False), chess960, start, lang, rule, forced_by(trial_flips, ""),
                               set_up)
            reached = _first_irregular(trial)
            score = math.inf if reached is None else reached
            if score > best[0][0]:
                best[0] = (score, trial_flips)
            if search(trial, trial_flips, ply):
                return True
        return False

    search(plain, {}, 0)
    score, flips = best[0]
    if not flips:
        return plain
    what = plain.unreadable[0] if plain.unreadable and plain.unreadable[0].ply == bad else None
    other_way = (f"ply {bad} ({what.token}) cannot be read at all" if what is not None
                 else f"{plain.label(bad)} (ply {bad}) is illegal")
    this_way = ("every move of the record is legal" if score == math.inf
                else f"every move before ply {int(score)} is legal")
    why = (f"read so, {this_way}; read the other way, {other_way} "
           "(the record is evidence of the moves made, FIDE 8.1)")
    return _replay_in(game, board.copy(stack=False), chess960, start, lang, rule, forced_by(flips, why), set_up)


def _replay_in(
    game: RawGame, board: chess.Board, chess960: bool, start: str, lang: str, rule: str,
    forced: Mapping[int, tuple[str, str]] | None = None, set_up: bool = False,
) -> Replay:
    """Replay the tokens of ``game`` in one language of piece letters (``forced``: ply -> (the move meant, why)
    for tokens with two legal readings; ``set_up``: from a FEN tag or a given start, whose move number is not
    weighed, only the side of the first numbered move)."""
    start_key = repetition_key(board)
    plies: list[Ply] = []
    unreadable: list[Unreadable] = []
    unmatched: list[str] = []
    lower_case = not writes_upper_case_pieces((token.text for token in game.moves), lang)
    for number, token in enumerate(game.moves, start=1):
        if token.unreadable is not None:
            unreadable.append(Unreadable(number, token.text, token.unreadable, ()))
            break
        prefer = None
        meant_text, why = forced.get(number, ("", "")) if forced else ("", "")
        if meant_text:
            meant = _move_named(board, meant_text)
            prefer = None if meant is None else (meant, why)
            if meant is None and why == STATED:
                unmatched.append(f"ply {number} ({quoted(token.text)}): {meant_text!r} is no legal move there")
        reading = read_move(board, token.text, lang, lower_case=lower_case, prefer=prefer)
        if prefer is not None and reading.move != prefer[0] and why == STATED:
            unmatched.append(f"ply {number} is written {quoted(token.text)}, which does not read as {meant_text}")
        if reading.move is None:
            unreadable.append(Unreadable(number, token.text, reading.reason or "unreadable", reading.candidates))
            break
        mover, move_number = board.turn, board.fullmove_number
        board.push(reading.move)
        in_check = board.is_check()
        no_moves = _has_no_moves(board, in_check)
        plies.append(
            Ply(
                number, token.text, reading.move, reading.is_legal, reading.reason,
                token.clock, token.emt, repetition_key(board), board.halfmove_clock, mover, move_number,
                in_check and no_moves, not in_check and no_moves, reading.irregularity, chess960, reading.notes,
            )
        )
    result = game.result if game.result not in (None, "*") else None
    tag_result = game.tag("Result")
    if result is None and tag_result in ("1-0", "0-1", "1/2-1/2"):
        result = tag_result
    stop = unreadable[0].ply if unreadable else MAX_PLIES + 1
    file_notes = tuple(note for note in game.notes if note.ply <= stop)
    unmatched += [f"the record has no ply {ply}" for ply in (forced or {}) if ply > len(game.moves)]
    gaps = gaps_in([token.number for token in game.moves[:stop]], [token.text for token in game.moves[:stop]],
                   chess.Board(start, chess960=chess960).turn == chess.WHITE, None if set_up else 1)
    return Replay(
        start, tuple(plies), tuple(game.tags), start_key, tuple(unreadable), lang, chess960, result, rule,
        file_notes=file_notes, unmatched=tuple(unmatched), numbering_gaps=gaps,
    )


def replay_games(text: str, start_fen: str | None = None, language: str | None = None) -> Iterator[Replay]:
    """Every game of a record, replayed; raises :class:`RecordError` for a game that cannot be read at all."""
    for game in split_games(text):
        yield replay_game(game, start_fen, language)


@functools.lru_cache(maxsize=8)
def _first_game(
    text: str, start_fen: str | None, language: str | None, readings: tuple[tuple[int, str], ...] = ()
) -> Replay:
    """The first game of ``text`` replayed. Kept for the few most recent records: a ruling reads its
    record more than once (the claim, then :mod:`adjudicator.chess.readings`), and a Replay never changes."""
    game = next(split_games(text), None)
    if game is None:
        if start_fen is None:
            raise RecordError("the record contains no game")
        game = RawGame()
    return replay_game(game, start_fen, language, dict(readings))


def replay_chess(
    text: str, start_fen: str | None = None, language: str | None = None, *, allow_unreadable: bool = False,
    readings: Mapping[int, str] | None = None,
) -> Replay:
    """Replay the (first) game of a record as played (``readings``: the case's, see :func:`replay_game`).

    :raises RecordError: the record holds no game, or (unless ``allow_unreadable``)
        a token cannot be read as any move: the error names the ply and the likely moves.
    :raises ContractError: (field ``readings``) a stated reading that is no reading of its ply's token.
    """
    replay = _first_game(text, start_fen, language, tuple(sorted((readings or {}).items())))
    if replay.unmatched:
        raise ContractError(
            "invalid_field", f"readings: {'; '.join(replay.unmatched)}", "readings"
        )
    if replay.unreadable and not allow_unreadable:
        bad = replay.unreadable[0]
        hint = f"; it may be {' or '.join(bad.candidates)}" if bad.candidates else ""
        raise RecordError(
            f"ply {bad.ply} ({quoted(bad.token)!r}) cannot be read as a move: {bad.reason}{hint}",
            ply=bad.ply, candidates=bad.candidates,
        )
    return replay


def parse_fen(fen: str, field: str = "fen") -> chess.Board:
    try:
        board = read_fen(fen)  # chess.Board(fen), faster for plain FENs (adjudicator/chess/fen.py)
    except ValueError as exc:
        raise ContractError("invalid_fen", f"{field} is not a position: {exc}", field) from None
    return board


def _describe_square(board: chess.Board, square: int) -> str:
    piece = board.piece_at(square)
    if piece is None:
        return "empty"
    return f"{'white' if piece.color else 'black'} {chess.piece_name(piece.piece_type)}"


def check_fen(replay: Replay, fen: str) -> None:
    """Cross-check the position on the board (``fen``) against the record's end.

    Compares what FIDE 9.2.3 compares (placement, side to move, castling rights,
    a legal e.p. capture); the move counters of ``fen`` are not compared.

    :raises ContractError: (field ``fen``) naming each difference.
    """
    given = parse_fen(fen)
    played = replay.final_board
    if repetition_key(given) == repetition_key(played):
        return
    problems = []
    squares = [sq for sq in chess.SQUARES if given.piece_at(sq) != played.piece_at(sq)]
    for sq in squares[:6]:
        problems.append(
            f"{chess.SQUARE_NAMES[sq]} is {_describe_square(played, sq)} in the record "
            f"but {_describe_square(given, sq)} in fen"
        )
    if len(squares) > 6:
        problems.append(f"and {len(squares) - 6} more squares differ")
    if given.turn != played.turn:
        problems.append(f"the record has {'White' if played.turn else 'Black'} to move")
    if given.clean_castling_rights() != played.clean_castling_rights():
        problems.append(
            f"castling rights differ (record: {played.castling_xfen()}, fen: {given.castling_xfen()})"
        )
    if not squares and given.turn == played.turn and given.clean_castling_rights() == played.clean_castling_rights():
        problems.append("the en-passant possibilities differ")
    raise ContractError(
        "record_mismatch",
        f"the record ends in {replay.fen_at(len(replay.plies))} after {len(replay.plies)} plies, "
        f"which is not the position in fen: {'; '.join(problems)}",
        "fen",
    )


def replay_for_case(case: Case) -> Replay:
    """The case's record replayed, cross-checked against ``fen`` when both are given."""
    if not case.record:
        raise ContractError("missing_field", "this claim needs the game record", "record")
    replay = replay_chess(case.record, case.start_fen, case.language, readings=case.facts.readings)
    if case.fen:
        check_fen(replay, case.fen)
    return replay


def board_for_case(case: Case) -> chess.Board:
    """The position on the board now: the record's end, else ``fen``, else ``start_fen``."""
    if case.record:
        return replay_for_case(case).final_board
    if case.fen:
        return parse_fen(case.fen)
    if case.start_fen:
        return parse_fen(case.start_fen, "start_fen")
    raise ContractError("missing_field", "give the record or the position (fen)", "record")
