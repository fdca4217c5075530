"""The API document covers every API route, and the served app keeps to it (schemathesis, issue 11).

Schemathesis generates requests from ``/api/v1/openapi.json`` (valid and invalid bodies,
ids at every size, the bearer token of a TD and of a committee member) and runs them
against the app through WSGI, on SQLite and PostgreSQL. It fails on any 5xx, on a status the document
does not list for the operation, and on a body or content type that breaks the document.
Bounded: a fixed number of examples per operation, well under a minute here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from committee_support import add_user, checkers_case
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis import checks

from tests.web.conftest import make_app
from web.api.openapi import openapi

CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance, checks.response_headers_conformance]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def served(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, dict[str, str]]]:
    """The app with a TD, three committee members, a committee case and a ruling, on each database."""
    url = request.getfixturevalue("postgres_module_url") if request.param == "postgresql" else None
    app = make_app(tmp_path_factory.mktemp("openapi"), **({"DATABASE_URL": url} if url else {}))
    tokens = {"td": add_user(app, "tina", "td")}
    for name in ("m1", "m2", "m3"):
        tokens[name] = add_user(app, name, "committee")
    opened = app.test_client().post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                                    headers={"Authorization": f"Bearer {tokens['td']}"})
    assert opened.status_code == 201  # case 1 exists, so ids are not all 404
    ruled = app.test_client().post("/api/v1/rulings", json={"ruleset": "fide-standard", "claim": "fifty-move",
                                                            "claimant": "white", "record": "1. e4 e5"})
    assert ruled.status_code == 201
    yield app, tokens
    app.extensions["adjudicator"].shutdown()


@pytest.fixture(scope="module")
def api_schema(served: tuple[Flask, dict[str, str]]) -> Any:
    app, _tokens = served
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_served_api_keeps_to_its_document(case: Any, served: tuple[Flask, dict[str, str]]) -> None:
    _app, tokens = served
    token = tokens["m1"] if case.path.endswith("/votes") else tokens["td"]
    headers = {"Authorization": f"Bearer {token}"} if case.path.startswith("/api/v1/committee-cases") else None
    case.call_and_validate(headers=headers, checks=CHECKS)


def test_every_api_route_of_the_app_is_in_the_document(served: tuple[Flask, dict[str, str]]) -> None:
    """A route added under /api/ must be documented (add its area to web.api.openapi.AREAS)."""
    app, _tokens = served
    document = openapi()["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?[a-z_]*id>", "{id}", rule.rule)
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", path)
        assert path in document, f"{rule.rule} is not in the API document"
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert method.lower() in document[path], f"{method} {rule.rule} is not in the API document"


def test_the_committee_api_and_its_token_scheme_are_documented() -> None:
    document = openapi()
    assert document["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer", "description": "a user's API token, from `adjudicator users add`"}
    for path in ("/api/v1/committee-cases", "/api/v1/committee-cases/{id}", "/api/v1/committee-cases/{id}/votes"):
        for operation in document["paths"][path].values():
            assert operation["security"] == [{"bearerAuth": []}]
            assert "401" in operation["responses"]
