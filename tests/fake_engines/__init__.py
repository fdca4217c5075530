"""Tiny UCI engines that misbehave on purpose, for the timeout and crash tests."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def command(name: str) -> tuple[str, ...]:
    """The command line that starts fake engine ``name`` (``hang``, ``crash``, ``silent``, ``slow_start``)."""
    return (sys.executable, str(HERE / f"{name}.py"))
