"""Behind a reverse proxy (issue 23): ``adjudicator serve`` (waitress) with ``proxy_hops = 1`` sees each
client's own address, scheme and host through a real proxy (:mod:`tests.web.proxy_support`), so

- a stranger's wrong passwords for a name make only the stranger wait, and the name's owner, from
  another address through the same proxy, logs in (before, every client shared the proxy's address:
  30 failures from anywhere locked everyone out);
- a client cannot forge its address with its own ``X-Forwarded-For``;
- over HTTPS the session cookie is ``Secure``, the answer carries ``Strict-Transport-Security``,
  and a ruling's share link is ``https://`` on the proxy's host; over plain HTTP none of these.

Client addresses: 127.0.0.2 (the stranger) and 127.0.0.3 (the owner), both on the loopback.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.web.proxy_support import ReverseProxy, client_context
from web.config import PROJECT_ROOT

PASSWORD = "the-owners-password"
STRANGER, OWNER = "127.0.0.2", "127.0.0.3"
QUICK_CASE = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
              "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    port: int
    folder: Path
    env: dict[str, str]

    def failures(self) -> list[str]:
        with sqlite3.connect(self.folder / "served.db") as connection:
            return [row[0] for row in connection.execute("SELECT address FROM login_failures")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``adjudicator serve`` (waitress) with ``proxy_hops = 1``, on its own SQLite file, with one user."""
    folder = tmp_path_factory.mktemp("proxy")
    text = (PROJECT_ROOT / "config.toml").read_text()
    text, count = re.subn(r"^proxy_hops = 0", "proxy_hops = 1", text, flags=re.MULTILINE)
    assert count == 1, "config.toml has no [security] proxy_hops = 0"
    config = folder / "config.toml"
    config.write_text(text)
    env = {**os.environ, "ADJUDICATOR_CONFIG": str(config), "PYTHONPATH": str(PROJECT_ROOT),
           "ADJUDICATOR_DATABASE_URL": f"sqlite:///{folder / 'served.db'}", "ADJUDICATOR_SECRET_KEY": "proxy-test"}
    env.pop("ADJUDICATOR_BROKER_URL", None)
    made = subprocess.run([sys.executable, "-m", "adjudicator", "users", "add", "alice", "--role", "td",
                           "--password", PASSWORD], env=env, cwd=PROJECT_ROOT, capture_output=True, timeout=60)
    assert made.returncode == 0, made.stderr
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--port", str(port)], env=env,
                               cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read() if process.stderr else b""
                assert time.monotonic() < deadline, "adjudicator serve did not start"
                time.sleep(0.2)
        yield Served(port, folder, env)
    finally:
        process.terminate()
        process.wait(10)


@dataclass
class Browser:
    """A client on its own loopback address, talking to the proxy on ``port``, keeping its cookies."""

    address: str
    port: int
    tls: bool = False
    cookies: dict[str, str] = field(default_factory=dict)
    set_cookies: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[http.client.HTTPResponse, bytes]:
        connection: http.client.HTTPConnection
        if self.tls:
            connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=client_context(), timeout=60,
                                                     source_address=(self.address, 0))
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                                    source_address=(self.address, 0))
        sent = {"Referer": f"{self.origin}/login", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            self.set_cookies.append(value)
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response, data

    def log_in(self, name: str, password: str, headers: dict[str, str] | None = None) -> int:
        _response, page = self.request("GET", "/login")
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page)
        assert token is not None, page[:500]
        form = urlencode({"csrf_token": token.group(1).decode(), "name": name, "password": password}).encode()
        response, _data = self.request("POST", "/login", form,
                                       {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})
        return response.status


def test_a_strangers_guesses_through_the_proxy_do_not_stop_the_owner(served: Served) -> None:
    with ReverseProxy(served.port) as proxy:
        stranger = Browser(STRANGER, proxy.port)
        assert [stranger.log_in("alice", f"guess-{i}") for i in range(5)] == [401] * 5
        assert stranger.log_in("alice", PASSWORD) == 429  # the stranger's address waits
        forged = stranger.log_in("alice", PASSWORD, {"X-Forwarded-For": OWNER})  # pretending to be the owner
        assert forged == 429  # the proxy appends the real address, and only its value is trusted
        assert set(served.failures()) == {STRANGER}  # the client's own address, not the proxy's 127.0.0.1
        owner = Browser(OWNER, proxy.port)
        assert owner.log_in("alice", PASSWORD) == 303  # the owner, through the same proxy
        response, _page = owner.request("GET", "/committee/")
        assert response.status == 200


def test_over_https_the_cookie_is_secure_hsts_is_sent_and_links_are_https(served: Served) -> None:
    with ReverseProxy(served.port, tls=True) as secure, ReverseProxy(served.port) as plain:
        https = Browser(OWNER, secure.port, tls=True)
        response, _page = https.request("GET", "/login")
        assert https.set_cookies and all("; Secure" in c for c in https.set_cookies), https.set_cookies
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
        ruled, body = https.request("POST", "/api/v1/rulings", json.dumps(QUICK_CASE).encode(),
                                    {"Content-Type": "application/json"})
        assert ruled.status == 201
        assert json.loads(body)["share_url"].startswith(f"https://127.0.0.1:{secure.port}/s/")

        http_ = Browser(OWNER, plain.port)
        response, _page = http_.request("GET", "/login")
        assert http_.set_cookies and not any("Secure" in c for c in http_.set_cookies)
        assert "Strict-Transport-Security" not in response.headers
        ruled, body = http_.request("POST", "/api/v1/rulings", json.dumps(QUICK_CASE).encode(),
                                    {"Content-Type": "application/json"})
        assert json.loads(body)["share_url"].startswith(f"http://127.0.0.1:{plain.port}/s/")

