"""The ruling page, the step-through, the job widget (progress, cancel), the PDF sheet, history."""

from __future__ import annotations

import re
import time

from flask import Flask
from flask.testing import FlaskClient

RECORD = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"


def rule(client: FlaskClient, claim: str, *, follow: bool = True, **fields: str) -> str:
    """The ruling's URL; with follow=False the URL the form answered with (a job's, for a slow claim).
    A quick claim answers with its ruling within [web] inline_seconds; on a loaded machine it may answer
    with its job, which is then followed to the ruling."""
    data = {"game": "chess", "ruleset": "fide-standard", "claim": claim, "claimant": "white", "record": RECORD}
    data.update(fields)
    response = client.post("/claims", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    location = str(response.headers["Location"])
    if follow and location.startswith("/cases/"):
        return wait_for_ruling(client, location)
    return location


def wait_for_ruling(client: FlaskClient, job_url: str, seconds: float = 120) -> str:
    """The ruling's URL once the job gives one: polled; the deadline only bounds a hang."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        response = client.get(job_url)
        if response.status_code == 303:
            return str(response.headers["Location"])
        time.sleep(0.1)
    raise AssertionError("the job gave no ruling in time")


def test_the_step_through_marks_the_repeated_positions(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    page = client.get(rule(client, stand_ins["quick"])).get_data(as_text=True)
    marked = re.findall(r'class="marked[^"]*"[^>]*>([^<]+)<', page)
    assert marked == ["2... Ng8", "4... Ng8"]
    assert "After 4... Ng8" in page, "the board opens at the last repetition"


def test_a_step_is_an_htmx_fragment_and_a_plain_link(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    url = rule(client, stand_ins["quick"])
    ruling_id = url.rsplit("/", 1)[1]
    fragment = client.get(f"/rulings/{ruling_id}/board?line=game&ply=1", headers={"HX-Request": "true"})
    text = fragment.get_data(as_text=True)
    assert "<html" not in text and "After 1. Nf3" in text and "<svg" in text
    plain = client.get(f"/rulings/{ruling_id}/board?line=game&ply=1")
    assert plain.status_code == 302 and "ply=1" in plain.headers["Location"]
    assert "After 1. Nf3" in client.get(plain.headers["Location"]).get_data(as_text=True)


def test_the_helpmate_is_playable_move_by_move(client: FlaskClient) -> None:
    """The real flag claim: White's flag fell after 1. f3 e5 2. g4 and Black can still mate, so Black wins;
    the helpmate the win test found is a line of the page, played one move at a time to its mate."""
    url = rule(client, "flag", claimant="black", record="1. f3 e5 2. g4", clock_white="0:00:00",
               clock_black="0:01:00")
    ruling_id = url.rsplit("/", 1)[1]
    ruling = client.get(f"/api/v1/rulings/{ruling_id}").get_json()
    assert ruling["verdict"] == "upheld" and ruling["result"] == "0-1"
    helpmate = ruling["evidence"]["win_test"]["helpmate_san"]
    assert helpmate[-1].endswith("#")
    assert "Helpmate" in client.get(url).get_data(as_text=True)
    board = f"/rulings/{ruling_id}/board?line=win_test-helpmate"
    first = client.get(f"{board}&ply=1", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f"After 2... {helpmate[0]}" in first
    mate = client.get(f"{board}&ply={len(helpmate)}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f" {helpmate[-1]}" in mate and "After" in mate


def test_an_engine_job_reports_progress_then_gives_its_ruling(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    """The bar shows the analysis's own figure: the slow claim is held after reporting 1,000 of 40,000
    nodes, so the widget is read while the job runs, whatever the machine's load."""
    from tests.web import fake_claims

    fake_claims.HOLD.clear()
    job_url = rule(client, stand_ins["slow"], follow=False)
    widget = wait_for_widget(client, job_url, "1,000 of 40,000 nodes")
    value = int(re.search(r'<progress id="job-progress" max="100" value="(\d+)"', widget).group(1))  # type: ignore[union-attr]
    assert 0 < value < 100 and "depth 1" in widget
    assert value == int(100 * 1_000 / 40_000), "the bar is the analysis's own figure, not the clock"
    assert "Best line so far: <span class=\"pv\">1. e4 e5 2. Nf3</span>" in widget
    fake_claims.HOLD.set()
    page = client.get(wait_for_ruling(client, job_url)).get_data(as_text=True)
    assert "adjudicated" in page and "1–0" in page and "Engine line" in page


def wait_for_widget(client: FlaskClient, job_url: str, text: str, seconds: float = 60) -> str:
    """The job widget once it shows ``text``: polled; the deadline only bounds a hang."""
    deadline = time.monotonic() + seconds
    widget = ""
    while time.monotonic() < deadline:
        widget = client.get(job_url, headers={"HX-Request": "true"}).get_data(as_text=True)
        if text in widget:
            return widget
        time.sleep(0.05)
    raise AssertionError(f"the job widget never showed {text!r}; last:\n{widget[:1500]}")


def test_before_the_analysis_measures_anything_the_bar_is_indeterminate() -> None:
    from types import SimpleNamespace

    from web.claim_jobs import progress_of

    job = SimpleNamespace(state="running", fraction=None, message="checking whether either side can still checkmate",
                          elapsed=3.0)
    shown = progress_of(job)  # type: ignore[arg-type]
    assert shown.percent is None and shown.stage == "checking whether either side can still checkmate"


def test_when_done_htmx_polling_is_redirected(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    job_url = rule(client, stand_ins["slow"], follow=False)
    wait_for_ruling(client, job_url)
    response = client.get(job_url, headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"].startswith("/rulings/")


def test_a_cancelled_job_gives_no_ruling_and_stops_polling(app: Flask, client: FlaskClient,
                                                            stand_ins: dict[str, str]) -> None:
    """A cancel stops a running analysis: the slow claim is held mid-search, cancelled, then let go; its
    next progress report ends it. The widget says Cancelled and stops polling, the case keeps no ruling."""
    from tests.web import fake_claims
    from web.tables import rulings as store

    fake_claims.HOLD.clear()
    job_url = rule(client, stand_ins["slow"], follow=False)
    wait_for_widget(client, job_url, "1,000 of 40,000 nodes")  # running, not merely queued
    client.post(f"{job_url}/cancel", headers={"HX-Request": "true"})
    fake_claims.HOLD.set()
    widget = wait_for_widget(client, job_url, "Cancelled")
    assert "hx-trigger" not in widget
    assert client.get(job_url).status_code == 200, "no ruling to redirect to"
    case_id = int(job_url.rsplit("/", 1)[1])
    with app.extensions["db_sessions"]() as session:
        assert store.ruling_for_case(session, case_id) is None
        assert [note.kind for note in store.notes_for_case(session, case_id)][-1] == "cancelled"
    assert app.extensions["adjudicator"].job(case_id).state == "cancelled"


def test_a_failing_analysis_is_a_plain_message_not_a_500(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    response = client.post(
        "/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": stand_ins["broken"], "record": RECORD}
    )
    assert response.status_code == 503, "the server's failure, said so, with the form kept"
    page = response.get_data(as_text=True)
    assert "the analysis failed" in page and "Traceback" not in page and "4. Ng1 Ng8" in page


def test_the_ruling_sheet_is_a_pdf(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    url = rule(client, stand_ins["quick"], round="2", board="11", first_player="Carlsen", second_player="Caruana")
    response = client.get(f"{url}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF") and len(response.data) > 5000


def test_the_sheet_shows_diagram_claim_ruling_articles_and_signatures(app: Flask, stand_ins: dict[str, str]) -> None:
    client = app.test_client()
    url = rule(client, stand_ins["quick"], first_player="Carlsen")
    if "/cases/" in url:  # a loaded machine: the ruling took longer than the form waits, so the job page first
        url = wait_for_ruling(client, url)
    from web.rulings.views import context_for, load

    with app.test_request_context():
        from flask import render_template

        ruling, case = load(int(url.rsplit("/", 1)[1]))
        html = render_template("rulings/sheet.html", **context_for(ruling, case))
    for text in ("<svg", "Threefold repetition", "upheld", "FIDE 9.2.2", "Carlsen", "Arbiter (name, signature)",
                 "2... Ng8"):
        assert text in html


def test_history_searches_by_round_board_and_player(client: FlaskClient, stand_ins: dict[str, str]) -> None:
    rule(client, stand_ins["quick"], round="1", board="4", first_player="Ann Alpha", second_player="Bob Beta")
    rule(client, stand_ins["quick"], round="2", board="4", first_player="Cat Gamma", second_player="Dan Delta")
    everything = client.get("/history").get_data(as_text=True)
    assert "Ann Alpha" in everything and "Cat Gamma" in everything
    by_round = client.get("/history?round=2").get_data(as_text=True)
    assert "Cat Gamma" in by_round and "Ann Alpha" not in by_round
    by_player = client.get("/history?player=beta").get_data(as_text=True)
    assert "Ann Alpha" in by_player and "Cat Gamma" not in by_player
    fragment = client.get("/history?board=4", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in fragment and fragment.count("ruling-row") == 2
    assert "No ruling matches" in client.get("/history?board=99").get_data(as_text=True)


def test_a_missing_ruling_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/rulings/999")
    assert response.status_code == 404 and "There is no ruling 999" in response.get_data(as_text=True)


def test_a_game_already_over_shows_the_ply_and_the_proof(client: FlaskClient) -> None:
    """A fifty-move claim after 40...Bxc1 left king and bishop against king: the page says where the game ended
    (5.2.2), why, and opens the board on that position; the JSON API gives the same ply."""
    record = '[SetUp "1"]\n[FEN "4k3/8/8/8/8/4b3/8/2R1K3 b - - 0 40"]\n\n40... Bxc1 41. Kd1 Bf4 42. Ke2 Ke7 *'
    url = rule(client, "fifty-move", record=record, claimant="black")
    if "/jobs/" in url:
        url = wait_for_ruling(client, url)
    page = client.get(url).get_data(as_text=True)
    card = page[page.index('id="game-over"'):]
    card = card[: card.index("</div>")]
    assert "The game had already ended after 40... Bxc1 (ply 1)" in card
    assert "A dead position ended the game there" in card
    assert "King and bishop (Black) against king: neither player can checkmate with this material." in card
    assert "After 40... Bxc1" in page, "the board opens where the game ended"
    ruling_id = url.rsplit("/", 1)[1]
    data = client.get(f"/api/v1/rulings/{ruling_id}").get_json()
    assert (data["verdict"], data["result"], data["evidence"]["ended_at_ply"]) == ("upheld", "1/2-1/2", 1)


def test_the_helpmate_analysis_proof_is_in_words(client: FlaskClient) -> None:
    """A locked pawn wall (1.g4): the proof names the blockade for each side and the helpmate one ply before."""
    record = '[SetUp "1"]\n[FEN "8/8/1k6/p1p1p1p1/P1P1P3/6P1/5K2/8 w - - 0 1"]\n\n1. g4 Kc7 2. Ke3 *'
    url = rule(client, "threefold-repetition", record=record, claimant="black")
    if "/jobs/" in url:
        url = wait_for_ruling(client, url)
    page = client.get(url).get_data(as_text=True)
    assert "The game had already ended after 1. g4 (ply 1)" in page
    assert "White cannot checkmate by any series of legal moves: a blockade no series of moves can open." in page
    assert "One ply earlier (ply 0) White could still checkmate" in page
    assert 'id="line-game_end-alive_before-helpmate"' in page
