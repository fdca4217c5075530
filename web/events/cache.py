"""The events a request rules in, kept for a moment so a claim does not read the database twice.

Every claim names an event (most the default one). Looking it up costs a database
connection and an ORM load in the serving thread, about a third of a millisecond:
a tenth of a quick claim's whole cost. :class:`EventCache` keeps each event's
:class:`~web.tables.events.EventSnapshot` (its access facts, no session) for
``EVENT_CACHE_SECONDS`` (default 2 s).

Freshness:
- a change to an event made in this process (the admin pages, the ``events`` commands
  run in-process) empties every cache at once, through the ORM's flush events;
- a change made by another process (another server or a command line) is seen within
  ``EVENT_CACHE_SECONDS``.

Staff assignments and tokens are not cached: who may act in an event is always read
from the database.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from web.tables.events import Event, EventSnapshot

_generation = itertools.count(1)
_current = [next(_generation)]
"""Bumped whenever an event row is written in this process: every cache starts again."""


def _changed(*_args: Any) -> None:
    _current[0] = next(_generation)


for _hook in ("after_insert", "after_update", "after_delete"):
    sa_event.listen(Event, _hook, _changed)


class EventCache:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._entries: dict[object, tuple[float, int, EventSnapshot | None]] = {}

    def get(self, key: object, load: Callable[[Session], Event | None],
            session_factory: Callable[[], Session]) -> EventSnapshot | None:
        """The snapshot under ``key`` (an id or a slug), loaded with ``load(session)`` when stale."""
        now = time.monotonic()
        generation = _current[0]
        with self._lock:
            found = self._entries.get(key)
        if found is not None and found[1] == generation and now - found[0] < self.seconds:
            return found[2]
        row = load(session_factory())
        snapshot = None if row is None else EventSnapshot.of(row)
        if self.seconds > 0 and snapshot is not None:  # an unknown name is not remembered: it may be made next
            with self._lock:
                if len(self._entries) > 1000:
                    self._entries.clear()
                self._entries[key] = (now, generation, snapshot)
        return snapshot
