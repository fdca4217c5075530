"""Waiting for a state that must come, in tests that are not in a browser (Playwright waits for its own).

The bound only stops a hung test: it is never a threshold a good run could miss on a loaded machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

HANG_SECONDS = 120.0
"""A bound on a wait for a state that must come (never a threshold: it only stops a hung test)."""


def until(condition: Callable[[], T | None], what: str) -> T:
    """What ``condition`` returns once it returns something true; fails naming ``what`` if it never does."""
    deadline = time.monotonic() + HANG_SECONDS
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)  # the poll's interval; the state, not the time, ends the wait
    raise AssertionError(f"never came: {what}")
