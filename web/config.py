"""Reading the configuration: ``config.toml`` at the project root, or ``ADJUDICATOR_CONFIG``."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adjudicator.rulesets import RulesetBook, RulesetError
from web.settings import DatabaseSettings, Settings, SettingsError

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class ConfigError(ValueError):
    """The configuration file cannot be read, or an option of it is unknown or of the wrong type (``key``)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


def config_path() -> Path:
    named = os.environ.get("ADJUDICATOR_CONFIG")
    return Path(named) if named else PROJECT_ROOT / "config.toml"


def load_config(path: Path | None = None) -> dict[str, Any]:
    """The decoded configuration, with ``ADJUDICATOR_DATABASE_URL`` applied and rulesets checked."""
    path = path or config_path()
    try:
        with path.open("rb") as handle:
            config = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"cannot read configuration {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"configuration {path} is not valid TOML: {exc}") from None
    url = os.environ.get("ADJUDICATOR_DATABASE_URL")
    if url:
        config.setdefault("database", {})["url"] = url
    config["_root"] = str(path.resolve().parent)
    try:
        Settings.of(config)  # fail early, naming the key: the app's tables ...
    except SettingsError as exc:
        raise ConfigError(f"configuration {path}: {exc}", exc.key) from None
    RulesetBook.from_config(config)  # ... and the rulesets
    return config


def resolve_path(config: dict[str, Any], relative: str) -> Path:
    """A path from the configuration, relative to the configuration file's folder."""
    path = Path(relative)
    return path if path.is_absolute() else Path(config.get("_root", PROJECT_ROOT)) / path


def database_url(config: Mapping[str, Any], url: str | None = None) -> str:
    """The database's URL (``url``, else the configuration's ``[database] url``, else the default).

    The one resolver of SQLite paths: a relative path is relative to the configuration file's folder,
    and its folder is made; an in-memory database and other databases' URLs are left as they are.
    """
    url = url or str(config.get("database", {}).get("url") or "") or DatabaseSettings().url
    prefix = "sqlite:///"
    if not url.startswith(prefix) or ":memory:" in url:
        return url
    path = resolve_path(dict(config), url[len(prefix):])
    path.parent.mkdir(parents=True, exist_ok=True)
    return prefix + str(path)


__all__ = ["ConfigError", "RulesetError", "database_url", "load_config", "resolve_path", "config_path", "PROJECT_ROOT"]
