"""The authorization matrix (issue 11): every role against every route in each kind of event.

Events: ``default`` (the install's open public event), ``pub`` (public, its own staff),
``priv`` (private). Roles (see :func:`events_support.build_world`): anonymous, olga (a
committee user on no event's staff), tdef (a TD on no event's staff: the default event's
TD only), tpub / tpriv (TDs of pub / priv), m1 (seated on every committee case), m4 (on
priv's committee pool, never seated), april (priv's appeals committee), ada (admin) and
tok (tpriv's token limited to priv). ``-`` marks a pair that does not apply (a token on a
page). Someone with no part in an event gets 404 for its cases, appeals and checks, as if
they did not exist (issue 23); its other staff get 403. A write naming a private event answers its
strangers as for an event that does not exist: 422 ``unknown_event`` (issue 39).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from committee_support import checkers_case, make_app
from events_support import EVENTS, QUICK_CASE, World, board_case, build_world, file_ruling_appeal, store_collection

ROLES = ("anon", "olga", "tdef", "tpub", "tpriv", "m4", "m1", "april", "ada", "tok")

# route -> role -> statuses in (default, pub, priv)
MATRIX: dict[str, dict[str, tuple[Any, Any, Any]]] = {
    "POST /api/v1/rulings": {  # a private event's strangers: 422 unknown_event, as for a slug no event has
        "anon": (201, 401, 422), "olga": (201, 403, 422), "tdef": (201, 403, 422), "tpub": (201, 201, 422),
        "tpriv": (201, 403, 201), "m4": (201, 403, 403), "m1": (201, 403, 403), "april": (201, 403, 403),
        "ada": (201, 201, 201), "tok": (403, 403, 201)},
    "GET /api/v1/rulings/<id>": {
        "anon": (200, 200, 404), "olga": (200, 200, 404), "tdef": (200, 200, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 200, 200), "m4": (200, 200, 200), "m1": (200, 200, 200), "april": (200, 200, 200),
        "ada": (200, 200, 200), "tok": (200, 200, 200)},  # public rulings are public, token or not
    "GET /rulings/<id>": {
        "anon": (200, 200, 404), "olga": (200, 200, 404), "tdef": (200, 200, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 200, 200), "m4": (200, 200, 200), "m1": (200, 200, 200), "april": (200, 200, 200),
        "ada": (200, 200, 200), "tok": ("-", "-", "-")},
    "GET /cases/<id>": {
        "anon": (200, 200, 404), "olga": (200, 200, 404), "tdef": (200, 200, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 200, 200), "m4": (200, 200, 200), "m1": (200, 200, 200), "april": (200, 200, 200),
        "ada": (200, 200, 200), "tok": ("-", "-", "-")},
    "POST /cases/<id>/cancel": {  # default's job entered by another browser, pub's by tpub, priv's by tpriv
        "anon": (403, 403, 404), "olga": (403, 403, 404), "tdef": (303, 403, 404), "tpub": (303, 303, 404),
        "tpriv": (303, 403, 303), "m4": (403, 403, 403), "m1": (403, 403, 403), "april": (403, 403, 403),
        "ada": (303, 303, 303), "tok": ("-", "-", "-")},
    "POST /api/v1/committee-cases": {  # anonymous: 401 before any event is read
        "anon": (401, 401, 401), "olga": (403, 403, 422), "tdef": (201, 403, 422), "tpub": (201, 201, 422),
        "tpriv": (201, 403, 201), "m4": (403, 403, 403), "m1": (403, 403, 403), "april": (403, 403, 403),
        "ada": (201, 201, 201), "tok": (403, 403, 201)},
    "GET /api/v1/committee-cases/<id>": {  # a stranger to the event: 404 (not told the case exists)
        "anon": (401, 401, 401), "olga": (403, 404, 404), "tdef": (200, 404, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 404, 200), "m4": (403, 404, 403), "m1": (200, 200, 200), "april": (200, 404, 200),
        "ada": (200, 200, 200), "tok": (404, 404, 200)},
    "GET /committee/cases/<id>": {
        "anon": (302, 302, 302), "olga": (403, 404, 404), "tdef": (200, 404, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 404, 200), "m4": (403, 404, 403), "m1": (200, 200, 200), "april": (200, 404, 200),
        "ada": (200, 200, 200), "tok": ("-", "-", "-")},
    "GET /api/v1/appeals/<id>": {
        "anon": (401, 401, 401), "olga": (403, 404, 404), "tdef": (200, 404, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 404, 200), "m4": (403, 404, 403), "m1": (403, 403, 403), "april": (200, 404, 200),
        "ada": (200, 200, 200), "tok": (404, 404, 200)},
    "POST /api/v1/appeals/<id>/decision": {  # filed by the event's TD (the appellant never decides)
        "anon": (401, 401, 401), "olga": (403, 404, 404), "tdef": (403, 404, 404), "tpub": (403, 403, 404),
        "tpriv": (403, 404, 403), "m4": (403, 404, 403), "m1": (403, 403, 403), "april": (201, 404, 201),
        "ada": (201, 201, 201), "tok": (404, 404, 403)},
    "GET /events/<slug>/checks": {  # the checks page: the event's TDs (and admins) only
        "anon": (404, 404, 404), "olga": (403, 404, 404), "tdef": (200, 404, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 404, 200), "m4": (403, 404, 403), "m1": (403, 403, 403), "april": (403, 404, 403),
        "ada": (200, 200, 200), "tok": ("-", "-", "-")},
    "POST /events/<slug>/checks (a stored collection)": {
        "anon": (404, 404, 404), "olga": (403, 404, 404), "tdef": (303, 404, 404), "tpub": (303, 303, 404),
        "tpriv": (303, 404, 303), "m4": (403, 404, 403), "m1": (403, 403, 403), "april": (403, 404, 403),
        "ada": (303, 303, 303), "tok": ("-", "-", "-")},
    "GET /events/<slug>/collections/<id>": {  # a stored file: the event's staff, as its reports
        "anon": (404, 404, 404), "olga": (200, 404, 404), "tdef": (200, 404, 404), "tpub": (200, 200, 404),
        "tpriv": (200, 404, 200), "m4": (200, 404, 200), "m1": (200, 200, 200), "april": (200, 404, 200),
        "ada": (200, 200, 200), "tok": ("-", "-", "-")},
}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        app = make_app(tmp_path_factory.mktemp("matrix"), monkeypatch)
        world = build_world(app)
        for slug, td in (("default", "tdef"), ("pub", "tpub"), ("priv", "tpriv")):
            store_collection(world, slug, td)
        yield world
        app.extensions["adjudicator"].shutdown()


def _rule(world: World, who: str, slug: str) -> int:
    return int(world.app.test_client().post("/api/v1/rulings", json={**QUICK_CASE, "event": slug},
                                            headers=world.headers(who)).status_code)


def _show_ruling_api(world: World, who: str, slug: str) -> int:
    return int(world.app.test_client().get(f"/api/v1/rulings/{world.rulings[slug]}",
                                           headers=world.headers(who)).status_code)


def _show_ruling_page(world: World, who: str, slug: str) -> int:
    return int(world.login(who).get(f"/rulings/{world.rulings[slug]}").status_code)


def _job_page(world: World, who: str, slug: str) -> int:
    return int(world.login(who).get(f"/cases/{world.board_cases[slug]}").status_code)


def _cancel(world: World, who: str, slug: str) -> int:
    submitter = {"default": "anon", "pub": "tpub", "priv": "tpriv"}[slug]
    case_id = board_case(world.app, slug, submitter)  # a fresh job each time; the default one from another browser
    return int(world.login(who).post(f"/cases/{case_id}/cancel").status_code)


def _open_case(world: World, who: str, slug: str) -> int:
    return int(world.app.test_client().post("/api/v1/committee-cases",
                                            json={**checkers_case(["m1", "m2", "m3"]), "event": slug},
                                            headers=world.headers(who)).status_code)


def _show_case_api(world: World, who: str, slug: str) -> int:
    return int(world.app.test_client().get(f"/api/v1/committee-cases/{world.committee_cases[slug]}",
                                           headers=world.headers(who)).status_code)


def _show_case_page(world: World, who: str, slug: str) -> int:
    return int(world.login(who).get(f"/committee/cases/{world.committee_cases[slug]}").status_code)


def _show_appeal(world: World, who: str, slug: str) -> int:
    return int(world.app.test_client().get(f"/api/v1/appeals/{world.appeals[slug]}",
                                           headers=world.headers(who)).status_code)


def _decide(world: World, who: str, slug: str) -> int:
    appeal_id = file_ruling_appeal(world, slug)  # a fresh appeal each time
    return int(world.app.test_client().post(f"/api/v1/appeals/{appeal_id}/decision", headers=world.headers(who),
                                            json={"outcome": "upheld", "reasons": "the count is right"}).status_code)


def _checks_page(world: World, who: str, slug: str) -> int:
    return int(world.login(who).get(f"/events/{slug}/checks").status_code)


def _check_stored(world: World, who: str, slug: str) -> int:
    return int(world.login(who).post(f"/events/{slug}/checks", data={
        "collection_id": str(world.collections[slug]), "ruleset": "fide-standard"}).status_code)


def _stored_file(world: World, who: str, slug: str) -> int:
    response = world.login(who).get(f"/events/{slug}/collections/{world.collections[slug]}")
    assert (response.status_code == 200) == (b"Qxf7#" in response.data)  # the file, or nothing of it
    return int(response.status_code)


ROUTES: dict[str, Callable[[World, str, str], int]] = {
    "POST /api/v1/rulings": _rule,
    "GET /api/v1/rulings/<id>": _show_ruling_api,
    "GET /rulings/<id>": _show_ruling_page,
    "GET /cases/<id>": _job_page,
    "POST /cases/<id>/cancel": _cancel,
    "POST /api/v1/committee-cases": _open_case,
    "GET /api/v1/committee-cases/<id>": _show_case_api,
    "GET /committee/cases/<id>": _show_case_page,
    "GET /api/v1/appeals/<id>": _show_appeal,
    "POST /api/v1/appeals/<id>/decision": _decide,
    "GET /events/<slug>/checks": _checks_page,
    "POST /events/<slug>/checks (a stored collection)": _check_stored,
    "GET /events/<slug>/collections/<id>": _stored_file,
}

CELLS = [(route, who, slug, MATRIX[route][who][i])
         for route in MATRIX for who in ROLES for i, slug in enumerate(EVENTS) if MATRIX[route][who][i] != "-"]


def test_the_matrix_covers_every_route_and_role() -> None:
    assert set(MATRIX) == set(ROUTES)
    assert all(set(row) == set(ROLES) for row in MATRIX.values())


@pytest.mark.parametrize(("route", "who", "event", "status"), CELLS,
                         ids=[f"{r}|{w}|{e}" for r, w, e, _s in CELLS])
def test_access(world: World, route: str, who: str, event: str, status: int) -> None:
    assert ROUTES[route](world, who, event) == status
