"""A ruling's evidence, typed: the contract's ``evidence`` object, and what in it a page draws.

Every :class:`~adjudicator.ruling.Ruling` carries an :class:`Evidence`; its JSON (:meth:`Evidence.to_json`) is the
contract's ``evidence`` object exactly as the claim module wrote it (``shared/contract.md``, "Ruling (output)").
The same reader (:meth:`Evidence.read`) builds it from a stored ruling's JSON, so a ruling kept before this
module existed reads the same way. Claim modules write different facts; the reader finds the common shapes:

- the plies that matter (``occurrences``, ``plies``, ``ply``, ``illegal_ply``, ...): :attr:`Evidence.marked_plies`;
- the illegal move(s) (FIDE 7.5, US Chess 11A): :attr:`Evidence.illegal_plies`;
- where the game ended by itself (FIDE 5.2, 9.6; US Chess 14D): :attr:`Evidence.game_end`;
- lines to play through (a helpmate, an engine's principal variation): :attr:`Evidence.lines`;
- a checkers analysis's line and where it enters the endgame database: :attr:`Evidence.checkers_line`;
- the language the record was read in (FIDE C.3): :attr:`Evidence.language`;
- the ply a claim names and the position before it (FIDE 7.5.1, US Chess 11A, ACF improper moves):
  :attr:`Evidence.ply`, :attr:`Evidence.fen_before`;
- the moves the record leaves out (FIDE 8.1.1, US Chess 15A): :attr:`Evidence.missing_moves`;
- the engine's score, and how the analysis was run apart from what it found (the appeals comparison):
  :attr:`Evidence.score`, :attr:`Evidence.run_settings`, :attr:`Evidence.proven_facts`.

No I/O, no replay: what the evidence says, typed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

MARKING_KEYS = (
    "ended_at_ply",
    "occurrences",
    "plies",
    "repeated_plies",
    "ply",
    "illegal_ply",
    "illegal_plies",
    "alleged_illegal_ply",
    "claim_ply",
    "repetitions",
    "illegal",
    "illegal_moves",
)
"""The evidence's keys that point at plies (a list, a number, or objects with ``plies``/``ply``/``occurrences``)."""
ILLEGAL_KEYS = ("ply", "illegal_ply", "illegal_plies", "alleged_illegal_ply", "illegal", "illegal_moves")
"""The keys that point at the illegal move of an illegal-move claim."""
LINE_KINDS = ("helpmate", "pv", "line", "best_line", "mate_line", "forced_win")
"""The keys whose value is a list of moves to play through."""
POSITION_KEYS = ("final_fen", "position", "fen")
SCORE_KEYS = ("score", "score_cp", "cp")
"""The keys of an engine's score (centipawns, or a checkers search's points), the first that is a number."""
VOLATILE_KEYS = frozenset({"seconds", "elapsed", "time", "time_ms", "duration_ms", "nps"})
"""The keys that measure how long the analysis took (a re-run is slower or faster)."""
SETTING_KEYS = frozenset({"engine", "engine_name", "engine_version", "nodes", "depth", "seldepth", "max_nodes",
                          "proof_nodes", "hash", "hash_mb", "threads", "deterministic", "tablebase", "proof_size",
                          "database", "database_leaf", "unproven_reason", "notes"})
"""The keys that say how the analysis was run, not what it found (issue 35: a hash size is not a new ruling)."""
ENGINE_LINE_KEYS = frozenset({"line", "line_pdn", "pv", "line_san"})
"""The keys of the engine's line: it goes with the score; a different line with the same score proves nothing new."""
IDENTITY_KEYS = ("engine", "engine_name", "engine_version", "nodes", "depth", "tablebase")
"""The keys that name the engine (or tablebase) and how far it searched: a committee analysis's identity."""


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


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class MissingMove:
    """A move the record's numbers say is not written (``missing_moves``; FIDE 8.1.1, US Chess 15A)."""

    ply: int | None
    """The ply it is missing before."""
    side: str
    number: int | None

    @classmethod
    def read_all(cls, value: object) -> tuple[MissingMove, ...]:
        if not isinstance(value, list):
            return ()
        return tuple(cls(_int(m.get("ply")), _str(m.get("side")) or "", _int(m.get("number")))
                     for m in value if isinstance(m, Mapping))


