"""Issue 35, "one case, one story": a ruling carries its outcome, the result that stands and who decided it
(the ruling itself, the arbiter's finding, the committee's case N, appeal N), with its time. The committee's
and the appeal's decisions become the referred ruling's result everywhere: the API, the ruling's banner,
History and the printed sheet; a ruling that waits for someone says so, never "Play on". One outcome per
ruling is the database's rule, and the audit chain records each step (web/outcomes.py)."""

from __future__ import annotations

import html
import io
import re
import time
from typing import Any

import pypdf
import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from events_support import PASSWORD
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from tests.web.opened_apps import opened
from web.audit import AuditEntry, now, verify
from web.events.changes import EventSettings, assign_staff, create_event
from web.tables.outcomes import RulingOutcome
from web.tables.users import user_by_name

UNFINISHED = {"game": "checkers", "ruleset": "acf-master-division", "claim": "unfinished-game",
              "fen": "B:W21,22,23,K30:B9,10,11", "clock": {"red": "0:03:10", "white": "0:01:40"},
              "meta": {"round": "5", "board": "2", "first_player": "Ann Red", "second_player": "Walt White"}}
"""An unfinished Master Division game (tests/web/committee_support.py's position), ruled at the board."""
ILC = {"game": "chess", "ruleset": "fide-standard-guidelines-iii", "claim": "insufficient-losing-chances",
       "claimant": "black", "fen": "6k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 60",
       "clock": {"white": "0:05:00", "black": "0:01:30"}, "time_control": "5400"}
"""A deferred ILC claim (tests/web/test_nothing_typed_twice.py's): it waits for the arbiter's finding."""
OPENING = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
"""An unfinished game that nothing proves: the engine only recommends a result."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    made = make_app(tmp_path_factory.mktemp("outcome"), mp)
    tokens = {name: add_user(made, name, role, password=PASSWORD) for name, role in (
        ("tina", "td"), ("m1", "committee"), ("m2", "committee"), ("m3", "committee"), ("ada", "appeals"))}
    staff(made, "masters", "acf-master-division", {"tina": "td", "m1": "committee", "m2": "committee",
                                                   "m3": "committee", "ada": "appeals"})
    made.config["tokens"] = tokens
    try:
        yield made
    finally:
        made.extensions["adjudicator"].shutdown()
        mp.undo()


def staff(app: Flask, slug: str, ruleset: str, roles: dict[str, str]) -> None:
    """The event and its staff, as the command line makes them (audited: the chain verifies whole)."""
    with app.extensions["db_sessions"]() as session:
        event = create_event(session, slug, EventSettings(slug.title(), ruleset=ruleset), None)
        for name, role in roles.items():
            user = user_by_name(session, name)
            assert user is not None
            assign_staff(session, event, user, role, None)
        session.commit()


def login(app: Flask, name: str) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def sheet_text(client: FlaskClient, ruling_id: int) -> str:
    response = client.get(f"/rulings/{ruling_id}/sheet.pdf")
    assert response.status_code == 200
    return " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(response.data)).pages)


def banner(page: str) -> str:
    """The ruling page's banner, tags taken out."""
    found = re.search(r'<section class="verdict.*?</section>', page, re.S)
    assert found is not None
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split()))


