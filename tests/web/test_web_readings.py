"""The TD's choice between two readings of a token, through the JSON API and on the ruling page (issue 34).

A bishop ending copied in lower case: ``90.bb5`` is the bishop (the fifty-move claim holds) or the b4
pawn (it fails), both keeping every move legal. Unchosen, the claim is deferred; the case's ``readings``
field names the move meant, the ruling follows it, and the ruling page replays the record that way.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

CASE: dict[str, Any] = {
    "game": "chess", "ruleset": "fide-standard", "claim": "fifty-move", "claimant": "white",
    "record": "90. bb5 ke5 91. kd2 kd4", "start_fen": "8/8/1p3k2/8/1P6/8/4B3/4K3 w - - 97 90",
}


def test_unchosen_the_claim_is_deferred_and_the_readings_field_rules_it(client: FlaskClient) -> None:
    deferred = client.post("/api/v1/rulings", json=CASE)
    assert deferred.status_code == 201, deferred.get_data(as_text=True)
    assert deferred.get_json()["verdict"] == "deferred"
    assert deferred.get_json()["evidence"]["token_readings"][0]["case_field"] == {"readings": {"1": "b5"}}
    pawn = client.post("/api/v1/rulings", json={**CASE, "readings": {"1": "b5"}})
    assert pawn.status_code == 201 and pawn.get_json()["verdict"] == "rejected"
    page = client.get(f"/rulings/{pawn.get_json()['id']}").get_data(as_text=True)
    assert "as the case states (readings)" in page and "90. b5" in page
    bishop = client.post("/api/v1/rulings", json={**CASE, "readings": {"1": "Bb5"}})
    assert bishop.status_code == 201 and bishop.get_json()["verdict"] == "upheld"


def test_a_reading_the_token_does_not_have_is_refused_naming_the_field(client: FlaskClient) -> None:
    response = client.post("/api/v1/rulings", json={**CASE, "readings": {"1": "Kd2"}})
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "readings"
