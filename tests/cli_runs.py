"""The command line run in the test's own process: ``web.cli.main`` with the given environment, in the
repository, its output captured, as ``python3 -m adjudicator`` would give it (exit status, stdout, stderr).

A ``python3 -m adjudicator`` process spends about a second importing before it does anything; a test that
runs a dozen commands spent most of its time starting interpreters. Each test that uses this runs its first
command as a real process still (the entry point, the exit status and the streams as a shell sees them), and
the rest here.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import typing
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    """The repository as the working directory and, when ``env`` is given, only its ``ADJUDICATOR_*`` variables
    set (as in the clean environment the process would get; None: this process's environment, as
    ``subprocess.run(env=None)`` passes it on); all restored afterwards."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    try:
        if env is not None:
            for key in [key for key in os.environ if key.startswith("ADJUDICATOR_")]:
                del os.environ[key]
            os.environ.update({key: value for key, value in env.items() if key.startswith("ADJUDICATOR_")})
        os.chdir(ROOT)
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def _stream(data: bytes = b"") -> io.TextIOWrapper:
    """A text stream over bytes, with ``.buffer`` as a process's standard streams have."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", write_through=True)


def _run(argv: Sequence[str], env: Mapping[str, str] | None, stdin: bytes) -> tuple[int, bytes, bytes]:
    from web.cli import main

    streams = {"stdin": _stream(stdin), "stdout": _stream(), "stderr": _stream()}
    saved = {name: getattr(sys, name) for name in streams}
    with _environment(env):
        for name, stream in streams.items():
            setattr(sys, name, stream)
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            for name, stream in saved.items():
                setattr(sys, name, stream)
    out, err = (typing.cast(io.BytesIO, streams[name].buffer).getvalue() for name in ("stdout", "stderr"))
    return code, out, err


def run_in_process(argv: Sequence[str], env: Mapping[str, str] | None = None,
                   stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python3 -m adjudicator *argv`` with ``env`` and ``stdin``, run by ``web.cli.main`` in this process (text
    output, as ``subprocess.run(text=True)`` gives it)."""
    code, out, err = _run(argv, env, stdin.encode())
    return subprocess.CompletedProcess(["adjudicator", *argv], code, _text(out), _text(err))


def run_in_process_bytes(argv: Sequence[str], env: Mapping[str, str] | None = None,
                         stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """As :func:`run_in_process`, the output as bytes."""
    code, out, err = _run(argv, env, stdin)
    return subprocess.CompletedProcess(["adjudicator", *argv], code, out, err)


def _text(data: bytes) -> str:
    """Decoded as ``subprocess.run(text=True)`` does (universal newlines)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


LOADED_BY_CHECK_GAMES = ("import json, sys\n"
                         "from web.cli import main\n"
                         "status = main(['check-games', sys.argv[1]])\n"
                         "loaded = sorted({unused for unused in sys.argv[2:] for name in sys.modules\n"
                         "                 if name == unused or name.startswith(unused + '.')})\n"
                         "sys.stderr.write(json.dumps({'status': status, 'loaded': loaded}))\n")
"""A program for ``python3 -c``: check-games on the file ``argv[1]``, then which of the modules named after it
were loaded, as JSON on its last line of stderr (the cause of a fast start, issue 40: the time is bench's)."""
