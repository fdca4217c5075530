"""The contract's plain shapes that reading a case needs without its pydantic models
(``shared/contract.md``, "Case (input)"): the games, the longest record, how a clock reading is written,
and what no database can store.

:mod:`adjudicator.documents` (the models, slow to build) states the same shapes from these, so the
command line and the workers read cases without loading pydantic (issue 40: the command starts fast).
"""

from __future__ import annotations

import re
from typing import Literal

Game = Literal["chess", "checkers"]
MAX_RECORD_CHARS = 2_000_000
"""Longest record accepted (a long game with clock comments is well under 100 kB)."""
CLOCK_TEXT = r"^(\d+:)?\d{1,2}:\d{1,2}(\.\d+)?$"
"""A clock reading written h:mm:ss or m:ss (:func:`adjudicator.contract.parse_seconds` reads it, spaces
around allowed, and refuses 60 minutes or seconds and more than 100 hours)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def unstorable(text: str) -> str | None:
    """What in ``text`` no database can store as text: ``"a NUL character"``, ``"a lone surrogate ..."``
    (JSON's ``"\\ud800"``: half of a UTF-16 pair, no character), or None."""
    if "\x00" in text:
        return "a NUL character"
    if _SURROGATE.search(text) is not None:
        return "a lone surrogate (half of a UTF-16 pair, not a character)"
    return None
