"""Shared fixtures: the project's configuration, rulesets, and the shared data folder."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from adjudicator.rulesets import RulesetBook

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ADJUDICATOR_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def config() -> dict[str, Any]:
    with (ROOT / "config.toml").open("rb") as handle:
        data = tomllib.load(handle)
    data["_root"] = str(ROOT)
    return data


@pytest.fixture(scope="session")
def book(config: dict[str, Any]) -> RulesetBook:
    return RulesetBook.from_config(config)


@pytest.fixture(scope="session")
def shared() -> Path:
    return SHARED
