"""A part the tests need and the machine lacks (issue 41): in CI (``CI`` set) the run fails with a message naming
the part and how the set-up installs it, never a skip that would drop what CI must check; on a developer's
machine, a skip that says the same."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """Whether this is a CI run (``CI`` set to anything but empty, ``0`` or ``false``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(part: str, how: str, *, module: bool = False) -> NoReturn:
    """``part`` is missing: fail in CI, skip elsewhere; ``how`` says how the set-up brings it
    (``Debian package postgresql (.ci/install)``). ``module``: said at a test module's top level."""
    message = f"{part} is missing: {how}"
    if in_ci():
        pytest.fail(f"CI needs {message}", pytrace=False)
    pytest.skip(message, allow_module_level=module)
