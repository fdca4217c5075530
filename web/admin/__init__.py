"""The admin area (issues 22, 23, 35): one blueprint ``admin`` under ``/admin``, its routes in three pages.

- :mod:`web.admin.views`: the index, taking access back, lifting throttled log-ins;
- :mod:`web.admin.people`: adding, resetting and deactivating users;
- :mod:`web.admin.staff`: an event's staff, settings and tokens.
"""

from __future__ import annotations

from flask import Flask

from web.admin import people, staff, views


def init_app(app: Flask) -> None:
    """Register the admin blueprint, with every route of its three pages."""
    app.register_blueprint(views.bp)


__all__ = ["init_app", "people", "staff", "views"]
