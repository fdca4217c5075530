"""Hostile input stopped at the door, in one place for every route (issue 11).

- ``<int:...>`` in a route matches 1 .. :data:`MAX_ID` only (the largest id both SQLite and
  PostgreSQL ``INTEGER`` columns hold), so an id beyond it is a plain 404, never a database error.
- Every query string and form value is checked before a view runs: a NUL character
  (PostgreSQL cannot store it) is a 400 naming the field, and so is a query parameter that is
  a number beyond :data:`MAX_ID` (``?from=`` ids); forms name their bad numbers themselves.
- A JSON write to ``/api/`` needs ``Content-Type: application/json`` (415 otherwise: a
  cross-site ``text/plain`` POST cannot reach the API); every JSON body is decoded by
  :func:`adjudicator.json_input.loads` (nesting, huge integers, NUL) before the view runs,
  and views read it with :func:`json_body`.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, g, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import IntegerConverter

from adjudicator import json_input
from adjudicator.contract import ContractError

MAX_ID = 2**31 - 1
"""The largest id a route takes: PostgreSQL ``integer`` (and so SQLite) holds it."""

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def whole_number(text: object, limit: int = MAX_ID) -> int | None:
    """``text`` as a whole number from 0 to ``limit`` (a database ``integer``), or None: digits 0-9 only
    (``str.isdigit`` also takes ``'²'``, which ``int`` refuses, and ``'٢'``, which it reads as 2)."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(limit)):
        return None
    value = int(text)
    return value if value <= limit else None


class IdConverter(IntegerConverter):
    """``<int:id>``: a whole number from 0 to :data:`MAX_ID`; anything larger does not match (404)."""

    def __init__(self, map: Any, fixed_digits: int = 0, min: int | None = None, max: int | None = None,
                 signed: bool = False) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=MAX_ID if max is None else max,
                         signed=signed)


class SafeJSONProvider(DefaultJSONProvider):
    """``request.get_json()`` anywhere decodes through the same guarded decoder."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return json_input.loads(s)


class Refused(ContractError):
    """Input refused before any view ran; ``status`` is the HTTP status."""

    def __init__(self, status: int, code: str, message: str, field: str | None) -> None:
        super().__init__(code, message, field)
        self.status = status


def refusal(exc: Refused) -> tuple[Response | str, int]:
    if request.path.startswith("/api/"):
        return jsonify(exc.to_json()), exc.status
    return render_template("error.html", status=exc.status, message=exc.message), exc.status


def _check_text(where: str, name: str, value: str, *, numbers: bool) -> None:
    if "\x00" in name or "\x00" in value:
        name = name.replace("\x00", "")
        raise Refused(400, "invalid_field", f"{where} {name} contains a NUL character", name)
    if numbers and value.isascii() and value.isdigit() and (len(value) > 10 or int(value) > MAX_ID):
        raise Refused(400, "invalid_field", f"{where} {name} is a number beyond {MAX_ID}", name)


def _is_json_write() -> bool:
    return request.method in WRITES and request.path.startswith("/api/")


def check_request() -> tuple[Response | str, int] | None:
    """Run before every view: refuse NULs, out-of-range numbers, non-JSON API writes and bad JSON."""
    if request.routing_exception is not None:
        return None  # no such route (or an id beyond MAX_ID): the 404 or 405 comes first
    try:
        for name, value in request.args.items(multi=True):
            _check_text("the query parameter", name, value, numbers=True)
        if request.method in WRITES and request.mimetype in ("application/x-www-form-urlencoded",
                                                              "multipart/form-data"):
            for name, value in request.form.items(multi=True):
                _check_text("the form field", name, value, numbers=False)  # the form names bad numbers
        if _is_json_write() and not request.is_json:
            raise Refused(415, "unsupported_media_type",
                          f"this API takes Content-Type: application/json, not {request.mimetype or 'none'!r}",
                          "Content-Type")
        if request.is_json and request.method in WRITES:
            g.json_body = json_input.loads(request.get_data(cache=True))
    except Refused as exc:
        return refusal(exc)
    except ContractError as exc:
        return refusal(Refused(400, exc.code, exc.message, exc.field))
    return None


def json_body() -> Any:
    """The request's JSON document, decoded and checked by :func:`check_request`."""
    if "json_body" not in g:
        raise Refused(415, "unsupported_media_type", "the body must be JSON (Content-Type: application/json)",
                      "Content-Type")
    return g.json_body


def init_app(app: Flask) -> None:
    """Install the id converter (before any route is added), the JSON decoder and the check."""
    app.url_map.converters["int"] = IdConverter
    app.json = SafeJSONProvider(app)
    app.before_request(check_request)
