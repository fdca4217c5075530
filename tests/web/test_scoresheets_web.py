"""Both scoresheets through the claim form (issue 21, item 5), without a browser: the case keeps both and
is ruled on the one the TD confirms; a bad choice is refused naming its field; an uploaded scoresheet is
read like a typed one; the ruling page says which was ruled on from the case's record itself."""

from __future__ import annotations

import html
import io
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from web.db import get_session
from web.tables.rulings import CaseRow

CLAIMANT = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"
OPPONENT = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Nh5 *"
CLAIM = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white"}


def ruling_page(client: FlaskClient, response: object) -> str:
    location = response.headers["Location"]  # type: ignore[attr-defined]
    return html.unescape(client.get(location).get_data(as_text=True))


def stored_case(app: Flask, case_id: int) -> dict[str, object]:
    with app.app_context():
        row = get_session().get(CaseRow, case_id)
        assert row is not None
        return dict(json.loads(row.case_json))


def test_the_case_keeps_both_and_is_ruled_on_the_confirmed_one(app: Flask, client: FlaskClient) -> None:
    for ruled_on, verdict, record in (("claimant", "upheld", CLAIMANT), ("opponent", "rejected", OPPONENT)):
        response = client.post("/claims", data={**CLAIM, "record": CLAIMANT, "opponent_record": OPPONENT,
                                                "ruled_on": ruled_on})
        assert response.status_code == 303
        page = ruling_page(client, response)
        assert re.search(r'id="verdict">([^<]*)', page).group(1) == verdict  # type: ignore[union-attr]
        case_id = int(re.search(r"on case (\d+)", page).group(1))  # type: ignore[union-attr]
        case = stored_case(app, case_id)
        assert case["record"] == record
        assert case["scoresheets"] == {"claimant": CLAIMANT, "opponent": OPPONENT, "ruled_on": ruled_on}
        assert f"The claim was ruled on the {ruled_on}'s scoresheet." in page
        again = html.unescape(client.get(f"/claims/new?from={case_id}").get_data(as_text=True))
        assert f">{CLAIMANT}</textarea>" in again and f">{OPPONENT}</textarea>" in again
        assert re.search(rf'value="{ruled_on}" checked', again)


def test_a_bad_choice_is_refused_naming_its_field(client: FlaskClient) -> None:
    wrong = client.post("/claims", data={**CLAIM, "record": CLAIMANT, "opponent_record": OPPONENT, "ruled_on": "both"})
    assert wrong.status_code == 422 and 'id="ruled_on-error"' in wrong.get_data(as_text=True)
    empty = client.post("/claims", data={**CLAIM, "record": " ", "opponent_record": OPPONENT, "ruled_on": "claimant"})
    assert empty.status_code == 422
    assert "the claimant&#39;s scoresheet is empty" in empty.get_data(as_text=True)
    assert 'id="record-error"' in empty.get_data(as_text=True)


def test_an_uploaded_scoresheet_is_compared_and_kept_like_a_typed_one(app: Flask, client: FlaskClient) -> None:
    shown = client.post("/claims/form", data={**CLAIM, "record": CLAIMANT,
                                              "opponent_record_file": (io.BytesIO(OPPONENT.encode()), "theirs.pgn")},
                        content_type="multipart/form-data", headers={"HX-Request": "true"})
    text = html.unescape(shown.get_data(as_text=True))
    assert 'data-first-difference="8"' in text
    assert "at ply 8 the claimant's scoresheet has 4...Ng8 (legal), the opponent's 4...Nh5 (legal)" in text
    response = client.post("/claims", data={**CLAIM, "record": CLAIMANT, "ruled_on": "opponent",
                                            "opponent_record_file": (io.BytesIO(OPPONENT.encode()), "theirs.pgn")},
                           content_type="multipart/form-data")
    page = ruling_page(client, response)
    assert re.search(r'id="verdict">([^<]*)', page).group(1) == "rejected"  # type: ignore[union-attr]
    case = stored_case(app, int(re.search(r"on case (\d+)", page).group(1)))  # type: ignore[union-attr]
    assert case["record"] == OPPONENT, "ruled on the uploaded scoresheet, as confirmed"
    assert case["scoresheets"] == {"claimant": CLAIMANT, "opponent": OPPONENT, "ruled_on": "opponent"}
    assert "The claim was ruled on the opponent's scoresheet." in page


def test_the_ruling_page_reads_what_was_ruled_on_from_the_record(client: FlaskClient) -> None:
    """An API client's label is not taken on trust: the page names the scoresheet the record is."""
    case = {**CLAIM, "record": OPPONENT, "scoresheets": {"claimant": CLAIMANT, "opponent": OPPONENT,
                                                          "ruled_on": "claimant"}}
    made = client.post("/api/v1/rulings", json=case)
    assert made.status_code in (200, 201), made.get_json()
    page = html.unescape(client.get(f"/rulings/{made.get_json()['id']}").get_data(as_text=True))
    assert "The claim was ruled on the opponent's scoresheet." in page
    odd = client.post("/api/v1/rulings", json={**case, "record": "1. e4 e5 *"})
    page = html.unescape(client.get(f"/rulings/{odd.get_json()['id']}").get_data(as_text=True))
    assert "ruled on the case's record, which is neither scoresheet as kept" in page


def test_the_players_come_from_the_scoresheet_the_claim_is_ruled_on(app: Flask, client: FlaskClient) -> None:
    """Names nobody typed are read from the tags of the scoresheet ruled on (here only the opponent's has them)."""
    tagged = '[White "Ann Able"]\n[Black "Bob Baker"]\n\n' + OPPONENT
    response = client.post("/claims", data={**CLAIM, "record": CLAIMANT, "opponent_record": tagged,
                                            "ruled_on": "opponent"})
    assert response.status_code == 303
    case_id = int(re.search(r"on case (\d+)", ruling_page(client, response)).group(1))  # type: ignore[union-attr]
    with app.app_context():
        row = get_session().get(CaseRow, case_id)
        assert row is not None and (row.first_player, row.second_player) == ("Ann Able", "Bob Baker")
