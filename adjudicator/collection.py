"""Checking a collection of games: each recorded result against the laws (contract: "Checking a collection").

One game at a time, so a collection of any size streams: :func:`records` cuts the lines
of a PGN/PDN file into game records (a tag line after move text starts the next one),
holding one record at a time, and :func:`check_record` checks each game of a record by
its game's rules: :func:`adjudicator.chess.collection.check_chess` (a chess game the compiled
reader reads, :mod:`adjudicator.chess.bulk`, by :func:`adjudicator.chess.bulk.check.check_clean`,
the same check) and
:func:`adjudicator.checkers.collection.check_checkers`, each giving a
:class:`~adjudicator.findings.GameCheck` (headers, the recorded result, the lawful result,
the findings) with its JSON. No I/O: the caller passes the lines and the services.
"""

from __future__ import annotations

import bisect
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from adjudicator.chess import bulk
from adjudicator.chess.bulk.check import check_clean
from adjudicator.chess.bulk.games import CleanGame, split_mixed
from adjudicator.chess.collection import check_chess, looks_like_chess_game
from adjudicator.chess.marks import continues
from adjudicator.chess.movetext import RESULT_DASH, TAG_NAME, RawGame, split_games
from adjudicator.contract import ContractError
from adjudicator.findings import GameCheck
from adjudicator.rulesets import ChessRuleset, Ruleset
from adjudicator.services import MateOracle, Services

MAX_RECORD_LINES = 20_000
"""A record longer than this is cut (a file with no tag lines is not held whole in memory)."""
MAX_RECORD_CHARS = 2_000_000
"""A record is cut at this many characters too (the contract's longest record: the lines of a file may be
long, and 20,000 of them would be too much to hold)."""


class TooManyGames(ContractError):
    """A collection holds more games than the limit it is read with (the caller's ``max_games``)."""

    def __init__(self, limit: int, field: str = "file") -> None:
        super().__init__("too_many_games", f"the collection holds more than {limit:,} games, the limit; check it "
                         "in parts", field)
        self.limit = limit

_TAG_LINE = re.compile(rf'\s*(?:\[pgn\]\s*)?\[\s*{TAG_NAME}\s*"', re.IGNORECASE)
"""A tag line (under any name the chess splitter reads, after a forum's ``[pgn]`` wrapper too)."""
_D = RESULT_DASH
_RESULT_AT_END = re.compile(
    rf"(?:^|\s)(?:1{_D}0|0{_D}1|1/2{_D}1/2|½{_D}½|2{_D}0|0{_D}2|1{_D}1|\*)(?:\[/pgn\])?$", re.IGNORECASE
)
"""A line ending in a result token (chess, with any dash, and PDN's 2-0 / 0-2 / 1-1)."""
_RESULT_REACH = 16
"""No match of :data:`_RESULT_AT_END` is longer (`` 1/2-1/2[/pgn]``: 14), so it is looked for at a line's end
only (a search of the whole line tries every place of a long line of moves)."""


_LEADING_NUMBER = re.compile(r"[0-9]+[ \t]*(?:\.|…)+")


def _goes_on(line: str) -> bool:
    """Whether a line after a result and a blank line goes on with the game: it starts with a move number
    other than White's ``1.`` (a result mark before the last move, :mod:`adjudicator.chess.marks`)."""
    number = _LEADING_NUMBER.match(line)
    return number is not None and continues(number.group())


def records(lines: Iterable[str]) -> Iterator[str]:
    """The game records of a file's lines, in order, one held at a time.

    A tag line after move text starts the next record (not when the line before it ends with ``]``: a game's
    header may begin after its moves on a line, ``1-0 [Event "b"]``, and its tags stay together), and so does a
    line after a blank
    line that follows a result token ending a line (games written without tags), unless it
    starts with a move number that goes on with the game (``3.``, not ``1.``). A
    record still holding several games is split further by the game's own splitter. A
    record of more than :data:`MAX_RECORD_LINES` lines is cut there (the reader then
    reports what it makes of the pieces), and so is one of :data:`MAX_RECORD_CHARS` characters, so
    memory stays bounded whatever the file holds.
    """
    for record in record_spans((line, 0) for line in lines):
        yield record.text


@dataclass(frozen=True, slots=True)
class Span:
    """A record of :func:`records` and where it lies in the file: ``start`` to ``end`` as the sizes given."""

    text: str
    start: int
    end: int


