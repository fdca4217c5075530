"""One shape per step (issue 38 item 3): the claim form asks for each one-field fact from its one
declaration (adjudicator.claim_registry.ASKED_FACTS), reads it into the typed case once, and a slip in
it is the contract's error on its own field; the players nobody typed are filled in once, on the form."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from adjudicator.claim_registry import ASKED_FACTS, REGISTRY
from web.claims.forms import ClaimForm, claims_for
from web.tables.rulings import CaseRow

RECORD = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"


@pytest.mark.parametrize("claim", claims_for("chess"))
def test_the_form_shows_exactly_the_one_field_facts_the_claim_names(client: FlaskClient, claim: str) -> None:
    ruleset = "fide-standard-guidelines-iii" if claim == "insufficient-losing-chances" else "fide-standard"
    page = client.post("/claims/form", data={"game": "chess", "ruleset": ruleset, "claim": claim})
    text = page.get_data(as_text=True)
    for fact in ASKED_FACTS:
        shown = re.search(rf'<input type="text" id="f-{fact.name}" name="{fact.name}"[^>]*'
                          rf'placeholder="{re.escape(fact.placeholder("chess"))}"', text)
        asked = fact.name in next(c for c in REGISTRY if c.id == claim).needs
        assert bool(shown) == asked, (claim, fact.name)
        assert (f'<label for="f-{fact.name}">{fact.label}' in text) == asked, (claim, fact.name)


def test_a_whole_number_fact_is_read_as_a_number_and_a_slip_in_it_is_the_contracts_error_on_its_field(
    app: Flask, client: FlaskClient
) -> None:
    form = {"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move", "record": RECORD,
            "alleged_illegal_ply": "two", "time_control": "G/90"}
    refused = client.post("/claims", data=form)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert 'id="alleged_illegal_ply-error"' in page and "must be a whole number of at least 1" in page
    assert 'value="two"' in page, "what was typed is kept"
    ruled = client.post("/claims", data={**form, "alleged_illegal_ply": " 3 "})
    assert ruled.status_code == 303
    with app.extensions["db_sessions"]() as session:
        case = session.scalars(select(CaseRow)).one()
        assert case.data["alleged_illegal_ply"] == 3


def test_the_players_filled_in_on_the_form_are_the_ones_stored(app: Flask, client: FlaskClient) -> None:
    record = f'[White "Carlsen, Magnus"]\n[Black "Nepomniachtchi, Ian"]\n[Round "5"]\n\n{RECORD}'
    response = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard",
                                            "claim": "threefold-repetition", "claimant": "white", "record": record})
    assert response.status_code == 303
    with app.extensions["db_sessions"]() as session:
        case = session.scalars(select(CaseRow)).one()
        assert (case.first_player, case.second_player, case.round) == ("Carlsen, Magnus", "Nepomniachtchi, Ian", "5")


def test_a_refilled_form_asks_again_for_the_facts_a_stored_case_gave() -> None:
    form = ClaimForm(values={"game": "chess", "claim": "illegal-move", "alleged_illegal_ply": 7})
    assert [f.name for f in form.asked_facts] == ["alleged_illegal_ply"]
    assert form.value("alleged_illegal_ply") == "7"
