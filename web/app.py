"""The app factory: every area imported and registered by name, in :func:`register_areas`.

One package per area (claims, rulings, history, api, events, checks, committee, appeals, auth,
admin, broadcast); an area with more than a blueprint to set up has an ``init_app(app)``.
"""

from __future__ import annotations

import atexit
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from adjudicator.rulesets import RulesetBook
from web import (
    admin,
    audit,
    auth,
    checks,
    db,
    errors,
    htmx,
    inputs,
    limits,
    security,
    sides,
    static_files,
    timefmt,
)
from web.api.views import bp as api_bp
from web.appeals.api import bp as appeals_api_bp
from web.appeals.views import bp as appeals_pages_bp
from web.broadcast import views as broadcast_views
from web.claims import bp as claims_bp
from web.claims.checkers_entry import bp as checkers_entry_bp
from web.claims.entry import bp as entry_bp
from web.claims.scoresheets import bp as scoresheets_bp
from web.committee.api import bp as committee_api_bp
from web.committee.views import bp as committee_pages_bp
from web.config import database_url, load_config, resolve_path
from web.events.access import resolve_token
from web.events.cache import EventCache
from web.events.index_views import bp as events_bp
from web.events.pairings_views import bp as pairings_bp
from web.history import bp as history_bp
from web.jobs import Adjudicator
from web.kinds import job_kinds
from web.queue import broker_url
from web.rulings import bp as rulings_bp
from web.settings import DatabaseSettings, Settings
from web.watch import views as watch_views


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from ``config.toml`` (or ``ADJUDICATOR_CONFIG``) plus ``overrides``.

    ``overrides`` may name ``CONFIG_PATH`` (another configuration file) and
    ``DATABASE_URL`` (another database), and any Flask setting (``TESTING``,
    ``WTF_CSRF_ENABLED``, ``SECRET_KEY``).
    """
    overrides = dict(overrides or {})
    config_path = overrides.get("CONFIG_PATH")
    config = load_config(Path(config_path) if config_path else None)
    settings = Settings.of(config)

    app = Flask("web", instance_relative_config=True)  # the package's name: its templates, static files, instance
    inputs.init_app(app)  # before any route: ids beyond the database's range are 404
    app.config["ADJUDICATOR"] = config
    app.config["MAX_CONTENT_LENGTH"] = settings.web.max_content_length
    app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]
    app.config["MAX_FORM_PARTS"] = 200
    app.config["WTF_CSRF_TIME_LIMIT"] = None  # a TD's form may stay open a whole round
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["JSON_SORT_KEYS"] = False
    app.config.update(overrides)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("ADJUDICATOR_SECRET_KEY") or _instance_secret(config)

    url = database_url(config, str(overrides.get("DATABASE_URL") or settings.database.url or DatabaseSettings().url))
    app.config["DATABASE_URL"] = url
    db.init_app(app, url)
    app.extensions["event_cache"] = EventCache(float(app.config.get(
        "EVENT_CACHE_SECONDS", settings.web.event_cache_seconds)))

    book = RulesetBook.from_config(config)
    app.extensions["rulesets"] = book
    adjudicator = Adjudicator(config, book, app.extensions["db_sessions"], job_kinds())
    app.extensions["adjudicator"] = adjudicator
    atexit.register(adjudicator.shutdown)

    @app.before_request
    def _take_up() -> None:  # at the first request: the jobs a stopped server left run again
        adjudicator.take_up()

    csrf = CSRFProtect(app)
    htmx.init_app(app)
    errors.init_app(app)
    register_areas(app, csrf)
    limits.init_app(app, _limits_storage(broker_url()), _token_user)  # per-client budgets on costly routes (issue 39)
    return app


def _token_user(token: str) -> int | None:
    """The user a bearer token stands for (a user's own token or an event token), for the per-user budgets."""
    found = resolve_token(db.get_session(), token)
    return None if found is None else int(found[0].id)


def _limits_storage(broker: str | None) -> str | None:
    """The budgets' counts: in the broker's redis when there is one (shared by every web process), else memory."""
    return broker if broker and broker.startswith(("redis://", "rediss://", "unix://")) else None


def register_areas(app: Flask, csrf: CSRFProtect) -> None:
    """Every area of the app, in this order (an area's ``init_app`` registers its blueprint with what it needs)."""
    app.register_blueprint(claims_bp)
    app.register_blueprint(entry_bp)  # the move-entry board's record reading and candidate moves (issue 21)
    app.register_blueprint(checkers_entry_bp)  # the checkers board's reading of the record (issue 21)
    broadcast_views.init_app(app)  # the event's broadcast on the claim form (issue 21, item 4)
    app.register_blueprint(scoresheets_bp)  # both scoresheets compared, on the form and the ruling page (issue 21)
    app.register_blueprint(rulings_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(csrf.exempt(api_bp))  # the JSON API's clients send tokens, not cookies: no CSRF
    app.register_blueprint(pairings_bp)  # an event's TRF pairings (issue 13)
    app.register_blueprint(events_bp)  # the events a user serves, the way in to their pairings and checks
    watch_views.init_app(app)  # the live Round view of an event's broadcast and the watch behind it (issue 36)
    checks.init_app(app)  # an event's games checked against the laws (issue 12)
    audit.watch(audit.BOARD_TABLES)  # the rulings storage's tables (issue 7)
    auth.init_app(app)  # log-in pages, sessions, throttle, one-time codes (issue 7, 11)
    app.register_blueprint(committee_pages_bp)  # committee cases and votes (issue 7)
    app.register_blueprint(csrf.exempt(committee_api_bp))  # the Committee API (bearer tokens)
    app.register_blueprint(appeals_pages_bp)
    app.register_blueprint(csrf.exempt(appeals_api_bp))
    security.init_app(app)  # ProxyFix, cookie flags, security headers (issue 11)
    timefmt.init_app(app)  # the |when filter: readable times (issue 13)
    sides.init_app(app)  # the |in_play_order filter: White first in chess, Red first in checkers
    static_files.init_app(app)  # static files: versioned URLs cached a year, gzip (issue 13)
    admin.init_app(app)  # users, event staff, taking access back, lifting throttled log-ins (issues 22, 23, 35)


AREAS = ("claims", "entry", "checkers_entry", "broadcast", "scoresheets", "rulings", "history", "api", "pairings",
         "events", "round", "checks", "auth", "committee", "committee_api", "appeals", "appeals_api", "admin")
"""The blueprints :func:`register_areas` registers (tests/web/test_web_app.py checks them)."""


def _instance_secret(config: Mapping[str, Any]) -> str:
    """A secret key kept beside the database, made once (sessions survive a restart)."""
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