def record_spans(lines: Iterable[tuple[str, int]]) -> Iterator[Span]:
    """:func:`records` of ``(line, size)`` pairs (a line and its size in the file, in bytes), each record with
    its place: the sum of the sizes before it, and after it.

    A record always starts with a fresh reading (nothing carried from the lines before it), so the lines
    from one record's ``start`` to a later one's ``end`` give the same records alone as in the whole file:
    the unit the collection check's workers read by themselves (``engines.collection``).
    """
    current: list[str] = []
    size = start = place = 0
    has_moves = ended = False
    for line, length in lines:
        stripped = line.strip()
        if _TAG_LINE.match(line):
            if has_moves:
                yield Span("".join(current), start, place)
                current, size, has_moves, start = [], 0, False, place
            ended = False
        elif stripped:
            if ended and not current[-1].strip() and not _goes_on(stripped):
                yield Span("".join(current), start, place)
                current, size, start = [], 0, place
            has_moves = not stripped.endswith("]")  # a line ending with a tag pair: the next game's header began
            ended = _RESULT_AT_END.search(stripped, max(0, len(stripped) - _RESULT_REACH)) is not None
        current.append(line)
        size += len(line)
        place += length
        if len(current) >= MAX_RECORD_LINES or size >= MAX_RECORD_CHARS:
            yield Span("".join(current), start, place)
            current, size, has_moves, ended, start = [], 0, False, False, place
    if any(line.strip() for line in current):
        yield Span("".join(current), start, place)


RUN_BYTES = 1 << 16
"""Past the records :func:`block_spans` gives with their text, a span covers records up to about this many bytes."""


def block_spans(blocks: Iterable[bytes], texts: int | None = None) -> Iterator[Span]:
    """:func:`record_spans` of a file given in blocks of whole lines (each ending with a newline, but the
    file's last), the sizes in bytes: the same records, at the same places (tested), cut by the compiled
    reader (:func:`adjudicator.chess.bulk.scan.record_cuts`) a block at a time instead of a line at a time
    in Python. A block that is not UTF-8 is read line by line (:func:`decoded`), as :func:`record_spans`'
    caller reads it.

    ``texts``: only the first ``texts`` records are given, with their text; then each span covers whole
    records, as many as reach :data:`RUN_BYTES` (or the file's end), with an empty text (a caller that wants
    only where records start, as ``check-games`` sending byte ranges that its workers cut into the same
    records: no text is put together, and there are few spans to go through)."""
    scanner = bulk.scanner
    state = [0] * 6
    pieces: list[str] = []  # the record so far
    start = place = 0  # its first byte, and the bytes before the text now read
    left = -1 if texts is None else texts  # records still to give with their text (-1: all)
    ended = 0  # past the records with their text: the end of the last record cut

    def cut(text: str, size: int) -> Iterator[Span]:
        nonlocal start, place, pieces, left, ended
        with bulk.LOCK:  # the reader holds the text it reads in module state (scan.hold)
            cuts = scanner.record_cuts(text, state, MAX_RECORD_LINES, MAX_RECORD_CHARS)
        plain = len(text) == size  # ASCII: a character is a byte
        done = i = 0
        at = place

        def moved(offset: int) -> int:  # the byte where the character ``offset`` of the text starts
            return place + size if offset == len(text) else at + (
                offset - done if plain else len(text[done:offset].encode("utf-8")))

        while i < len(cuts) and left:  # a record at a time, with its text
            offset = cuts[i]
            at = moved(offset)
            pieces.append(text[done:offset])
            yield Span("".join(pieces), start, at)
            pieces, start, done, i = [], at, offset, i + 1
            left -= 1
        if left:
            pieces.append(text[done:])
        while i < len(cuts):  # then runs: the first record end at RUN_BYTES or more (a character is a byte or more)
            j = min(bisect.bisect_left(cuts, done + max(RUN_BYTES - (at - start), 1), i), len(cuts) - 1)
            at = moved(cuts[j])
            done, ended, i = cuts[j], at, j + 1
            if at - start >= RUN_BYTES:
                yield Span("", start, at)
                start = at
        place += size

    for block in blocks:
        try:
            yield from cut(block.decode("utf-8"), len(block))
        except UnicodeDecodeError:
            stream = io.BytesIO(block)
            for line in iter(stream.readline, b""):
                yield from cut(decoded(line), len(line))
    if not left and ended > start:  # the last run of records
        yield Span("", start, ended)
        start = ended
    if state[5]:
        yield Span("".join(pieces), start, place)