@dataclass(frozen=True)
class GameEnd:
    """The game ended by itself (``game_end``), or the TD may end it (``td_may_end``, US Chess 14D)."""

    ply: int
    kind: str
    """``checkmate``, ``stalemate``, ``dead-position``, ``fivefold``, ``seventy-five-moves``."""
    is_mandatory: bool = True
    """False: the TD may declare the draw (``td_may_end``)."""
    listed: str | None = None
    """A dead position's material, when it is one the rules list (``proof.listed``)."""
    methods: tuple[tuple[str, str], ...] = ()
    """(side, method) for each side shown unable to checkmate (FIDE 5.2.2), White first."""
    alive_before: tuple[int | None, str] | None = None
    """(ply, side): one ply earlier that side could still checkmate."""

    @classmethod
    def read(cls, evidence: Mapping[str, Any]) -> GameEnd | None:
        end, mandatory = evidence.get("game_end"), True
        if not isinstance(end, Mapping):
            end, mandatory = evidence.get("td_may_end"), False
        if not isinstance(end, Mapping) or not isinstance(end.get("ply"), int):
            return None
        proof = end.get("proof")
        listed, methods = None, []
        if isinstance(proof, Mapping):
            listed = _str(proof.get("listed"))
            for side in ("white", "black"):
                found = proof.get(side)
                if isinstance(found, Mapping):
                    methods.append((side, str(found.get("method", ""))))
        alive = end.get("alive_before")
        alive_side = alive.get("side") if isinstance(alive, Mapping) else None
        before = None
        if isinstance(alive, Mapping) and isinstance(alive_side, str):
            before = (_int(alive.get("ply")), alive_side)
        return cls(int(end["ply"]), str(end.get("kind", "")), mandatory, listed, tuple(methods), before)


@dataclass(frozen=True)
class FoundLine:
    """A list of moves in the evidence, to play through from ``start_fen`` (None: the position ruled on)."""

    key: str
    """Where it is in the evidence (``helpmate``, ``analysis-lines-0``)."""
    kind: str
    """:data:`LINE_KINDS`, or ``engine`` for an engine's search result (``pv`` or ``moves`` of an item)."""
    moves: tuple[str, ...]
    """The moves (SAN or UCI) up to the first that is not text."""
    start_fen: str | None = None
    engine: str | None = None
    mate: int | None = None
    """Mate in so many moves, positive for White."""
    score: float | None = None
    """Centipawns, White's view."""
    depth: int | None = None


def _leading_text(items: list[Any]) -> tuple[str, ...]:
    moves: list[str] = []
    for item in items:
        if not isinstance(item, str):
            break
        moves.append(item)
    return tuple(moves)


def _engine_line(key: str, item: Mapping[str, Any], pv: list[Any], fen: str | None) -> FoundLine:
    score = item.get("score_cp", item.get("score"))
    cp = float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None
    return FoundLine(key, "engine", _leading_text(pv), _str(item.get("fen")) or fen, _str(item.get("engine")),
                     _int(item.get("mate")), cp, _int(item.get("depth")))


def found_lines(evidence: Mapping[str, Any], depth: int = 0) -> Iterator[FoundLine]:
    """Every move list in the evidence, in its order (nested objects two levels deep)."""
    fen = _str(evidence.get("fen"))
    for key, value in evidence.items():
        if key in LINE_KINDS and isinstance(value, list) and value and all(isinstance(m, str) for m in value):
            yield FoundLine(key, key, tuple(value), fen)
        elif isinstance(value, list) and any(isinstance(i, Mapping) and ("pv" in i or "moves" in i) for i in value):
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    pv = item.get("pv") or item.get("moves")
                    if isinstance(pv, list) and pv:
                        yield _engine_line(f"{key}-{index}", item, pv, fen)
        elif isinstance(value, Mapping) and depth < 2:
            for line in found_lines(value, depth + 1):
                yield FoundLine(f"{key}-{line.key}", line.kind, line.moves, line.start_fen, line.engine, line.mate,
                                line.score, line.depth)


