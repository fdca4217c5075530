"""Log in and out (the pages; the API uses tokens)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, redirect, render_template, request, url_for
from flask_login import login_user, logout_user
from werkzeug.wrappers import Response

from web.auth.models import user_by_name
from web.db import get_session as db

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    if target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/") and not target.startswith("//"):
            return target
    return url_for("committee.cases")


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    if request.method == "POST":
        name = request.form.get("name", "").strip()
        user = user_by_name(db(), name)
        if user is None or not user.is_active or not user.check_password(request.form.get("password", "")):
            return render_template("auth/login.html", error="Wrong name or password.", name=name), 401
        login_user(user)
        return redirect(_safe_next(request.args.get("next")), 303)
    return render_template("auth/login.html", error=None, name="")


@bp.post("/logout")
def logout() -> Response:
    logout_user()
    return redirect(url_for("auth.login"), 303)
