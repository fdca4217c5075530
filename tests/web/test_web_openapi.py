"""The API document covers every API route and only them, and the served app keeps to it: schemathesis with
``--checks all`` (issues 11 and 23). The document is written from the routes (``web.api.operations.described``,
issue 38): :func:`drift` finds an ``/api/`` route not described and a documented operation no route answers,
and ``docs/web-app.md`` (*The JSON API*) lists the same operations.

``st run`` (schemathesis's command line, every phase: examples, coverage, fuzzing, and the stateful
phase that follows the document's links from a created case, ruling or appeal to its other
operations) runs against the app served on 127.0.0.1, on SQLite and on PostgreSQL, with the tokens
of a TD, a committee member (votes) and an appeals member (decisions). Every check: no 5xx, only
documented statuses, bodies and content types, data the document allows accepted and data it does
not refused, 405 with ``Allow``, auth enforced, a created resource found. ``tests/web/schemathesis.toml``
says why 422 answers documented data on the four operations that take a case's facts. Bounded: a
fixed number of examples per operation and a fixed seed (about a minute each on an idle machine).
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, bearer, checkers_case
from flask import Flask
from pydantic import create_model

from tests.web.conftest import make_app, serve
from web.api.openapi import ID, SchemaNameTaken, openapi, path_of
from web.api.operations import described, operation_of
from web.api.schemas import CommitteeCase, Vote
from web.auth.tokens import token_required

CONFIG = Path(__file__).resolve().parent / "schemathesis.toml"
EXAMPLES = int(os.environ.get("ADJUDICATOR_OPENAPI_EXAMPLES", "10"))
"""Examples per operation and phase (``ADJUDICATOR_OPENAPI_EXAMPLES=30`` for a longer run)."""
SEED = "23"


def seeded(app: Flask) -> dict[str, str]:
    """A TD, three committee members, an appeals member; a committee case, a ruling and an appeal (id 1 each)."""
    tokens = {"td": add_user(app, "tina", "td"), "appeals": add_user(app, "april", "appeals")}
    for name in ("m1", "m2", "m3"):
        tokens[name] = add_user(app, name, "committee")
    client = app.test_client()
    opened = client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                         headers=bearer(tokens["td"]))
    assert opened.status_code == 201, opened.json
    ruled = client.post("/api/v1/rulings", json={"ruleset": "fide-standard", "claim": "fifty-move",
                                                 "claimant": "white", "record": "1. e4 e5"})
    assert ruled.status_code == 201, ruled.json
    appealed = client.post("/api/v1/appeals", headers=bearer(tokens["td"]),
                           json={"subject": f"ruling:{ruled.json['id']}", "grounds": "the count is wrong"})
    assert appealed.status_code == 201, appealed.json
    return tokens


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
TEST = "test_schemathesis_with_every_check_finds_nothing"


def config_with_tokens(folder: Path, tokens: dict[str, str]) -> Path:
    """The checked-in configuration, with each operation's token: votes a member's, decisions an appeals
    member's, the rest a TD's."""
    text = CONFIG.read_text()
    for operation, who in (("voteOnCommitteeCase", "m1"), ("decideAppeal", "appeals")):
        text += (f'\n[[operations]]\ninclude-operation-id = "{operation}"\n'
                 f'headers = {{ Authorization = "Bearer {tokens[who]}" }}\n')
    path = folder / "schemathesis.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[int, str]]]:
    """``st run`` against the app served on 127.0.0.1 with CSRF on, as in production, on each database the session
    selected: its exit status and output, by database. The runs go side by side (each its own app, server, database
    and schemathesis process, as they were one after the other): about a minute of the suite less."""
    wanted = [item.callspec.params["database"] for item in request.session.items
              if getattr(item, "originalname", None) == TEST and getattr(item, "module", None) is request.module
              and hasattr(item, "callspec")]
    with contextlib.ExitStack() as stack:
        started: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}
        for database in dict.fromkeys(wanted):
            folder = tmp_path_factory.mktemp(f"openapi-{database}")
            url = request.getfixturevalue("postgres_module_url") if database == "postgresql" else None
            app = make_app(folder, WTF_CSRF_ENABLED=True, TESTING=False, **({"DATABASE_URL": url} if url else {}))
            tokens = seeded(app)
            address = stack.enter_context(contextlib.contextmanager(serve)(app))
            config = config_with_tokens(folder, tokens)
            out = stack.enter_context((folder / "stdout").open("wb"))
            process = subprocess.Popen(
                [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()",
                 "--config-file", str(config), "run", f"{address}/api/v1/openapi.json", "--checks", "all",
                 "-H", f"Authorization: Bearer {tokens['td']}", "--max-examples", str(EXAMPLES), "--seed", SEED,
                 "--workers", "1", "--suppress-health-check", "all", "--no-color"],
                stdout=out, stderr=subprocess.DEVNULL)
            started[database] = (process, folder / "stdout")
        try:
            done = {database: (process.wait(timeout=1200), path) for database, (process, path) in started.items()}
        finally:
            for process, _path in started.values():
                if process.poll() is None:
                    process.kill()
                    process.wait()
        yield {database: (code, path.read_text()) for database, (code, path) in done.items()}


@pytest.mark.parametrize("database", DATABASES)
def test_schemathesis_with_every_check_finds_nothing(runs: dict[str, tuple[int, str]], database: str) -> None:
    code, stdout = runs[database]
    summary = stdout[stdout.rfind("SUMMARY"):]
    assert code == 0, stdout[-6000:]
    counted = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert counted is not None, summary
    assert int(counted.group(1)) >= 9 * EXAMPLES, summary  # every operation, every phase
    print(f"schemathesis on {database}: {counted.group(0)}")


def drift(app: Flask, document: dict[str, Any]) -> list[str]:
    """Every way the app's routes and its API document part: an /api/ route not described, a documented operation
    no route answers, a described route outside /api/, an operation id given twice, a link to no operation."""
    problems: list[str] = []
    routes: set[tuple[str, str]] = set()
    for rule in app.url_map.iter_rules():
        is_described = operation_of(app.view_functions[rule.endpoint]) is not None
        if rule.rule.startswith("/api/") and not is_described:
            problems.append(f"{rule.rule} is not described (web.api.operations.described)")
        elif is_described and not rule.rule.startswith("/api/"):
            problems.append(f"{rule.rule} is described but not an API route")
        methods = (rule.methods or set()) - {"HEAD", "OPTIONS"}
        routes.update((path_of(rule.rule)[0], method.lower()) for method in methods)
    documented = [(path, method, operation) for path, methods in document["paths"].items()
                  for method, operation in methods.items()]
    problems += [f"{method.upper()} {path} is documented but no route answers it"
                 for path, method, _operation in documented if (path, method) not in routes]
    ids = [operation["operationId"] for _path, _method, operation in documented]
    problems += [f"operationId {name} is given twice" for name in sorted({n for n in ids if ids.count(n) > 1})]
    problems += [f"{path}: link {name} names no operation" for path, _method, operation in documented
                 for response in operation["responses"].values()
                 for name, link in response.get("links", {}).items() if link["operationId"] not in ids]
    return problems


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, dict[str, Any]]]:
    """An app and the document it serves."""
    app = make_app(tmp_path_factory.mktemp("openapi-routes"))
    yield app, app.test_client().get("/api/v1/openapi.json").get_json()
    app.extensions["adjudicator"].shutdown()


def test_every_api_route_is_described_and_every_documented_operation_is_a_route(
        served: tuple[Flask, dict[str, Any]]) -> None:
    app, document = served
    assert drift(app, document) == []
    assert len([m for methods in document["paths"].values() for m in methods]) == 10


def test_a_route_added_without_its_description_or_a_path_left_behind_is_drift(
        served: tuple[Flask, dict[str, Any]], tmp_path: Path) -> None:
    app, document = make_app(tmp_path), copy.deepcopy(served[1])
    document["paths"]["/api/v1/rulings/{id}/retract"] = {"post": {"operationId": "retractRuling", "responses": {}}}
    document["paths"]["/api/v1/appeals"]["post"]["responses"]["201"]["links"]["Decide"]["operationId"] = "decide"
    app.add_url_rule("/api/v1/rulings/<int:ruling_id>/notes", "notes", lambda ruling_id: "", methods=["POST"])
    app.add_url_rule("/claims/<int:case_id>/described", "page", described(
        "A page", "getRuling", gives=(200, {"type": "object"}, "a page"))(lambda case_id: ""))
    assert drift(app, document) == [
        "/api/v1/rulings/<int:ruling_id>/notes is not described (web.api.operations.described)",
        "/claims/<int:case_id>/described is described but not an API route",
        "POST /api/v1/rulings/{id}/retract is documented but no route answers it",
        "/api/v1/appeals: link Decide names no operation",
    ]
    app.extensions["adjudicator"].shutdown()


def test_a_new_route_is_one_decorator_away_from_the_document(tmp_path: Path) -> None:
    """Its path and {id} from the route, its body's and answers' schemas from its models, the token's security
    and its 401 and 403 from token_required, the body's 400, 413 and 415 from taking one."""
    app = make_app(tmp_path)
    view = described("Note a ruling", "noteRuling", takes=Vote, gives=(201, CommitteeCase, "noted"),
                     errors={404: "no such ruling"})(token_required("td")(lambda ruling_id: ""))
    app.add_url_rule("/api/v1/rulings/<int:ruling_id>/notes", "notes", view, methods=["POST"])
    document = openapi(app)
    operation = document["paths"]["/api/v1/rulings/{id}/notes"]["post"]
    assert operation["operationId"] == "noteRuling" and operation["security"] == [{"bearerAuth": []}]
    assert operation["parameters"] == [ID]
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Vote"}
    assert operation["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CommitteeCase"}
    assert sorted(operation["responses"]) == ["201", "400", "401", "403", "404", "413", "415"]
    assert {"Vote", "CommitteeCase", "Error"} <= set(document["components"]["schemas"])
    app.extensions["adjudicator"].shutdown()


