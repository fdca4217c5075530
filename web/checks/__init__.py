"""Checking an event's games on the web (issue 12, item 3): a TD uploads the event's PGN/PDN, it
becomes a job with a progress bar, then a report (games with findings first, each opening its
own page with the evidence) with CSV and JSON downloads.

Models in :mod:`web.checks.models`, the job in :mod:`web.checks.runner`, the pages in
:mod:`web.checks.views`.
"""

from __future__ import annotations

import atexit

from flask import Flask


def init_app(app: Flask) -> None:
    from web.checks.runner import Checks
    from web.checks.views import bp

    adjudicator = app.extensions["adjudicator"]
    checks = Checks(app.config["ADJUDICATOR"], app.extensions["db_sessions"], adjudicator.remote)
    app.extensions["game_checks"] = checks
    atexit.register(checks.shutdown)
    app.register_blueprint(bp)
