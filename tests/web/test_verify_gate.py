"""Issue 35, item 2: the verify gate holds every way in. Until a committee member has ticked "I have verified
the position", no page, fragment, export or API answer shows them the engine's line or score for a case they
sit on (ACF Master Division: a computer may be consulted only after verifying): the case page and its line,
the committee API, the referred ruling's page, board fragment, sheet and API answer, History, and the ruling's
share link (page and API). The event's TD sees them all along; the member, once verified (web/committee/gate.py).
"""

from __future__ import annotations

import io
import re
from typing import Any
from urllib.parse import urlparse

import pypdf
import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from events_support import PASSWORD, add_event, assign
from flask import Flask
from flask.testing import FlaskClient

UNFINISHED = {"game": "checkers", "ruleset": "acf-master-division", "claim": "unfinished-game",
              "fen": "B:W21,22,23,K30:B9,10,11", "clock": {"red": "0:03:10", "white": "0:01:40"}}
"""The position holds no move: any move written in an answer is the engine's line."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    made = make_app(tmp_path_factory.mktemp("gate"), mp)
    made.config["tokens"] = {name: add_user(made, name, role, password=PASSWORD)
                             for name, role in (("tina", "td"), ("m1", "committee"), ("m2", "committee"),
                                                ("m3", "committee"))}
    add_event(made, "masters", private=True, ruleset="acf-master-division")
    assign(made, "masters", "tina", "td")
    for member in ("m1", "m2", "m3"):
        assign(made, "masters", member, "committee")
    try:
        yield made
    finally:
        made.extensions["adjudicator"].shutdown()
        mp.undo()


def login(app: Flask, name: str) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(data)).pages)


def everything(app: Flask, client: FlaskClient, name: str, ruling: int, case: int, share: str,
               engine_key: str) -> dict[str, tuple[int, str]]:
    """Every way in, as ``name`` sees it: status and text."""
    token = bearer(app.config["tokens"][name])
    htmx = {"HX-Request": "true"}
    seen: dict[str, Any] = {
        "ruling page": client.get(f"/rulings/{ruling}"),
        "board fragment": client.get(f"/rulings/{ruling}/board?line={engine_key}&ply=1", headers=htmx),
        "history": client.get("/history"),
        "history fragment": client.get("/history?q=", headers=htmx),
        "share link": client.get(share, follow_redirects=True),
        "case page": client.get(f"/committee/cases/{case}"),
        "case line fragment": client.get(f"/committee/cases/{case}/line?ply=1", headers=htmx),
        "tally fragment": client.get(f"/committee/cases/{case}/tally", headers=htmx),
        "ruling API": client.get(f"/api/v1/rulings/{ruling}", headers=token),
        "share API": client.get(f"/api/v1/shared/{share.rsplit('/', 1)[1]}", headers=token),
        "case API": client.get(f"/api/v1/committee-cases/{case}", headers=token),
    }
    seen["record export"] = client.get(f"/rulings/{ruling}/record")  # 404 while the committee votes
    seen["case record export"] = client.get(f"/committee/cases/{case}/record")
    found = {way: (r.status_code, r.get_data(as_text=True)) for way, r in seen.items()}
    sheet = client.get(f"/rulings/{ruling}/sheet.pdf")
    found["sheet"] = (sheet.status_code, pdf_text(sheet.data) if sheet.status_code == 200 else "")
    return found


ENGINE = re.compile(r"(?<![\w-])\d{1,2}[-x]\d{1,2}(?![\w-])|search score|\"score\"")
"""A checkers move (not a date's 12-06) or the score."""
SCORES = {"1-0", "0-1", "2-1", "1-2", "2-0", "0-2", "1-1", "0-0"}
"""Results and tallies, not moves."""


def shows_engine(text: str) -> bool:
    """The engine's line (a checkers move, 11-16...) or its score."""
    return bool(engine_words(text))


def engine_words(text: str) -> list[str]:
    return [m.group(0) for m in ENGINE.finditer(text) if m.group(0) not in SCORES]


def test_a_member_who_has_not_verified_sees_no_engine_line_or_score_any_way_in(app: Flask) -> None:
    tokens = app.config["tokens"]
    tina = login(app, "tina")
    ruled = tina.post("/api/v1/rulings", headers=bearer(tokens["tina"]), json={"event": "masters", **UNFINISHED})
    assert ruled.status_code == 201, ruled.json
    ruling, share = ruled.json["id"], urlparse(ruled.json["share_url"]).path
    opened = tina.post("/api/v1/committee-cases", headers=bearer(tokens["tina"]),
                       json={**checkers_case(["m1", "m2", "m3"]), "event": "masters", "ruling": ruling})
    assert opened.status_code == 201, opened.json
    case = opened.json["id"]
    keys = re.findall(r'id="line-([\w-]+)"', tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    engine_key = next(k for k in keys if k != "game")

    td = everything(app, tina, "tina", ruling, case, share, engine_key)
    for way in ("ruling page", "board fragment", "ruling API", "share API", "case page", "case API", "sheet"):
        assert td[way][0] == 200 and shows_engine(td[way][1]), f"the TD sees the engine on the {way}"

    m1 = login(app, "m1")
    member = everything(app, m1, "m1", ruling, case, share, engine_key)
    for way, (status, text) in member.items():
        assert status in (200, 403, 404), (way, status)
        assert not shows_engine(text), (f"the engine shows through the {way} before verifying",
                                        engine_words(text))
    assert member["ruling page"][0] == 200 and 'id="engine-hidden"' in member["ruling page"][1]
    assert member["board fragment"][0] == 404 and member["case line fragment"][0] == 403
    api = m1.get(f"/api/v1/rulings/{ruling}", headers=bearer(tokens["m1"])).json
    assert api["evidence"] == {"engine_hidden": True} and "confidence" not in api
    committee = m1.get(f"/api/v1/committee-cases/{case}", headers=bearer(tokens["m1"])).json
    assert committee["recommendation"] is None and committee["engine_hidden"] is True

    assert m1.post(f"/committee/cases/{case}/verified", data={"verified": "yes"}).status_code == 303
    verified = everything(app, m1, "m1", ruling, case, share, engine_key)
    for way in ("ruling page", "board fragment", "ruling API", "share API", "case page", "case API", "sheet"):
        assert verified[way][0] == 200 and shows_engine(verified[way][1]), f"verified: the {way} shows the engine"
    other = login(app, "m2")  # the tick is m1's own: m2 has not verified
    assert not shows_engine(other.get(f"/rulings/{ruling}").get_data(as_text=True))
