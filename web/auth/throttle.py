"""Log-in throttling: a lockout per user name and a limit per client address, stored in the database.

Every log-in attempt is a row in ``login_failures`` until it succeeds (then the name's rows
are deleted). An attempt is refused, before any password is checked, while the name has
``failures_per_name`` rows, or the client address ``failures_per_address`` rows, in the last
``window_seconds``; a refused attempt is not stored, so the lock ends when the failures age
out of the window. The row is stored and committed *before* the password is checked and the
count includes it, so parallel guesses cannot slip past the limit together (a burst may
be refused sooner than one at a time would be: in doubt, refuse).

Names are stored as their SHA-256 (a password typed into the name field is not kept).
Flask-Limiter was not used: its storages are memory, Redis, Memcached and MongoDB, and
the limit must hold across processes with only the database (the broker, when the
project has one, may take this over).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, Index, Integer, String, delete, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from web.db import Base


class LoginFailure(Base):
    """One log-in attempt that has not (yet) succeeded."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_name_at", "name_digest", "at"),
        Index("ix_login_failures_address_at", "address", "at"),
        Index("ix_login_failures_at", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name_digest: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


def name_digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


class ThrottleSettingsError(ValueError):
    """A ``[security]`` log-in limit that cannot be used (names the key)."""


@dataclass(frozen=True)
class ThrottleSettings:
    """``[security]`` in config.toml (README "Log-in and sessions")."""

    window_seconds: float = 900.0
    failures_per_name: int = 5
    failures_per_address: int = 30

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> ThrottleSettings:
        window = table.get("login_window_seconds", cls.window_seconds)
        if isinstance(window, bool) or not isinstance(window, int | float) or window <= 0:
            raise ThrottleSettingsError(f"[security] login_window_seconds must be a number above 0, not {window!r}")
        counts = {}
        for key in ("login_failures_per_name", "login_failures_per_address"):
            value = table.get(key, getattr(cls, key.removeprefix("login_")))
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ThrottleSettingsError(f"[security] {key} must be a whole number of at least 1, not {value!r}")
            counts[key.removeprefix("login_")] = value
        return cls(window_seconds=float(window), **counts)


@dataclass(frozen=True)
class Attempt:
    """An attempt let through to the password check (``id`` is its row), or refused (``retry_after`` s)."""

    id: int | None
    retry_after: int = 0

    @property
    def is_refused(self) -> bool:
        return self.id is None


class LoginThrottle:
    """The lockout and the address limit; ``clock`` gives seconds (tests move it on)."""

    def __init__(self, sessions: sessionmaker[Session], settings: ThrottleSettings,
                 clock: Callable[[], float] = time.time) -> None:
        self.sessions = sessions
        self.settings = settings
        self.clock = clock

    def begin(self, name: str, address: str) -> Attempt:
        """Store the attempt and say whether it may go on to the password check."""
        now = self.clock()
        since = now - self.settings.window_seconds
        digest = name_digest(name)
        address = address[:64]
        with self.sessions() as session:
            session.execute(delete(LoginFailure).where(LoginFailure.at <= since))
            row = LoginFailure(name_digest=digest, address=address, at=now)
            session.add(row)
            session.commit()
            by_name = self._count(session, LoginFailure.name_digest == digest, since)
            by_address = self._count(session, LoginFailure.address == address, since)
            if by_name[0] <= self.settings.failures_per_name and by_address[0] <= self.settings.failures_per_address:
                return Attempt(row.id)
            session.delete(row)  # a refused attempt does not lengthen the lock
            session.commit()
        oldest = [first for count, first, limit in (by_name + (self.settings.failures_per_name,),
                                                    by_address + (self.settings.failures_per_address,))
                  if count > limit and first is not None]
        wait = max(oldest, default=now) + self.settings.window_seconds - now
        return Attempt(None, retry_after=max(1, math.ceil(wait)))

    def succeeded(self, attempt: Attempt, name: str) -> None:
        """The password was right: the name's failures are forgotten."""
        with self.sessions() as session:
            session.execute(delete(LoginFailure).where(
                (LoginFailure.name_digest == name_digest(name)) | (LoginFailure.id == attempt.id)))
            session.commit()

    @staticmethod
    def _count(session: Session, where: Any, since: float) -> tuple[int, float | None]:
        count, first = session.execute(
            select(func.count(LoginFailure.id), func.min(LoginFailure.at)).where(where, LoginFailure.at > since)
        ).one()
        return int(count), first
