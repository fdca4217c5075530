"""Issue 22 in the app's own answers (the phone walk is tests/web/test_verdict_in_view_browser.py):
remembered values never override the record, an event applies its ruleset, clocks typed on a number
pad, an earlier corrected illegal move on the form (FIDE 7.5.5: the second loses), the ILC finding
on the ruling page (a new ruling completes the deferred one; both stay), an appeal filed from a
ruling's page with the API's permissions, a refused form answered without a scroll, and a TD landing
on the claim form."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest
import segno
from committee_support import add_user, bearer
from events_support import add_event, assign
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.contract import ContractError, parse_seconds
from web.audit import verify
from web.charts import ClockSeries, clock_chart
from web.claims.forms import clock_reading
from web.qr import qr_svg

TRF = (Path(__file__).resolve().parent.parent / "data" / "club.trf").read_bytes()
RECORD = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"
PASSWORD = "password-xxxx"
ILC = {"game": "chess", "ruleset": "fide-standard-guidelines-iii", "claim": "insufficient-losing-chances",
       "claimant": "black", "fen": "6k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 60",  # the engine's recommendation: clear
       "clock": {"white": "0:05:00", "black": "0:01:30"}, "time_control": "5400"}


def logged_in(app: Flask, name: str, role: str = "td") -> FlaskClient:
    add_user(app, name, role, password=PASSWORD)
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def ruling_page(client: FlaskClient, response: object) -> str:
    location = response.headers["Location"]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 120  # polled; the deadline only bounds a hang
    while time.monotonic() < deadline:
        if re.search(r"/rulings/\d+$", location):
            return client.get(location).get_data(as_text=True)
        answer = client.get(location)
        location = answer.headers.get("Location") or answer.headers.get("HX-Redirect") or location
        time.sleep(0.05)
    raise AssertionError("no ruling")


# ---------------------------------------------------------------- clocks on a number pad


@pytest.mark.parametrize(("typed", "reading"), [
    ("500", "5:00"), ("5 00", "5:00"), ("5.00", "5:00"), ("10500", "1:05:00"), ("1 05 00", "1:05:00"),
    ("45", "0:45"), ("0", "0:00"), ("1:05:00", "1:05:00"), ("0:04.5", "0:04.5"), ("  130 ", "1:30"),
])
def test_a_clock_reads_as_the_clock_shows_it_without_a_colon(typed: str, reading: str) -> None:
    assert clock_reading(typed, "clock.white") == reading


@pytest.mark.parametrize("typed", ["575", "1 75 00", "5x", "1 2 3 4", "5,5,5,5"])
def test_a_clock_that_breaks_the_rule_names_its_field(typed: str) -> None:
    with pytest.raises(ContractError) as caught:
        clock_reading(typed, "clock.black")
    assert caught.value.field == "clock.black" and repr(typed) in caught.value.message


def test_the_form_s_clock_fields_take_the_number_pad(client: FlaskClient) -> None:
    page = client.post("/claims/form", data={"game": "chess", "claim": "flag"}).get_data(as_text=True)
    assert re.search(r'id="f-clock_white"[^>]*inputmode="numeric"', page)
    ruled = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": "flag",
                                         "claimant": "white", "fen": "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
                                         "clock_white": "110", "clock_black": "0 00", "flagged": "black"})
    page = ruling_page(client, ruled)
    assert 'id="result">1–0' in page and "1:10" in page


# ---------------------------------------------------------------- the record beats what was remembered


def test_the_record_s_round_beats_the_round_remembered_from_the_last_claim(client: FlaskClient) -> None:
    first = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                                         "claimant": "white", "record": RECORD, "round": "3"})
    assert first.status_code == 303
    form = client.get("/claims/new").get_data(as_text=True)
    assert re.search(r'id="f-round"[^>]*value="3"', form) and 'name="remembered_round" value="3"' in form
    tagged = '[Round "5"]\n\n' + RECORD
    ruled = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                                         "claimant": "white", "record": tagged, "round": "3", "remembered_round": "3"})
    assert "Round 5" in ruling_page(client, ruled)
    typed = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                                         "claimant": "white", "record": tagged, "round": "4", "remembered_round": "3"})
    assert "Round 4" in ruling_page(client, typed), "a round the TD typed wins"


def test_pairings_that_name_other_players_than_the_record_are_shown_not_silently_replaced(app: Flask) -> None:
    client = logged_in(app, "tina")
    client.post("/events/default/pairings", data={"trf": (io.BytesIO(TRF), "club.trf")})
    record = '[White "Carlsen, Magnus"]\n[Black "Nepo, Ian"]\n\n' + RECORD
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
            "record": record, "round": "2", "board": "1", "event_slug": "default"}
    form = client.post("/claims/form", data=data).get_data(as_text=True)
    assert 'value="Beta, Bob"' in form, "the pairings fill the players"
    assert 'id="names-mismatch"' in form and "Carlsen, Magnus – Nepo, Ian" in form
    page = ruling_page(client, client.post("/claims", data=data))
    assert "Beta, Bob – Alpha, Ann" in page and "The record names other players: Carlsen, Magnus – Nepo, Ian" in page
    same = {**data, "record": '[White "Bob Beta"]\n[Black "Ann Alpha"]\n\n' + RECORD}
    assert 'id="names-mismatch"' not in client.post("/claims/form", data=same).get_data(as_text=True)


# ---------------------------------------------------------------- the event's ruleset, chosen with it


def test_choosing_an_event_applies_its_ruleset_and_game(app: Flask) -> None:
    client = logged_in(app, "tina")
    add_event(app, "masters", ruleset="acf-master-division")
    assign(app, "masters", "tina", "td")
    form = client.get("/claims/new").get_data(as_text=True)
    assert 'name="event"' not in form, "no free-text Event field"
    chosen = client.post("/claims/form", data={"game": "chess", "ruleset": "fide-standard",
                                               "event_slug": "masters", "ruleset_event": "default"})
    page = chosen.get_data(as_text=True)
    assert '<option value="acf-master-division" title=' in page
    assert re.search(r'<option value="acf-master-division" title="[^"]*" selected>', page)
    assert re.search(r'<option value="checkers" selected>', page), "the event's game too"
    assert 'name="ruleset_event" value="masters"' in page
    kept = client.post("/claims/form", data={"game": "checkers", "ruleset": "acf", "event_slug": "masters",
                                             "ruleset_event": "masters"}).get_data(as_text=True)
    assert re.search(r'<option value="acf" title="[^"]*" selected>', kept), "the TD's own choice stands"
    refused = client.post("/claims", data={"game": "checkers", "ruleset": "acf", "claim": "forty-move",
                                           "claimant": "red", "record": "1. 11-15 24-20", "event_slug": "masters",
                                           "ruleset_event": "masters"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert re.search(r'<select id="f-ruleset" name="ruleset" aria-invalid="true" aria-describedby="ruleset-error" '
                     r"autofocus>", text), "the select is marked and takes the focus"
    assert "acf-master-division" in text.split('id="ruleset-error"')[1][:200]


# ---------------------------------------------------------------- FIDE 7.5.5 from the form


def test_a_second_illegal_move_loses_when_the_form_gives_the_first(client: FlaskClient) -> None:
    record = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ke3 Nf6"
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move", "claimant": "black",
            "record": record}
    form = client.post("/claims/form", data=data).get_data(as_text=True)
    assert 'name="previous_illegal_moves" value="0"' in form
    first = ruling_page(client, client.post("/claims", data=data))
    assert 'id="result">Play on' in first
    second = ruling_page(client, client.post("/claims", data={**data, "previous_illegal_moves": "1"}))
    assert 'id="result">0–1' in second and "7.5.5" in second


# ---------------------------------------------------------------- the ILC finding on the ruling page


def test_the_ilc_finding_is_given_on_the_ruling_page_and_completes_the_deferred_ruling(app: Flask) -> None:
    client = app.test_client()  # the open default event: anyone may rule
    deferred = client.post("/api/v1/rulings", json=ILC).json
    assert deferred["verdict"] == "deferred"
    assert "td_finding" not in " ".join(deferred["reasons"] + deferred["instructions"])
    page = client.get(f"/rulings/{deferred['id']}").get_data(as_text=True)
    assert 'id="accept-recommendation"' in page and 'value="incorrect"' in page
    assert client.post(f"/rulings/{deferred['id']}/finding", data={"finding": "nonsense"}).status_code == 422
    done = client.post(f"/rulings/{deferred['id']}/finding", data={"finding": "accept"})
    page = ruling_page(client, done)
    assert 'id="verdict">upheld' in page and f"completes ruling <a href=\"/rulings/{deferred['id']}\">" in page
    before = client.get(f"/rulings/{deferred['id']}").get_data(as_text=True)
    assert 'id="verdict">deferred' in before, "the deferred ruling stays as it was given"
    assert "The arbiter has ruled" in before and 'id="accept-recommendation"' not in before
    again = client.post(f"/rulings/{deferred['id']}/finding", data={"finding": "incorrect"})
    assert again.status_code == 303, "a second tap opens the ruling given, and gives no other"
    assert 'id="verdict">upheld' in ruling_page(client, again)
    with app.extensions["db_sessions"]() as session:
        assert verify(session).is_intact


def test_only_who_may_rule_in_the_event_gives_the_finding(app: Flask) -> None:
    tina = logged_in(app, "tina")
    add_event(app, "closed", ruleset="fide-standard-guidelines-iii")
    assign(app, "closed", "tina", "td")
    token = add_user(app, "tom", "td", password=PASSWORD)
    assign(app, "closed", "tom", "td")
    ruled = app.test_client().post("/api/v1/rulings", json={**ILC, "event": "closed"}, headers=bearer(token)).json
    other = logged_in(app, "otto")  # a TD, not of this event (a public event: he sees the ruling)
    page = other.get(f"/rulings/{ruled['id']}").get_data(as_text=True)
    assert 'id="finding"' not in page
    assert other.post(f"/rulings/{ruled['id']}/finding", data={"finding": "clear"}).status_code == 403
    assert 'id="finding"' in tina.get(f"/rulings/{ruled['id']}").get_data(as_text=True)


# ---------------------------------------------------------------- an appeal from the ruling's page


def test_a_ruling_is_appealed_from_its_page_by_its_event_s_td_or_appeals_member(app: Flask) -> None:
    tina = logged_in(app, "tina")
    add_event(app, "club", private=False)
    assign(app, "club", "tina", "td")
    committee = logged_in(app, "carl", "committee")
    ruled = tina.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "event_slug": "club",
                                       "claim": "threefold-repetition", "claimant": "white", "record": RECORD})
    ruling_id = int(ruled.headers["Location"].rsplit("/", 1)[1])
    assert 'id="appeal"' in tina.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert 'id="appeal"' not in committee.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert 'id="appeal"' not in app.test_client().get(f"/rulings/{ruling_id}").get_data(as_text=True)
    filed = tina.post("/appeals/", data={"subject": f"ruling:{ruling_id}", "grounds": "Not a repetition"})
    assert filed.status_code == 303 and "/appeals/" in filed.headers["Location"]
    page = tina.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    assert re.search(r'id="appeals".*Appeal #\d+: open', page, re.S)


# ---------------------------------------------------------------- smaller points


def test_the_share_link_comes_with_a_qr_code_drawn_by_the_server(app: Flask) -> None:
    tina = logged_in(app, "tina")
    add_event(app, "secret", private=True)
    assign(app, "secret", "tina", "td")
    ruled = tina.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "event_slug": "secret",
                                       "claim": "threefold-repetition", "claimant": "white", "record": RECORD})
    page = tina.get(ruled.headers["Location"]).get_data(as_text=True)
    link = re.search(r'id="share-url" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    drawn = re.search(r'<svg role="img"[^>]*class="qr".*?</svg>', page, re.S).group(0)  # type: ignore[union-attr]
    assert drawn == qr_svg(link).replace("'", "&#39;") or drawn == qr_svg(link)
    assert " style=" not in drawn, "nothing the CSP refuses"
    matrix = segno.make(link, error="m", micro=False)
    assert matrix.designator.endswith("-M"), "error correction M: a link survives a smudged phone screen"
    assert 'id="copy-share"' in page and "hidden" in page.split('id="copy-share"')[1][:60], "shown by its script"


def test_the_clock_chart_s_legend_is_under_its_lines() -> None:
    chart = clock_chart(ClockSeries(((1, 3000.0), (3, 2900.0)), ((2, 3000.0), (4, 2950.0))),
                        {"white": 2800.0, "black": 0.0}, ("white", "black"), ["black"])
    ys = [float(pair.split(",")[1]) for points in re.findall(r'<polyline points="([^"]+)"', chart)
          for pair in points.split()]
    legend = [float(y) for y in re.findall(r'<text class="legend" x="[^"]+" y="([^"]+)"', chart)]
    assert len(legend) == 2 and len(ys) >= 4
    assert min(legend) - 12 > max(ys), "every legend line below the lowest point of the plot"
    assert "White 46:40" in chart and "Black 0:00 ⚑" in chart


def test_a_refused_boosted_form_asks_htmx_not_to_scroll(client: FlaskClient) -> None:
    boosted = {"HX-Request": "true", "HX-Boosted": "true"}
    refused = client.post("/claims", data={"game": "chess", "claim": "threefold-repetition"}, headers=boosted)
    assert refused.status_code == 422 and refused.headers["HX-Reswap"] == "innerHTML show:none"
    page = client.get("/history", headers=boosted)
    assert "HX-Reswap" not in page.headers, "a page htmx lands at its top"


@pytest.mark.parametrize(("role", "landing"), [("td", "/claims/new"), ("admin", "/claims/new"),
                                                ("committee", "/committee/"), ("appeals", "/appeals/")])
def test_a_log_in_lands_where_the_role_works(app: Flask, role: str, landing: str) -> None:
    add_user(app, f"u-{role}", role, password=PASSWORD)
    response = app.test_client().post("/login", data={"name": f"u-{role}", "password": PASSWORD})
    assert response.status_code == 303 and response.headers["Location"] == landing
    back = app.test_client().post("/login?next=/history", data={"name": f"u-{role}", "password": PASSWORD})
    assert back.headers["Location"] == "/history", "the page the user came from wins"


def test_the_checkers_board_flips_without_javascript_too(client: FlaskClient) -> None:
    data = {"game": "checkers", "claim": "forty-move", "fen": "B:W21:B1"}
    flipped = client.post("/claims/form", data={**data, "checkers_flip": "1"}).get_data(as_text=True)
    editor = flipped.split('name="checkers_flipped"', 1)[1]  # the position editor (the move entry flips by script)
    squares = [int(n) for n in re.findall(r'data-square="(\d+)"', editor)]
    assert squares[0] == 32 and squares[-1] == 1 and "White at the top" in flipped
    assert 'name="checkers_flipped" value="1"' in flipped
    placed = client.post("/claims/form", data={**data, "checkers_flipped": "1", "place": "5", "checkers_piece": "w"})
    page = placed.get_data(as_text=True)
    assert 'value="B:W5,21:B1"' in page and "White at the top" in page, "still flipped after a tap"


@settings(max_examples=300)
@given(hours=st.integers(0, 9), minutes=st.integers(0, 59), seconds=st.integers(0, 59),
       separator=st.sampled_from(["", " ", ".", ",", ":", "  "]))
def test_every_clock_reading_typed_any_way_is_the_same_time(hours: int, minutes: int, seconds: int,
                                                            separator: str) -> None:
    """Digits alone, or separated by a space, a full stop, a comma or a colon: the same reading."""
    parts = [str(hours), f"{minutes:02d}", f"{seconds:02d}"] if hours else [str(minutes), f"{seconds:02d}"]
    typed = separator.join(parts)
    assert parse_seconds(clock_reading(typed, "clock.white"), "clock.white") == hours * 3600 + minutes * 60 + seconds
