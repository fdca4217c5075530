"""The adjudication committee (issue 7): cases, members' votes, the live tally, the Committee API.

:func:`init_app` wires this helper's parts into the app: storage for its tables,
logins and tokens, CSRF (shared with the rest of the app), the committee pages,
the Committee API and the appeals pages.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask


def _secret_key(app: Flask) -> str:
    """``[web] secret_key`` or ``ADJUDICATOR_SECRET_KEY``; else one generated once and kept in the instance folder."""
    named = os.environ.get("ADJUDICATOR_SECRET_KEY") or app.config["ADJUDICATOR"].get("web", {}).get("secret_key")
    if named:
        return str(named)
    path = Path(app.instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except OSError:
        key = secrets.token_urlsafe(32)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(key)
        except OSError:
            pass
        return key


def init_app(app: Flask) -> None:
    from flask_wtf.csrf import CSRFProtect

    from web import audit, auth
    from web.appeals.api import bp as appeals_api_bp
    from web.appeals.views import bp as appeals_bp
    from web.committee.api import bp as api_bp
    from web.committee.views import bp as pages_bp

    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app)
    audit.watch(audit.BOARD_TABLES)  # the rulings storage's tables
    auth.init_app(app)
    csrf = app.extensions.get("csrf") or CSRFProtect(app)
    csrf.exempt(api_bp)  # the API takes bearer tokens, never cookies: no CSRF to forge
    csrf.exempt(appeals_api_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(appeals_bp)
    app.register_blueprint(appeals_api_bp)
