"""Rulings finishing together are written together (one transaction, one disk sync), yet
each is stored with its own case, every one is acknowledged only once committed, the
audit chain stays intact, and one ruling that cannot be stored fails alone."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask
from sqlalchemy import func, select

from adjudicator.contract import parse_case
from web import audit
from web.jobs import Job, _Pending
from web.tables.rulings import CaseRow, RulingRow

CASES = [
    {"ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
     "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8", "meta": {"board": str(n)}}
    for n in range(1, 25)
]


def test_rulings_given_at_once_are_each_stored_with_their_case(app: Flask) -> None:
    def post(case: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        response = app.test_client().post("/api/v1/rulings", json=case)
        assert response.status_code == 201, response.get_data(as_text=True)
        return case["meta"]["board"], response.get_json()

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(post, CASES))
    assert len({body["id"] for _board, body in answers}) == len(CASES)
    with app.extensions["db_sessions"]() as session:
        for board, body in answers:
            row = session.get(RulingRow, body["id"])
            assert row is not None and row.verdict == "upheld"
            case = session.get(CaseRow, row.case_id)
            assert case is not None and case.board == board and case.id == body["case_id"]
        assert session.scalar(select(func.count()).select_from(CaseRow)) == len(CASES)
        checked = audit.verify(session)
        assert checked.is_intact and checked.entries == 2 * len(CASES)


def test_a_ruling_that_cannot_be_stored_fails_alone(app: Flask) -> None:
    adjudicator = app.extensions["adjudicator"]

    def pending(data: dict[str, Any]) -> _Pending:
        case = parse_case({k: v for k, v in CASES[0].items() if k != "meta"})
        job = Job(case=case, data=data, meta={}, source="api", is_background=False)
        return _Pending(job, {"verdict": "upheld", "result": "1/2-1/2"}, 5)

    good = [pending(dict(CASES[0])) for _ in range(3)]
    bad = pending({**CASES[0], "unstorable": threading.Lock()})  # not JSON: its case cannot be written
    adjudicator._write([good[0], bad, good[1], good[2]])
    assert bad.error is not None and bad.done.is_set() and bad.job.ruling_id is None
    assert all(item.error is None and item.job.ruling_id is not None for item in good)
    with app.extensions["db_sessions"]() as session:
        assert session.scalar(select(func.count()).select_from(RulingRow)) == 3
        assert audit.verify(session).is_intact
