"""``adjudicator check-games FILE [--game chess|checkers] [--ruleset ID] [--workers N]``.

Checks every game of a PGN/PDN collection against the laws (contract: "Checking a
collection of games"): one JSON line per game in file order, flushed (a part's lines
together: :mod:`engines.collection`), then a ``{"summary": ...}`` line. The file may be
plain or compressed, told by its suffix (``.gz``, ``.bz2``, ``.zst``); ``-`` reads standard
input (compressed or not: told by its first bytes). It is read a part at a time, never
whole, so memory stays flat: a plain file in blocks of lines cut into records by the
compiled reader (:func:`adjudicator.collection.block_spans`), else line by line; with
workers, a plain file's parts go out as byte ranges that each worker reads itself.
Lines are UTF-8; a line that is not (an old Latin-1 file) is read as Windows-1252.

Bad input (no such file, a file that is no game collection, a broken compressed
stream) exits 2 with ``{"error": ...}``; a stream that breaks after some games gives
the error line after their lines.

A collection is read within the limits of ``[collections]`` in config.toml (:class:`Limits`):
bytes once inflated, the length of a line, the number of games. A file past one of them stops
there with ``too_large`` (the bytes), ``line_too_long`` (quoting the line's first characters)
or ``too_many_games`` (counted record by record as the games are checked; the lines stop before the
record that passes the limit). A regular file (not
standard input or a pipe) is first inflated whole at the decompressor's speed and measured against the
first two, so a 99 kB compressed file that inflates to a gigabyte, or holds one endless line,
is refused before any game is checked, in seconds and in little memory; standard input, and a
path that is a pipe (``<(zcat x.pgn.gz)``, read once only), are measured as they are read. The
checks page uses the same reader and limits.
"""

from __future__ import annotations

import argparse
import bz2
import contextlib
import gzip
import io
import itertools
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar

import zstandard

from adjudicator.chess import bulk
from adjudicator.collection import HEAD_RECORDS, block_spans, decoded, head_records, record_spans
from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.cli import emit, loading
from web.config import load_config

if TYPE_CHECKING:  # the queue's client loads only with a broker (_broker)
    from web.queue.job_rows import JobRows

MAX_WORKERS = 64
_MAGIC = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\x28\xb5\x2f\xfd": "zst"}
R = TypeVar("R")
NO_FINDINGS = '"findings": []}'
"""How a line without findings ends (the contract's line: ``findings`` last)."""


class CollectionError(ContractError):
    """The input is no game collection, or its (compressed) stream is broken."""


class LimitExceeded(CollectionError):
    """The collection is past one of its :class:`Limits`; ``status`` is the HTTP status (413 or 422)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message, "file")
        self.status = status


@dataclass(frozen=True)
class Limits:
    """``[collections]`` in config.toml: what one collection may hold once inflated (docs/collections.md)."""

    inflated_bytes: int = 100_000_000
    """Bytes once decompressed (a compressed file of a few kB can inflate to gigabytes)."""
    line_bytes: int = 100_000
    """Bytes in one line (an export with the whole game on one line, clock comments and all, is ~15 kB)."""
    games: int = 50_000
    """Games (the largest open's games for a season; more: check the file in parts)."""

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        table = config.get("collections", {})
        values: dict[str, int] = {}
        for key, attribute in (("max_inflated_bytes", "inflated_bytes"), ("max_line_bytes", "line_bytes"),
                               ("max_games", "games")):
            value = table.get(key, getattr(cls, attribute))
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**62:
                raise ContractError("invalid_config", f"[collections] {key} must be a whole number above 0, "
                                    f"not {value!r}", "config")
            values[attribute] = value
        return cls(**values)

    def too_large(self, name: str) -> LimitExceeded:
        return LimitExceeded(413, "too_large", f"{name} holds more than {self.inflated_bytes:,} bytes once "
                             "inflated, the limit ([collections] max_inflated_bytes); check it in parts")

    def too_long(self, name: str, number: int, start: bytes) -> LimitExceeded:
        shown = start[:20].decode("utf-8", "replace")
        return LimitExceeded(422, "line_too_long", f"line {number:,} of {name} is longer than {self.line_bytes:,} "
                             f"bytes ({shown!r}...), the limit ([collections] max_line_bytes): no game record "
                             "has such a line")


def register(sub: Any) -> None:
    parser = sub.add_parser("check-games", help="check every game of a PGN/PDN collection against the laws")
    parser.add_argument("file", help="the collection (.pgn, .pdn, optionally .gz/.bz2/.zst), or - for stdin")
    parser.add_argument("--game", choices=("chess", "checkers"), default=None,
                        help="the game (default: the ruleset's, else chess)")
    parser.add_argument("--ruleset", default=None, help="ruleset id (default: fide-standard; acf for checkers)")
    parser.add_argument("--workers", default=None,
                        help="local worker processes (default: the broker's workers when ADJUDICATOR_BROKER_URL "
                             "is set, else 1: this one)")
    parser.set_defaults(func=run)


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ContractError("invalid_field", f"--workers must be a whole number, not {text!r}", "workers") from None
    if not 1 <= value <= MAX_WORKERS:
        raise ContractError("invalid_field", f"--workers must be between 1 and {MAX_WORKERS}", "workers")
    return value


def _kind(path: str, head: bytes) -> str:
    if path == "-":
        return next((kind for magic, kind in _MAGIC.items() if head.startswith(magic)), "plain")
    lowered = path.lower()
    return next((kind for kind in ("gz", "bz2", "zst") if lowered.endswith("." + kind)), "plain")


def open_collection(path: str) -> IO[bytes]:
    """The file's bytes, decompressed by suffix (standard input: by its first bytes)."""
    try:
        raw: IO[bytes] = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 (closed by the caller)
    except OSError as exc:
        raise ContractError("unreadable_input", f"cannot read {path}: {exc.strerror}", "file") from None
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)  # type: ignore[type-var]
    return decompressed(buffered, _kind(path, buffered.peek(4)[:4]))


