"""Plain words before engine jargon (issue 35): a volunteer reads what the engine's figures mean first;
the codes and counts come after them or in the evidence's disclosure."""

from __future__ import annotations

from pathlib import Path

import pytest
from committee_support import add_user, bearer, checkers_case, make_app

from web.evidence import present
from web.rulings.words import evidence_words


def test_an_unproven_adjudication_s_evidence_reads_in_words() -> None:
    case = {"game": "checkers", "claim": "unfinished-game", "fen": "W:W18,K23:B1,5"}
    ruling = {"evidence": {"unproven_reason": "budget", "nodes": 100000, "depth": 14}}
    words = dict(evidence_words(ruling["evidence"], present(case, ruling)))
    assert words["Why nothing is proven"] == "the search ran out of its budget before every line reached a result"
    assert list(words) == ["Why nothing is proven"], "the search's counts are the engine's details, stored apart"


def test_the_committee_case_says_its_vote_rule_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, monkeypatch)
    try:
        td = add_user(app, "tina", "td", password="password-xxxx")
        for name in ("m1", "m2", "m3"):
            add_user(app, name, "committee", password="password-xxxx")
        opened = app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                                        headers=bearer(td))
        assert opened.status_code == 201, opened.json
        client = app.test_client()
        assert client.post("/login", data={"name": "tina", "password": "password-xxxx"}).status_code == 303
        page = client.get(f"/committee/cases/{opened.json['id']}").get_data(as_text=True)
        assert "a win needs every member&#39;s vote; anything less is a draw" in page
        assert "unanimous-for-win" not in page
        assert 'id="to-move"><strong>Red to move</strong>' in page, "who is to move, beside the position"
    finally:
        app.extensions["adjudicator"].shutdown()
