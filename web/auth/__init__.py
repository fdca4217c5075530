"""Who is asking: sessions for the pages (Flask-Login), bearer tokens for the JSON API, roles.

Pages: log in with name and password (throttled, :mod:`web.auth.throttle`); the session is
stored server-side and ends at logout (:mod:`web.auth.sessions`); every form carries a CSRF token.
API: ``Authorization: Bearer <token>`` (from ``adjudicator users add``; :mod:`web.auth.tokens`); 401 when
the token is missing or wrong, 403 when the user's role or seat does not allow it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Flask, abort, current_app
from flask_login import LoginManager, current_user

from web import security
from web.auth import sessions, throttle, totp
from web.auth.views import bp
from web.db import get_session as db
from web.tables.users import ROLES, User

F = TypeVar("F", bound=Callable[..., Any])


def page_user() -> User:
    """The logged-in user of a page (only inside a :func:`login_required` view)."""
    return cast(User, current_user._get_current_object())


def login_required(*roles: str) -> Callable[[F], F]:
    """The page needs a logged-in user (redirect to the login page), with one of ``roles`` (else 403)."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                manager: LoginManager = current_app.login_manager  # type: ignore[attr-defined]
                return manager.unauthorized()
            if roles and not page_user().has_role(*roles):
                abort(403)
            return view(*args, **kwargs)

        return cast(F, wrapped)

    return decorate


def layout_name(app: Flask) -> str:
    """The team's base layout when there is one, else this package's own."""
    try:
        app.jinja_env.get_template("base.html")
    except Exception:
        return "committee/_layout.html"
    return "base.html"


def init_app(app: Flask) -> None:
    manager = LoginManager()
    manager.login_view = "auth.login"
    manager.login_message = "Log in to continue."
    manager.init_app(app)

    table = security.settings(app)
    max_age = security.session_hours(table) * 3600
    limits = throttle.LoginThrottle(app.extensions["db_sessions"], throttle.ThrottleSettings.from_config(table))
    app.extensions["login_throttle"] = limits  # its clock also dates the sessions (tests move it on)
    app.extensions["totp_roles"] = totp.required_roles(table)
    app.config["SESSION_MAX_AGE_SECONDS"] = max_age

    @manager.user_loader  # type: ignore[untyped-decorator]
    def _load(user_id: str) -> User | None:
        return sessions.user_for(db(), user_id, max_age, limits.clock)  # only while the server-side session stands

    @app.context_processor
    def _layout() -> dict[str, Any]:
        return {"layout": layout_name(app), "ROLES": ROLES}

    app.register_blueprint(bp)


__all__ = ["init_app", "layout_name", "login_required", "page_user"]
