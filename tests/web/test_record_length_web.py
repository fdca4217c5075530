"""A megabyte of legal moves from an anonymous client is refused by the count (issue 39, item 2) on the rulings
API and the claim form, before any ruling starts: the answer is the count's own, and no case is stored."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from tests.test_record_length import case, shuffling
from tests.web.conftest import make_app


def stored_cases(app: Flask) -> int:
    from web.tables.rulings import CaseRow

    with app.extensions["db_sessions"]() as session:
        return session.query(CaseRow).count()


def test_an_anonymous_megabyte_of_moves_is_refused_before_any_ruling(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        record = shuffling(200_000)
        before = stored_cases(app)
        answer = client.post("/api/v1/rulings", json=case(record))
        assert answer.status_code == 422
        error = answer.get_json()["error"]
        assert error["field"] == "record" and "moves and other words" in error["message"]
        page = client.post("/claims", data={**case(record), "record": record})
        assert page.status_code in (413, 422)
        assert stored_cases(app) == before, "nothing was stored or started"
    finally:
        app.extensions["adjudicator"].shutdown()
