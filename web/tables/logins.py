"""Log-ins (issue 11, 39): the sessions a log-in opens and the failed attempts the throttle counts."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from web.db import Base


class LoginSession(Base):
    __tablename__ = "login_sessions"
    __table_args__ = (Index("ix_login_sessions_user_id", "user_id"),)

    id_digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[float] = mapped_column(Float)


class LoginFailure(Base):
    """One log-in attempt that has not (yet) succeeded."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_name_at", "name_digest", "at"),
        Index("ix_login_failures_address_at", "address", "at"),
        Index("ix_login_failures_at", "at"),
        Index("ix_login_failures_name_address_at", "name_digest", "address", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name_digest: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True)
    """The user the name belongs to (None: a name no user has)."""


class KnownAddress(Base):
    """An address a name logged in from (its last success there): the owner is not slowed there by the
    per-name limit over all addresses."""

    __tablename__ = "login_known_addresses"

    name_digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_at: Mapped[float] = mapped_column(Float)
