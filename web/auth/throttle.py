"""Log-in throttling that a stranger cannot turn against a user (issue 23), stored in the database.

Failures are counted two ways, over the last ``login_window_seconds``:

- per (name, client address): after ``login_failures_per_name`` failures for one name from one
  address, that name waits *from that address*, ``login_delay_seconds`` after the next failure and
  twice as long after each further one, up to ``login_max_delay_seconds``;
- per client address, over every name: after ``login_failures_per_address`` failures the address
  waits alike (one address spraying guesses over many names);
- per name, over every address (issue 39): after ``login_failures_per_name_anywhere`` failures for a
  name from any mix of addresses, that name waits alike *at every address it has not logged in from*
  (a guesser with many addresses). The addresses a name logged in from are kept
  (``login_known_addresses``): its owner there is not slowed by this count.

The three combine by the longest wait: an attempt goes on when none of the counts that apply to it
makes it wait.

A name alone is never locked: the same name from another address (its owner's phone, another
device) is not slowed by a stranger's guesses. With ``[security] proxy_hops`` set the address is
the client's, as the trusted proxy forwards it (:mod:`web.security`); without it, every client
behind one proxy would share one address.

Every attempt is a row in ``login_failures`` until it succeeds (then the rows of its name from
its address go). The row is stored and committed *before* the password is checked and the
decision counts it, so parallel guesses cannot slip past a limit together (a burst may be
refused sooner than one at a time would be: in doubt, refuse); a refused attempt is not kept,
so waiting is never lengthened by trying during the wait. Admins see the throttled pairs and
addresses and lift them (:meth:`LoginThrottle.throttled`, :meth:`LoginThrottle.lift`; the page
``/admin/``).

Names are stored as their SHA-256 (a password typed into the name field is not kept), with the
id of the user the name belongs to, if any, so that an admin sees whose log-ins wait.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from web.tables.logins import KnownAddress, LoginFailure


def name_digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


class ThrottleSettingsError(ValueError):
    """A ``[security]`` log-in limit that cannot be used (names the key)."""


@dataclass(frozen=True)
class ThrottleSettings:
    """``[security]`` in config.toml (docs/security.md, "Log-in and sessions")."""

    window_seconds: float = 3600.0
    """Failures older than this are forgotten (longer than the longest wait, or the waits could not grow)."""
    failures_per_name: int = 5
    """Failures for one name from one address before that pair waits."""
    failures_per_address: int = 30
    """Failures from one address, over every name, before the address waits."""
    failures_per_name_anywhere: int = 20
    """Failures for one name from any mix of addresses before that name waits everywhere but at the addresses
    it has logged in from (a guesser with many addresses; the owner at a known address is not slowed)."""
    delay_seconds: float = 30.0
    """The first wait; each further failure doubles it."""
    max_delay_seconds: float = 900.0

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> ThrottleSettings:
        seconds = {}
        for key, attribute in (("login_window_seconds", "window_seconds"), ("login_delay_seconds", "delay_seconds"),
                               ("login_max_delay_seconds", "max_delay_seconds")):
            value = table.get(key, getattr(cls, attribute))
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 10**7:
                raise ThrottleSettingsError(f"[security] {key} must be a number of seconds above 0, not {value!r}")
            seconds[attribute] = float(value)
        if seconds["window_seconds"] < seconds["max_delay_seconds"]:
            raise ThrottleSettingsError("[security] login_window_seconds must be at least login_max_delay_seconds "
                                        "(failures that age out sooner could never make the wait grow)")
        counts = {}
        for key in ("login_failures_per_name", "login_failures_per_address", "login_failures_per_name_anywhere"):
            value = table.get(key, getattr(cls, key.removeprefix("login_")))
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**6:
                raise ThrottleSettingsError(f"[security] {key} must be a whole number of at least 1, not {value!r}")
            counts[key.removeprefix("login_")] = value
        return cls(window_seconds=seconds["window_seconds"], failures_per_name=counts["failures_per_name"],
                   failures_per_address=counts["failures_per_address"],
                   failures_per_name_anywhere=counts["failures_per_name_anywhere"],
                   delay_seconds=seconds["delay_seconds"],
                   max_delay_seconds=seconds["max_delay_seconds"])

    def wait(self, failures: int, free: int) -> float:
        """Seconds to wait after the last of ``failures`` (0 while within the ``free`` ones)."""
        if failures < free:
            return 0.0
        return min(self.max_delay_seconds, self.delay_seconds * 2.0 ** min(failures - free, 40))


@dataclass(frozen=True)
class Attempt:
    """An attempt let through to the password check (``id`` is its row), or refused (``retry_after`` s)."""

    id: int | None
    retry_after: int = 0

    @property
    def is_refused(self) -> bool:
        return self.id is None


@dataclass(frozen=True)
class Throttled:
    """A name and address, or an address alone (``name_digest`` None), whose failures make it wait or
    will at the next failure: what the admin page lists."""

    name_digest: str | None
    address: str
    failures: int
    last_at: float
    until: float
    """When the next attempt is let through (at or before now: it is, but the next failure waits)."""
    user_id: int | None = None

    @property
    def key(self) -> str:
        """What the page's lift button sends back."""
        return f"{self.name_digest or '*'} {self.address}"


ANY_ADDRESS = "(any address)"
"""The address of a :class:`Throttled` name counted over every address (its lift forgets them all)."""


