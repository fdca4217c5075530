"""Per-client budgets on the routes that cost the server work (issue 39, item 2), with Flask-Limiter.

A route that rules, reads a record, works out candidates, reads a broadcast again or takes a collection costs
the server CPU that an anonymous client could buy without end. Each such route belongs to a **group** with
two budgets, counted per group over a moving minute (Flask-Limiter's ``moving-window`` strategy):

- an anonymous client's, by its address (the direct peer, or the client's own behind a trusted proxy:
  ``[security] proxy_hops``), and
- a user's (logged in, or sending a valid bearer token), by the user, several times larger: a TD entering a
  scoresheet or a federation's script is not a stranger.

Past it the answer is **429** with ``Retry-After`` (the contract's JSON error on ``/api/``, the error page
elsewhere). The counts live in redis when a broker is configured (``ADJUDICATOR_BROKER_URL``: every web
process shares them), in memory otherwise (the embedded default: one process). Settings: ``[limits]`` in
config.toml (per minute; 0 turns a budget off), overridden by the Flask setting ``LIMITS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, current_app, g, request
from flask_limiter import Limiter
from flask_login import current_user

GROUPS: dict[str, tuple[str, ...]] = {
    "rulings": ("claims.create", "api.create", "committee_api.create", "committee.new_case"),
    "entry": ("entry.record", "entry.candidates", "checkers_entry.replay", "claims.redraw"),
    "broadcast": ("broadcast.panel", "broadcast.choose"),
    "collections": ("checks.new",),
}
"""The routes (Flask endpoints) of each group. GET of a page that only draws a form is free: only the
methods that do the work count (POST, and GET for the entry's candidates and the broadcast panel)."""

COUNTED_METHODS: dict[str, list[str]] = {
    "rulings": ["POST"], "entry": ["GET", "POST"], "broadcast": ["GET", "POST"], "collections": ["POST"],
}

DEFAULTS: dict[str, int] = {
    "rulings_anonymous": 20, "rulings_user": 120,
    "entry_anonymous": 300, "entry_user": 1200,
    "broadcast_anonymous": 60, "broadcast_user": 240,
    "collections_anonymous": 5, "collections_user": 30,
}
"""Requests per minute. A TD entering a 60-move scoresheet makes about two entry requests a tap, some 250 in
two minutes; a claim is a few a minute at the busiest board."""


TokenUser = Callable[[str], "int | None"]
"""A bearer token -> the id of the user it stands for (None: no such token)."""


def _user_id() -> int | None:
    """The asker's user: the logged-in one, else a valid bearer token's; None for anonymous (read once a
    request)."""
    if "limits_user" not in g:
        g.limits_user = _read_user_id()
    found: int | None = g.limits_user
    return found


def _read_user_id() -> int | None:
    if current_user and current_user.is_authenticated:
        return int(current_user.get_id())
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    token_user: TokenUser | None = current_app.extensions.get("limits_token_user")
    return None if token_user is None else token_user(token.strip())


def _address() -> str:
    return f"address:{request.remote_addr or 'unknown'}"


def _user_key() -> str:
    return f"user:{_user_id()}"


def _is_user() -> bool:
    return _user_id() is not None


def _is_anonymous() -> bool:
    return _user_id() is None


def budgets(app: Flask) -> dict[str, int]:
    """The per-minute budgets in force: ``[limits]`` of the configuration, then ``LIMITS``."""
    table: dict[str, Any] = {**DEFAULTS, **dict(app.config["ADJUDICATOR"].get("limits", {}))}
    table.update(app.config.get("LIMITS") or {})
    return {name: int(table[name]) for name in DEFAULTS}


def init_app(app: Flask, storage_uri: str | None = None, token_user: TokenUser | None = None) -> Limiter:
    """Budgets on every route of :data:`GROUPS` (call it after every blueprint is registered).

    ``token_user``: the user id a bearer token stands for (None: no such token), given by the app
    factory (the tokens belong to the events area, which the infrastructure does not import).
    """
    app.extensions["limits_token_user"] = token_user
    chosen = budgets(app)
    app.config.setdefault("RATELIMIT_ENABLED", True)
    storage = storage_uri or app.config.get("RATELIMIT_STORAGE_URI") or "memory://"
    limiter = Limiter(_address, app=app, storage_uri=storage, strategy="moving-window",
                      headers_enabled=True, key_prefix="adjudicator-limits")
    for group, endpoints in GROUPS.items():
        for endpoint in endpoints:
            view = app.view_functions.get(endpoint)
            if view is None:
                continue
            wrapped: Any = view
            anonymous, user = chosen[f"{group}_anonymous"], chosen[f"{group}_user"]
            if anonymous > 0:
                wrapped = limiter.limit(f"{anonymous}/minute", key_func=_address, exempt_when=_is_user,
                                        methods=COUNTED_METHODS[group], scope=f"{group}-anonymous",
                                        error_message=_message(group, anonymous))(wrapped)
            if user > 0:
                wrapped = limiter.limit(f"{user}/minute", key_func=_user_key, exempt_when=_is_anonymous,
                                        methods=COUNTED_METHODS[group], scope=f"{group}-user",
                                        error_message=_message(group, user))(wrapped)
            app.view_functions[endpoint] = wrapped
    app.extensions["limits"] = limiter
    return limiter


def _message(group: str, per_minute: int) -> str:
    what = {"rulings": "claims", "entry": "move-entry requests", "broadcast": "broadcast readings",
            "collections": "collection checks"}[group]
    return (f"Too many {what} from this client: {per_minute} a minute at most. Wait a little and try again "
            "(Retry-After says how long).")


def settings_of(table: Mapping[str, Any]) -> dict[str, int]:
    """``[limits]`` with the defaults for what it leaves out (for the settings reference)."""
    return {name: int(table.get(name, value)) for name, value in DEFAULTS.items()}
