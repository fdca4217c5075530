"""Times as people read them: ``2026-12-01 10:14 UTC`` rather than ``2026-12-01T10:14:35.123456Z``.

The page keeps the exact instant in ``<time datetime="...">`` (the stored text, unchanged), so
nothing is lost; only what is shown is shortened.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask
from markupsafe import Markup, escape


def readable(stamp: object) -> str:
    """``YYYY-MM-DD HH:MM UTC`` for an ISO timestamp (or a datetime); anything else as given."""
    if stamp is None or stamp == "":
        return ""
    when: datetime
    if isinstance(stamp, datetime):
        when = stamp
    else:
        try:
            when = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
        except ValueError:
            return str(stamp)
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime("%Y-%m-%d %H:%M UTC")


def time_element(stamp: object) -> Markup:
    """``<time datetime="exact">readable</time>``."""
    if stamp is None or stamp == "":
        return Markup("")
    exact = stamp.isoformat() if isinstance(stamp, datetime) else str(stamp)
    day, _, clock = readable(stamp).partition(" ")
    if not clock:
        return Markup('<time datetime="{}">{}</time>').format(escape(exact), day)
    # the day and the time each stay whole when a narrow column wraps them
    return Markup('<time datetime="{}"><span class="nowrap">{}</span> <span class="nowrap">{}</span></time>').format(
        escape(exact), day, clock)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["when"] = time_element
