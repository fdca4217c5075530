"""People from the web (issue 35): an admin adds a user, an organiser adds a substitute TD to their own event,
either resets a password or deactivates a user they manage; staffing keeps the last role chosen and lists
each person's roles; a token is shown whole with a Copy button and revoking asks once. Who may and who may
not, for every route.

Who is who: ada (admin), olive (organiser of ``spring``), owen (organiser of ``autumn``), tina (a TD on
spring's staff only), carl (a committee member on spring's and autumn's staff), tara (a TD on no staff).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, make_app
from events_support import PASSWORD
from flask import Flask
from test_event_staff_pages import SPRING
from test_revocation import audit_is_intact

from web.auth.revoke import reset_password
from web.tables.users import user_by_name


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = make_app(tmp_path, monkeypatch, PASSWORD_HASH_METHOD="pbkdf2:sha256:1000")
    for name, role in (("ada", "admin"), ("olive", "td"), ("owen", "td"), ("tina", "td"), ("carl", "committee"),
                       ("tara", "td")):
        add_user(app, name, role, password=PASSWORD)
    ada = login(app, "ada")  # through the pages: every change audited
    for slug in ("spring", "autumn"):
        assert ada.post("/admin/events/", data={**SPRING, "slug": slug, "name": slug.title()}).status_code == 303
    for slug, name, role in (("spring", "olive", "organiser"), ("autumn", "owen", "organiser"),
                             ("spring", "tina", "td"), ("spring", "carl", "committee"),
                             ("autumn", "carl", "committee")):
        assert ada.post(f"/admin/events/{slug}/staff", data={"user": name, "role": role}).status_code == 303
    yield app
    app.extensions["adjudicator"].shutdown()


def login(app: Flask, name: str, password: str = PASSWORD) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": password}).status_code == 303, name
    return client


def user_id(app: Flask, name: str) -> int:
    with app.extensions["db_sessions"]() as session:
        user = user_by_name(session, name)
        assert user is not None
        return user.id


def shown(page: str, field: str) -> str:
    found = re.search(rf'<textarea id="{field}"[^>]*>([^<]+)</textarea>', page)
    assert found is not None, field
    return found.group(1)


def test_an_admin_adds_a_user_who_logs_in_with_the_password_shown_once(app: Flask) -> None:
    ada = login(app, "ada")
    answer = ada.post("/admin/users", data={"name": "sub", "role": "committee", "club": "Hastings"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    page = answer.get_data(as_text=True)
    password, token = shown(page, "new-password"), shown(page, "new-user-token")
    assert len(token) > 40, "the token whole"
    assert 'data-copy="#new-password"' in page and 'data-copy="#new-user-token"' in page
    login(app, "sub", password)
    assert app.test_client().get("/api/v1/committee-cases", headers={"Authorization": f"Bearer {token}"}
                                 ).status_code != 401
    listing = ada.get("/admin/").get_data(as_text=True)
    assert password not in listing and token not in listing, "shown once"
    person = re.search(r'id="user-\d+"><strong>sub</strong>\s*<span class="muted">committee pool', listing)
    assert person is not None, "the user list shows the role"
    carl = re.search(r"<strong>carl</strong>.*?</li>", listing, re.S)
    assert carl is not None and "committee pool in Spring, committee pool in Autumn" in carl.group(0)
    audit_is_intact(app)


def test_a_refused_user_names_the_field_and_keeps_what_was_typed(app: Flask) -> None:
    ada = login(app, "ada")
    taken = ada.post("/admin/users", data={"name": "tina", "role": "td", "club": "Ely"})
    assert taken.status_code == 422
    page = taken.get_data(as_text=True)
    assert "a user named &#39;tina&#39; already exists" in page or "a user named 'tina' already exists" in page
    assert 'value="Ely"' in page
    assert ada.post("/admin/users", data={"name": "x", "role": "chief"}).status_code == 422


def test_an_organiser_adds_a_substitute_td_to_their_event_who_rules_there(app: Flask) -> None:
    olive = login(app, "olive")
    answer = olive.post("/admin/events/spring/people", data={"name": "sam", "role": "td"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    password = shown(answer.get_data(as_text=True), "new-password")
    sam = login(app, "sam", password)
    ruled = sam.post("/claims", data={"event_slug": "spring", "ruleset_event": "spring", "game": "chess",
                                      "ruleset": "fide-rapid", "claim": "threefold-repetition",
                                      "claimant": "white", "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"})
    assert ruled.status_code == 303, "a TD of spring"
    refused = olive.post("/admin/events/spring/people", data={"name": "boss", "role": "organiser"})
    assert refused.status_code == 403, "organisers are an admin's to add"
    assert "only an admin does" in refused.get_data(as_text=True)
    assert olive.post("/admin/events/autumn/people", data={"name": "x2", "role": "td"}).status_code == 404, \
        "a stranger to autumn (private) is not told it exists"
    assert login(app, "tina").post("/admin/events/spring/people", data={"name": "x3", "role": "td"}
                                   ).status_code == 403
    audit_is_intact(app)


def test_staffing_keeps_the_last_role_and_lists_each_person_s_roles(app: Flask) -> None:
    olive = login(app, "olive")
    assert olive.post("/admin/events/spring/staff", data={"user": "tara", "role": "committee"}).status_code == 303
    page = olive.get("/admin/events/spring").get_data(as_text=True)
    assert '<option value="committee" selected>Committee pool</option>' in page, "the role chosen last"
    assert olive.post("/admin/events/spring/staff", data={"user": "tara", "role": "appeals"}).status_code == 303
    page = olive.get("/admin/events/spring").get_data(as_text=True)
    tara = re.search(r"<strong>tara</strong>.*?</ul>", page, re.S)
    assert tara is not None
    assert re.findall(r'<span class="role">([^<]+)</span>', tara.group(0)) == ["Appeals committee", "Committee pool"]


def test_an_organiser_resets_the_password_of_a_person_of_their_event_only(app: Flask) -> None:
    old = login(app, "tina")
    olive = login(app, "olive")
    tina = user_id(app, "tina")
    answer = olive.post(f"/admin/users/{tina}/password", data={"event": "spring"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    password = shown(answer.get_data(as_text=True), "new-password")
    assert old.get("/committee/").status_code == 302, "the old log-in ended"
    assert app.test_client().post("/login", data={"name": "tina", "password": PASSWORD}).status_code == 401
    passwords = {"tina": password}
    login(app, "tina", password)
    for who, target in (("olive", "carl"), ("olive", "tara"), ("olive", "ada"), ("owen", "tina"),
                        ("tina", "olive"), ("carl", "tina")):
        assert login(app, who, passwords.get(who, PASSWORD)).post(f"/admin/users/{user_id(app, target)}/password",
                                    data={"event": "spring"}).status_code == 403, (who, target)
    audit_is_intact(app)


def test_an_organiser_deactivates_a_person_of_their_event_only(app: Flask) -> None:
    olive = login(app, "olive")
    for target in ("carl", "tara", "ada", "olive"):  # carl is on autumn's staff too; tara on none
        assert olive.post(f"/admin/users/{user_id(app, target)}/deactivate", data={"event": "spring"}
                          ).status_code == 403, target
    tina_browser = login(app, "tina")
    done = olive.post(f"/admin/users/{user_id(app, 'tina')}/deactivate", data={"event": "spring"})
    assert done.status_code == 303 and done.headers["Location"].endswith("/admin/events/spring#staff")
    assert tina_browser.get("/committee/").status_code == 302
    assert login(app, "owen").post(f"/admin/users/{user_id(app, 'carl')}/deactivate").status_code == 403
    audit_is_intact(app)


def test_the_admin_routes_stay_the_admins(app: Flask) -> None:
    tina = user_id(app, "tina")
    for who in ("olive", "tina", "carl"):
        client = login(app, who)
        assert client.get("/admin/").status_code == 403, who
        assert client.post("/admin/users", data={"name": "x", "role": "admin"}).status_code == 403, who
        assert client.post(f"/admin/users/{tina}/revoke-token").status_code == 403, who
    anonymous = app.test_client()
    for path in ("/admin/users", f"/admin/users/{tina}/password", f"/admin/users/{tina}/deactivate",
                 "/admin/events/spring/people"):
        assert anonymous.post(path, data={"name": "x", "role": "td"}).status_code == 302, path  # to the log-in
    ada = login(app, "ada")
    assert ada.post(f"/admin/users/{tina}/password").status_code == 200
    assert ada.post(f"/admin/users/{user_id(app, 'ada')}/deactivate").status_code == 409, "not oneself"


def test_revoking_asks_once_without_javascript(app: Flask) -> None:
    ada = login(app, "ada")
    shown_token = ada.post("/admin/events/spring/tokens", data={"user": "tina"}).get_data(as_text=True)
    assert 'data-copy="#new-token"' in shown_token and len(shown(shown_token, "new-token")) > 40
    page = ada.get("/admin/events/spring").get_data(as_text=True)
    question = re.search(r'<details class="confirm">\s*<summary aria-label="Revoke tina(?:\'|&#39;)s token">'
                         r'Revoke</summary>\s*<form method="post" action="/admin/events/spring/tokens/\d+/revoke"',
                         page)
    assert question is not None, "the revoke button is behind one question"
    admin = ada.get("/admin/").get_data(as_text=True)
    assert re.search(r'<summary aria-label="Revoke tokens tina">Revoke tokens</summary>', admin)


def test_reset_password_is_audited_with_who_did_it(app: Flask) -> None:
    with app.extensions["db_sessions"]() as session:
        user = user_by_name(session, "tara")
        assert user is not None
        before = user.password_hash
        reset_password(session, user, actor="ada", hash_method="pbkdf2:sha256:1000")
        session.commit()
        assert user.password_hash != before
    audit_is_intact(app)
