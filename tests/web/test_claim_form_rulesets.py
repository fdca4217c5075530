"""The claim form follows its event (issue 35): for each seed ruleset of config.toml it offers only the claims
the ruleset has, asks that ruleset's own questions, cites only its own articles and fills its default time
control; and it opens on the TD's event in progress, not on "Default event".

Who is who: tina, a TD staffed on the four seed events (masters: acf-master-division, senior: us-senior,
sabah: sabah-active30, calchess: calchess-scholastic); solo, a TD staffed on senior only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, make_app
from events_support import PASSWORD, add_event, assign
from flask import Flask

EVENTS = {"masters": "acf-master-division", "senior": "us-senior", "sabah": "sabah-active30",
          "calchess": "calchess-scholastic"}
AUTHORITIES = ("FIDE", "US Chess", "ACF", "Guidelines", "Sabah", "CalChess", "14C9", "III.")


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = make_app(tmp_path, monkeypatch)
    add_user(app, "tina", "td", password=PASSWORD)
    add_user(app, "solo", "td", password=PASSWORD)
    for slug, ruleset in EVENTS.items():
        add_event(app, slug, ruleset=ruleset)
        assign(app, slug, "tina", "td")
    assign(app, "senior", "solo", "td")
    yield app
    app.extensions["adjudicator"].shutdown()


def login(app: Flask, name: str) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def form_for(client: Any, slug: str, claim: str) -> str:
    """The form as the TD draws it after choosing the event and the claim (the event's rules applied)."""
    page = client.post("/claims/form", data={"event_slug": slug, "claim": claim, "ruleset_event": ""})
    assert page.status_code == 200
    text: str = page.get_data(as_text=True)
    return text


def offered(page: str) -> list[str]:
    select = re.search(r'<select id="f-claim".*?</select>', page, re.S)
    assert select is not None
    return re.findall(r'<option value="([^"]+)"', select.group(0))


def cited(page: str) -> set[str]:
    """The authorities and articles the form's own words name (the lists of events and rulesets aside: a
    ruleset's title names its authority)."""
    form = re.search(r'<form id="claim-form".*?</form>', page, re.S)
    assert form is not None
    text = re.sub(r'<select id="f-(ruleset|event_slug)".*?</select>', "", form.group(0), flags=re.S)
    return {word for word in AUTHORITIES if word in text}


CHESS = ["threefold-repetition", "fifty-move", "flag", "insufficient-losing-chances", "illegal-move",
         "unfinished-game"]


@pytest.mark.parametrize(("slug", "claims"), [
    ("masters", ["threefold-repetition", "forty-move", "flag", "illegal-move", "unfinished-game"]),
    ("senior", [c for c in CHESS if c != "insufficient-losing-chances"]),  # Guidelines III are not in force
    ("sabah", CHESS),
    ("calchess", CHESS),
])
def test_the_form_offers_only_the_claims_of_the_event_s_rules(app: Flask, slug: str, claims: list[str]) -> None:
    page = form_for(login(app, "tina"), slug, "flag")
    assert re.search(rf'<option value="{EVENTS[slug]}" title="[^"]*" selected>', page)
    assert offered(page) == claims


def test_acf_master_division_asks_no_claimant_of_an_unfinished_game_and_cites_no_chess_rules(app: Flask) -> None:
    tina = login(app, "tina")
    unfinished = form_for(tina, "masters", "unfinished-game")
    assert "Claimed by" not in unfinished and 'name="claimant"' not in unfinished
    assert cited(unfinished) == set()
    flag = form_for(tina, "masters", "flag")
    assert "Claimed by" in flag, "a flag claim names the side whose flag is up"
    assert cited(flag) == set(), "no US Chess 14C9, no FIDE article on a checkers form"
    for claim in ("threefold-repetition", "forty-move", "illegal-move"):
        assert cited(form_for(tina, "masters", claim)) == set(), claim


def test_us_senior_refuses_an_ilc_claim_on_the_form_and_fills_its_time_control(app: Flask) -> None:
    tina = login(app, "tina")
    flag = form_for(tina, "senior", "flag")
    assert 'name="time_control" value="40/5400+30:1800+30"' in flag, "the ruleset's default time control"
    assert cited(flag) == {"FIDE"} and "(FIDE C.3)" in flag, "only FIDE's own articles"
    illegal = form_for(tina, "senior", "illegal-move")
    assert "FIDE 7.5.5: the second loses" in illegal and cited(illegal) == {"FIDE"}
    refused = tina.post("/claims", data={"event_slug": "senior", "ruleset_event": "senior", "game": "chess",
                                         "ruleset": "us-senior", "claim": "insufficient-losing-chances",
                                         "claimant": "black", "fen": "8/8/8/4k3/8/8/3NK3/7r b - - 0 60"})
    assert refused.status_code == 422
    assert re.search(r'id="claim-error">the rules us-senior have no such claim', refused.get_data(as_text=True))


def test_sabah_asks_its_clear_draw_appeal_with_its_penalty_not_guidelines_iii(app: Flask) -> None:
    tina = login(app, "tina")
    page = form_for(tina, "sabah", "insufficient-losing-chances")
    assert '<option value="insufficient-losing-chances" selected>Appeal to the arbiter for a draw' in page
    assert "Is the position a clear draw?" in page
    assert "A rejected appeal costs the claimant 5 minutes, never leaving less than 2 minutes." in page
    assert 'name="request"' not in page and 'name="opponent_bonus"' not in page and 'name="postponed"' not in page
    assert 'value="unclear"' not in page, "Sabah's arbiter accepts or rejects the appeal"
    assert "III." not in page and "Guidelines" not in cited(page)
    assert "appeal to the arbiter for a draw" in page
    assert 'name="time_control" value="1800"' in page


def test_calchess_asks_variation_14h_and_cites_us_chess_only(app: Flask) -> None:
    tina = login(app, "tina")
    page = form_for(tina, "calchess", "insufficient-losing-chances")
    assert "Insufficient losing chances (Variation 14H)" in page
    assert "Clearly correct: a draw (14H2c)" in page and "Clearly incorrect: denied (14H2d)" in page
    assert "up to 1 minute" in page, "CalChess's deduction for a clearly incorrect claim"
    assert 'name="request"' not in page and 'name="opponent_bonus"' not in page
    assert cited(page) == {"US Chess", "14C9"}, "US Chess articles alone"
    threefold = form_for(tina, "calchess", "threefold-repetition")
    assert "US Chess 14C9" in threefold and "FIDE" not in cited(threefold)
    illegal = form_for(tina, "calchess", "illegal-move")
    assert 'name="previous_illegal_moves"' not in illegal, "US Chess counts no illegal moves towards a loss"


def test_guidelines_iii_keeps_its_own_questions(app: Flask) -> None:
    page = app.test_client().post("/claims/form", data={"game": "chess", "ruleset": "fide-standard-guidelines-iii",
                                                         "claim": "insufficient-losing-chances"})
    text = page.get_data(as_text=True)
    assert "FIDE Guidelines III.4" in text and "FIDE Guidelines III.5.2" in text
    assert 'name="request"' in text and 'name="opponent_bonus"' in text and 'name="postponed"' in text


def test_the_form_opens_on_the_only_event_the_td_staffs(app: Flask) -> None:
    page = login(app, "solo").get("/claims/new").get_data(as_text=True)
    assert re.search(r'<option value="senior" selected>', page) or 'name="event_slug" value="senior"' in page
    assert re.search(r'<option value="us-senior" title="[^"]*" selected>', page)


def test_the_form_opens_on_the_event_last_used_today_not_yesterday(app: Flask) -> None:
    tina = login(app, "tina")
    first = tina.get("/claims/new").get_data(as_text=True)
    assert not re.search(r'<option value="default" selected>', first), "not Default event"
    tina.post("/claims", data={"event_slug": "sabah", "ruleset_event": "sabah", "game": "chess",
                               "ruleset": "sabah-active30", "claim": "threefold-repetition", "claimant": "white",
                               "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"})
    again = tina.get("/claims/new").get_data(as_text=True)
    assert re.search(r'<option value="sabah" selected>', again)
    with tina.session_transaction() as session:
        session["event_slug_on"] = "2000-01-01"
    yesterday = tina.get("/claims/new").get_data(as_text=True)
    assert re.search(r'<option value="masters" selected>', yesterday), "the first event tina staffs"