def test_two_models_of_one_name_are_refused_not_one_dropped(tmp_path: Path) -> None:
    """A second model called Vote (say, an area's own) would silently replace the committee's in the document."""
    app = make_app(tmp_path)
    other = create_model("Vote", note=(str, ...))
    app.add_url_rule("/api/v1/rulings/<int:ruling_id>/votes", "votes", described(
        "Vote on a ruling", "voteOnRuling", gives=(200, other, "the vote"))(lambda ruling_id: ""))
    with pytest.raises(SchemaNameTaken, match="are both Vote"):
        openapi(app)
    app.extensions["adjudicator"].shutdown()


def test_the_web_app_page_lists_every_operation_and_no_other(served: tuple[Flask, dict[str, Any]]) -> None:
    """docs/web-app.md's table of operations (*The JSON API*) is the document's: method, path and operation id."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "web-app.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Z]+) (/api/\S+)` \| (\w+) \|", page, re.MULTILINE))
    assert listed == {(method.upper(), path, operation["operationId"])
                      for path, methods in served[1]["paths"].items() for method, operation in methods.items()}


def test_the_committee_api_and_its_token_scheme_are_documented(served: tuple[Flask, dict[str, Any]]) -> None:
    document = served[1]
    assert document["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer", "description": "a user's API token, from `adjudicator users add`"}
    for path in ("/api/v1/committee-cases", "/api/v1/committee-cases/{id}", "/api/v1/committee-cases/{id}/votes"):
        for operation in document["paths"][path].values():
            assert operation["security"] == [{"bearerAuth": []}]
            assert "401" in operation["responses"]
