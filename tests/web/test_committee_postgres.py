"""The committee on PostgreSQL: concurrent votes on many cases, each decided once, the audit chain unbroken.

Starts a throw-away cluster from Debian's ``postgresql`` package (skips where
there is none). Under READ COMMITTED the case row is locked for each vote, so the
third vote always sees the other two and decides.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from committee_support import add_user, bearer, checkers_case, small_budgets

from tests.web.opened_apps import opened
from web import create_app

pytestmark = pytest.mark.slow


def test_concurrent_votes_on_postgresql(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", postgres_url)
    small_budgets(monkeypatch)
    app = opened(create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False}))
    maker = app.extensions["db_sessions"]
    assert maker.kw["bind"].dialect.name == "postgresql"
    td = add_user(app, "tina", "td")
    members = {name: add_user(app, name, "committee") for name in ("m1", "m2", "m3")}
    client = app.test_client()
    cases = [client.post("/api/v1/committee-cases", json=checkers_case(list(members)), headers=bearer(td)).json["id"]
             for _ in range(8)]

    def vote(job: tuple[int, str]) -> int:
        case_id, member = job
        response = app.test_client().post(f"/api/v1/committee-cases/{case_id}/votes", json={"result": "1-0"},
                                          headers=bearer(members[member]))
        return response.status_code

    jobs = [(case_id, member) for case_id in cases for member in members] * 2  # every vote sent twice
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(vote, jobs))
    assert sorted(statuses) == [201] * 24 + [409] * 24
    for case_id in cases:
        body = client.get(f"/api/v1/committee-cases/{case_id}", headers=bearer(td)).json
        assert (body["status"], body["votes_cast"], body["result"]) == ("decided", 3, "1-0")
    from web.audit import verify

    with maker() as session:
        report = verify(session)
    assert report.is_intact, report.to_json()
    assert report.entries == 4 + 2 * 8 + 3 * 8 + 8
    maker.kw["bind"].dispose()
