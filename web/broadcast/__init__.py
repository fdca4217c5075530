"""The record from the event's broadcast (issue 21, item 4): its live games on the claim form.

The sources and their reading in :mod:`web.broadcast.sources` (settings ``[web.broadcast]``, overridden
by the Flask setting ``BROADCAST``), the round's boards in :mod:`web.broadcast.boards`, the pages in
:mod:`web.broadcast.views`.
"""

from __future__ import annotations

from flask import Flask

from web.broadcast.sources import Broadcasts
from web.broadcast.views import bp


def init_app(app: Flask) -> None:
    """The app's :class:`~web.broadcast.sources.Broadcasts` (settings ``[web.broadcast]``, then ``BROADCAST``),
    and its views."""
    table = dict(app.config["ADJUDICATOR"].get("web", {}).get("broadcast", {}))
    table.update(app.config.get("BROADCAST") or {})
    app.extensions["broadcasts"] = Broadcasts(table)
    app.register_blueprint(bp)
