"""Transport and browser hardening (issues 11 and 23): the session cookie is Secure over HTTPS, also
behind a trusted proxy (ProxyFix by configuration) and never on a forged header; HttpOnly and
SameSite=Lax always; every response carries the CSP, frame-ancestors, nosniff and Referrer-Policy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import make_app
from web.security import SecuritySettingsError
from web.tables.users import create_user

PASSWORD = "the-right-password"


def _app(tmp_path: Path, **security: Any) -> Flask:
    app = make_app(tmp_path, SECURITY=security)
    with app.extensions["db_sessions"]() as session:
        create_user(session, "alice", "td", PASSWORD, hash_method="pbkdf2:sha256:1000")
        session.commit()
    return app


@pytest.fixture
def behind_proxy(tmp_path: Path) -> Iterator[Flask]:
    app = _app(tmp_path, proxy_hops=1, login_failures_per_address=2)
    yield app
    app.extensions["adjudicator"].shutdown()


@pytest.fixture
def direct(tmp_path: Path) -> Iterator[Flask]:
    app = _app(tmp_path, login_failures_per_address=2)
    yield app
    app.extensions["adjudicator"].shutdown()


def session_cookie(response: Any) -> str:
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    return cookies[0]


def flags(cookie: str) -> set[str]:
    """The cookie's attributes, lower case: ``secure``, ``httponly``, ``samesite=lax``, ``path=/``."""
    return {part.strip().lower() for part in cookie.split(";")[1:]}


def log_in(app: Flask, **kwargs: Any) -> Any:
    return app.test_client().post("/login", data={"name": "alice", "password": PASSWORD}, **kwargs)


def test_behind_a_trusted_proxy_an_https_request_gets_a_secure_cookie(behind_proxy: Flask) -> None:
    response = log_in(behind_proxy, headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"})
    assert response.status_code == 303
    assert {"secure", "httponly", "samesite=lax"} <= flags(session_cookie(response))


def test_behind_a_trusted_proxy_plain_http_gets_no_secure_flag(behind_proxy: Flask) -> None:
    cookie = session_cookie(log_in(behind_proxy, headers={"X-Forwarded-Proto": "http"}))
    assert "secure" not in flags(cookie) and {"httponly", "samesite=lax"} <= flags(cookie)


def test_without_proxy_fix_a_forwarded_proto_header_is_not_believed(direct: Flask) -> None:
    cookie = session_cookie(log_in(direct, headers={"X-Forwarded-Proto": "https"}))
    assert "secure" not in flags(cookie)


def test_a_direct_https_request_gets_a_secure_cookie(direct: Flask) -> None:
    assert "secure" in flags(session_cookie(log_in(direct, base_url="https://localhost")))


def test_secure_cookies_always(tmp_path: Path) -> None:
    app = _app(tmp_path, secure_cookies="always")
    assert "secure" in flags(session_cookie(log_in(app)))
    app.extensions["adjudicator"].shutdown()


def test_behind_a_trusted_proxy_the_client_address_is_the_forwarded_one(behind_proxy: Flask) -> None:
    client = behind_proxy.test_client()

    def wrong(address: str) -> int:
        return client.post("/login", data={"name": f"n-{address}", "password": "x"},
                           headers={"X-Forwarded-For": address}).status_code

    assert [wrong("203.0.113.5") for _ in range(3)] == [401, 401, 429]  # limit 2 per address
    assert wrong("203.0.113.6") == 401  # a different client behind the same proxy


def test_without_proxy_fix_a_forged_forwarded_for_does_not_escape_the_address_limit(direct: Flask) -> None:
    client = direct.test_client()
    codes = [client.post("/login", data={"name": f"n{i}", "password": "x"},
                         headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(3)]
    assert codes == [401, 401, 429]


def test_bad_settings_name_the_key(tmp_path: Path) -> None:
    with pytest.raises(SecuritySettingsError, match="proxy_hops"):
        make_app(tmp_path, SECURITY={"proxy_hops": "yes"})
    with pytest.raises(SecuritySettingsError, match="secure_cookies"):
        make_app(tmp_path, SECURITY={"secure_cookies": "sometimes"})
    with pytest.raises(SecuritySettingsError, match="session_hours"):
        make_app(tmp_path, SECURITY={"session_hours": 0})


@pytest.mark.parametrize("path", ["/claims/new", "/login", "/history", "/api/v1/openapi.json",
                                  "/static/app.css", "/no/such/page", "/rulings/999999"])
def test_every_response_carries_the_security_headers(direct: Flask, path: str) -> None:
    response = direct.test_client().get(path)
    csp = response.headers["Content-Security-Policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert directives["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_private_answers_are_never_stored_by_a_cache(direct: Flask) -> None:
    """Issue 23: pages behind login, the PDF sheet and the API's JSON carried no Cache-Control."""
    client = direct.test_client()
    assert client.post("/login", data={"name": "alice", "password": PASSWORD}).status_code == 303
    ruled = client.post("/api/v1/rulings", json={"ruleset": "fide-standard", "claim": "threefold-repetition",
                                                 "claimant": "white",
                                                 "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"})
    assert ruled.headers["Cache-Control"] == "no-store"
    ruling = ruled.json["id"]
    for path in ("/committee/", "/appeals/", "/events", f"/rulings/{ruling}", f"/rulings/{ruling}/sheet.pdf",
                 f"/api/v1/rulings/{ruling}", "/claims/new", "/no/such/page"):
        response = client.get(path)
        assert response.status_code < 500 and response.headers["Cache-Control"] == "no-store", path
    static = client.get("/static/app.css")
    assert "no-store" not in static.headers["Cache-Control"]  # a static file keeps its own caching


def test_a_405_says_which_methods_the_url_takes(direct: Flask) -> None:
    client = direct.test_client()
    for method, path, allowed in (("DELETE", "/api/v1/rulings", {"POST"}), ("PUT", "/api/v1/rulings/1", {"GET"}),
                                  ("POST", "/history", {"GET"})):
        response = client.open(path, method=method)
        assert response.status_code == 405
        assert allowed <= {m.strip() for m in response.headers["Allow"].split(",")}, path


def test_https_answers_carry_hsts_and_plain_ones_do_not(direct: Flask) -> None:
    secure = direct.test_client().get("/login", base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in direct.test_client().get("/login").headers


def test_the_locked_log_in_answer_carries_them_too(direct: Flask) -> None:
    client = direct.test_client()
    for _ in range(3):
        response = client.post("/login", data={"name": "x", "password": "y"})
    assert response.status_code == 429 and "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


@pytest.mark.parametrize("template", sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")
                                            if p.name != "sheet.html"))  # the sheet is a PDF, never a page
def test_no_template_has_inline_script_or_style(template: str) -> None:
    text = (TEMPLATES / template).read_text()
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", text), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler"
    assert not re.search(r"<style|\sstyle\s*=|hx-on", text), "inline style or hx-on handler"
