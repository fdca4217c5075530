"""A world of three events for the access tests: the default one (open, public), a public
event ``pub`` and a private event ``priv``, each with its own staff, a ruling, a case being
ruled on, a committee case and an appeal."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from committee_support import add_user, bearer, checkers_case
from flask import Flask

from web.audit import now
from web.tables.events import Event, EventStaff, EventToken
from web.tables.users import token_digest, user_by_name

EVENTS = ("default", "pub", "priv")
PASSWORD = "password-xxxx"
QUICK_CASE: dict[str, Any] = {  # a threefold claim proven from the record: no engine
    "game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
    "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *",
}


def add_event(app: Flask, slug: str, *, private: bool = False, ruleset: str | None = None) -> int:
    with app.extensions["db_sessions"]() as session:
        event = Event(slug=slug, name=slug.title(), visibility="private" if private else "public", is_open=False,
                      ruleset=ruleset, created_at=now())
        session.add(event)
        session.commit()
        return event.id


def assign(app: Flask, slug: str, name: str, role: str) -> None:
    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug=slug).one()
        user = user_by_name(session, name)
        assert user is not None
        session.add(EventStaff(event_id=event.id, user_id=user.id, role=role, assigned_at=now()))
        session.commit()


def event_token(app: Flask, slug: str, name: str) -> str:
    token = secrets.token_urlsafe(32)
    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug=slug).one()
        user = user_by_name(session, name)
        assert user is not None
        session.add(EventToken(event_id=event.id, user_id=user.id, token_hash=token_digest(token), created_at=now()))
        session.commit()
    return token


@dataclass
class World:
    app: Flask
    tokens: dict[str, str] = field(default_factory=dict)
    rulings: dict[str, int] = field(default_factory=dict)
    board_cases: dict[str, int] = field(default_factory=dict)
    committee_cases: dict[str, int] = field(default_factory=dict)
    appeals: dict[str, int] = field(default_factory=dict)
    collections: dict[str, int] = field(default_factory=dict)
    """A stored game collection of each event (see :func:`store_collection`)."""

    def login(self, name: str) -> Any:
        client = self.app.test_client()
        if name != "anon":
            assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
        return client

    def headers(self, name: str) -> dict[str, str]:
        return {} if name == "anon" else bearer(self.tokens[name])


def build_world(app: Flask) -> World:
    """Users: olga (committee, no event), tdef (td, no event), tpub (td of pub), tpriv (td of priv),
    m1..m3 (committee pools of pub and priv; seated on every committee case), m4 (priv's pool, never
    seated), april (appeals of priv), ada (admin); tok is tpriv's token for priv only."""
    world = World(app)
    for name, role in (("olga", "committee"), ("tdef", "td"), ("tpub", "td"), ("tpriv", "td"), ("m1", "committee"),
                       ("m2", "committee"), ("m3", "committee"), ("m4", "committee"), ("april", "appeals"),
                       ("ada", "admin")):
        world.tokens[name] = add_user(app, name, role, password=PASSWORD)
    add_event(app, "pub")
    add_event(app, "priv", private=True)
    assign(app, "pub", "tpub", "td")
    assign(app, "priv", "tpriv", "td")
    for member in ("m1", "m2", "m3"):
        assign(app, "pub", member, "committee")
        assign(app, "priv", member, "committee")
    assign(app, "priv", "m4", "committee")
    assign(app, "priv", "april", "appeals")
    world.tokens["tok"] = event_token(app, "priv", "tpriv")
    client = app.test_client()
    submitters = {"default": "anon", "pub": "tpub", "priv": "tpriv"}
    for slug in EVENTS:
        who = submitters[slug]
        response = client.post("/api/v1/rulings", json={**QUICK_CASE, "event": slug}, headers=world.headers(who))
        assert response.status_code == 201, response.json
        world.rulings[slug] = response.json["id"]
        world.board_cases[slug] = board_case(app, slug, who)
        opened = client.post("/api/v1/committee-cases", json={**checkers_case(["m1", "m2", "m3"]), "event": slug},
                             headers=bearer(world.tokens["ada"]))
        assert opened.status_code == 201, opened.json
        world.committee_cases[slug] = opened.json["id"]
        world.appeals[slug] = file_ruling_appeal(world, slug)
    return world


def board_case(app: Flask, slug: str, submitter: str) -> int:
    """A stored case with no ruling yet (as an engine job leaves it while it runs)."""
    from web.tables import rulings as store

    with app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug=slug).one()
        user = None if submitter == "anon" else user_by_name(session, submitter)
        row = store.add_case(session, QUICK_CASE, {}, "web", event.id, None if user is None else user.id)
        session.commit()
        return row.id


def file_ruling_appeal(world: World, slug: str) -> int:
    """An open appeal against the event's ruling, filed by the event's TD (so the admin may decide it)."""
    filer = {"default": "tdef", "pub": "tpub", "priv": "tpriv"}[slug]
    response = world.app.test_client().post("/api/v1/appeals", headers=bearer(world.tokens[filer]), json={
        "subject": f"ruling:{world.rulings[slug]}", "grounds": "the claimant says the count is wrong"})
    assert response.status_code == 201, response.json
    appeal_id: int = response.json["id"]
    return appeal_id


def store_collection(world: World, slug: str, uploader: str) -> int:
    """A one-game PGN kept with the event as its TD's upload would be (web.checks.collections.keep)."""
    from web.checks.collections import keep

    data = b'[Event "matrix"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    with world.app.extensions["db_sessions"]() as session:
        event = session.query(Event).filter_by(slug=slug).one()
        kept = keep(session, event, f"{slug}.pgn", data, "chess", user_by_name(session, uploader))
        world.collections[slug] = kept.collection.id
        return kept.collection.id
