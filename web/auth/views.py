"""Log in and out (the pages; the API uses tokens).

A log-in is throttled (:mod:`web.auth.throttle`: 429 with ``Retry-After`` while a name from
this address, or this address, waits) and does the same work for every name: an unknown or
inactive name is checked against a dummy hash of the same kind as a real user's, so the time
taken does not tell which names exist. A user with a one-time password secret gives the code
too (:mod:`web.auth.totp`); a wrong code is a failed log-in like a wrong password.
"""

from __future__ import annotations

import secrets
from functools import cache
from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_login import login_user, logout_user
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from web.auth import sessions
from web.auth.throttle import LoginThrottle
from web.auth.totp import is_right_code
from web.db import get_session as db
from web.tables.users import User, user_by_name

bp = Blueprint("auth", __name__)

PASSWORD_METHOD = "scrypt"
"""The hash :func:`web.tables.users.create_user` gives passwords (werkzeug's scrypt, its default)."""


@cache
def _dummy_hash() -> str:
    return generate_password_hash(secrets.token_urlsafe(16), method=PASSWORD_METHOD)


LANDING = {"committee": "committee.cases", "appeals": "appeals.index"}
"""Where a log-in without a page to return to lands, by role: a TD (or an admin) on the claim form."""


def _safe_next(target: str | None, user: User | None = None) -> str:
    if target:
        parts = urlsplit(target)
        if (not parts.scheme and not parts.netloc and target.startswith("/") and not target.startswith("//")
                and parts.path not in (url_for("auth.login"), "/")):
            return target
    return url_for(LANDING.get(user.role if user is not None else "", "claims.new"))


def is_right_password(user: User | None, password: str) -> bool:
    """One hash check whoever is named: a user's own hash, or the dummy hash when there is none."""
    matches = check_password_hash(user.password_hash if user is not None else _dummy_hash(), password)
    return matches and user is not None and user.is_active


def _wait_message(seconds: int) -> str:
    if seconds < 60:
        return f"Too many failed log-ins. Try again in {seconds} second{'s' if seconds != 1 else ''}."
    minutes = -(-seconds // 60)
    return f"Too many failed log-ins. Try again in {minutes} minute{'s' if minutes != 1 else ''}."


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int] | tuple[str, int, dict[str, str]]:
    if request.method == "POST":
        name = request.form.get("name", "").strip()
        address = request.remote_addr or "unknown"
        throttle: LoginThrottle = current_app.extensions["login_throttle"]
        # no stored name has a NUL or more than 80 characters (and PostgreSQL refuses a NUL in a query)
        user = user_by_name(db(), name) if len(name) <= 80 and "\x00" not in name else None
        attempt = throttle.begin(name, address, user.id if user is not None else None)
        if attempt.is_refused:
            return (render_template("auth/login.html", error=_wait_message(attempt.retry_after), name=name), 429,
                    {"Retry-After": str(attempt.retry_after)})
        if not is_right_password(user, request.form.get("password", "")) or user is None:
            return render_template("auth/login.html", error="Wrong name, password or code.", name=name), 401
        if user.totp_secret is not None:
            if not is_right_code(db(), user, request.form.get("code", ""), throttle.clock):
                return render_template("auth/login.html", error="Wrong name, password or code.", name=name), 401
        elif user.role in current_app.extensions["totp_roles"]:
            error = (f"As {user.role} you log in with a one-time code, and none is set up for you yet: ask for "
                     f"`adjudicator users totp {user.name}` and add it to your authenticator app.")
            return render_template("auth/login.html", error=error, name=name), 403
        throttle.succeeded(attempt, name, address)
        sessions.start(db(), user, throttle.clock)
        login_user(user)
        return redirect(_safe_next(request.args.get("next"), user), 303)
    return render_template("auth/login.html", error=None, name="")


@bp.post("/logout")
def logout() -> Response:
    sessions.end(db())
    logout_user()
    return redirect(url_for("auth.login"), 303)