def open_stored(data: bytes, name: str) -> IO[bytes]:
    """A stored collection's bytes (the web's kept upload), decompressed by the suffix of its ``name``."""
    return decompressed(io.BufferedReader(io.BytesIO(data)), _kind(name, data[:4]))


def decompressed(buffered: io.BufferedReader[Any], kind: str) -> IO[bytes]:
    """``buffered`` read through the decompressor of ``kind`` (``gz``, ``bz2``, ``zst``; ``plain``: as it is)."""
    if kind == "gz":
        return gzip.GzipFile(fileobj=buffered)  # type: ignore[return-value]
    if kind == "bz2":
        return bz2.BZ2File(buffered)
    if kind == "zst":
        return io.BufferedReader(zstandard.ZstdDecompressor().stream_reader(buffered, read_across_frames=True))
    return buffered


def _stream_errors() -> tuple[type[BaseException], ...]:
    return (OSError, EOFError, zstandard.ZstdError)


def _unreadable(path: str, exc: BaseException) -> CollectionError:
    what = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return CollectionError("unreadable_input", f"{path} cannot be read on: {what}", "file")


def lines(stream: IO[bytes], path: str, limits: Limits | None = None) -> Iterator[str]:
    """The decoded lines of ``stream``, within ``limits`` (default: :class:`Limits`' own); a broken stream
    becomes a :class:`CollectionError` naming the file, a limit passed a :class:`LimitExceeded`."""
    for line, _size in sized_lines(stream, path, limits):
        yield line


def sized_lines(stream: IO[bytes], path: str, limits: Limits | None = None) -> Iterator[tuple[str, int]]:
    """:func:`lines`, each with its size in bytes (where the records lie in the file:
    :func:`adjudicator.collection.record_spans`)."""
    limits = limits or Limits()
    errors = _stream_errors()
    name = "standard input" if path == "-" else path
    total = number = 0
    while True:
        try:
            line = stream.readline(limits.line_bytes + 2)  # a longer line is never held whole
        except errors as exc:
            raise _unreadable(path, exc) from None
        if not line:
            return
        number += 1
        total += len(line)
        if total > limits.inflated_bytes:
            raise limits.too_large(name)
        if len(line.rstrip(b"\n")) > limits.line_bytes:
            raise limits.too_long(name, number, line)
        yield decoded(line), len(line)


BLOCK = 1 << 20
"""Bytes read at once by :func:`blocks` (and a line's rest)."""


def blocks(stream: IO[bytes], path: str, limits: Limits) -> Iterator[bytes]:
    """``stream`` (the file at ``path``) in blocks of whole lines (:data:`BLOCK` bytes and the rest of the last
    line), within ``limits``: for a file :func:`scan_stream` measured (its lines are not measured again one by
    one; a line longer than the limit at a block's end still stops the reading, its number counted then)."""
    errors = _stream_errors()
    total = 0
    while True:
        try:
            block = stream.read(BLOCK)
            rest = stream.readline(limits.line_bytes + 2) if block and not block.endswith(b"\n") else b""
        except errors as exc:
            raise _unreadable(path, exc) from None
        if not block:
            return
        if len(rest.rstrip(b"\n")) > limits.line_bytes:
            start = block.rfind(b"\n") + 1  # the long line's start in the block
            raise limits.too_long(path, _line_number(lambda: open_collection(path), total + start),
                                  block[start:start + 20])
        block += rest
        total += len(block)
        if total > limits.inflated_bytes:
            raise limits.too_large(path)
        yield block