def test_the_committee_then_an_appeal_decide_the_referred_rulings_outcome(app: Flask) -> None:
    tokens = app.config["tokens"]
    api = app.test_client()
    ruled = api.post("/api/v1/rulings", headers=bearer(tokens["tina"]), json={"event": "masters", **UNFINISHED})
    assert ruled.status_code == 201, ruled.json
    ruling = ruled.json["id"]
    assert ruled.json["outcome"] == {"result": None, "decided_by": None, "at": None, "status": "waiting",
                                     "words": "For the committee to decide", "waiting_for": "committee"}
    tina = login(app, "tina")
    page = tina.get(f"/rulings/{ruling}").get_data(as_text=True)
    assert "Play on" not in banner(page) and "For the committee to decide" in banner(page)
    assert tina.get(f"/rulings/{ruling}/record").status_code == 404, "no result stands: nothing to export"

    opened = api.post("/api/v1/committee-cases", headers=bearer(tokens["tina"]),
                      json={**checkers_case(["m1", "m2", "m3"]), "event": "masters", "ruling": ruling})
    assert opened.status_code == 201, opened.json
    case = opened.json["id"]
    waiting = api.get(f"/api/v1/rulings/{ruling}", headers=bearer(tokens["tina"])).json["outcome"]
    assert waiting["status"] == "waiting" and waiting["case"] == case
    assert waiting["words"] == f"With the committee, case {case}"
    assert f"With the committee, case {case}" in banner(tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    assert f"With the committee, case {case}" in tina.get("/history").get_data(as_text=True)

    for member, result in (("m1", "1-0"), ("m2", "1-0"), ("m3", "1/2-1/2")):
        voted = api.post(f"/api/v1/committee-cases/{case}/votes", headers=bearer(tokens[member]),
                         json={"result": result})
        assert voted.status_code == 201, voted.json
    assert voted.json["status"] == "decided" and voted.json["result"] == "1/2-1/2"  # a win needs all three
    outcome = api.get(f"/api/v1/rulings/{ruling}", headers=bearer(tokens["tina"])).json["outcome"]
    assert {k: outcome[k] for k in ("result", "decided_by", "case", "status")} == {
        "result": "1/2-1/2", "decided_by": "committee", "case": case, "status": "decided"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z", outcome["at"])
    said = f"½–½ by the committee, case {case}"
    assert said in tina.get("/history").get_data(as_text=True)
    shown = banner(tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    assert "½–½" in shown and f"By the committee, case {case}" in shown and "Play on" not in shown
    decided_page = html.unescape(tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    assert "This game is with the committee" not in decided_page
    assert f"The committee has decided this game: committee case {case}" in " ".join(
        re.sub(r"<[^>]+>", " ", decided_page).split())
    assert "What the arbiter does now" not in decided_page, "the ruling's instructions are not today's any more"
    assert f"Superseded: ½–½ by the committee, case {case} is the result that stands." in decided_page
    assert said in sheet_text(tina, ruling)
    assert "½–½ by adjudication: TRF code = for Red, = for White" in sheet_text(tina, ruling).replace("1/2-1/2", "½–½")
    exported = tina.get(f"/rulings/{ruling}/record").get_data(as_text=True)
    assert '[Result "1/2-1/2"]' in exported and f"Adjudicated by the committee (case {case})" in exported

    filed = api.post("/api/v1/appeals", headers=bearer(tokens["tina"]),
                     json={"subject": f"committee-case:{case}", "grounds": "Red wins: 11-16 is decisive."})
    assert filed.status_code == 201, filed.json
    appeal = filed.json["id"]
    decided = api.post(f"/api/v1/appeals/{appeal}/decision", headers=bearer(tokens["ada"]),
                       json={"outcome": "overturned", "new_result": "1-0", "reasons": "Red's win is clear."})
    assert decided.status_code == 201, decided.json
    outcome = api.get(f"/api/v1/rulings/{ruling}", headers=bearer(tokens["tina"])).json["outcome"]
    assert {k: outcome[k] for k in ("result", "decided_by", "appeal", "status")} == {
        "result": "1-0", "decided_by": "appeal", "appeal": appeal, "status": "decided"}
    assert "case" not in outcome
    assert f"1–0 on appeal #{appeal}" in tina.get("/history").get_data(as_text=True)
    assert f"On appeal #{appeal}" in banner(tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    assert f"Superseded: 1–0 on appeal #{appeal} is the result that stands." in html.unescape(
        tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    assert f"1–0 on appeal #{appeal}" in sheet_text(tina, ruling)
    assert "1-0 on appeal: TRF code 1 for Red, 0 for White" in html.unescape(
        tina.get(f"/rulings/{ruling}").get_data(as_text=True))
    exported = tina.get(f"/rulings/{ruling}/record").get_data(as_text=True)
    assert '[Result "1-0"]' in exported and f"Decided on appeal #{appeal}: 1-0." in exported

    with app.extensions["db_sessions"]() as session:
        assert verify(session).is_intact, verify(session).to_json()
        steps = [e.payload for e in session.scalars(select(AuditEntry).where(
            AuditEntry.kind == "outcome", AuditEntry.subject == f"ruling-outcome:{ruling}").order_by(AuditEntry.seq))]
        assert [(s.count('"committee"') > 0, '"1-0"' in s) for s in steps] == [(True, False), (False, True)]
        assert len(session.scalars(select(RulingOutcome).where(RulingOutcome.ruling_id == ruling)).all()) == 1


def test_an_engines_recommendation_on_an_unfinished_chess_game_waits_for_the_committee(app: Flask) -> None:
    """Rules README 5.6: the engine's analysis is evidence for the committee, not the ruling. The ruling keeps
    its recommendation (the contract's ``result``, ``confidence`` below 1), but no result stands: no TRF code,
    no record to export, nothing decided in History, until the committee votes."""
    client = app.test_client()  # the open default event
    ruled = client.post("/api/v1/rulings", json={
        "game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game", "record": OPENING,
        "clock": {"white": "1:00:00", "black": "0:45:00"}})
    assert ruled.status_code == 201, ruled.json
    assert ruled.json["verdict"] == "adjudicated" and ruled.json["confidence"] < 1
    assert ruled.json["result"] is not None, "the recommendation is still given"
    assert ruled.json["outcome"] == {"result": None, "decided_by": None, "at": None, "status": "waiting",
                                     "words": "For the committee to decide", "waiting_for": "committee"}
    ruling = ruled.json["id"]
    page = client.get(f"/rulings/{ruling}").get_data(as_text=True)
    assert "For the committee to decide" in banner(page)
    assert "TRF code" not in html.unescape(page), "no result for the event's files while the committee decides"
    assert client.get(f"/rulings/{ruling}/record").status_code == 404
    assert "For the committee to decide" in client.get("/history").get_data(as_text=True)


def test_a_proven_result_of_an_unfinished_game_stands_as_ruled(app: Flask) -> None:
    """Proven beats recommended: a position the rules settle (here checkmate on the board) is ruled at once."""
    client = app.test_client()
    ruled = client.post("/api/v1/rulings", json={
        "game": "chess", "ruleset": "fide-standard", "claim": "unfinished-game",
        "fen": "7k/6Q1/6K1/8/8/8/8/8 b - - 0 60"})
    assert ruled.status_code == 201, ruled.json
    assert ruled.json["result"] == "1-0" and ruled.json["confidence"] == 1
    assert ruled.json["outcome"]["status"] == "decided" and ruled.json["outcome"]["decided_by"] == "ruling"
    assert client.get(f"/rulings/{ruled.json['id']}/record").status_code == 200


def test_a_rulings_instructions_are_marked_superseded_once_an_appeal_overturns_it(app: Flask) -> None:
    """The ruling stays on record as given; its "what the arbiter does now" is not today's once an appeal changed
    the result, and still is when the appeal upheld it."""
    tokens = app.config["tokens"]
    staff(app, "open-chess", "fide-standard", {"tina": "td", "ada": "appeals"})
    api = app.test_client()
    tina = login(app, "tina")
    shown: dict[str, str] = {}
    said: dict[str, str] = {}
    for outcome, new_result, moves in (("overturned", "1-0", 4), ("upheld", None, 4), ("rejected-upheld", None, 2)):
        ruled = api.post("/api/v1/rulings", headers=bearer(tokens["tina"]), json={
            "event": "open-chess", "game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
            "claimant": "white", "record": " ".join(f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8" for n in range(1, moves, 2))}).json
        assert ruled["verdict"] == ("rejected" if moves == 2 else "upheld") and ruled["instructions"], ruled
        filed = api.post("/api/v1/appeals", headers=bearer(tokens["tina"]),
                         json={"subject": f"ruling:{ruled['id']}", "grounds": "The position differed."})
        assert filed.status_code == 201, filed.json
        decision = {"outcome": outcome.removeprefix("rejected-"), "reasons": "Read the scoresheets.",
                    **({"new_result": new_result} if new_result else {})}
        decided = api.post(f"/api/v1/appeals/{filed.json['id']}/decision", headers=bearer(tokens["ada"]),
                           json=decision)
        assert decided.status_code == 201, decided.json
        shown[outcome] = html.unescape(tina.get(f"/rulings/{ruled['id']}").get_data(as_text=True))
        said[outcome] = api.get(f"/api/v1/rulings/{ruled['id']}", headers=bearer(tokens["tina"])).json[
            "outcome"]["words"]
    assert "What the arbiter does now" not in shown["overturned"]
    assert re.search(r"Superseded: 1–0 on appeal #\d+ is the result that stands", shown["overturned"])
    assert "What the arbiter does now" in shown["upheld"] and "Superseded" not in shown["upheld"]
    assert re.fullmatch(r"Play on, on appeal #\d+", said["rejected-upheld"]), "the game goes on, as appealed"
    assert "Superseded" not in shown["rejected-upheld"]


def test_a_draw_left_to_the_td_says_the_arbiter_decides_never_play_on(app: Flask) -> None:
    """US Chess 14K: a fifty-move claim made too soon, after a fivefold repetition, which lets the TD declare the
    game drawn. The ruling defers and gives no result; its banner says whose decision it is."""
    client = app.test_client()
    ruled = client.post("/api/v1/rulings", json={
        "game": "chess", "ruleset": "uschess", "claim": "fifty-move", "claimant": "white",
        "record": " ".join(f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8" for n in (1, 3, 5, 7))}).json
    assert ruled["verdict"] == "deferred" and ruled["result"] is None, ruled
    assert ruled["outcome"]["words"] == "The arbiter decides"
    shown = banner(client.get(f"/rulings/{ruled['id']}").get_data(as_text=True))
    assert "The arbiter decides" in shown and "Play on" not in shown


def test_one_outcome_per_ruling_is_the_databases_rule(app: Flask) -> None:
    ruling = app.test_client().post("/api/v1/rulings", headers=bearer(app.config["tokens"]["tina"]),
                                    json={"event": "masters", **UNFINISHED}).json["id"]
    with app.extensions["db_sessions"]() as session:
        case = session.execute(select(AuditEntry.subject).where(AuditEntry.kind == "case")).scalars().first()
        assert case is not None
        case_id = int(case.rsplit(":", 1)[1])
        session.add(RulingOutcome(ruling_id=ruling, result="1-0", decided_by="committee",
                                  committee_case_id=case_id, at=now()))
        session.commit()
        session.add(RulingOutcome(ruling_id=ruling, result="0-1", decided_by="committee",
                                  committee_case_id=case_id, at=now()))
        with pytest.raises(IntegrityError, match="ruling_outcomes.ruling_id"):
            session.commit()
        session.rollback()
        session.query(RulingOutcome).filter_by(ruling_id=ruling).delete()
        session.add(RulingOutcome(ruling_id=ruling, result="0-1", decided_by="appeal", at=now()))
        with pytest.raises(IntegrityError, match="ck_ruling_outcomes_appeal"):  # an appeal's outcome names it
            session.commit()
        session.rollback()
        problems = verify(session).to_json()["problems"]
        assert any(p["subject"] == f"ruling-outcome:{ruling}" and "no audit entry" in p["problem"]
                   for p in problems), "an outcome stored behind the app's back is caught"
        session.query(RulingOutcome).filter_by(ruling_id=ruling).delete()
        session.commit()
        assert verify(session).is_intact


def test_an_ilc_claim_waits_for_the_arbiters_finding_then_the_finding_decides(app: Flask) -> None:
    client = app.test_client()  # the open default event: anyone rules and gives the finding
    deferred = client.post("/api/v1/rulings", json=ILC).json
    assert deferred["verdict"] == "deferred"
    assert deferred["outcome"]["waiting_for"] == "finding"
    assert deferred["outcome"]["words"] == "Waiting for the arbiter's finding"
    page = client.get(f"/rulings/{deferred['id']}").get_data(as_text=True)
    assert "Play on" not in banner(page) and "Waiting for the arbiter's finding" in banner(page)
    done = client.post(f"/rulings/{deferred['id']}/finding", data={"finding": "accept"})
    assert done.status_code == 303
    for _ in range(400):  # the finding's ruling may be given in the background
        outcome = client.get(f"/api/v1/rulings/{deferred['id']}").json["outcome"]
        if outcome["status"] == "decided":
            break
        time.sleep(0.05)
    assert outcome["decided_by"] == "finding" and outcome["result"] == "1/2-1/2"
    assert outcome["ruling"] != deferred["id"]
    assert "½–½ by the arbiter's finding" in html.unescape(client.get("/history").get_data(as_text=True))


@pytest.mark.slow
def test_the_committees_outcome_and_its_one_row_on_postgresql(postgres_url: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from committee_support import small_budgets

    from web import create_app

    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", postgres_url)
    small_budgets(monkeypatch)
    made = opened(create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False}))
    try:
        tokens = {name: add_user(made, name, role) for name, role in (
            ("tina", "td"), ("m1", "committee"), ("m2", "committee"), ("m3", "committee"))}
        staff(made, "masters", "acf-master-division", {"tina": "td", "m1": "committee", "m2": "committee",
                                                       "m3": "committee"})
        api = made.test_client()
        ruling = api.post("/api/v1/rulings", headers=bearer(tokens["tina"]),
                          json={"event": "masters", **UNFINISHED}).json["id"]
        case = api.post("/api/v1/committee-cases", headers=bearer(tokens["tina"]),
                        json={**checkers_case(["m1", "m2", "m3"]), "event": "masters", "ruling": ruling}).json["id"]
        for member, result in (("m1", "1-0"), ("m2", "1-0"), ("m3", "1/2-1/2")):
            assert api.post(f"/api/v1/committee-cases/{case}/votes", headers=bearer(tokens[member]),
                            json={"result": result}).status_code == 201
        outcome = api.get(f"/api/v1/rulings/{ruling}", headers=bearer(tokens["tina"])).json["outcome"]
        assert (outcome["result"], outcome["decided_by"], outcome["case"]) == ("1/2-1/2", "committee", case)
        with made.extensions["db_sessions"]() as session:
            assert verify(session).is_intact, verify(session).to_json()
            session.add(RulingOutcome(ruling_id=ruling, result="1-0", decided_by="committee",
                                      committee_case_id=case, at=now()))
            with pytest.raises(IntegrityError, match="uq_ruling_outcomes_ruling"):
                session.commit()
            session.rollback()
            session.query(RulingOutcome).filter_by(ruling_id=ruling).delete()
            session.add(RulingOutcome(ruling_id=ruling, result="1-0", decided_by="nobody", at=now()))
            with pytest.raises(IntegrityError, match="ck_ruling_outcomes_decider"):
                session.commit()
    finally:
        made.extensions["adjudicator"].shutdown()
        made.extensions["db_sessions"].kw["bind"].dispose()
