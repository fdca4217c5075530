"""Error pages and JSON errors: a plain sentence, never a stack trace.

Pages get an HTML page (or fragment for htmx); ``/api/`` gets the contract's
``{"error": {"code", "message", "field"}}``.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from web.queue import QueueUnavailable

log = logging.getLogger(__name__)

CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_case",
    429: "too_many_requests",
}


KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")
"""Headers of an HTTP error that the error page keeps: a 405 says which methods the URL takes (RFC 9110)."""


def api_error(status: int, code: str, message: str, field: str | None = None) -> tuple[Response, int]:
    """The JSON API's error answer, the contract's ``{"error": ...}`` (a 401 names the scheme, ``WWW-Authenticate``)."""
    response = jsonify({"error": {"code": code, "message": message, "field": field}})
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="adjudicator"'
    return response, status


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _render(status: int, code: str, message: str) -> tuple[Response | str, int]:
    if _wants_json():
        return jsonify({"error": {"code": code, "message": message, "field": None}}), status
    return render_template("error.html", status=status, message=message), status


def init_app(app: Flask) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.errorhandler(CSRFError)
    def _csrf(exc: CSRFError) -> tuple[Response | str, int]:
        message = "The form had expired or was not sent from this site; reload the page and try again."
        return _render(400, "csrf", message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> tuple[Response | str, int] | tuple[Response | str, int, dict[str, str]]:
        status = exc.code or 500
        if status == 413:  # the request's own limit: a route may allow more (a game collection's upload)
            limit = request.max_content_length or app.config.get("MAX_CONTENT_LENGTH") or 0
            return _render(413, "too_large", f"The request is larger than the {limit // 1000} kB this app accepts.")
        description = exc.description or exc.name
        if status >= 500:
            description = "Something went wrong on our side; the case was not lost if it was stored."
        body, status = _render(status, CODES.get(status, "http_error"), description)
        kept = {name: value for name, value in exc.get_headers() if name in KEPT_HEADERS}
        return (body, status, kept) if kept else (body, status)

    @app.errorhandler(QueueUnavailable)
    def _unavailable(exc: QueueUnavailable) -> tuple[Response | str, int, dict[str, str]]:
        """No job can start now (the broker is away, or this server is shutting down): 503, try again."""
        body, status = _render(503, "queue_unavailable", f"The analysis cannot start now: {exc}.")
        return body, status, {"Retry-After": "10"}

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Response | str, int] | tuple[Response | str, int, dict[str, str]]:
        if isinstance(exc, HTTPException):
            return _http(exc)
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _render(500, "internal_error", InternalServerError.description)