def _line_number(opened: Callable[[], IO[bytes]], offset: int) -> int:
    """The number of the line that starts at byte ``offset`` of the stream ``opened()`` gives (read again from
    its start: only for a line too long, so that reading within the limits counts no line)."""
    stream = opened()
    number, left = 1, offset
    try:
        while left > 0:
            chunk = stream.read(min(SCAN_CHUNK, left))
            if not chunk:
                break
            number += chunk.count(b"\n")
            left -= len(chunk)
    finally:
        stream.close()
    return number


SCAN_CHUNK = 1 << 20


def _long_line_inside(chunk: bytes, first: int, last: int, limit: int) -> int | None:
    """Where a line longer than ``limit`` starts between the newlines at ``first`` and ``last``, or None.

    Windows of half the limit at fixed steps are searched for a newline (C speed, a few searches per
    megabyte): a line longer than the limit holds a whole window, so a window without one marks the only
    places to measure.
    """
    width = max(1, (limit + 1) // 2)
    for window in range(first + 1, last - width + 1, width):
        if chunk.find(b"\n", window, window + width) == -1:
            start = chunk.rfind(b"\n", 0, window) + 1
            if chunk.find(b"\n", window + width) - start > limit:
                return start
    return None


def scan(data: bytes, name: str, limits: Limits) -> None:
    """Inflate a stored collection whole and check its bytes and line lengths against ``limits``, at the
    speed of the decompressor (the upload's own test, before it is kept; the games are counted by the
    check, which can be cancelled).

    :raises LimitExceeded: past a limit (naming the line); :raises CollectionError: a broken stream.
    """
    scan_stream(lambda: open_stored(data, name), name, limits)


def scan_stream(opened: Callable[[], IO[bytes]], name: str, limits: Limits) -> None:
    """:func:`scan` of the stream ``opened()`` gives (closed here; opened again, only for a line too long, to
    count the lines before it: :func:`_line_number`)."""
    limit = limits.line_bytes
    errors = _stream_errors()
    stream = opened()
    total, run = 0, 0  # bytes so far, and the current line's bytes before this chunk
    line = 0  # where the current line starts
    opening = b""  # the current line's first bytes (for the message)
    try:
        while True:
            try:
                chunk = stream.read(SCAN_CHUNK)
            except errors as exc:
                raise _unreadable(name, exc) from None
            if not chunk:
                return
            at = total
            total += len(chunk)
            if total > limits.inflated_bytes:
                raise limits.too_large(name)
            if run == 0:
                opening = chunk[:20]
            first = chunk.find(b"\n")  # the bytes before it continue the line before
            if run + (len(chunk) if first == -1 else first) > limit:
                raise limits.too_long(name, _line_number(opened, line), opening)
            if first == -1:
                run += len(chunk)
                continue
            last = chunk.rfind(b"\n")
            start = _long_line_inside(chunk, first, last, limit)
            if start is not None:
                raise limits.too_long(name, _line_number(opened, at + start), chunk[start:start + 20])
            run, opening, line = len(chunk) - last - 1, chunk[last + 1:last + 21], at + last + 1  # goes on
            if run > limit:
                raise limits.too_long(name, _line_number(opened, line), opening)
    finally:
        stream.close()


def _ruleset(args: argparse.Namespace, book: RulesetBook) -> tuple[str, str]:
    """(game, ruleset id): the ruleset names the game unless --game says it; they must agree."""
    if args.ruleset is None:
        game = args.game or "chess"
        chosen = "fide-standard" if game == "chess" else next((r.id for r in book if r.game == game), "acf")
    else:
        chosen = args.ruleset
    ruleset = book[chosen]
    game = args.game or ruleset.game
    if ruleset.game != game:
        raise ContractError("invalid_field", f"ruleset {chosen!r} is for {ruleset.game}, not {game}", "ruleset")
    return game, chosen


def run(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as held:  # a broker's clients and the database's connections, closed at the end
        return _run(args, held)


def _run(args: argparse.Namespace, held: contextlib.ExitStack) -> int:
    with loading():  # the imports and the clients of the database and the broker
        # deferred on purpose: every command's module loads on --help
        from engines.collection import check_parts, numbered_texts, parts

        workers = _workers(str(args.workers or "1"))
        config = load_config()
        limits = Limits.from_config(config)
        remote = _broker(config, held) if args.workers is None else None
    book = RulesetBook.from_config(config)
    game, ruleset = _ruleset(args, book)
    started = time.monotonic()
    # a file is measured first, at the decompressor's speed: a bomb checks no game. A path that is no regular file
    # (a pipe: `check-games <(zcat x.pgn.gz)`) can be read once only: measured as it is read, as standard input is
    if args.file != "-" and os.path.isfile(args.file):
        try:
            scan_stream(lambda: open_collection(args.file), args.file, limits)
        except LimitExceeded:
            raise
        except CollectionError:  # broken: reading it below gives the games before the break, then the error
            pass
    stamp = _stamp(args.file)  # a plain file: cut a block at a time; its parts read by the workers themselves
    stream = open_collection(args.file)
    broken: list[CollectionError] = []
    try:
        # a plain file (measured above) is cut into records a block at a time by the compiled reader, the texts
        # put together only for the head (head_records reads them; the workers read their byte ranges themselves)
        found = block_spans(blocks(stream, args.file, limits), HEAD_RECORDS) \
            if stamp is not None and bulk.COMPILED else record_spans(sized_lines(stream, args.file, limits))
        head = head_records(found, game, args.file, lambda span: span.text)
        games = with_findings = 0
        read = parts(_until_broken(itertools.chain(head, found), broken), stamp)
        if remote is not None:
            from web.queue.collection import check_parts_on_queue  # only with a broker (see _broker)

            # the workers write the lines (engines.collection.check_part_texts); this process puts in each index
            queued = check_parts_on_queue(read, game=game, ruleset=ruleset, remote=remote)
            # ended first however the command ends (a limit, a closed pipe, Ctrl-C): its parts' rows are deleted
            # while the database's connection is still open (held's callbacks run last in, first out)
            held.callback(queued.close)
            results: Iterator[Any] = queued
        else:
            results = check_parts(read, game=game, ruleset=ruleset, config=config, workers=workers, written=True)
        for batch in numbered_texts(results, limits.games):  # a part's lines, written and flushed together
            games += len(batch)
            written = "\n".join(batch) + "\n" if batch else ""  # web.cli.emit's lines
            # a line ends with its findings, and a newline only ends a line (JSON escapes those in strings)
            with_findings += len(batch) - written.count(NO_FINDINGS + "\n")
            sys.stdout.write(written)
            sys.stdout.flush()
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if broken:  # the games read before the break are checked, then the error
        raise broken[0]
    emit({"summary": {"games": games, "with_findings": with_findings, "seconds": round(time.monotonic() - started, 3)}})
    return 0


def _stamp(path: str) -> Any:
    """The file's :class:`engines.collection.Stamp` where the workers can read its parts themselves (a plain
    file), else None (standard input, a compressed file: the parts go out as text)."""
    from engines.collection import Stamp

    if path == "-" or _kind(path, b"") != "plain" or not os.path.isfile(path):
        return None
    try:
        return Stamp.of(path)
    except OSError:
        return None


def _until_broken(found: Iterable[R], broken: list[CollectionError]) -> Iterator[R]:
    """``found`` up to a break of the stream (kept in ``broken``): the records before it are still checked."""
    try:
        yield from found
    except CollectionError as exc:
        broken.append(exc)


def _broker(config: dict[str, Any], held: contextlib.ExitStack) -> Any:
    """The broker's workers (``ADJUDICATOR_BROKER_URL``) and the shared database, or None; their clients are
    closed when ``held`` ends (SQLite folds its write-ahead log back into the database file when its last
    connection closes: the command leaves no ``-wal`` file behind, and the file alone is a whole copy).

    Its imports are deferred on purpose: the queue's client loads only when a broker is set, and it writes and
    reads job rows through the database's own driver (:mod:`web.queue.direct`), without SQLAlchemy; SQLAlchemy
    and Alembic load only to bring a database to the migrations' head, or for a URL the driver might read
    otherwise (see :func:`web.queue.direct.connect`; the command starts fast, issue 40).
    """
    from web.queue import broker_url

    url = broker_url()
    if url is None:
        return None
    # a broker is set: the shared database and the queue's client, loaded now (see above)
    from web.config import database_url
    from web.queue.direct import connect
    from web.queue.remote import Remote

    where = database_url(config)
    direct = connect(where)
    if direct is not None:
        held.callback(direct.close)
    if direct is not None and direct.is_at_head():
        jobs: JobRows = direct
    else:  # a database behind the migrations' head (Alembic brings it there), or a URL for SQLAlchemy alone
        from web.db import make_engine, make_sessionmaker, migrate
        from web.queue.rows import SessionRows

        engine = make_engine(where)
        held.callback(engine.dispose)
        migrate(engine)
        if direct is not None:
            engine.dispose()  # migrated: the rows go through the driver's connection, the engine holds none
        jobs = direct if direct is not None else SessionRows(make_sessionmaker(engine))
    remote = Remote(url, config, jobs)
    held.callback(remote.close)
    return remote
