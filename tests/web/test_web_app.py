"""The app factory and what every page shares: configuration, vendored files with their
checksums, no outside URL, request size limits, CSRF, no stack trace."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import make_app
from web.app import AREAS

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "web" / "static" / "vendor"


def test_every_area_is_registered_by_name(app: Flask) -> None:
    assert set(AREAS) == set(app.blueprints)


def test_another_configuration_file_and_database_can_be_named(tmp_path: Path) -> None:
    config = tmp_path / "event.toml"
    text = (
        (ROOT / "config.toml").read_text().replace('default_ruleset = "fide-standard"', 'default_ruleset = "uschess"')
    )
    config.write_text(text)
    app = make_app(tmp_path, CONFIG_PATH=str(config))
    page = app.test_client().get("/claims/new").get_data(as_text=True)
    assert re.search(r'value="uschess"\s+title="[^"]*"\s+selected', page)
    assert app.config["DATABASE_URL"].endswith("web.db")
    app.extensions["adjudicator"].shutdown()


def test_the_vendored_files_match_vendor_md() -> None:
    listed = re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$", (ROOT / "VENDOR.md").read_text(), re.MULTILINE)
    assert any(path.startswith("htmx-2.") for path, _ in listed)
    assert any(path.startswith("cm-chessboard-") for path, _ in listed)
    for path, digest in listed:
        assert hashlib.sha256((VENDOR / path).read_bytes()).hexdigest() == digest, path


def test_pages_load_nothing_from_outside(client: FlaskClient) -> None:
    for path in ("/claims/new", "/history"):
        page = client.get(path).get_data(as_text=True)
        assert not re.search(r'(src|href)="(https?:)?//', page), path
        assert "/static/vendor/htmx-2.0.11/dist/htmx.min.js" in page


def test_a_too_large_form_is_a_413_page(tmp_path: Path) -> None:
    app = make_app(tmp_path, MAX_CONTENT_LENGTH=5_000)
    response = app.test_client().post("/claims", data={"claim": "flag", "record": "1. e4 " * 2000})
    assert response.status_code == 413 and "larger than" in response.get_data(as_text=True)
    app.extensions["adjudicator"].shutdown()


def test_htmx_requests_need_the_csrf_header(tmp_path: Path) -> None:
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/claims/new").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)  # type: ignore[union-attr]
    without = client.post("/claims/form", data={"claim": "flag"}, headers={"HX-Request": "true"})
    assert without.status_code == 400
    with_token = client.post(
        "/claims/form", data={"claim": "flag"}, headers={"HX-Request": "true", "X-CSRFToken": token}
    )
    assert with_token.status_code == 200
    app.extensions["adjudicator"].shutdown()


def test_an_unexpected_error_shows_no_stack_trace(app: Flask) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    text = response.get_data(as_text=True)
    assert response.status_code == 500 and "Traceback" not in text and "secret internals" not in text


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_vendor_step_is_idempotent_and_offline_when_files_are_there() -> None:
    import subprocess

    result = subprocess.run(
        ["bash", str(ROOT / ".ci/install.d/10-vendor.sh")],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "npm_config_offline": "true"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "", "every file is in place: nothing is fetched"
