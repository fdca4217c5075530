"""The app's tables of config.toml are typed and checked at start (issue 24): a misspelt option stops
the start naming its full key, as a ruleset's does; the defaults declared in web/settings.py are the
ones the modules that read the tables fall back on."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from web import create_app
from web.config import PROJECT_ROOT, ConfigError
from web.settings import Settings

CONFIG = (PROJECT_ROOT / "config.toml").read_text(encoding="utf-8")
MISSPELT = [
    ("[web]\n", "[web]\ninline_secnds = 1\n", "web.inline_secnds", "did you mean inline_seconds?"),
    ("[engines]\n", "[engines]\ntimeout_secs = 5\n", "engines.timeout_secs", "did you mean timeout_seconds?"),
    ("[web.broadcast]", "[web.broadcast]\nttl = 3\n", "web.broadcast.ttl", "is not an option of [web.broadcast]"),
]


def _config(tmp_path: Path, old: str, new: str) -> Path:
    assert old in CONFIG
    path = tmp_path / "config.toml"
    path.write_text(CONFIG.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "key", "words"), MISSPELT)
def test_a_misspelt_option_stops_the_app_factory_naming_its_full_key(
        tmp_path: Path, old: str, new: str, key: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        create_app({"TESTING": True, "SECRET_KEY": "test", "CONFIG_PATH": str(_config(tmp_path, old, new)),
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'web.db'}"})
    assert caught.value.key == key and f"{key}: " in str(caught.value) and words in str(caught.value)
    assert not (tmp_path / "web.db").exists()  # stopped before anything was made


@pytest.mark.parametrize(("old", "new", "key", "words"), MISSPELT[:2])
def test_a_misspelt_option_stops_serve_with_exit_2_and_a_json_error(
        tmp_path: Path, old: str, new: str, key: str, words: str) -> None:
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(_config(tmp_path, old, new)), "PYTHONPATH": str(PROJECT_ROOT)}
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = str(sock.getsockname()[1])  # were the option not refused, serve would start there
    proc = subprocess.run([sys.executable, "-m", "adjudicator", "serve", "--port", port], capture_output=True,
                          text=True, cwd=PROJECT_ROOT, env=env, timeout=60)
    assert proc.returncode == 2, proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_config" and error["field"] == key and words in error["message"]
    assert "Traceback" not in proc.stderr


def test_a_value_of_the_wrong_type_names_its_key_too() -> None:
    with pytest.raises(ValueError, match=r"^queue\.lease_seconds: input should be a valid number"):
        Settings.of({"queue": {"lease_seconds": "soon"}})
    with pytest.raises(ValueError, match=r"^webb: is not an option of the configuration \(did you mean web\?\)"):
        Settings.of({"webb": {}})


def test_an_option_that_takes_a_list_or_one_value_names_the_item_that_is_wrong() -> None:
    # [tablebases] syzygy is a folder or a list of folders: the key is the option's, or its item's
    assert Settings.of({"tablebases": {"syzygy": "data/syzygy"}}).tablebases.syzygy == "data/syzygy"
    with pytest.raises(ValueError, match=r"^tablebases\.syzygy: input should be a list of strings or a string$"):
        Settings.of({"tablebases": {"syzygy": 7}})
    with pytest.raises(ValueError, match=r"^tablebases\.gaviota\.1: input should be a valid string$"):
        Settings.of({"tablebases": {"gaviota": ["data/gaviota", 3]}})


def test_a_number_option_takes_a_whole_number_and_a_whole_number_option_no_fraction() -> None:
    settings = Settings.of({"engines": {"timeout_seconds": 7}})
    assert settings.engines.timeout_seconds == 7.0 and isinstance(settings.engines.timeout_seconds, float)
    with pytest.raises(ValueError, match=r"^engines\.threads: input should be a valid integer$"):
        Settings.of({"engines": {"threads": 2.0}})
    with pytest.raises(ValueError, match=r"^engines\.threads: input should be a valid integer$"):
        Settings.of({"engines": {"threads": True}})
    with pytest.raises(ValueError, match=r"^limits\.rulings_user: input should be greater than or equal to 0$"):
        Settings.of({"limits": {"rulings_user": -1}})


def test_the_declared_defaults_are_the_ones_the_modules_use() -> None:
    from engines.checkers.analyst import DEFAULT_PROOF_NODES
    from engines.chess.entry import DEFAULT_NODES
    from engines.chess.stockfish import EngineSettings
    from web.auth.throttle import ThrottleSettings
    from web.broadcast.sources import DEFAULTS as BROADCAST
    from web.checks.collections import DEFAULT_MAX_BYTES
    from web.checks.runner import DEFAULT_WORKERS
    from web.commands.check_games import Limits
    from web.limits import DEFAULTS as LIMITS
    from web.queue import QueueSettings
    from web.security import HSTS_SECONDS, session_hours

    settings = Settings()
    engines = EngineSettings.from_config({}, ())
    assert (engines.threads, engines.hash_mb, engines.timeout_seconds, engines.start_timeout_seconds) == (
        settings.engines.threads, settings.engines.hash_mb, settings.engines.timeout_seconds,
        settings.engines.start_timeout_seconds)
    assert settings.entry.engine_nodes == DEFAULT_NODES and settings.checkers.proof_nodes == DEFAULT_PROOF_NODES
    assert settings.web.broadcast.table() == BROADCAST
    assert settings.limits.table() == LIMITS
    assert (settings.web.max_collection_bytes, settings.web.check_workers) == (DEFAULT_MAX_BYTES, DEFAULT_WORKERS)
    limits = Limits()
    assert (limits.inflated_bytes, limits.line_bytes, limits.games) == (
        settings.collections.max_inflated_bytes, settings.collections.max_line_bytes, settings.collections.max_games)
    assert settings.queue.table() == vars(QueueSettings())
    throttle = ThrottleSettings()
    assert (throttle.window_seconds, throttle.failures_per_name, throttle.failures_per_address,
            throttle.delay_seconds, throttle.max_delay_seconds) == (
        settings.security.login_window_seconds, settings.security.login_failures_per_name,
        settings.security.login_failures_per_address, settings.security.login_delay_seconds,
        settings.security.login_max_delay_seconds)
    assert (settings.security.hsts_seconds, settings.security.session_hours) == (HSTS_SECONDS, session_hours({}))


def test_the_shipped_configuration_sets_only_declared_options() -> None:
    from web.config import load_config

    Settings.of(load_config(PROJECT_ROOT / "config.toml"))
