"""Users: the chief TD (admin), TDs, committee members and appeals members."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from sqlalchemy import Boolean, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from web.db import Base
from web.tables.audit import ROW_LISTERS, append, deriver, now

ROLES = ("admin", "td", "committee", "appeals")
"""admin = chief TD; td opens cases; committee members vote; appeals members decide appeals."""


class UserError(ValueError):
    """A user that cannot be created (bad name, unknown role, name taken)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def token_digest(token: str) -> str:
    """Tokens are stored only as their SHA-256 (they are long random strings)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    club: Mapped[str | None] = mapped_column(String(120), nullable=True)
    team: Mapped[str | None] = mapped_column(String(120), nullable=True)
    created_at: Mapped[str] = mapped_column(String(40))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    totp_secret: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """Base32 secret of the user's one-time passwords (None: none asked at log-in; :mod:`web.auth.totp`)."""
    totp_last_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The last 30-second step whose code logged in (a code is good once)."""

    # Flask-Login's user interface
    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_active(self) -> bool:
        return bool(self.active)

    @property
    def is_anonymous(self) -> bool:
        return False

    def get_id(self) -> str:
        return str(self.id)

    def has_role(self, *roles: str) -> bool:
        return self.role in roles or self.role == "admin"

    def check_password(self, password: str) -> bool:
        from werkzeug.security import check_password_hash  # deferred on purpose: Werkzeug only where one logs in

        return check_password_hash(self.password_hash, password)

    def audit_payload(self) -> dict[str, Any]:
        """Who the user is and may do (a role changed by hand is caught by ``audit verify``)."""
        return {"name": self.name, "role": self.role, "club": self.club, "team": self.team,
                "password_hash": self.password_hash, "active": bool(self.active),
                "totp": self.totp_secret is not None}


def create_user(session: Session, name: str, role: str, password: str | None = None,
                club: str | None = None, team: str | None = None, *,
                hash_method: str = "scrypt", actor: str = "command line") -> tuple[User, str, str]:
    """Add a user (not committed); returns the user, the API token and the password.

    ``hash_method`` is werkzeug's password hash (tests pass a cheap one); ``actor`` who adds them (audited).
    """

    name = name.strip()
    if not name or len(name) > 80 or any(ch in name for ch in "\r\n\t"):
        raise UserError("name must be 1 to 80 characters on one line", "name")
    if role not in ROLES:
        raise UserError(f"role must be one of {', '.join(ROLES)}, not {role!r}", "role")
    if session.scalar(select(User.id).where(User.name == name)) is not None:
        raise UserError(f"a user named {name!r} already exists", "name")
    password = password or secrets.token_urlsafe(12)
    if len(password) < 8:
        raise UserError("password must have at least 8 characters", "password")
    token = secrets.token_urlsafe(32)
    from werkzeug.security import generate_password_hash  # deferred on purpose: Werkzeug only where users change

    user = User(name=name, role=role, password_hash=generate_password_hash(password, method=hash_method),
                token_hash=token_digest(token), club=club or None, team=team or None,
                created_at=now(), active=True)
    session.add(user)
    session.flush()
    append(session, "user", f"user:{user.id}", user.audit_payload(), actor=actor)
    return user, token, password


def user_by_token(session: Session, token: str) -> User | None:
    if not token:
        return None
    return session.scalar(select(User).where(User.token_hash == token_digest(token), User.active.is_(True)))


def user_by_name(session: Session, name: str) -> User | None:
    return session.scalar(select(User).where(User.name == name))


@deriver("user")
def _user_payload(session: Session, subject: str) -> dict[str, Any] | None:
    try:
        row = session.get(User, int(subject.rsplit(":", 1)[1]))
    except (IndexError, ValueError):
        return None
    return None if row is None else row.audit_payload()


ROW_LISTERS["user"] = lambda session: [f"user:{i}" for i in session.scalars(select(User.id))]
