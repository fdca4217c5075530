"""Checking an event's games on the web (issue 12, item 3): a TD uploads the event's PGN/PDN (kept
with the event) or picks one stored before, it becomes a job with a progress bar, then a report
(games with findings first, each opening its own page with the evidence) with CSV and JSON downloads.

Tables in :mod:`web.tables.checks` and :mod:`web.tables.collections`, the stored collections and the
upload's limit in :mod:`web.checks.collections`, the job in :mod:`web.checks.runner`, the pages in
:mod:`web.checks.views`. The package imports its modules; none of them imports the package.
"""

from __future__ import annotations

import atexit

from flask import Flask, request

from web.checks.collections import max_bytes
from web.checks.runner import Checks
from web.checks.views import bp

UPLOAD_ENDPOINT = "checks.new"


def init_app(app: Flask) -> None:
    adjudicator = app.extensions["adjudicator"]
    checks = Checks(app.config["ADJUDICATOR"], app.extensions["db_sessions"], adjudicator.runner)
    app.extensions["game_checks"] = checks
    atexit.register(checks.shutdown)
    limit = max_bytes(app.config["ADJUDICATOR"])

    def _collection_limit() -> None:
        """The upload's own size limit, set before anything reads the form (the CSRF check reads it first)."""
        if request.endpoint == UPLOAD_ENDPOINT and request.method == "POST":
            request.max_content_length = limit

    app.before_request_funcs.setdefault(None, []).insert(0, _collection_limit)
    app.register_blueprint(bp)
