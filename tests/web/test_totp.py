"""One-time passwords at log-in (issue 23): a user given a secret (``adjudicator users totp NAME``) logs in
with the code of their authenticator app too; a code is good once; a wrong code is a failed log-in
(throttled as one); with ``totp_roles = ["admin"]`` an admin without a secret cannot log in; ``--off``
removes a lost phone's secret. The codes are computed as an authenticator app does (RFC 6238, pyotp)."""

from __future__ import annotations

import contextlib
import io
import json
import time
from pathlib import Path
from typing import Any

import pyotp
import pytest
from committee_support import add_user, make_app
from flask import Flask

PASSWORD = "password-xxxx"


def run(*argv: str) -> tuple[int, str]:
    from web.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def not_a_code(totp: pyotp.TOTP) -> str:
    """A six-digit code that none of the steps the server takes now (the one before, this, the next) gives."""
    taken = {totp.at(int(time.time()) + offset) for offset in (-60, -30, 0, 30, 60)}
    return next(code for code in ("000000", "111111", "222222", "333333", "444444", "555555") if code not in taken)


def log_in(app: Flask, name: str, code: str | None = None, address: str = "192.0.2.1") -> Any:
    data = {"name": name, "password": PASSWORD, **({"code": code} if code is not None else {})}
    return app.test_client().post("/login", data=data, environ_base={"REMOTE_ADDR": address})


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    app = make_app(tmp_path, monkeypatch, SECURITY={"totp_roles": ["admin"]})
    add_user(app, "ada", "admin", password=PASSWORD)
    add_user(app, "tara", "td", password=PASSWORD)
    return app


def test_a_user_with_a_secret_logs_in_with_the_code_once(app: Flask) -> None:
    assert log_in(app, "tara").status_code == 303  # no secret: name and password, as before
    code, out = run("users", "totp", "tara")
    enrolled = json.loads(out)
    assert code == 0 and enrolled["totp"] is True and enrolled["link"].startswith("otpauth://totp/")
    totp = pyotp.TOTP(enrolled["secret"])
    assert log_in(app, "tara").status_code == 401  # the password alone no longer does
    assert log_in(app, "tara", not_a_code(totp)).status_code == 401
    now = totp.now()
    assert log_in(app, "tara", now).status_code == 303
    assert log_in(app, "tara", now, address="198.51.100.9").status_code == 401  # good once, from anywhere
    assert log_in(app, "tara", totp.at(int(time.time()) + 30)).status_code == 303  # the next step's (a fast clock)


def test_wrong_codes_are_failed_log_ins(app: Flask) -> None:
    secret = json.loads(run("users", "totp", "tara")[1])["secret"]
    wrong = not_a_code(pyotp.TOTP(secret))
    assert [log_in(app, "tara", wrong).status_code for _ in range(5)] == [401] * 5
    assert log_in(app, "tara", pyotp.TOTP(secret).now()).status_code == 429  # the fifth failure: this address waits


def test_an_event_requiring_codes_for_admins_refuses_an_admin_without_one(app: Flask) -> None:
    refused = log_in(app, "ada")
    assert refused.status_code == 403
    assert "adjudicator users totp ada" in refused.get_data(as_text=True)
    secret = json.loads(run("users", "totp", "ada")[1])["secret"]
    assert log_in(app, "ada", pyotp.TOTP(secret).now()).status_code == 303
    assert run("users", "totp", "tara", "--off")[0] == 0
    assert log_in(app, "tara").status_code == 303  # not an admin: the password alone


def test_the_roles_are_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from web.auth.totp import TotpSettingsError

    with pytest.raises(TotpSettingsError, match="totp_roles"):
        make_app(tmp_path, monkeypatch, SECURITY={"totp_roles": ["chief"]})
