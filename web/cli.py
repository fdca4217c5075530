"""The contract's command line (``adjudicator ...``): reads inputs, prints JSON.

Each subcommand lives in ``web/commands/<name>.py`` with ``register(subparsers)``.
Bad input exits 2 with ``{"error": {...}}`` on stdout and one line on stderr;
an analysis that cannot be done (no engine) exits 3 with ``engine_unavailable``;
never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import io
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from adjudicator.contract_error import ContractError
from adjudicator.contract_text import unstorable

COMMANDS = ("rule", "replay", "unwinnable", "serve", "users", "build_db", "audit", "events", "check_games",
            "worker", "rulesets", "watch")


EXIT_STATUS = {"internal_error": 1, "engine_unavailable": 3, "queue_unavailable": 3}
"""Exit status by error code: 2 (bad input) unless named here; 3 means the analysis could not be done."""


class UsageError(ContractError):
    """The command line itself is wrong."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError("usage", f"{self.prog}: {message}", "argv")


def emit(obj: Any) -> None:
    """Print one JSON document on its own line and flush (batch modes stream)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def error_json(exc: Exception) -> dict[str, Any]:
    """``{"error": ...}`` for what a command raised (:func:`web.failures.error_body`; a bug: ``internal_error``)."""
    from web.failures import error_body  # loaded on an error only: it names every failure's module (a fast start)

    return error_body(exc, failing=None)


def fail(exc: Exception) -> int:
    body = error_json(exc)
    emit(body)
    err = body["error"]
    where = f" ({err['field']})" if err.get("field") else ""
    sys.stderr.write(f"adjudicator: {err['message']}{where}\n")
    return EXIT_STATUS.get(err["code"], 2)


@contextlib.contextmanager
def lines_of(path: str, field: str = "input") -> Iterator[Iterator[str]]:
    """The lines of a file, or of standard input for ``-``, each read when it is asked for.

    Standard input is read a line at a time as the lines arrive, never first to its end, so
    a client that writes one line and waits for its answer gets it (``rule --jsonl -``).
    """
    if path == "-":
        stdin = sys.stdin
        if isinstance(stdin, io.TextIOWrapper):
            stdin.reconfigure(errors="replace")
        yield iter(stdin.readline, "")
        return
    try:
        handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise ContractError("unreadable_input", f"cannot read {path}: {exc.strerror}", field) from None
    with handle:
        yield iter(handle.readline, "")


def read_input(path: str, field: str = "input") -> str:
    """The text of a file, or of standard input for ``-``."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError as exc:
        raise ContractError("unreadable_input", f"cannot read {path}: {exc.strerror}", field) from None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given ``argv``, only the named subcommand's module is imported (a fast start)."""
    parser = _Parser(prog="adjudicator", description="The arbiter's assistant.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    wanted = words[0].replace("-", "_") if words else None
    for name in (wanted,) if wanted in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"web.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"web.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def check_arguments(argv: Sequence[str]) -> None:
    """Refuse an argument no database can store: bytes that are not UTF-8 (Python keeps them as lone
    surrogates) or a NUL; the error names the argument by its place and its option."""
    for place, argument in enumerate(argv, start=1):
        problem = unstorable(argument)
        if problem is not None:
            before = argv[place - 2] if place > 1 and argv[place - 2].startswith("--") else None
            if argument.startswith("--") and "=" in argument:
                before = argument.partition("=")[0]
            name = before.lstrip("-") if before else f"argument {place}"
            what = "bytes that are not UTF-8 text" if "surrogate" in problem else problem
            raise UsageError("invalid_field", f"{name} holds {what}", name)


@contextlib.contextmanager
def loading() -> Iterator[None]:
    """A command's imports and set-up (its module, the database's and the broker's clients), with Python's cycle
    collector paused: imports make hundreds of thousands of objects and no garbage, and the collector would walk
    them all many times over (about 0.05 s of ``check-games``' start-up with a broker, issue 40)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    try:
        check_arguments(sys.argv[1:] if argv is None else argv)
        with loading():
            parser = build_parser(argv)
        args = parser.parse_args(argv)
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # bad input, no engine, or a bug: the contract's error (web.failures), never a traceback
        return fail(exc)


def entry() -> int:
    """The program's door (the ``adjudicator`` script and ``python -m adjudicator``): :func:`main`, then the
    process ends without Python's cycle collector walking every module's objects once more on the way out
    (``gc.freeze``: a tenth of a second after a broker check's last line, issue 40). Everything else of the exit
    is as before: the ``atexit`` handlers run, the standard streams are flushed and the modules are cleared; only
    an object that nothing but a reference cycle holds is left to the operating system unfinalized (which
    Python never promised to finalize at exit either: a command closes what it writes with ``with``)."""
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    raise SystemExit(entry())