def decoded(line: bytes) -> str:
    """A line of a collection's file as text: UTF-8, else (an old Latin-1 file) Windows-1252."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("cp1252", errors="replace")


def check_record(
    text: str, game: str, ruleset: Ruleset, services: Services, dead_screen: MateOracle | None = None,
    *, bulk_reader: bool | None = None,
) -> list[GameCheck]:
    """Every game of one record (as :func:`records` cut it), in order (``dead_screen``: see :func:`check_chess`).

    ``bulk_reader``: whether chess games the compiled reader reads are checked by it (the same checks;
    default: where it is compiled, :data:`adjudicator.chess.bulk.COMPILED`)."""
    if game == "checkers":
        from adjudicator.checkers.collection import check_checkers
        from adjudicator.checkers.pdn import split_games as split_pdn

        return [check_checkers(part) for part in split_pdn(text)]
    if not isinstance(ruleset, ChessRuleset):
        raise ContractError("invalid_field", f"ruleset {ruleset.id!r} is for {ruleset.game}, not chess", "ruleset")
    if not (bulk.COMPILED if bulk_reader is None else bulk_reader):
        return [check_chess(part, ruleset, services, dead_screen) for part in split_games(text)]
    checks: list[GameCheck] = []
    for part in _split_once(text, ruleset.record.language or None):
        if isinstance(part, CleanGame):
            checked = check_clean(part, ruleset, services, dead_screen)
            checks.append(checked if checked is not None else check_chess(part.raw(), ruleset, services, dead_screen))
        else:
            checks.append(check_chess(part, ruleset, services, dead_screen))
    return checks


def games_in(record: str, game: str, language: str | None = None) -> int:
    """How many games :func:`check_record` finds in one record (each is a line of the check; ``language``: the
    ruleset's ``record.language``, as :func:`check_record` splits with it)."""
    if game == "checkers":
        from adjudicator.checkers.pdn import split_games as split_pdn

        return len(split_pdn(record))
    if not bulk.COMPILED:
        return sum(1 for _ in split_games(record))
    games = list(split_mixed(record, language))
    with _HELD_LOCK:  # the check of this record, which follows, takes them (the compiled reader read them)
        _held[(language, record)] = games
        while len(_held) > _HELD_RECORDS:
            _held.popitem(last=False)
    return len(games)


_HELD_RECORDS = 256
"""Records whose games :func:`games_in` split and holds for :func:`check_record` (the records counted ahead of
the check: a chunk of ``engines.collection``, 64; a check elsewhere leaves its last ones here)."""
_held: OrderedDict[tuple[str | None, str], list[RawGame | CleanGame]] = OrderedDict()
_HELD_LOCK = threading.Lock()


def _split_once(record: str, language: str | None) -> list[RawGame | CleanGame] | Iterator[RawGame | CleanGame]:
    """The games of a record as :func:`~adjudicator.chess.bulk.games.split_mixed` gives them: those
    :func:`games_in` split when it counted the record (each list is taken once), else split now."""
    with _HELD_LOCK:
        games = _held.pop((language, record), None)
    return games if games is not None else split_mixed(record, language)


def chess_games(record: str) -> Iterator[RawGame | CleanGame]:
    """The chess games of one record as :func:`check_record` splits it: the lenient splitter's games, those the
    compiled reader lexes as :class:`~adjudicator.chess.bulk.games.CleanGame` where it is built (the same games,
    at the same offsets, at a fifth of the lenient splitter's cost)."""
    if not bulk.COMPILED:
        return iter(split_games(record))
    return split_mixed(record)


def at_most(found: Iterable[str], game: str, limit: int, language: str | None = None) -> Iterator[str]:
    """The records of ``found`` while they hold at most ``limit`` games in all (``language``: see :func:`games_in`).

    :raises TooManyGames: the next record would take the count past ``limit`` (before it is checked).
    """
    count = 0
    for record in found:
        count += games_in(record, game, language)
        if count > limit:
            raise TooManyGames(limit)
        yield record


def has_game(text: str, game: str) -> bool | None:
    """Whether a record holds a game record at all (None: it holds nothing, e.g. only comments).

    A game record has a tag pair, a result token, or a first move that reads; binary data
    (a NUL byte) is none.
    """
    if "\x00" in text:
        return False
    if game == "checkers":
        from adjudicator.checkers.collection import looks_like_checkers_game
        from adjudicator.checkers.pdn import read_game
        from adjudicator.checkers.pdn import split_games as split_pdn

        parts = split_pdn(text)
        return looks_like_checkers_game(read_game(parts[0])) if parts else None
    first = next(split_games(text), None)
    return None if first is None else looks_like_chess_game(first)


def is_collection(text: str, game: str) -> bool:
    """Whether a record is a game record (see :func:`has_game`)."""
    return has_game(text, game) is True


HEAD_RECORDS = 16
"""Records looked at for a first game before the file is taken for no collection."""
R = TypeVar("R")


class NotACollection(ContractError):
    """The first records of a file hold no game: it is no game collection (``not_a_collection``, field ``file``)."""

    def __init__(self, message: str) -> None:
        super().__init__("not_a_collection", message, "file")


def head_records(found: Iterator[R], game: str, path: str, text: Callable[[R], str] = str) -> list[R]:
    """The records up to the first that holds a game; a file whose first records hold none is no collection
    (``text``: a record's text, where ``found`` gives more than that). Shared by ``adjudicator check-games``
    and the web's game checks, so both take the same file for a collection or refuse it alike.

    Records before it (a preamble of words, say) stay in the output as the unreadable
    games they are: nothing is skipped unseen.

    :raises NotACollection: none of the first :data:`HEAD_RECORDS` records holds a game.
    """
    head: list[R] = []
    verdicts: set[bool | None] = set()
    for record in found:
        head.append(record)
        verdicts.add(has_game(text(record), game))
        if True in verdicts or "\x00" in text(record) or len(head) >= HEAD_RECORDS:
            break
    if True not in verdicts:
        kind = "PGN" if game == "chess" else "PDN"
        what = f"is not a {kind} game collection" if False in verdicts else "contains no game"
        name = "standard input" if path == "-" else path
        raise NotACollection(f"{name} {what}")
    return head
