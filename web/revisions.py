"""The migrations' revisions (``web/migrations``), read from their scripts without Alembic or SQLAlchemy: whether a
database is at the head is known before either loads (:func:`web.db.is_at_head`; :mod:`web.queue.direct`, which
speaks to the database through its own driver)."""

from __future__ import annotations

import re
from pathlib import Path

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

_REVISION = re.compile(r'^revision(?:: *str)? *= *"([^"]+)"$', re.MULTILINE)
_DOWN = re.compile(r'^down_revision(?:: *[^=]+)? *= *(None|"[^"]+"|\([^)]*\))$', re.MULTILINE)


def heads() -> set[str] | None:
    """The migrations' head revisions, read from ``web/migrations/versions`` without loading Alembic or
    the scripts (their ``revision = "..."`` and ``down_revision = ...`` lines); None where a script says
    them otherwise (then only Alembic can tell)."""
    revisions: set[str] = set()
    below: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        revision, down = _REVISION.findall(text), _DOWN.findall(text)
        if len(revision) != 1 or len(down) != 1:
            return None
        revisions.add(revision[0])
        below.update(re.findall(r'"([^"]+)"', down[0]))
    return revisions - below or None
