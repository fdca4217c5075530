"""Transport and browser hardening: ProxyFix by configuration, cookie flags, security headers.

Settings are the ``[security]`` table of config.toml, with any key overridden by the Flask
setting ``SECURITY`` (a mapping; tests use it). docs/security.md, "Log-in and sessions", explains them.

- ``proxy_hops``: how many reverse proxies in front set ``X-Forwarded-For/-Proto/-Host/-Port``
  (werkzeug's ProxyFix trusts that many); 0 trusts none, so a client cannot forge its address
  or scheme.
- ``secure_cookies``: ``"auto"`` marks the session cookie ``Secure`` when the request is
  HTTPS (directly, or per a trusted proxy); ``"always"`` marks it always. The cookie is
  ``HttpOnly`` and ``SameSite=Lax`` in every case.
- Every response carries :data:`HEADERS`: a Content-Security-Policy with no inline script or
  style (htmx's indicator style is in app.css instead), ``frame-ancestors 'none'``,
  ``nosniff`` and ``Referrer-Policy: same-origin`` (Flask-WTF checks the Referer of HTTPS
  form posts against the host, so same-origin requests keep it; other sites never see a
  ruling's address).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Referrer-Policy": "same-origin",
}
"""Set on every response (a view that sets one of them keeps its own)."""

SECURE_COOKIES = ("auto", "always")
HSTS_SECONDS = 31_536_000
"""``hsts_seconds``: ``Strict-Transport-Security: max-age`` on answers to HTTPS requests (direct, or per a
trusted proxy); 0 sends none (the proxy may add its own)."""


class SecuritySettingsError(ValueError):
    """A ``[security]`` value that cannot be used (names the key)."""


def settings(app: Flask) -> dict[str, Any]:
    """``[security]`` from the configuration, with the ``SECURITY`` Flask setting applied."""
    table = dict(app.config["ADJUDICATOR"].get("security", {}))
    overrides: Mapping[str, Any] = app.config.get("SECURITY") or {}
    table.update(overrides)
    return table


def session_hours(table: Mapping[str, Any]) -> float:
    """``session_hours``: how long a log-in lasts at most (24 when not set)."""
    hours = table.get("session_hours", 24)
    if isinstance(hours, bool) or not isinstance(hours, int | float) or hours <= 0:
        raise SecuritySettingsError(f"[security] session_hours must be a number above 0, not {hours!r}")
    return float(hours)


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, ``Secure`` also whenever the request itself is HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


def init_app(app: Flask) -> None:
    table = settings(app)
    hops = table.get("proxy_hops", 0)
    if not isinstance(hops, int) or isinstance(hops, bool) or not 0 <= hops <= 10:
        raise SecuritySettingsError(f"[security] proxy_hops must be a whole number 0 to 10, not {hops!r}")
    hsts = table.get("hsts_seconds", HSTS_SECONDS)
    if isinstance(hsts, bool) or not isinstance(hsts, int) or not 0 <= hsts <= 10**9:
        raise SecuritySettingsError(f"[security] hsts_seconds must be a whole number of seconds, 0 or more, not "
                                    f"{hsts!r}")
    secure = table.get("secure_cookies", "auto")
    if secure not in SECURE_COOKIES:
        raise SecuritySettingsError(f"[security] secure_cookies must be one of {', '.join(SECURE_COOKIES)}, "
                                    f"not {secure!r}")
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)  # type: ignore[method-assign]
    app.config["SESSION_COOKIE_SECURE"] = secure == "always"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    # Flask-Login's remember-me cookie is not used (log-ins last the session); were it used, the same flags
    app.config.update(REMEMBER_COOKIE_SECURE=secure == "always", REMEMBER_COOKIE_HTTPONLY=True,
                      REMEMBER_COOKIE_SAMESITE="Lax")
    app.session_interface = _SessionInterface()

    @app.after_request
    def _headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        # every answer but a static file (which sets its own) is private or carries a CSRF token: never stored
        response.headers.setdefault("Cache-Control", "no-store")
        if hsts and request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", f"max-age={hsts}")
        return response
