"""The few htmx facts the views need: is this an htmx request, and page or fragment."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, render_template, request


def is_htmx() -> bool:
    """Whether htmx sent this request (it then wants a fragment, not a whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def page_or_fragment(page: str, fragment: str, **context: Any) -> str:
    """The whole page for a browser, the fragment for htmx (one URL, two renderings)."""
    return render_template(fragment if is_htmx() else page, **context)


def init_app(app: Flask) -> None:
    @app.after_request
    def _vary(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response
