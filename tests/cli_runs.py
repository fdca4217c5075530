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
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def _environment(env: Mapping[str, str]) -> Iterator[None]:
    """Only ``env``'s ``ADJUDICATOR_*`` variables set (as in the clean environment the process would get), and
    the repository as the working directory; all restored afterwards."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    try:
        for key in [key for key in os.environ if key.startswith("ADJUDICATOR_")]:
            del os.environ[key]
        os.environ.update({key: value for key, value in env.items() if key.startswith("ADJUDICATOR_")})
        os.chdir(ROOT)
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def run_in_process(argv: Sequence[str], env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """``python3 -m adjudicator *argv`` with ``env``, run by ``web.cli.main`` in this process."""
    from web.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _environment(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["adjudicator", *argv], code, out.getvalue(), err.getvalue())
