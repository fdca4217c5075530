"""What the database is, known without SQLAlchemy or Alembic: the migrations' folder and their head revisions
(``web/migrations``, read from their scripts: whether a database is at the head is known before either loads,
:func:`web.db.is_at_head`) and how a SQLite connection is set up (:data:`SQLITE_PRAGMAS`). :mod:`web.db` and
:mod:`web.queue.direct`, which speaks to the database through its own driver, both use them."""

from __future__ import annotations

import re
from pathlib import Path

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "secure_delete=FAST")
"""Every SQLite connection's settings: the write-ahead log (readers and one writer at once), a commit on disk when
it returns, foreign keys enforced, and deleted content zeroed where that costs no more writes (``FAST``: a row's
cell on its b-tree page, not the overflow pages a large text freed; Debian's SQLite zeroes every freed page, and
deleting a collection check's results, 75 MB for 200,000 games, wrote them all again twice, to the log and to the
file)."""

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
