"""The web floor: the Flask app (:mod:`web.app`: the factory, which registers every area by name),
its areas (one package each), storage, the JSON API and the command line (:mod:`web.cli`).

This package's ``__init__`` imports none of its modules at the top, since every one of them
imports the package first; :func:`create_app` is :func:`web.app.create_app`, imported when called.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """The app (:func:`web.app.create_app`; see there)."""
    from web.app import create_app as build  # deferred on purpose: web.app imports every area, each imports web

    return build(overrides)