class LoginThrottle:
    """The per-(name, address) and per-address limits; ``clock`` gives seconds (tests move it on)."""

    def __init__(self, sessions: sessionmaker[Session], settings: ThrottleSettings,
                 clock: Callable[[], float] = time.time) -> None:
        self.sessions = sessions
        self.settings = settings
        self.clock = clock

    def begin(self, name: str, address: str, user_id: int | None = None) -> Attempt:
        """Store the attempt and say whether it may go on to the password check."""
        now = self.clock()
        since = now - self.settings.window_seconds
        digest = name_digest(name)
        address = address[:64]
        with self.sessions() as session:
            session.execute(delete(LoginFailure).where(LoginFailure.at <= since))
            row = LoginFailure(name_digest=digest, address=address, at=now, user_id=user_id)
            session.add(row)
            session.commit()
            own = row.id
            pair = self._tally(session, (LoginFailure.name_digest == digest) & (LoginFailure.address == address),
                               since, own)
            by_address = self._tally(session, LoginFailure.address == address, since, own)
            until = max(self._until(pair, self.settings.failures_per_name),
                        self._until(by_address, self.settings.failures_per_address))
            if session.get(KnownAddress, (digest, address)) is None:
                anywhere = self._tally(session, LoginFailure.name_digest == digest, since, own)
                until = max(until, self._until(anywhere, self.settings.failures_per_name_anywhere))
            if until <= now:
                return Attempt(own)
            session.delete(row)  # a refused attempt does not lengthen the wait
            session.commit()
        return Attempt(None, retry_after=max(1, math.ceil(until - now)))

    def _until(self, tally: tuple[int, float | None], free: int) -> float:
        """When an attempt is let through, given the other failures (count, latest) of one key."""
        others, latest = tally
        if latest is None:
            return 0.0
        return latest + self.settings.wait(others, free)

    def succeeded(self, attempt: Attempt, name: str, address: str) -> None:
        """The password was right: the failures of the name from this address are forgotten, and the address
        is one the name logs in from."""
        digest, address = name_digest(name), address[:64]
        with self.sessions() as session:
            session.execute(delete(LoginFailure).where(
                ((LoginFailure.name_digest == digest) & (LoginFailure.address == address))
                | (LoginFailure.id == attempt.id)))
            known = session.get(KnownAddress, (digest, address))
            if known is None:
                session.add(KnownAddress(name_digest=digest, address=address, last_at=self.clock()))
            else:
                known.last_at = self.clock()
            try:
                session.commit()
            except IntegrityError:  # the same name logged in from the same address at the same moment
                session.rollback()

    @staticmethod
    def _tally(session: Session, where: Any, since: float, own: int) -> tuple[int, float | None]:
        """The other failures in the window: how many, and the latest."""
        count, latest = session.execute(
            select(func.count(LoginFailure.id), func.max(LoginFailure.at))
            .where(where, LoginFailure.at > since, LoginFailure.id != own)
        ).one()
        return int(count), latest

    def throttled(self) -> list[Throttled]:
        """The pairs and addresses at or over their free failures, latest first (the admin page)."""
        since = self.clock() - self.settings.window_seconds
        found: list[Throttled] = []
        with self.sessions() as session:
            pairs = session.execute(
                select(LoginFailure.name_digest, LoginFailure.address, func.count(LoginFailure.id),
                       func.max(LoginFailure.at), func.max(LoginFailure.user_id))
                .where(LoginFailure.at > since).group_by(LoginFailure.name_digest, LoginFailure.address)
                .having(func.count(LoginFailure.id) >= self.settings.failures_per_name)).all()
            for digest, address, count, last, user_id in pairs:
                until = float(last) + self.settings.wait(int(count), self.settings.failures_per_name)
                found.append(Throttled(digest, address, int(count), float(last), until, user_id))
            addresses = session.execute(
                select(LoginFailure.address, func.count(LoginFailure.id), func.max(LoginFailure.at))
                .where(LoginFailure.at > since).group_by(LoginFailure.address)
                .having(func.count(LoginFailure.id) >= self.settings.failures_per_address)).all()
            for address, count, last in addresses:
                until = float(last) + self.settings.wait(int(count), self.settings.failures_per_address)
                found.append(Throttled(None, address, int(count), float(last), until))
            names = session.execute(
                select(LoginFailure.name_digest, func.count(LoginFailure.id), func.max(LoginFailure.at),
                       func.max(LoginFailure.user_id))
                .where(LoginFailure.at > since).group_by(LoginFailure.name_digest)
                .having(func.count(LoginFailure.id) >= self.settings.failures_per_name_anywhere)).all()
            for digest, count, last, user_id in names:
                until = float(last) + self.settings.wait(int(count), self.settings.failures_per_name_anywhere)
                found.append(Throttled(digest, ANY_ADDRESS, int(count), float(last), until, user_id))
        return sorted(found, key=lambda t: -t.last_at)

    def lift(self, key: str) -> int:
        """Forget the failures of a :attr:`Throttled.key` (a name from an address, or an address); how many."""
        digest, _, address = key.partition(" ")
        if address == ANY_ADDRESS:
            where: Any = LoginFailure.name_digest == digest[:64]
        else:
            where = LoginFailure.address == address[:64]
            if digest != "*":
                where = where & (LoginFailure.name_digest == digest[:64])
        with self.sessions() as session:
            result: Any = session.execute(delete(LoginFailure).where(where))
            session.commit()
        return int(result.rowcount or 0)
