"""The Flask app: application factory, blueprints, storage, the JSON API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from ``config.toml`` (or ``ADJUDICATOR_CONFIG``) plus ``overrides``."""
    from web.config import load_config

    app = Flask(__name__, instance_relative_config=True)
    config = load_config()
    app.config["ADJUDICATOR"] = config
    app.config["MAX_CONTENT_LENGTH"] = int(config.get("web", {}).get("max_content_length", 2_000_000))
    if overrides:
        app.config.update(overrides)

    # --- committee helper (issue 7): users, committee cases, appeals, audit -------------
    from web.committee import init_app as init_committee

    init_committee(app)
    # --- end committee helper -------------------------------------------------------------

    @app.get("/")
    def index() -> str:
        return "<!doctype html><title>Arbiter's assistant</title><h1>The arbiter's assistant</h1>"

    return app