@dataclass(frozen=True)
class DatabaseLeaf:
    """Where a checkers proof's line enters the endgame database, and the database's value there."""

    ply: int | None
    fen: str
    value: str | None
    """``win``, ``loss`` or ``draw`` for the side to move."""
    plies: int | None


@dataclass(frozen=True)
class CheckersLine:
    """A checkers analysis's line (``line``) from its position (``fen``), by ``method`` (database, proof, search)."""

    moves: tuple[str, ...]
    fen: str | None
    method: str
    leaf: DatabaseLeaf | None = None

    @classmethod
    def read(cls, evidence: Mapping[str, Any]) -> CheckersLine | None:
        moves = evidence.get("line")
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            return None
        leaf = evidence.get("database_leaf")
        read_leaf = None
        if isinstance(leaf, Mapping):
            read_leaf = DatabaseLeaf(_int(leaf.get("ply")), str(leaf.get("fen", "")), _str(leaf.get("value")),
                                     _int(leaf.get("plies")))
        return cls(tuple(moves), _str(evidence.get("fen")), str(evidence.get("method")), read_leaf)

    @property
    def leaf_ply(self) -> int | None:
        """The ply where a proof's line enters the database (None: no proof, or no such ply)."""
        return self.leaf.ply if self.leaf is not None and self.method == "proof" and self.leaf.ply else None


@dataclass(frozen=True)
class Finding:
    """The finding on an insufficient-losing-chances claim (Guidelines III.5, US Chess 14H): its value, whose
    it is (``td`` or ``app``), what the player asks for, and the ruling the app's finding would give."""

    value: str | None
    """``clear``, ``unclear``, ``incorrect`` (``finding``)."""
    by: str | None
    """``td``: the arbiter's own; ``app``: recommended (``finding_by``)."""
    request: str | None = "draw"
    """What the player asks for (``request``; a draw unless the evidence says otherwise)."""
    recommended: tuple[str, str | None] | None = None
    """(verdict, result) of the ruling the recommended finding gives (``recommendation``)."""

    @classmethod
    def read(cls, evidence: Mapping[str, Any]) -> Finding:
        recommended = evidence.get("recommendation")
        ruling = None
        if isinstance(recommended, Mapping):
            ruling = (str(recommended.get("verdict")), _str(recommended.get("result")))
        request = _str(evidence.get("request")) if "request" in evidence else "draw"
        return cls(_str(evidence.get("finding")), _str(evidence.get("finding_by")), request, ruling)


LAW_ENDINGS = {"checkmate": "checkmate, FIDE 5.1.1", "stalemate": "stalemate, FIDE 5.2.1",
               "dead-position": "a dead position, FIDE 5.2.2", "move-rule": "75 moves, FIDE 9.6.2"}
"""The chess assessments (``method``) that find the game already over by the Laws, not merely decided, in words."""


