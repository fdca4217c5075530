"""Issue 22 on a 390x844 touch phone in Debian's Chromium: every ruling lands with the verdict at the
top of the screen (answered at once, or through the job page), every refusal lands with its first
error on the screen, on its field, with the focus there and what was typed kept; choosing an event
preselects its ruleset; an ILC claim is ruled in one tap from the ruling page; and no page or submit
of the walk reports a Content-Security-Policy violation (console messages and
``securitypolicyviolation`` events, collected in every page of every test).
Screenshots: tests/artifacts/verdict-*.png."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import chess
import pytest
from committee_support import add_user, bearer, checkers_case, make_app
from events_support import add_event, assign
from werkzeug.serving import make_server

from tests.web.conftest import ARTIFACTS, PHONE, shot
from tests.web.phone_support import STILL, choose, log_in, phone_page, set_up_position, settle
from web.tables.rulings import RulingRow

pytestmark = pytest.mark.browser

PASSWORD = "password-xxxx"
ILLEGAL = ("1. e4 {[%clk 0:59:50]} e5 {[%clk 0:59:40]} 2. Nf3 {[%clk 0:59:00]} Nc6 {[%clk 0:58:30]} "
           "3. Bb5 {[%clk 0:58:00]} a6 {[%clk 0:57:00]} 4. Ke3 {[%clk 0:56:00]} Nf6 {[%clk 0:55:00]}")
ILC_DEFERRED = {"ruleset": "fide-standard-guidelines-iii", "claimant": "black",
                "fen": "6k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 60",  # the engine recommends "clear": not a proof
                "clock": {"white": "0:05:00", "black": "0:01:30"}, "time_control": "5400"}
CLAIMS: dict[tuple[str, str], dict[str, Any]] = {
    ("chess", "threefold-repetition"): {"claimant": "white", "record": '[White "Alpha"]\n[Black "Beta"]\n\n'
                                        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"},
    ("chess", "fifty-move"): {"claimant": "white", "fen": "8/8/4k3/8/8/2B5/4K3/1R6 w - - 100 90"},
    ("chess", "flag"): {"claimant": "white", "fen": "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
                        "clock": {"white": "0:01:10", "black": "0:00:00", "flagged": ["black"]}},
    ("chess", "insufficient-losing-chances"): ILC_DEFERRED,
    ("chess", "illegal-move"): {"claimant": "black", "record": ILLEGAL},
    ("chess", "unfinished-game"): {"claimant": "white", "fen": "7k/8/5KQ1/8/8/8/8/8 w - - 0 70",
                                   "clock": {"white": "0:05:00", "black": "0:05:00"}, "time_control": "5400"},
    ("checkers", "threefold-repetition"): {"ruleset": "acf", "claimant": "white", "intended_move": "23-27",
                                           "record": '[FEN "B:WK27:BK6"]\n6-10 27-23 10-6 23-27 6-10 27-23 10-6'},
    ("checkers", "forty-move"): {"ruleset": "acf", "claimant": "white",
                                 "record": "1. 11-15 24-20 2. 15-19 23x16 3. 12x19"},
    ("checkers", "flag"): {"ruleset": "acf", "claimant": "white", "record": "1. 11-15 24-20 2. 15-19 23x16 3. 12x19",
                           "clock": {"red": "0:00:00", "white": "0:02:00", "flagged": ["red"]}},
    ("checkers", "illegal-move"): {"ruleset": "acf", "claimant": "red", "record": '[FEN "W:W23,30:B18,1"]\n30-26'},
    ("checkers", "unfinished-game"): {"ruleset": "acf", "claimant": "red", "fen": "B:W21,22,23,K30:B9,10,11",
                                      "clock": {"red": "0:05:00", "white": "0:05:00"}, "time_control": "G/30"},
}
"""One case of each claim of each game, each stored by the API and then entered again through the form."""

IN_VIEW = """(selector) => { const e = document.querySelector(selector); if (!e) return null;
  const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: innerHeight, y: scrollY} }"""

CSP_LISTENER = """document.addEventListener('securitypolicyviolation', (e) =>
  console.error('CSP violation: ' + e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || '')))"""


@dataclass
class Site:
    base: str
    cases: dict[tuple[str, str], int]
    """Stored case ids, by (game, claim), in the open default event."""
    ilc_ruling: int
    club_ruling: int
    appeal: int
    committee_case: int
    violations: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("verdict"), mp, WTF_CSRF_ENABLED=True, COMMITTEE_POLL_SECONDS=1)
    tina = add_user(app, "tina", "td", password=PASSWORD)
    add_user(app, "m1", "committee", club="Rooks", password=PASSWORD)
    for name in ("m2", "m3"):
        add_user(app, name, "committee", password=PASSWORD)
    add_user(app, "april", "appeals", password=PASSWORD)
    add_event(app, "club", private=True, ruleset="fide-rapid")
    assign(app, "club", "tina", "td")
    assign(app, "club", "april", "appeals")
    client = app.test_client()
    cases: dict[tuple[str, str], int] = {}
    ilc_ruling = 0
    for (game, claim), extra in CLAIMS.items():
        response = client.post("/api/v1/rulings", json={"game": game, "ruleset": "fide-standard", "claim": claim,
                                                        **extra})
        assert response.status_code == 201, response.json
        with app.extensions["db_sessions"]() as session:
            cases[(game, claim)] = session.get(RulingRow, response.json["id"]).case_id
        if claim == "insufficient-losing-chances":
            ilc_ruling = response.json["id"]
            assert response.json["verdict"] == "deferred"
    club = client.post("/api/v1/rulings", headers=bearer(tina), json={
        "game": "chess", "ruleset": "fide-rapid", "claim": "threefold-repetition", "claimant": "white",
        "event": "club", "record": CLAIMS[("chess", "threefold-repetition")]["record"]})
    assert club.status_code == 201, club.json
    appeal = client.post("/api/v1/appeals", headers=bearer(tina), json={"subject": f"ruling:{club.json['id']}",
                                                                       "grounds": "Black says 4. Ng1 was not played"})
    assert appeal.status_code == 201, appeal.json
    committee = client.post("/api/v1/committee-cases", headers=bearer(tina), json=checkers_case(["m1", "m2", "m3"]))
    assert committee.status_code == 201, committee.json
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(f"http://127.0.0.1:{server.server_port}", cases, ilc_ruling, club.json["id"], appeal.json["id"],
               committee.json["id"])
    server.shutdown()
    app.extensions["adjudicator"].shutdown()
    mp.undo()


@pytest.fixture
def phone_as(browser: Any, site: Site) -> Iterator[Any]:
    """Pages on the phone, logged in as a user; every console message and CSP event about the policy is kept,
    and none may be reported by the end of the test."""
    contexts: list[Any] = []
    seen: list[str] = []

    def login(name: str | None) -> Any:
        page = phone_page(browser, init_script=CSP_LISTENER)
        contexts.append(page.context)
        page.on("console", lambda message: seen.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text or "CSP violation" in message.text else None)
        page.on("pageerror", lambda error: seen.append(f"{page.url}: {error}"))
        if name is not None:
            log_in(page, site.base, name, PASSWORD)
        return page

    yield login
    for context in contexts:
        context.close()
    site.violations.extend(seen)
    assert seen == [], f"Content-Security-Policy violations or page errors: {seen}"


def to_the_bottom_and_submit(page: Any, button: str = "#claim-submit") -> None:
    """As a TD does: the form filled in, scrolled down to its button, tapped."""
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.evaluate(STILL)
    page.locator(button).tap()


def screen(page: Any, name: str) -> None:
    """The first screen as the TD sees it (beside the full page's screenshot)."""
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen.png"))


def verdict_in_view(page: Any, name: str, left: str = "") -> None:
    """The ruling has loaded (a page other than ``left``) with its verdict on the first screen."""
    page.wait_for_url(lambda url: re.search(r"/rulings/\d+$", url) is not None and url != left)
    page.wait_for_selector("#verdict")
    settle(page)
    box = page.evaluate(IN_VIEW, "section.verdict")
    screen(page, name)
    shot(page, name)
    assert box is not None and 0 <= box["top"] < box["height"] - 100, f"{name}: the verdict is at {box}"


def first_error_in_view(page: Any, name: str, message: str = ".error, #form-errors") -> dict[str, Any]:
    """The refused page: the focused element is the first error's field (or the summary), on screen, with the
    error's words on screen too. Returns what the focused element is."""
    page.wait_for_selector(message)
    settle(page)
    screen(page, name)
    focused = page.evaluate("""() => { const e = document.activeElement; const r = e.getBoundingClientRect();
      const box = e.type === 'radio' && e.closest('label') ? e.closest('label').getBoundingClientRect() : r;
      return {tag: e.tagName, id: e.id, name: e.name || '', invalid: e.getAttribute('aria-invalid'),
              described: e.getAttribute('aria-describedby') || '', top: box.top, bottom: box.bottom,
              height: innerHeight, inError: !!e.closest('.has-error, #form-errors, [aria-invalid=true]')} }""")
    assert focused["tag"] != "BODY", f"{name}: nothing has the focus"
    assert focused["inError"] or focused["invalid"] == "true", f"{name}: the focus is not on an error: {focused}"
    assert focused["top"] >= 0 and focused["bottom"] <= focused["height"], f"{name}: the focused field is off screen"
    described = [d for d in focused["described"].split() if "error" in d]
    words = f"#{described[0]}" if described else "#form-errors"
    box = page.evaluate(IN_VIEW, words)
    assert box is not None and box["top"] >= 0 and box["bottom"] <= box["height"], f"{name}: {words} at {box}"
    shot(page, name)  # last: Chromium's full-page capture moves the scroll of a page with a sticky bar (the claim bar)
    return dict(focused)


# ---------------------------------------------------------------- every ruling lands at the verdict


@pytest.mark.parametrize("game_claim", list(CLAIMS), ids=[f"{g}-{c}" for g, c in CLAIMS])
def test_the_verdict_is_on_the_first_screen_when_the_ruling_loads(site: Site, phone_as: Any,
                                                                   game_claim: tuple[str, str]) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new?from={site.cases[game_claim]}")  # the stored case, entered again
    settle(page)
    assert page.evaluate("() => document.body.scrollHeight") > PHONE["height"], "a form longer than the screen"
    to_the_bottom_and_submit(page)
    verdict_in_view(page, f"verdict-{game_claim[0]}-{game_claim[1]}")


# ---------------------------------------------------------------- every refusal lands at its first error


def _bad_move_record() -> str:
    """42 legal plies, then Bh5, which no bishop can play: the record refused at ply 43."""
    board, sans = chess.Board(), []
    for _ply in range(42):
        move = sorted(board.legal_moves, key=lambda m: (board.is_capture(m), m.uci()))[len(sans) % 3]
        sans.append(board.san(move))
        board.push(move)
    assert not any(board.san(m) == "Bh5" for m in board.legal_moves)
    moves = " ".join(f"{n // 2 + 1}. {s}" if n % 2 == 0 else s for n, s in enumerate(sans))
    return f'[White "Ann"]\n[Black "Bob"]\n\n{moves} 22. Bh5 *'


def test_the_empty_form_lands_on_its_first_error(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new")
    to_the_bottom_and_submit(page)
    focused = first_error_in_view(page, "verdict-refused-empty")
    assert focused["name"] in ("claimant", "record")
    assert "/rulings/" not in page.url


def test_a_record_with_a_bad_move_lands_on_the_record_with_the_record_kept(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new")
    record = _bad_move_record()
    page.check('input[name="claimant"][value="white"]', force=True)
    page.fill("#f-record", record)
    page.locator("#game-details summary").tap()
    page.fill("#f-board", "7")
    to_the_bottom_and_submit(page)
    focused = first_error_in_view(page, "verdict-refused-bad-move", "#record-error")
    assert focused["id"] == "f-record"
    assert "ply 43" in page.inner_text("#record-error") and "Bh5" in page.inner_text("#record-error")
    assert page.input_value("#f-record") == record and page.input_value("#f-board") == "7"
    assert page.is_checked('input[name="claimant"][value="white"]')


def test_a_binary_upload_lands_on_the_file_field_with_the_rest_kept(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new")
    choose(page, "#f-claim", "flag")
    page.check('input[name="claimant"][value="white"]', force=True)
    page.fill("#f-clock_white", "110")  # the number pad: 1:10
    page.fill("#f-clock_black", "0 00")
    page.set_input_files("#f-record_file", files=[{"name": "game.pgn", "mimeType": "application/octet-stream",
                                                   "buffer": bytes(range(256)) * 16}])
    to_the_bottom_and_submit(page)
    focused = first_error_in_view(page, "verdict-refused-binary", "#record_file-error")
    assert focused["id"] == "f-record_file" and "not a text file" in page.inner_text("#record_file-error")
    assert page.input_value("#f-clock_white") == "110" and page.input_value("#f-clock_black") == "0 00"
    assert page.input_value("#f-record") == "", "no garbage read into the record"


def test_the_event_s_ruleset_is_preselected_and_a_wrong_one_is_marked_on_its_select(site: Site,
                                                                                    phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new")
    # issue 35: the form opens on the TD's event (tina's only one), its ruleset preselected
    assert page.input_value("#f-event_slug") == "club" and page.input_value("#f-ruleset") == "fide-rapid"
    assert page.locator("#f-event").count() == 0, "no free-text Event field beside the Event select"
    shot(page, "verdict-event-ruleset-preselected")
    record = CLAIMS[("chess", "threefold-repetition")]["record"]
    page.check('input[name="claimant"][value="white"]', force=True)
    page.fill("#f-record", record)
    choose(page, "#f-ruleset", "fide-standard")  # the TD picks another: the event refuses it
    to_the_bottom_and_submit(page)
    focused = first_error_in_view(page, "verdict-refused-ruleset", "#ruleset-error")
    assert focused["id"] == "f-ruleset" and focused["invalid"] == "true"
    assert "fide-rapid" in page.inner_text("#ruleset-error")
    assert page.input_value("#f-record") == record and page.input_value("#f-event_slug") == "club"
    choose(page, "#f-ruleset", "fide-rapid")
    to_the_bottom_and_submit(page)
    verdict_in_view(page, "verdict-event-ruled")
    assert "Club" in page.inner_text("#event-name")


def _committee_form(page: Any, base: str) -> None:
    page.goto(f"{base}/committee/cases/new")
    page.select_option("#c-game", "checkers")
    page.wait_for_selector("#checkers-editor")  # the form drawn again for checkers: its sides, rulesets, board
    page.select_option("#c-ruleset", "acf-master-division")
    page.fill("#c-fen", "B:W21,22,23,K30:B9,10,11")
    page.fill("#c-red_name", "Ann Red")
    page.fill("#c-red_club", "Rooks")
    page.fill("#c-white_name", "Walt White")
    page.fill("#c-clock_red", "0:03:10")


def test_a_committee_case_without_members_lands_on_the_members(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    _committee_form(page, site.base)
    to_the_bottom_and_submit(page, "#open-case")
    focused = first_error_in_view(page, "verdict-refused-committee-members", "#error-members")
    assert focused["name"] == "members"
    assert page.input_value("#c-fen") == "B:W21,22,23,K30:B9,10,11" and page.input_value("#c-red_club") == "Rooks"


def test_a_committee_member_of_a_player_s_club_lands_on_the_members(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    _committee_form(page, site.base)
    for name in ("m1", "m2", "m3"):
        page.check(f"input[name=members][value={name}]")
    to_the_bottom_and_submit(page, "#open-case")
    focused = first_error_in_view(page, "verdict-refused-committee-club", "#error-members")
    assert focused["name"] == "members" and "m1" in page.inner_text("#error-members")
    assert page.is_checked("input[name=members][value=m2]") and page.input_value("#c-red_name") == "Ann Red"


def test_an_appeal_overturned_without_a_new_result_lands_on_the_result_with_the_reasons_kept(
        site: Site, phone_as: Any) -> None:
    page = phone_as("april")
    page.goto(f"{site.base}/appeals/{site.appeal}")
    page.check("input[name=outcome][value=overturned]")
    page.fill("#d-reasons", "The position never occurred three times.")
    to_the_bottom_and_submit(page, "#decision button[type=submit]")
    focused = first_error_in_view(page, "verdict-refused-appeal", "#d-new_result-error")
    assert focused["id"] == "d-new_result"
    assert page.is_checked("input[name=outcome][value=overturned]")
    assert page.input_value("#d-reasons") == "The position never occurred three times."


# ---------------------------------------------------------------- the ILC finding, an appeal, sharing


def test_an_ilc_claim_is_ruled_in_one_tap_from_its_ruling_page(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/rulings/{site.ilc_ruling}")
    assert page.inner_text("#verdict").lower() == "deferred"
    text = page.inner_text("main")
    assert "td_finding" not in text and "case field" not in text, "no field names in the words"
    shot(page, "verdict-ilc-deferred")
    deferred = page.url
    page.locator("#accept-recommendation").tap()
    verdict_in_view(page, "verdict-ilc-ruled", left=deferred)  # through the job page: ILC is engine work
    assert page.inner_text("#verdict").lower() == "upheld" and page.inner_text("#result") == "½–½"
    assert f"completes ruling #{site.ilc_ruling}" in page.inner_text("#completes")
    page.goto(f"{site.base}/rulings/{site.ilc_ruling}")
    assert "The arbiter has ruled" in page.inner_text("#completed") and page.locator("#finding").count() == 0


def test_a_ruling_is_appealed_from_its_page_and_shared_by_qr_code(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/rulings/{site.club_ruling}")
    assert page.locator("#share svg.qr path").count() >= 1, "the QR code, drawn by the server"
    link = page.input_value("#share-url")
    assert "/s/" in link
    page.locator("#copy-share").tap()
    page.wait_for_function("() => document.querySelector('[data-copy-status]').textContent.length > 0")
    shot(page, "verdict-share")
    page.locator("#appeal summary").tap()
    page.fill("#a-grounds", "The claimant's scoresheet shows 3... Nf6, not 3... Ng8.")
    page.locator("#file-appeal").tap()
    page.wait_for_url(re.compile(r"/appeals/\d+$"))
    assert "The claimant's scoresheet" in page.inner_text("#filed")
    shot(page, "verdict-appealed")


def test_a_td_lands_on_the_claim_form_after_logging_in(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    assert page.url.endswith("/claims/new")


def test_the_checkers_board_flips_and_still_places_pieces_where_tapped(site: Site, phone_as: Any) -> None:
    page = phone_as("tina")
    page.goto(f"{site.base}/claims/new")
    choose(page, "#f-game", "checkers")
    page.wait_for_selector("#checkers-editor", state="attached")
    set_up_position(page)
    first = "() => document.querySelector('#checkers-editor .checkers-grid [data-square]').dataset.square"
    assert page.evaluate(first) == "1", "Red's side at the top"
    page.locator("#checkers-editor [data-flip]").tap()
    assert page.evaluate(first) == "32", "turned round: White's side at the top"
    assert page.get_attribute("#checkers-editor [data-flip]", "aria-pressed") == "true"
    page.locator("#checkers-editor [data-square='5']").tap()  # the chosen piece: a red man
    assert page.input_value("#f-fen") == "B:W:B5"
    shot(page, "verdict-checkers-flipped")


def test_the_pages_of_each_role_run_under_the_policy(site: Site, phone_as: Any) -> None:
    """The walk beyond the claims: each role's pages and the boosted links and forms between them (the
    fixture fails the test on any policy violation or page error)."""
    td = phone_as("tina")
    for path in ("/history", "/committee/", f"/committee/cases/{site.committee_case}", "/appeals/",
                 f"/appeals/{site.appeal}", "/events", "/events/default/checks", f"/rulings/{site.club_ruling}"):
        td.goto(f"{site.base}{path}")
        settle(td)
    td.goto(f"{site.base}/claims/new")
    for claim in ("flag", "illegal-move", "unfinished-game"):  # fide-standard has no ILC claim (Guidelines III)
        choose(td, "#f-claim", claim)  # htmx redraws of the form
    td.locator("nav.areas a:has-text('History')").tap()  # a boosted link
    td.wait_for_url(re.compile(r"/history$"))
    member = phone_as("m2")
    assert member.url.endswith("/committee/"), "a committee member lands on the committee's cases"
    member.goto(f"{site.base}/committee/cases/{site.committee_case}")
    assert member.locator("#recommendation #verify-box").count() == 1, "the engine hidden before verifying"
    assert "Recommended result" not in member.inner_text("#recommendation")
    shot(member, "verdict-committee-before-verifying")
    member.locator("#verify-box").check()  # htmx posts it: the analysis shows
    member.wait_for_selector("#recommendation :text('Recommended result')")
    assert member.is_checked("#vote input[name=position_verified]")
    shot(member, "verdict-committee-verified")
    appeals = phone_as("april")
    assert appeals.url.endswith("/appeals/")
    appeals.goto(f"{site.base}/appeals/{site.appeal}")
    settle(appeals)
