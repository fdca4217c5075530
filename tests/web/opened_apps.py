"""The apps made during the running test, shut down when it ends (tests/web/conftest.py): their threads
stopped and their database files closed. An app left open holds three files per SQLite database; a run of
the suite once held over a thousand, and waitress's select(2) failed on them."""

from __future__ import annotations

from flask import Flask

MADE: list[Flask] | None = None
"""Apps made by the running test; None between tests (module and session fixtures' apps are not listed)."""

LASTING: list[Flask] = []
"""Apps made by the running module's fixtures: each must be shut down by its fixture before the module ends
(an app left open keeps its job pool's threads, and an engine it started kept a whole run from exiting)."""


def opened(application: Flask) -> Flask:
    """The app, listed to be shut down when the running test ends, or checked when its module ends."""
    (LASTING if MADE is None else MADE).append(application)
    return application
