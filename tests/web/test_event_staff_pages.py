"""An event run from the web (issue 22, item 10): an admin makes it, an organiser sets it, staffs it and
issues tokens, within the rights of each; every change is an audit entry; the database holds the
same rights when the pages are bypassed (migration 0016), on SQLite and on PostgreSQL.

Who is who: ada (admin), olive (the organiser of ``spring``, a TD elsewhere), tina (a TD), carl (a
committee member), owen (the organiser of ``autumn`` only)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from committee_support import add_user, make_app
from events_support import PASSWORD
from flask import Flask
from test_revocation import audit_is_intact, run

from tests.web.opened_apps import opened

SPRING = {"slug": "spring", "name": "Spring Open", "starts": "2026-04-01", "ends": "2026-04-03",
          "ruleset": "fide-rapid", "visibility": "private", "access": "closed", "broadcast": ""}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = make_app(tmp_path, monkeypatch)
    for name, role in (("ada", "admin"), ("olive", "td"), ("tina", "td"), ("carl", "committee"), ("owen", "td")):
        add_user(app, name, role, password=PASSWORD)
    yield app
    app.extensions["adjudicator"].shutdown()


def login(app: Flask, name: str) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def staffed(app: Flask) -> dict[str, Any]:
    """spring made by ada with olive as its organiser; autumn with owen as its."""
    ada = login(app, "ada")
    assert ada.post("/admin/events/", data=SPRING).status_code == 303
    assert ada.post("/admin/events/", data={**SPRING, "slug": "autumn", "name": "Autumn"}).status_code == 303
    assert ada.post("/admin/events/spring/staff", data={"user": "olive", "role": "organiser"}).status_code == 303
    assert ada.post("/admin/events/autumn/staff", data={"user": "owen", "role": "organiser"}).status_code == 303
    return {"ada": ada, "olive": login(app, "olive"), "tina": login(app, "tina"), "owen": login(app, "owen")}


def event_row(app: Flask, slug: str) -> dict[str, Any]:
    code, out = run(app, "events", "list")
    assert code == 0
    return next(e for e in map(json.loads, out.splitlines()) if e["slug"] == slug)


def test_an_admin_makes_an_event_from_the_web_with_its_settings(app: Flask) -> None:
    ada = login(app, "ada")
    response = ada.post("/admin/events/", data=SPRING)
    assert response.status_code == 303 and response.headers["Location"].endswith("/admin/events/spring")
    assert event_row(app, "spring") == {"id": 2, "slug": "spring", "name": "Spring Open", "starts_on": "2026-04-01",
                                        "ends_on": "2026-04-03", "ruleset": "fide-rapid", "visibility": "private",
                                        "is_open": False, "broadcast": None}
    page = ada.get("/admin/events/spring").get_data(as_text=True)
    assert 'value="Spring Open"' in page and '<option value="fide-rapid" selected>' in page
    audit_is_intact(app)


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"slug": "Spring Open"}, "slug", "lower-case letters"),
    ({"name": ""}, "name", "1 to 200 characters"),
    ({"ends": "2026-03-01"}, "ends", "cannot end before it starts"),
    ({"starts": "1 April"}, "starts", "YYYY-MM-DD"),
    ({"ruleset": "no-such-rules"}, "ruleset", "unknown ruleset"),
    ({"broadcast": "ftp://example.org/x.pgn"}, "broadcast", "http(s) URL"),
    ({"visibility": "secret"}, "visibility", "public or private"),
])
def test_a_refused_event_names_its_field_and_keeps_what_was_typed(app: Flask, change: dict[str, str], field: str,
                                                                   words: str) -> None:
    response = login(app, "ada").post("/admin/events/", data={**SPRING, **change})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert words in page
    assert f'aria-describedby="e-{field}-error" autofocus' in page  # the field in error takes the focus
    assert 'value="2026-04-01"' in page or field == "starts"  # what was typed stays
    assert run(app, "events", "list")[1].count("\n") == 1  # the default event alone


def test_the_taken_slug_is_refused(app: Flask) -> None:
    ada = login(app, "ada")
    assert ada.post("/admin/events/", data=SPRING).status_code == 303
    response = ada.post("/admin/events/", data=SPRING)
    assert response.status_code == 422 and "already exists" in response.get_data(as_text=True)


def test_an_organiser_sets_and_staffs_their_event(app: Flask) -> None:
    users = staffed(app)
    olive = users["olive"]
    assert olive.get("/admin/events/spring").status_code == 200
    changed = {**SPRING, "name": "Spring Open 2026", "ruleset": "fide-blitz", "visibility": "public",
               "access": "open", "broadcast": "https://example.org/round.pgn"}
    assert olive.post("/admin/events/spring", data=changed).status_code == 303
    assert event_row(app, "spring") == {"id": 2, "slug": "spring", "name": "Spring Open 2026",
                                        "starts_on": "2026-04-01", "ends_on": "2026-04-03", "ruleset": "fide-blitz",
                                        "visibility": "public", "is_open": True,
                                        "broadcast": "https://example.org/round.pgn"}
    for name, role in (("tina", "td"), ("carl", "committee"), ("carl", "appeals")):
        assert olive.post("/admin/events/spring/staff", data={"user": name, "role": role}).status_code == 303
    assert json.loads(run(app, "events", "staff", "spring")[1].splitlines()[0])["role"] == "appeals"
    staff = [json.loads(line) for line in run(app, "events", "staff", "spring")[1].splitlines()]
    assert sorted((s["user"], s["role"]) for s in staff) == [("carl", "appeals"), ("carl", "committee"),
                                                              ("olive", "organiser"), ("tina", "td")]
    with app.app_context():
        from web.audit import AuditEntry
        from web.db import get_session

        entries = get_session().scalars(sa.select(AuditEntry).where(AuditEntry.kind.in_(["event", "event-staff"]))
                                        .order_by(AuditEntry.seq)).all()
        assert [e.actor for e in entries][-4:] == ["olive"] * 4  # the change and the three places, by olive
        assert json.loads(entries[-1].payload)["assigned_by"] == "olive"
    audit_is_intact(app)


def test_an_organiser_may_not_appoint_organisers_nor_run_another_event(app: Flask) -> None:
    users = staffed(app)
    olive = users["olive"]
    refused = olive.post("/admin/events/spring/staff", data={"user": "tina", "role": "organiser"})
    assert refused.status_code == 403 and "only an admin" in refused.get_data(as_text=True)
    assert '<option value="organiser">' not in olive.get("/admin/events/spring").get_data(as_text=True)
    with app.app_context():
        from web.db import get_session
        from web.tables.events import EventStaff

        owen_place = get_session().scalar(sa.select(EventStaff.id).where(EventStaff.role == "organiser",
                                                                        EventStaff.event_id == 3))
    assert olive.post(f"/admin/events/autumn/staff/{owen_place}/remove").status_code == 404  # a stranger to it
    assert olive.get("/admin/events/autumn").status_code == 404
    assert olive.post("/admin/events/autumn", data=SPRING).status_code == 404
    assert olive.get("/admin/events/default").status_code == 403  # a TD there (open), not its organiser
    assert olive.get("/admin/events/").status_code == 403
    assert olive.post("/admin/events/", data=SPRING).status_code == 403
    assert users["tina"].get("/admin/events/spring").status_code == 404


def test_a_broadcast_folder_is_an_admins_to_give(app: Flask) -> None:
    users = staffed(app)
    refused = users["olive"].post("/admin/events/spring", data={**SPRING, "broadcast": "/srv/dgt/spring"})
    assert refused.status_code == 403 and "folder on the server" in refused.get_data(as_text=True)
    assert event_row(app, "spring")["broadcast"] is None
    assert users["ada"].post("/admin/events/spring", data={**SPRING, "broadcast": "/srv/dgt/spring"}).status_code == 303
    assert users["olive"].post("/admin/events/spring", data={**SPRING, "broadcast": "/srv/dgt/spring",
                                                             "name": "Spring"}).status_code == 303  # kept as it was


def test_tokens_are_issued_by_their_own_user_or_an_admin_and_revoked_by_the_organiser(app: Flask) -> None:
    users = staffed(app)
    olive, ada = users["olive"], users["ada"]
    assert olive.post("/admin/events/spring/staff", data={"user": "tina", "role": "td"}).status_code == 303
    refused = olive.post("/admin/events/spring/tokens", data={"user": "tina"})
    assert refused.status_code == 403 and "nobody else holds it" in refused.get_data(as_text=True)
    shown = ada.post("/admin/events/spring/tokens", data={"user": "tina"})
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"
    token = shown.get_data(as_text=True).split('id="new-token"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]
    quick = {"game": "chess", "ruleset": "fide-rapid", "claim": "threefold-repetition", "claimant": "white",
             "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *", "event": "spring"}
    assert app.test_client().post("/api/v1/rulings", json=quick,
                                  headers={"Authorization": f"Bearer {token}"}).status_code == 201
    with app.app_context():
        from web.db import get_session
        from web.tables.users import user_by_name

        tina_id = user_by_name(get_session(), "tina").id  # type: ignore[union-attr]
    assert olive.post(f"/admin/events/spring/tokens/{tina_id}/revoke").status_code == 303
    assert app.test_client().post("/api/v1/rulings", json=quick,
                                  headers={"Authorization": f"Bearer {token}"}).status_code == 401
    own = olive.post("/admin/events/spring/tokens", data={"user": "olive"}, headers={"HX-Request": "true"})
    body = own.get_data(as_text=True)
    assert own.status_code == 200 and body.startswith('<section class="card" id="tokens"')  # the section alone
    assert "olive&#39;s token for Spring Open" in body or "olive's token for Spring Open" in body
    audit_is_intact(app)


def test_taking_a_place_away_and_the_fragments_of_htmx(app: Flask) -> None:
    users = staffed(app)
    olive = users["olive"]
    added = olive.post("/admin/events/spring/staff", data={"user": "tina", "role": "td"},
                       headers={"HX-Request": "true"})
    assert added.status_code == 200 and added.get_data(as_text=True).startswith('<section class="card" id="staff"')
    assert 'id="tokens" aria-labelledby="tokens-title" hx-swap-oob="true"' in added.get_data(as_text=True)  # its users
    with app.app_context():
        from web.db import get_session
        from web.tables.events import EventStaff

        places = dict(get_session().execute(sa.select(EventStaff.role, EventStaff.id)
                                            .where(EventStaff.event_id == 2)).tuples().all())
    assert olive.post(f"/admin/events/spring/staff/{places['organiser']}/remove").status_code == 403  # theirs: admin's
    assert olive.post(f"/admin/events/spring/staff/{places['td']}/remove").status_code == 303
    unknown = olive.post("/admin/events/spring/staff", data={"user": "nobody", "role": "td"})
    assert unknown.status_code == 422 and "no user named" in unknown.get_data(as_text=True)
    assert olive.post("/admin/events/spring/staff", data={"user": "tina", "role": "chief"}).status_code == 422
    audit_is_intact(app)


def test_the_command_line_appoints_an_organiser(app: Flask) -> None:
    assert run(app, "events", "add", "winter", "--name", "Winter")[0] == 0
    assert run(app, "events", "staff", "winter", "olive", "--role", "organiser")[0] == 0
    assert login(app, "olive").get("/admin/events/winter").status_code == 200
    assert run(app, "events", "set", "winter", "--broadcast", "/srv/dgt/winter")[0] == 0  # the operator's folder
    assert event_row(app, "winter")["broadcast"] == "/srv/dgt/winter"
    audit_is_intact(app)


# -- the database's own rule (migration 0016), with the pages bypassed


def _ids(connection: sa.Connection) -> dict[str, int]:
    rows = connection.execute(sa.text("SELECT name, id FROM users")).all()
    events = connection.execute(sa.text("SELECT slug, id FROM events")).all()
    return {**{name: ident for name, ident in rows}, **{f"event:{slug}": ident for slug, ident in events}}


REFUSED = [
    ("an organiser appoints an organiser",
     "INSERT INTO event_staff (event_id, user_id, role, assigned_at, assigned_by_id) "
     "VALUES (:spring, :tina, 'organiser', 'now', :olive)"),
    ("an organiser staffs another event",
     "INSERT INTO event_staff (event_id, user_id, role, assigned_at, assigned_by_id) "
     "VALUES (:autumn, :tina, 'td', 'now', :olive)"),
    ("a TD staffs an event", "INSERT INTO event_staff (event_id, user_id, role, assigned_at, assigned_by_id) "
                             "VALUES (:spring, :carl, 'td', 'now', :tina)"),
    ("a place is changed", "UPDATE event_staff SET role = 'td' WHERE role = 'organiser'"),
    ("an organiser creates an event", "INSERT INTO events (slug, name, visibility, is_open, created_at, "
                                      "changed_by_id) VALUES ('x', 'X', 'public', FALSE, 'now', :olive)"),
    ("an organiser changes another event", "UPDATE events SET name = 'Mine', changed_by_id = :olive "
                                           "WHERE id = :autumn"),
    ("an organiser renames their event's slug", "UPDATE events SET slug = 'mine', changed_by_id = :olive "
                                                "WHERE id = :spring"),
    ("an organiser issues someone else's token", "INSERT INTO event_tokens (event_id, user_id, token_hash, "
                                                 "created_at, issued_by_id) VALUES (:spring, :tina, 'h', 'now', "
                                                 ":olive)"),
]
ALLOWED = [
    ("an organiser staffs their event", "INSERT INTO event_staff (event_id, user_id, role, assigned_at, "
                                        "assigned_by_id) VALUES (:spring, :carl, 'committee', 'now', :olive)"),
    ("an organiser changes their event", "UPDATE events SET name = 'Mine', changed_by_id = :olive WHERE id = :spring"),
    ("a user issues their own token", "INSERT INTO event_tokens (event_id, user_id, token_hash, created_at, "
                                      "issued_by_id) VALUES (:spring, :tina, 'h2', 'now', :tina)"),
    ("an admin appoints an organiser", "INSERT INTO event_staff (event_id, user_id, role, assigned_at, "
                                       "assigned_by_id) VALUES (:autumn, :olive, 'organiser', 'now', :ada)"),
]


def database_refuses_what_the_pages_refuse(url: str) -> None:
    """On the database at ``url`` (ada, olive, tina, carl; olive organiser of spring, autumn without her)."""
    from web.db import make_engine

    engine = make_engine(url)
    with engine.begin() as connection:
        ids = _ids(connection)
        names = {"spring": ids["event:spring"], "autumn": ids["event:autumn"],
                 **{n: ids[n] for n in ("ada", "olive", "tina", "carl")}}
    for what, sql in REFUSED:
        rule = "only an admin|an organiser of the event|never changed|its own user"  # the trigger's words, not chance
        with pytest.raises(sa.exc.IntegrityError, match=rule), engine.begin() as connection:
            connection.execute(sa.text(sql), {k: v for k, v in names.items() if f":{k}" in sql})
            pytest.fail(f"the database let {what}")
    for _what, sql in ALLOWED:
        with engine.begin() as connection:
            connection.execute(sa.text(sql), {k: v for k, v in names.items() if f":{k}" in sql})
    engine.dispose()


def test_the_database_holds_each_to_their_rights_on_sqlite(app: Flask) -> None:
    staffed(app)
    database_refuses_what_the_pages_refuse(app.config["DATABASE_URL"])


@pytest.mark.slow
def test_the_database_holds_each_to_their_rights_on_postgresql(postgres_url: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from web import create_app
    from web.tables.users import create_user

    app = opened(create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                             "DATABASE_URL": postgres_url}))
    try:
        with app.extensions["db_sessions"]() as session:
            for name, role in (("ada", "admin"), ("olive", "td"), ("tina", "td"), ("carl", "committee"),
                               ("owen", "td")):
                create_user(session, name, role, PASSWORD, hash_method="pbkdf2:sha256:1000")
            session.commit()
        staffed(app)
        database_refuses_what_the_pages_refuse(postgres_url)
    finally:
        app.extensions["adjudicator"].shutdown()
