"""Taking access back (issue 23): tokens, staff places and whole users, at once, for the commands and the
admin pages alike. Each change is one transaction with its audit entries, committed by the caller.

- A user's own API token is renewed (:func:`renew_token`: the old one stops working) or revoked
  (:func:`revoke_token`: none works until a new one is issued); either way the user's event tokens
  stop too (a renewal is what a user asks for when a token may have leaked).
- An event token replaces the user's earlier token for that event (:func:`issue_event_token`); the
  database holds one live token per user and event (``uq_event_tokens_live``).
- Taking a user off an event's staff (:func:`remove_staff`) deletes the assignment, with an audit
  entry saying so, and revokes their token for that event once no role there is left.
- Resetting a password (:func:`reset_password`) gives a generated one and ends the user's sessions.
- Deactivating a user (:func:`deactivate`) ends their log-in sessions (the rows are deleted: the
  next request of any of their browsers is anonymous) and revokes every token they hold; the user
  loader and the token lookup refuse an inactive user besides.
"""

from __future__ import annotations

import secrets

from sqlalchemy import delete, select
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from web.audit import REMOVED, append, now
from web.tables.events import Event, EventStaff, EventToken
from web.tables.logins import LoginSession
from web.tables.users import User, token_digest


class AccessChangeRefused(ValueError):
    """A change that cannot be made (names the field): the last active admin deactivated, say."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def _audit_user(session: Session, user: User, actor: str) -> None:
    session.flush()
    append(session, "user", f"user:{user.id}", user.audit_payload(), actor=actor)


def revoke_event_tokens(session: Session, user: User, actor: str, event: Event | None = None) -> int:
    """Revoke the user's live event tokens (of ``event`` only, when given); how many were live."""
    query = select(EventToken).where(EventToken.user_id == user.id, EventToken.revoked_at.is_(None))
    if event is not None:
        query = query.where(EventToken.event_id == event.id)
    found = list(session.scalars(query))
    stamp = now()
    for row in found:
        row.revoked_at = stamp
        session.flush()
        append(session, "event-token", row.subject, row.audit_payload(), actor=actor)
    return len(found)


def renew_token(session: Session, user: User, actor: str) -> str:
    """A new API token for the user (the old one and their event tokens stop working); the token."""
    token = secrets.token_urlsafe(32)
    user.token_hash = token_digest(token)
    append(session, "token", f"user:{user.id}", {"name": user.name, "reissued": True}, actor=actor)
    revoke_event_tokens(session, user, actor)
    return token


def revoke_token(session: Session, user: User, actor: str) -> None:
    """The user's API token and event tokens stop working; no token works until one is issued again.

    The stored digest is replaced by the digest of a secret nobody is given (the column stays unique
    and required).
    """
    user.token_hash = token_digest(secrets.token_urlsafe(32))
    append(session, "token", f"user:{user.id}", {"name": user.name, "revoked": True}, actor=actor)
    revoke_event_tokens(session, user, actor)


def issue_event_token(session: Session, event: Event, user: User, actor: str, issued_by: User | None = None) -> str:
    """A token that acts for ``user`` in ``event`` only, replacing any earlier one of theirs there.

    ``issued_by``: who asked for it (None: the command line); the database allows only the token's own
    user or an admin (migration 0016). Who may is :func:`web.events.changes.issue_token`'s rule."""
    revoke_event_tokens(session, user, actor, event)
    token = secrets.token_urlsafe(32)
    row = EventToken(event_id=event.id, user_id=user.id, token_hash=token_digest(token), created_at=now(),
                     issued_by_id=None if issued_by is None else issued_by.id)
    session.add(row)
    session.flush()
    session.refresh(row)
    append(session, "event-token", row.subject, row.audit_payload(), actor=actor)
    return token


def remove_staff(session: Session, event: Event, user: User, role: str | None, actor: str) -> list[str]:
    """Take ``user`` off ``event``'s staff (in ``role`` only, when given); the roles removed (sorted).

    Their token for the event is revoked once they hold no place on its staff.
    """
    query = select(EventStaff).where(EventStaff.event_id == event.id, EventStaff.user_id == user.id)
    if role is not None:
        query = query.where(EventStaff.role == role)
    found = list(session.scalars(query))
    for row in found:
        subject = row.subject
        session.delete(row)
        session.flush()
        append(session, "event-staff", subject, REMOVED, actor=actor)
    left = session.scalar(select(EventStaff.id).where(EventStaff.event_id == event.id,
                                                      EventStaff.user_id == user.id))
    if found and left is None:
        revoke_event_tokens(session, user, actor, event)
    return sorted(row.role for row in found)


def active_admins(session: Session) -> int:
    return len(list(session.scalars(select(User.id).where(User.role == "admin", User.active.is_(True)))))


def deactivate(session: Session, user: User, actor: str) -> int:
    """Deactivate the user: their sessions end and their tokens stop, at once; how many sessions ended.

    :raises AccessChangeRefused: the user is the last active admin (nobody could undo it but the
        command line).
    """
    if user.role == "admin" and user.active and active_admins(session) <= 1:
        raise AccessChangeRefused(f"{user.name} is the only active admin; make another admin first", "name")
    ended = session.execute(delete(LoginSession).where(LoginSession.user_id == user.id))
    user.active = False
    _audit_user(session, user, actor)
    revoke_token(session, user, actor)
    return int(getattr(ended, "rowcount", 0) or 0)


def reset_password(session: Session, user: User, actor: str, hash_method: str = "scrypt") -> str:
    """A new generated password for the user (shown once to whoever reset it); their log-in sessions end,
    so a browser that knew the old one is out at once. Their tokens are left alone."""
    password = secrets.token_urlsafe(12)
    user.password_hash = generate_password_hash(password, method=hash_method)
    session.execute(delete(LoginSession).where(LoginSession.user_id == user.id))
    _audit_user(session, user, actor)
    return password


def activate(session: Session, user: User, actor: str) -> None:
    """Let the user log in again (their tokens stay revoked: issue a new one with ``users token``)."""
    user.active = True
    _audit_user(session, user, actor)
