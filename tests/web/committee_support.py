"""Helpers for the committee, appeals, audit and auth tests: an app on a temp SQLite file, users, cases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.web.migrated import migrated
from tests.web.opened_apps import opened
from web import create_app
from web.tables.users import create_user

CHECKERS_FEN = "B:W21,22,23,K30:B9,10,11"
"""An unfinished Master Division game: Red (first mover) to move."""


SEARCH_NODES = 3000
"""The checkers search budget in these tests (the event's 100 000 nodes take seconds per case)."""


def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the real analysis, with a small checkers node budget (still deterministic)."""
    import engines

    real = engines.build_services

    def build(config: Any, *, deterministic: bool = False, **options: Any) -> Any:
        smaller = {**config, "checkers": {**config.get("checkers", {}), "search_nodes": SEARCH_NODES,
                                                          "proof_nodes": SEARCH_NODES}}
        return real(smaller, deterministic=deterministic, **options)  # engine=False from the collection check

    monkeypatch.setattr(engines, "build_services", build)


def make_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **overrides: Any) -> Flask:
    small_budgets(monkeypatch)
    db = tmp_path / "adjudicator.db"
    if overrides.get("DATABASE_URL", f"sqlite:///{db}") == f"sqlite:///{db}":
        migrated(db)  # a copy of the migrated template when new (tests/web/migrated.py)
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", f"sqlite:///{db}")
    settings: dict[str, Any] = {"TESTING": True, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False,
                                "RATELIMIT_ENABLED": False}  # a test client is many users (tests/web/test_limits.py)
    settings.update(overrides)
    return opened(create_app(settings))


def add_user(app: Flask, name: str, role: str, *, club: str | None = None, team: str | None = None,
             password: str = "password-" + "x" * 4) -> str:
    """Create a user in the app's database; returns the API token."""
    with app.extensions["db_sessions"]() as session:
        _user, token, _password = create_user(session, name, role, password, club, team,
                                               hash_method="pbkdf2:sha256:1000")
        session.commit()
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def checkers_case(members: list[str], **extra: Any) -> dict[str, Any]:
    case: dict[str, Any] = {
        "game": "checkers",
        "ruleset": "acf-master-division",
        "claim": "unfinished-game",
        "fen": CHECKERS_FEN,
        "clock": {"red": "0:03:10", "white": "0:01:40"},
        "round": "5",
        "board": "2",
        "players": {"red": {"name": "Ann Red", "club": "Reds CC"}, "white": {"name": "Walt White", "team": "Texas"}},
        "members": members,
    }
    case.update(extra)
    return case
