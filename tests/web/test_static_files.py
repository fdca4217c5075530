"""Static files: a year's caching where the URL carries the version (vendor/<package>-<version>/,
the app's own files ?v=<digest>), revalidation otherwise, and gzip, through Flask and through waitress."""

from __future__ import annotations

import gzip
import re
import socket
import threading
import urllib.request
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.static_files import LONG_LIVED, StaticFiles

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


def _static_urls(client: FlaskClient) -> list[str]:
    page = client.get("/claims/new").get_data(as_text=True)
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', page)


def test_every_static_url_of_a_page_carries_its_version_and_is_cached_a_year(client: FlaskClient) -> None:
    urls = _static_urls(client)
    assert any("/vendor/htmx-" in u for u in urls) and any(u.startswith("/static/app.css?v=") for u in urls)
    for url in urls:
        assert "/vendor/" in url or re.search(r"\?v=[0-9a-f]{16,}$", url), url
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == LONG_LIVED, url


def test_an_unversioned_or_stale_url_is_revalidated_with_its_etag(client: FlaskClient) -> None:
    for url in ("/static/app.css", "/static/app.css?v=ffffffffffffffff"):
        response = client.get(url)
        assert response.headers["Cache-Control"] == "no-cache", url
        again = client.get(url, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""


def test_text_files_are_gzipped_for_a_browser_that_accepts_it(client: FlaskClient) -> None:
    for url in _static_urls(client):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert "Content-Encoding" not in plain.headers, "no gzip unless asked for"
        assert packed.headers["Content-Encoding"] == "gzip", url
        assert gzip.decompress(packed.data) == plain.data, url
        assert len(packed.data) < len(plain.data) / (2 if len(plain.data) > 2000 else 1), url  # a small one less
        assert packed.headers["Vary"] == "Accept-Encoding", "never Vary: Cookie on a static file"
        assert "Set-Cookie" not in packed.headers
    refused = client.get("/static/app.css", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers


def test_a_missing_file_or_a_path_out_of_the_folder_is_a_404(client: FlaskClient) -> None:
    assert client.get("/static/no-such.css").status_code == 404
    assert client.get("/static/../__init__.py").status_code == 404
    assert client.get("/static/vendor").status_code == 404


def test_the_version_changes_when_an_own_file_does_but_not_for_a_vendored_one(tmp_path: Path) -> None:
    (tmp_path / "vendor" / "pkg-1.0.0").mkdir(parents=True)
    (tmp_path / "app.css").write_text("body { color: black }")
    (tmp_path / "vendor" / "pkg-1.0.0" / "x.js").write_text("1")
    files = StaticFiles(tmp_path, watch=True)  # debug mode: the folder is watched
    first = files.version()
    (tmp_path / "vendor" / "pkg-1.0.0" / "x.js").write_text("2")
    assert files.version() == first
    (tmp_path / "app.css").write_text("body { color: navy }")
    assert files.version() != first


def test_the_version_is_computed_once_when_not_watching(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A url_for no longer walks the folder (about 94 us a call): the digest is the one made at start."""
    (tmp_path / "app.css").write_text("body { color: black }")
    files = StaticFiles(tmp_path)
    first = files.version()
    monkeypatch.setattr(files, "_own_files", lambda: pytest.fail("the folder was walked again"))
    assert files.version() == first


@pytest.fixture
def waitress_url(app: Flask) -> object:
    import waitress.server

    from web.commands.serve import waitress_options

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = waitress.server.create_server(app, host="127.0.0.1", port=port, threads=2, **waitress_options(app))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.close()
    thread.join(5)


def test_waitress_sends_the_gzipped_file_and_its_caching(waitress_url: str, client: FlaskClient) -> None:
    url = next(u for u in _static_urls(client) if "htmx" in u)
    request = urllib.request.Request(waitress_url + url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.headers["Cache-Control"] == LONG_LIVED
        assert int(response.headers["Content-Length"]) == len(body)
    assert gzip.decompress(body) == (STATIC / url.removeprefix("/static/")).read_bytes()
