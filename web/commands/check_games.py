"""``adjudicator check-games FILE [--game chess|checkers] [--ruleset ID] [--workers N]``.

Checks every game of a PGN/PDN collection against the laws (contract: "Checking a
collection of games"): one JSON line per game in file order, flushed, then a
``{"summary": ...}`` line. The file may be plain or compressed, told by its suffix
(``.gz``, ``.bz2``, ``.zst``); ``-`` reads standard input (compressed or not: told by
its first bytes). It is read line by line, never whole, so memory stays flat.
Lines are UTF-8; a line that is not (an old Latin-1 file) is read as Windows-1252.

Bad input (no such file, a file that is no game collection, a broken compressed
stream) exits 2 with ``{"error": ...}``; a stream that breaks after some games gives
the error line after their lines.
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import io
import itertools
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from adjudicator.collection import has_game, records
from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.cli import emit
from web.config import load_config

MAX_WORKERS = 64
HEAD_RECORDS = 16
"""Records looked at for a first game before the file is taken for no collection."""
MAX_LINE_BYTES = 1 << 20
"""A longer line is read in pieces (a file of one endless line is not held whole)."""
_MAGIC = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\x28\xb5\x2f\xfd": "zst"}


class CollectionError(ContractError):
    """The input is no game collection, or its (compressed) stream is broken."""


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
        import zstandard

        return io.BufferedReader(zstandard.ZstdDecompressor().stream_reader(buffered, read_across_frames=True))
    return buffered


def _stream_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [OSError, EOFError]
    try:
        import zstandard

        errors.append(zstandard.ZstdError)
    except ImportError:  # pragma: no cover - zstandard is a dependency
        pass
    return tuple(errors)


def lines(stream: IO[bytes], path: str) -> Iterator[str]:
    """The decoded lines of ``stream``; a broken stream becomes a :class:`CollectionError` naming the file."""
    errors = _stream_errors()
    while True:
        try:
            line = stream.readline(MAX_LINE_BYTES)
        except errors as exc:
            what = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            raise CollectionError("unreadable_input", f"{path} cannot be read on: {what}", "file") from None
        if not line:
            return
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError:
            yield line.decode("cp1252", errors="replace")


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


def _head(found: Iterator[str], game: str, path: str) -> list[str]:
    """The records up to the first that holds a game; a file whose first records hold none is no collection.

    Records before it (a preamble of words, say) stay in the output as the unreadable
    games they are: nothing is skipped unseen.
    """
    head: list[str] = []
    verdicts: set[bool | None] = set()
    for record in found:
        head.append(record)
        verdicts.add(has_game(record, game))
        if True in verdicts or "\x00" in record or len(head) >= HEAD_RECORDS:
            break
    if True not in verdicts:
        kind = "PGN" if game == "chess" else "PDN"
        what = f"is not a {kind} game collection" if False in verdicts else "contains no game"
        name = "standard input" if path == "-" else path
        raise CollectionError("not_a_collection", f"{name} {what}", "file")
    return head


def run(args: argparse.Namespace) -> int:
    from engines.collection import check_collection

    workers = _workers(str(args.workers or "1"))
    config = load_config()
    remote = _broker(config) if args.workers is None else None
    game, ruleset = _ruleset(args, RulesetBook.from_config(config))
    started = time.monotonic()
    stream = open_collection(args.file)
    try:
        found = records(lines(stream, args.file))
        head = _head(found, game, args.file)
        games = with_findings = 0
        if remote is not None:
            from web.queue.collection import check_on_queue

            checked = check_on_queue(itertools.chain(head, found), game=game, ruleset=ruleset, remote=remote)
        else:
            checked = check_collection(itertools.chain(head, found), game=game, ruleset=ruleset, config=config,
                                       workers=workers)
        for line in checked:
            games += 1
            with_findings += bool(line["findings"])
            emit(line)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    emit({"summary": {"games": games, "with_findings": with_findings, "seconds": round(time.monotonic() - started, 3)}})
    return 0


def _broker(config: dict[str, Any]) -> Any:
    """The broker's workers (``ADJUDICATOR_BROKER_URL``) and the shared database, or None."""
    from web.queue import broker_url

    url = broker_url()
    if url is None:
        return None
    from web.committee.store import database_url
    from web.db import make_engine, make_sessionmaker, migrate
    from web.queue.remote import Remote

    engine = make_engine(database_url(config))
    migrate(engine)
    return Remote(url, config, make_sessionmaker(engine))
