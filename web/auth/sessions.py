"""Server-side log-in sessions: the cookie names a session row, and logging out deletes it.

The signed session cookie alone cannot be revoked (a copy saved before logging out would
still open the pages), so a log-in stores the SHA-256 of a random session id in
``login_sessions`` and puts the id in the cookie; each request loads the user only while
that row exists, belongs to the user, is younger than ``[security] session_hours`` and the
user is active. Logging out deletes the row; a deactivated user's sessions stop working.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from flask import session as cookie
from sqlalchemy import delete
from sqlalchemy.orm import Session

from web.tables.logins import LoginSession
from web.tables.users import User

SESSION_KEY = "sid"
"""The key of the session id in Flask's signed cookie."""


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


def start(session: Session, user: User, clock: Callable[[], float] = time.time) -> None:
    """A new session for ``user`` (committed); the cookie starts afresh and its earlier session ends."""
    end(session)
    session_id = secrets.token_urlsafe(32)
    session.add(LoginSession(id_digest=_digest(session_id), user_id=user.id, created_at=clock()))
    session.commit()
    cookie.clear()
    cookie[SESSION_KEY] = session_id


def user_for(session: Session, user_id: str, max_age_seconds: float,
             clock: Callable[[], float] = time.time) -> User | None:
    """The cookie's user, while its session row stands (Flask-Login's user loader)."""
    session_id = cookie.get(SESSION_KEY)
    if not isinstance(session_id, str) or not user_id.isdigit():
        return None
    row = session.get(LoginSession, _digest(session_id))
    if row is None or str(row.user_id) != user_id:
        return None
    if clock() - row.created_at > max_age_seconds:
        session.delete(row)
        session.commit()
        return None
    user = session.get(User, row.user_id)
    return user if user is not None and user.is_active else None


def end(session: Session) -> None:
    """Delete this cookie's session row (logging out)."""
    session_id = cookie.pop(SESSION_KEY, None)
    if isinstance(session_id, str):
        session.execute(delete(LoginSession).where(LoginSession.id_digest == _digest(session_id)))
        session.commit()

