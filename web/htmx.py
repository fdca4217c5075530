"""The few htmx facts the views need: is this an htmx request, and page or fragment."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, g, render_template, request


def is_htmx() -> bool:
    """Whether htmx sent this request (it then wants a fragment, not a whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def page_or_fragment(page: str, fragment: str, **context: Any) -> str:
    """The whole page for a browser, the fragment for htmx (one URL, two renderings)."""
    return render_template(fragment if is_htmx() else page, **context)


def shown_at(url: str | None) -> None:
    """The URL of the page this POST's answer draws (one URL per resource): a refused form is drawn on its
    resource's page, so htmx puts that page's URL in the address bar (``HX-Replace-Url``), not the URL
    posted to, which a refresh or a shared link could not open. ``None``: leave the address bar as it was
    (an answer that is no resource of its own). Without JavaScript the browser shows the URL posted to."""
    g.htmx_shown_at = "false" if url is None else url


REFUSED = (409, 422)
"""Statuses of a form drawn again with what was typed and its first error (the field autofocused)."""


def init_app(app: Flask) -> None:
    @app.after_request
    def _vary(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response

    @app.after_request
    def _shown_at(response: Response) -> Response:
        shown = g.get("htmx_shown_at")
        htmx = request.headers.get("HX-Request") == "true"
        if shown is not None and htmx and "HX-Replace-Url" not in response.headers:
            response.headers["HX-Replace-Url"] = shown
        return response

    @app.after_request
    def _land(response: Response) -> Response:
        """Where a boosted page lands (issue 22). A new page (a ruling, after a redirect) lands at its top,
        like a page load: htmx's ``scrollIntoViewOnBoost`` (base.html). A refused form does not: htmx
        would scroll to the top after focusing the first error, so the error would leave the screen;
        its autofocus (:mod:`web.claims` templates) brings it into view instead."""
        boosted = request.headers.get("HX-Boosted") == "true"
        if boosted and response.status_code in REFUSED and "HX-Reswap" not in response.headers:
            response.headers["HX-Reswap"] = "innerHTML show:none"
        return response
