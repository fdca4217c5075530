"""On a fresh PostgreSQL database the first ``adjudicator events add`` works (issue 23): before, the events'
id sequence ignored the default event's explicit id 1 and the first try failed with
``UniqueViolation events_pkey (id)=(1)`` (migration 0014 sets the sequence). Then the event is staffed,
a token issued, replaced and revoked, and the audit is intact, all on PostgreSQL."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

pytestmark = pytest.mark.slow


def run(*argv: str) -> tuple[int, str]:
    from web.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def test_the_first_events_add_on_a_fresh_postgresql_database(postgres_url: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", postgres_url)
    code, out = run("events", "add", "spring", "--name", "Spring Open")
    assert code == 0, out
    assert json.loads(out)["id"] == 2  # after the default event
    assert run("events", "add", "summer", "--name", "Summer Open")[0] == 0
    assert run("users", "add", "tara", "--role", "td", "--password", "password-xxxx")[0] == 0
    assert run("events", "staff", "spring", "tara", "--role", "td")[0] == 0
    first, second = run("events", "token", "spring", "tara")[1], run("events", "token", "spring", "tara")[1]
    assert first != second
    assert json.loads(run("events", "revoke-token", "spring", "tara")[1])["revoked"] == 1  # the second only
    code, report = run("audit", "verify")
    assert code == 0 and json.loads(report)["ok"] is True, report