@dataclass(frozen=True, eq=False)
class Evidence(Mapping[str, Any]):
    """A ruling's evidence: the contract's object (read as a mapping, as before) and what a page draws, typed."""

    facts: Mapping[str, Any] = field(default_factory=dict)
    """The contract's ``evidence`` object, as the claim module wrote it."""
    marked_plies: frozenset[int] = frozenset()
    """The plies it points at (repeated positions, the illegal move, the end), none below 0."""
    illegal_plies: frozenset[int] = frozenset()
    """The plies an illegal-move claim's evidence names as illegal."""
    ended_at_ply: int | None = None
    """The ply the game ended at (the position the board opens on)."""
    language: str | None = None
    """The language the record was read in (``record_reading.language``)."""
    game_end: GameEnd | None = None
    lines: tuple[FoundLine, ...] = ()
    checkers_line: CheckersLine | None = None
    position_fen: str | None = None
    """A position the evidence names (``final_fen``, ``position``, ``fen``), when it is a chess FEN."""
    fen: str | None = None
    """The position the ruling or analysis was made on (``fen``, chess or checkers)."""
    finding: Finding = Finding(None, None)
    ply: int | None = None
    """The ply the claim names (``ply``: the illegal move, the move claimed on)."""
    fen_before: str | None = None
    """The position before the named ply (``fen_before``: the position an improper move is corrected to)."""
    score: float | None = None
    """The engine's score (:data:`SCORE_KEYS`)."""
    missing_moves: tuple[MissingMove, ...] = ()
    is_illegal_listed: bool = False
    """The evidence lists the illegal move(s) (``illegal_plies`` or ``illegal``): its ply goes with its move."""
    is_last_reset_listed: bool = False
    """The evidence names the last capture or pawn (man) move by its ply (``last_reset_ply``)."""
    is_reported_by_offender: bool = False
    """The illegal move was reported by the player who made it (``reported_by``), not claimed by the opponent."""

    @classmethod
    def read(cls, data: object) -> Evidence:
        """The typed evidence of a ruling's ``evidence`` object: a new ruling's, or a stored one's JSON."""
        if isinstance(data, Evidence):
            return data
        facts: dict[str, Any] = dict(data) if isinstance(data, Mapping) else {}
        marked = {p for key in MARKING_KEYS for p in _ints(facts.get(key))}
        reading = facts.get("record_reading")
        ended = _int(facts.get("ended_at_ply"))
        return cls(
            facts=facts,
            marked_plies=frozenset(p for p in marked if p >= 0),
            illegal_plies=frozenset(p for key in ILLEGAL_KEYS for p in _ints(facts.get(key))),
            ended_at_ply=ended,
            language=_str(reading.get("language")) if isinstance(reading, Mapping) else None,
            game_end=GameEnd.read(facts),
            lines=tuple(found_lines(facts)),
            checkers_line=CheckersLine.read(facts),
            position_fen=next((fen for key in POSITION_KEYS if "/" in (fen := _str(facts.get(key)) or "")), None),
            fen=_str(facts.get("fen")),
            finding=Finding.read(facts),
            ply=_int(facts.get("ply")),
            fen_before=_str(facts.get("fen_before")),
            score=next((n for key in SCORE_KEYS if (n := _number(facts.get(key))) is not None), None),
            missing_moves=MissingMove.read_all(facts.get("missing_moves")),
            is_illegal_listed="illegal_plies" in facts or "illegal" in facts,
            is_last_reset_listed="last_reset_ply" in facts,
            is_reported_by_offender=facts.get("reported_by") == "offender",
        )

    @property
    def law_ending(self) -> str | None:
        """How the Laws had already ended the game (None: it goes on): checkmate, stalemate, a dead position
        (FIDE 5.1.1, 5.2.1, 5.2.2) or the fivefold and 75 moves (9.6), in the record or on the board now. A draw
        the TD only may declare (US Chess 14D) does not end it, nor does a result a tablebase or the checkers
        database proves (the committee confirms that one: ACF Master Division rules)."""
        end = self.game_end
        if end is not None and end.is_mandatory:
            return f"the game had already ended ({end.kind.replace('-', ' ')} at ply {end.ply})"
        method = self.facts.get("method")
        if isinstance(method, str) and method in LAW_ENDINGS:
            return f"the position on the board had ended the game ({LAW_ENDINGS[method]})"
        return None

    @property
    def run_settings(self) -> Mapping[str, Any]:
        """How the analysis was run (:data:`SETTING_KEYS`): a fact of the record, never a different finding."""
        return {key: value for key, value in self.facts.items() if key in SETTING_KEYS}

    @property
    def engine_identity(self) -> Mapping[str, Any]:
        """The engine (or tablebase) that analysed and how far (:data:`IDENTITY_KEYS`), in that order."""
        return {key: self.facts[key] for key in IDENTITY_KEYS if key in self.facts}

    @property
    def proven_facts(self) -> Mapping[str, Any]:
        """What the analysis found: the evidence without how it was run, how long it took, the score and
        the engine's line (the appeals committee compares these; issue 35)."""
        left_out = SETTING_KEYS | VOLATILE_KEYS | ENGINE_LINE_KEYS | frozenset(SCORE_KEYS)
        return {key: value for key, value in self.facts.items() if key not in left_out}

    def to_json(self) -> dict[str, Any]:
        """The contract's ``evidence`` object."""
        return dict(self.facts)

    def __getitem__(self, key: str) -> Any:
        return self.facts[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self.facts)

    def __repr__(self) -> str:
        return f"Evidence({dict(self.facts)!r})"
