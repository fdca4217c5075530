"""Each event's broadcast watched once, however many web processes run (issue 36, item 3).

Every process that serves an event's Round view starts one thread for that event (:meth:`RoundWatch.ensure`).
The thread reads the broadcast only while it holds the event's lease (:func:`web.watch.store.take_lease`,
renewed each poll); the others wait and take over when the holder stops renewing (it died). The holder reads
the source (:class:`web.watch.source.Source`), watches the copy (:class:`adjudicator.watch.Watcher`) and stores
the alerts and boards (:func:`web.watch.store.store`): the Round view reads only the database.

Settings (Flask): ``WATCH_INTERVAL`` (seconds between reads, 2), ``WATCH_LEASE_SECONDS`` (10).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import urllib.request
import uuid
from dataclasses import dataclass, field

from sqlalchemy.orm import Session, sessionmaker

from adjudicator.rulesets import CheckersRuleset, ChessRuleset, RulesetBook
from adjudicator.services import MateOracle
from adjudicator.watch import Watcher, WatchState
from web.tables.events import Event
from web.watch.source import Source, SourceError, backoff
from web.watch.store import store, take_lease

log = logging.getLogger(__name__)


def mate_oracle() -> MateOracle | None:
    """The helpmate analysis (FIDE 5.2.2) of ``engines/``, None when not installed (the material test only)."""
    try:
        from engines.chess.unwinnable import UnwinnabilityAnalyser
    except ModuleNotFoundError:
        return None
    return UnwinnabilityAnalyser()


@dataclass
class _Watched:
    thread: threading.Thread
    problem: str | None = None
    holds: bool = False


@dataclass
class RoundWatch:
    """This process's watch threads, one per event asked for."""

    sessions: sessionmaker[Session]
    book: RulesetBook
    default_ruleset: str
    interval: float = 2.0
    lease_seconds: float = 10.0
    holder: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    stopping: threading.Event = field(default_factory=threading.Event)
    watched: dict[int, _Watched] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    opener: urllib.request.OpenerDirector | None = None
    """How the events' broadcast URLs are opened (the guarded opener: :mod:`web.broadcast.guard`)."""

    def ensure(self, event_id: int) -> None:
        """Watch the event from this process (a thread that reads only while it holds the lease)."""
        with self.lock:
            found = self.watched.get(event_id)
            if found is not None and found.thread.is_alive():
                return
            thread = threading.Thread(target=self._run, args=(event_id,), name=f"watch-{event_id}", daemon=True)
            self.watched[event_id] = _Watched(thread)
            thread.start()

    def problem(self, event_id: int) -> str | None:
        """Why this process could not read the event's source at its last try (None: it could, or not its turn)."""
        found = self.watched.get(event_id)
        return found.problem if found is not None else None

    def stop(self) -> None:
        self.stopping.set()

    def _ruleset(self, event: Event) -> ChessRuleset | CheckersRuleset:
        rid = event.ruleset or self.default_ruleset
        found = self.book[rid]
        return self.book.checkers(rid) if found.game == "checkers" else self.book.chess(rid)

    def _run(self, event_id: int) -> None:
        state, source, watcher = WatchState(), None, None
        failures = 0
        mate = mate_oracle()
        while not self.stopping.is_set():
            try:
                with self.sessions() as session:
                    event = session.get(Event, event_id)
                    if event is None or not event.broadcast:
                        self.stopping.wait(self.interval)
                        continue
                    watched = self.watched[event_id]
                    if not take_lease(session, event_id, self.holder, self.lease_seconds):
                        watched.holds = False
                        state, source = WatchState(), None  # the holder reads; start afresh if it is our turn
                        self.stopping.wait(self.interval)
                        continue
                    watched.holds = True
                    ruleset = self._ruleset(event)
                    if source is None or source.location != event.broadcast or watcher is None \
                            or watcher.ruleset is not ruleset:
                        source, state = Source(event.broadcast, ruleset.game, opener=self.opener), WatchState()
                        watcher = Watcher(ruleset, mate if ruleset.game == "chess" else None)
                    try:
                        files = source.read()
                    except SourceError as exc:
                        failures += 1
                        watched.problem = str(exc)
                    else:
                        failures, watched.problem = 0, None
                        alerts, state = watcher.watch(files, state)
                        store(session, event_id, alerts, state)
            except Exception:  # a bad copy or a database hiccup must not end the watch
                log.exception("the watch of event %s failed once", event_id)
                failures += 1
            self.stopping.wait(backoff(failures, self.interval))
