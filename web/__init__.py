"""The Flask app: application factory, blueprints, storage, the JSON API.

Blueprints are listed in :data:`BLUEPRINTS` as ``"module:attribute"``; an attribute
that is a :class:`~flask.Blueprint` is registered, anything else is called with the
app (an ``init_app`` hook). Another area adds itself with one line.
"""

from __future__ import annotations

import atexit
import importlib
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

BLUEPRINTS: list[str] = [
    "web.claims:bp",
    "web.claims.entry:bp",  # the move-entry board's record reading and candidate moves (issue 21)
    "web.claims.checkers_entry:bp",  # the checkers board's reading of the record (issue 21)
    "web.broadcast:init_app",  # the event's broadcast on the claim form (issue 21, item 4)
    "web.claims.scoresheets:bp",  # both scoresheets compared, on the form and the ruling page (issue 21, item 5)
    "web.rulings:bp",
    "web.history:bp",
    "web.api:bp",
    "web.events.pairings_views:bp",  # an event's TRF pairings (issue 13)
    "web.events.index_views:bp",  # the events a user serves, the way in to their pairings and checks
    "web.checks:init_app",  # an event's games checked against the laws (issue 12)
    "web.committee:init_app",  # users, committee cases, appeals, audit (issue 7)
    "web.security:init_app",  # ProxyFix, cookie flags, security headers (issue 11)
    "web.timefmt:init_app",  # the |when filter: readable times (issue 13)
    "web.static_files:init_app",  # static files: versioned URLs cached a year, gzip (issue 13)
    "web.admin:bp",  # take access back, lift throttled log-ins (issue 23)
]
"""Every area of the app, registered in this order."""

CSRF_EXEMPT: list[str] = ["web.api:bp"]
"""Blueprints that take no CSRF token (the JSON API; its clients send tokens, not cookies)."""


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from ``config.toml`` (or ``ADJUDICATOR_CONFIG``) plus ``overrides``.

    ``overrides`` may name ``CONFIG_PATH`` (another configuration file) and
    ``DATABASE_URL`` (another database), and any Flask setting (``TESTING``,
    ``WTF_CSRF_ENABLED``, ``SECRET_KEY``).
    """
    from flask import Blueprint, Flask
    from flask_wtf.csrf import CSRFProtect

    from adjudicator.rulesets import RulesetBook
    from web import db, errors, htmx, inputs
    from web.config import load_config, resolve_path
    from web.jobs import Adjudicator

    overrides = dict(overrides or {})
    config_path = overrides.get("CONFIG_PATH")
    config = load_config(Path(config_path) if config_path else None)
    web_config = config.get("web", {})

    app = Flask(__name__, instance_relative_config=True)
    inputs.init_app(app)  # before any route: ids beyond the database's range are 404
    app.config["ADJUDICATOR"] = config
    app.config["MAX_CONTENT_LENGTH"] = int(web_config.get("max_content_length", 2_000_000))
    app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]
    app.config["MAX_FORM_PARTS"] = 200
    app.config["WTF_CSRF_TIME_LIMIT"] = None  # a TD's form may stay open a whole round
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["JSON_SORT_KEYS"] = False
    app.config.update(overrides)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("ADJUDICATOR_SECRET_KEY") or _instance_secret(config)

    url = str(
        overrides.get("DATABASE_URL") or config.get("database", {}).get("url") or "sqlite:///instance/adjudicator.db"
    )
    url = _resolve_sqlite(url, config, resolve_path)
    app.config["DATABASE_URL"] = url
    db.init_app(app, url)
    from web.events.cache import EventCache

    app.extensions["event_cache"] = EventCache(float(app.config.get(
        "EVENT_CACHE_SECONDS", web_config.get("event_cache_seconds", 2.0))))

    book = RulesetBook.from_config(config)
    app.extensions["rulesets"] = book
    adjudicator = Adjudicator(config, book, app.extensions["db_sessions"])
    app.extensions["adjudicator"] = adjudicator
    atexit.register(adjudicator.shutdown)

    csrf = CSRFProtect(app)
    htmx.init_app(app)
    errors.init_app(app)
    for entry in BLUEPRINTS:
        target = _load(entry)
        if isinstance(target, Blueprint):
            if entry in CSRF_EXEMPT:
                csrf.exempt(target)
            app.register_blueprint(target)
        else:
            target(app)
    return app


def _load(entry: str) -> Any:
    module_name, _, attribute = entry.partition(":")
    return getattr(importlib.import_module(module_name), attribute or "bp")


def _resolve_sqlite(url: str, config: Mapping[str, Any], resolve_path: Any) -> str:
    """A relative SQLite path is relative to the configuration file's folder; its folder is made."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == "sqlite:///:memory:":
        return url
    path = Path(url[len(prefix) :])
    if not path.is_absolute():
        path = resolve_path(dict(config), str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    return prefix + str(path)


def _instance_secret(config: Mapping[str, Any]) -> str:
    """A secret key kept beside the database, made once (sessions survive a restart)."""
    from web.config import resolve_path

    path = resolve_path(dict(config), "instance/secret_key")
    try:
        return path.read_text().strip()
    except OSError:
        pass
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key)
        path.chmod(0o600)
    except OSError:
        pass
    return key
