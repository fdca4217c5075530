"""No input reaches a 500 (issue 23): a mutation fuzzer over every write route, on SQLite and PostgreSQL.

Each write route is sent a valid request, then the same request with one field at a time (every
string, number and list item, nested or not) replaced by each hostile value, and with a hostile key
added. The issue's findings were 30 5xx in 2,059 such requests on SQLite and 35 on PostgreSQL: a lone
surrogate in a case's fields gave 500 (503 ``ruling_failed`` in ``meta``), Unicode digits in an appeal
subject 500 or a subject no page finds, ids beyond PostgreSQL's ``integer`` 500.

- A value no database can store or no field takes (a lone surrogate, a NUL, a number beyond ±2^53)
  is a 4xx on every JSON route, and its error names the field's path (``players.red.name``).
- A number beyond a column's range (2^31 on PostgreSQL), a negative one, Unicode digits: never a 5xx.
- An appeal subject with Unicode digits (``committee-case:¹``, ``committee-case:٢``): 422 naming it.
- Forms: a NUL is a 400 naming the field; bytes that are not UTF-8, digits of other scripts and
  numbers beyond any column: never a 5xx.

The requests are deterministic (no random seed), so a failure names its route, field and value. Every
part is real: the claims rule, and each committee case opened gets its recommendation from the real
checkers search at a small node budget (``committee_support.small_budgets``, 300 nodes here).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import committee_support
import pytest
from committee_support import add_user, bearer, checkers_case, small_budgets
from flask import Flask

from tests.web.conftest import make_app

QUICK_CASE: dict[str, Any] = {
    "game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
    "record": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *", "event": "default",
    "clock": {"white": "0:05:00", "black": 300}, "alleged_illegal_ply": 3, "time_control": "G/30;d5",
    "meta": {"event": "Spring Open", "round": "3", "board": 12, "first_player": "Ann", "second_player": "Bob"},
}
PASSWORD = "password-xxxx"
FUZZ_SEARCH_NODES = 300
"""The real checkers search recommends on every committee case the fuzzer opens (a few hundred), at 300
nodes: about 0.07 s a case where 3,000 take 0.5 s; what the fuzzer tests is that the case is stored."""

REFUSED_EVERYWHERE: dict[str, Any] = {"a lone surrogate": "\ud800", "a NUL": "a\x00b", "a number beyond 2^53":
                                      2**53 + 1, "a 64-bit number": 2**63, "a negative beyond": -(2**64),
                                      "1e300": 1e300}
"""Values no field takes: each is a 4xx naming the field."""
NEVER_A_5XX: dict[str, Any] = {"2^31 (beyond PostgreSQL integer)": 2**31, "-1": -1, "zero": 0,
                               "superscript digits": "¹²", "Arabic-Indic digits": "٢٣", "a long text": "x" * 5000,
                               "an empty text": "", "an object": {"a": 1}, "a list": [1, "two"], "null": None,
                               "true": True}
"""Values a field may or may not take: whatever the answer, never a 5xx."""


@dataclass
class World:
    app: Flask
    tokens: dict[str, str]
    case_id: int
    ruling_id: int
    appeal_id: int

    def client(self, name: str | None = None) -> Any:
        client = self.app.test_client()
        if name is not None:
            assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
        return client


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    url = request.getfixturevalue("postgres_module_url") if request.param == "postgresql" else None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(committee_support, "SEARCH_NODES", FUZZ_SEARCH_NODES)
        small_budgets(patch)
        app = make_app(tmp_path_factory.mktemp("hostile"), **({"DATABASE_URL": url} if url else {}))
        tokens = {name: add_user(app, name, role, password=PASSWORD) for name, role in (
            ("tina", "td"), ("m1", "committee"), ("m2", "committee"), ("m3", "committee"), ("april", "appeals"),
            ("ada", "admin"))}
        client = app.test_client()
        opened = client.post("/api/v1/committee-cases", json=checkers_case(["m1", "m2", "m3"]),
                             headers=bearer(tokens["tina"]))
        assert opened.status_code == 201, opened.json
        ruled = client.post("/api/v1/rulings", json=QUICK_CASE)
        assert ruled.status_code == 201, ruled.json
        appealed = client.post("/api/v1/appeals", headers=bearer(tokens["tina"]),
                               json={"subject": f"ruling:{ruled.json['id']}", "grounds": "the count is wrong"})
        assert appealed.status_code == 201, appealed.json
        yield World(app, tokens, opened.json["id"], ruled.json["id"], appealed.json["id"])
        app.extensions["adjudicator"].shutdown()


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every string, number and list item in a JSON document (and of every object)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path


def objects(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        yield path
        for key, item in value.items():
            yield from objects(item, (*path, key))


def replaced(body: Any, path: tuple[Any, ...], value: Any) -> Any:
    mutated = copy.deepcopy(body)
    target = mutated
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return mutated


def with_key(body: Any, path: tuple[Any, ...], key: str) -> Any:
    mutated = copy.deepcopy(body)
    target = mutated
    for step in path:
        target = target[step]
    target[key] = "x"
    return mutated


def json_routes(world: World) -> list[tuple[str, dict[str, Any], str]]:
    """(path, valid body, token) of every JSON write route."""
    return [
        ("/api/v1/rulings", QUICK_CASE, "tina"),
        ("/api/v1/committee-cases", {**checkers_case(["m1", "m2", "m3"]), "event": "default"}, "tina"),
        (f"/api/v1/committee-cases/{world.case_id}/votes", {"result": "1-0", "comment": "Red wins"}, "m1"),
        ("/api/v1/appeals", {"subject": f"ruling:{world.ruling_id}", "grounds": "the count is wrong"}, "tina"),
        (f"/api/v1/appeals/{world.appeal_id}/decision",
         {"outcome": "overturned", "new_result": "1/2-1/2", "reasons": "the record is right"}, "april"),
    ]


def send(world: World, path: str, body: Any, who: str) -> Any:
    return world.app.test_client().post(path, data=json.dumps(body), content_type="application/json",
                                        headers=bearer(world.tokens[who]))


def dotted(path: tuple[Any, ...]) -> str:
    return ".".join(str(step) for step in path)


def test_every_json_write_route_refuses_what_no_field_takes_naming_it(world: World) -> None:
    failures: list[str] = []
    sent = 0
    for route, body, who in json_routes(world):
        for path in leaves(body):
            for label, value in REFUSED_EVERYWHERE.items():
                response = send(world, route, replaced(body, path, value), who)
                sent += 1
                error = (response.get_json(silent=True) or {}).get("error") or {}
                if not 400 <= response.status_code < 500 or error.get("field") != dotted(path):
                    failures.append(f"{route} {dotted(path)} = {label}: {response.status_code} {error}")
        for path in objects(body):
            for label, key in (("a lone surrogate", "k\udc80"), ("a NUL", "k\x00")):
                response = send(world, route, with_key(body, path, key), who)
                sent += 1
                if not 400 <= response.status_code < 500:
                    failures.append(f"{route} a key of {dotted(path) or 'the body'} with {label}: "
                                    f"{response.status_code}")
    assert not failures, f"{len(failures)} of {sent}:\n" + "\n".join(failures[:40])
    assert sent > 150
    print(f"{sent} requests with a value no field takes: every one a 4xx naming the field")


def test_no_json_write_route_answers_any_value_with_a_5xx(world: World) -> None:
    failures: list[str] = []
    sent = 0
    for route, body, who in json_routes(world):
        for path in leaves(body):
            for label, value in NEVER_A_5XX.items():
                response = send(world, route, replaced(body, path, value), who)
                sent += 1
                if response.status_code >= 500 and response.status_code != 503:
                    failures.append(f"{route} {dotted(path)} = {label}: {response.status_code} {response.get_json()}")
                elif response.status_code == 503:  # only the analysis being away may be 503, never a storage fault
                    code = response.get_json()["error"]["code"]
                    if code not in ("engine_unavailable", "not_ready"):
                        failures.append(f"{route} {dotted(path)} = {label}: 503 {code}")
    assert not failures, f"{len(failures)} of {sent}:\n" + "\n".join(failures[:40])
    print(f"{sent} requests with values a field may or may not take: no 5xx")


@pytest.mark.parametrize("subject", ["committee-case:¹", "committee-case:٢", "ruling:²", "committee-case:2147483648",
                                     "ruling:99999999999999999999", "committee-case:-1", "committee-case:1\n",
                                     "committee-case:", "ruling:1.5"])
def test_an_appeal_subject_takes_ascii_digits_within_range_only(world: World, subject: str) -> None:
    response = send(world, "/api/v1/appeals", {"subject": subject, "grounds": "wrong"}, "tina")
    assert response.status_code in (404, 422), response.get_json()
    assert response.get_json()["error"]["field"] == "subject"
    page = world.client("tina").post("/appeals/", data={"subject": subject, "grounds": "wrong"})
    assert page.status_code in (404, 422)


FORM_ROUTES: list[tuple[str, str | None, dict[str, str]]] = [
    ("/claims", None, {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition",
                       "claimant": "white", "record": QUICK_CASE["record"], "round": "3", "board": "12",
                       "first_player": "Ann", "second_player": "Bob", "event_slug": "default",
                       "alleged_illegal_ply": "3", "clock_white": "0:05:00", "time_control": "G/30;d5"}),
    ("/claims/form", None, {"game": "chess", "claim": "flag", "round": "2", "board": "1", "event_slug": "default"}),
    ("/login", None, {"name": "nobody", "password": "x", "code": "123456"}),
    ("/committee/cases/new", "tina", {"game": "checkers", "ruleset": "acf-master-division", "fen": "B:W21,22:B9,10",
                                      "round": "5", "board": "2", "members": "m1", "event": "default",
                                      "clock_red": "0:03:10", "red_name": "Ann", "white_club": "Reds"}),
    ("/committee/cases/{case}/votes", "m2", {"result": "1-0", "comment": "Red wins", "position_verified": "yes"}),
    ("/appeals/", "tina", {"subject": "ruling:{ruling}", "grounds": "the count is wrong"}),
    ("/appeals/{appeal}/decision", "april", {"outcome": "upheld", "new_result": "", "reasons": "right"}),
    ("/events/default/checks", "tina", {"ruleset": "fide-standard", "collection_id": "1"}),
    ("/admin/logins/lift", "ada", {"key": "* 192.0.2.1"}),
]
FORM_VALUES = {"a number beyond any column": "99999999999999999999", "2^31": "2147483648", "-1": "-1",
               "superscript digits": "¹²", "Arabic-Indic digits": "٢٣", "a long text": "x" * 5000, "empty": ""}


def test_no_form_answers_a_hostile_value_with_a_5xx_and_a_nul_names_the_field(world: World) -> None:
    failures: list[str] = []
    sent = 0
    for route, who, base in FORM_ROUTES:
        path = route.format(case=world.case_id, ruling=world.ruling_id, appeal=world.appeal_id)
        fields = {k: v.format(ruling=world.ruling_id) for k, v in base.items()}
        client = world.client(who)
        for name in fields:
            for label, value in FORM_VALUES.items():
                sent += 1
                status = client.post(path, data={**fields, name: value}).status_code
                if status >= 500:
                    failures.append(f"{route} {name} = {label}: {status}")
            nul = client.post(path, data={**fields, name: "a\x00b"})
            if nul.status_code != 400 or f"form field {name} contains a NUL" not in nul.get_data(as_text=True):
                failures.append(f"{route} {name} with a NUL: {nul.status_code}")
            raw = "&".join(f"{quote(k)}={quote(v)}" for k, v in fields.items() if k != name)
            broken = client.post(path, data=f"{raw}&{quote(name)}=%ED%A0%80%FF".encode(),
                                 content_type="application/x-www-form-urlencoded")  # not UTF-8
            if broken.status_code >= 500:
                failures.append(f"{route} {name} as bytes that are not UTF-8: {broken.status_code}")
            sent += 2
    assert not failures, "\n".join(failures[:40])
    print(f"{sent} form posts: no 5xx, every NUL a 400 naming its field")


@pytest.mark.parametrize("path", ["/rulings/2147483648", "/rulings/9223372036854775808", "/api/v1/appeals/99999999999",
                                  "/api/v1/rulings/9223372036854775808", "/checks/2147483648",
                                  "/committee/cases/99999999999999999999"])
def test_an_id_in_a_path_beyond_any_column_is_404(world: World, path: str) -> None:
    """docs/web-app.md (*Hostile input*): "an id beyond 2^31-1 in a URL is 404" (the id is no row's, and is never
    sent to the database)."""
    assert world.client("tina").get(path).status_code == 404


@pytest.mark.parametrize("path, field", [("/claims/new?from=99999999999999999999", "from"),
                                         ("/claims/new?from=2147483648", "from"),
                                         ("/history?round=2147483648&board=%C2%B9", "round")])
def test_an_id_in_a_query_beyond_any_column_is_400_naming_it(world: World, path: str, field: str) -> None:
    """docs/web-app.md (*Hostile input*): a query's id beyond 2^31-1 is 400 naming the parameter."""
    response = world.client("tina").get(path)
    assert response.status_code == 400
    assert f"the query parameter {field} is a number beyond 2147483647" in response.get_data(as_text=True)


def test_a_query_id_in_digits_of_another_script_is_not_read_as_an_id(world: World) -> None:
    """``?from=`` the stored case's id in Arabic-Indic digits (which ``int`` reads as that id) opens the blank
    claim form; the same id in ASCII digits fills the form from the case."""
    client = world.client("tina")
    case_id = str(client.get(f"/api/v1/rulings/{world.ruling_id}").get_json()["case_id"])
    arabic = "".join(chr(0x0660 + int(digit)) for digit in case_id)
    moves = "4. Ng1 Ng8"
    assert moves in client.get(f"/claims/new?from={case_id}").get_data(as_text=True)
    response = client.get(f"/claims/new?from={quote(arabic)}")
    assert response.status_code == 200 and moves not in response.get_data(as_text=True)


def test_the_command_line_names_an_argument_that_is_not_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytes that are not UTF-8 in an argument (Python keeps them as lone surrogates) and numbers beyond
    their range: exit 2 with the contract's JSON error naming the argument, never a traceback."""
    import contextlib
    import io

    from web.cli import main

    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    for argv, field in ((["users", "add", "\udcff\udcfe", "--role", "td"], "argument 3"),
                        (["users", "add", "carol", "--role", "td", "--club", "\udcc3"], "club"),
                        (["users", "add", "carol", "--role", "td", "--club=\udcc3"], "club"),
                        (["events", "add", "spring", "--name", "S\udce9"], "name"),
                        (["serve", "--port", "99999999999999999999"], "port"),
                        (["serve", "--threads", "٢"], "threads"),
                        (["check-games", "-", "--workers", "99999999999999999999"], "workers")):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(argv)
        assert code == 2, (argv, out.getvalue())
        assert json.loads(out.getvalue().splitlines()[-1])["error"]["field"] == field, argv


@pytest.fixture
def readers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the record readers called while the test runs (the chess movetext splitter and SAN
    reader, the checkers PDN reader), wherever they were imported: a refused record reaches none of them."""
    import sys

    from adjudicator.checkers import pdn
    from adjudicator.chess import movetext, san

    called: list[str] = []
    watched = {(movetext, "split_games"), (san, "read_move"), (pdn, "read_game"), (pdn, "split_games")}
    originals = {id(getattr(module, name)): (getattr(module, name), f"{module.__name__}.{name}")
                 for module, name in watched}

    def spy(original: Any, label: str) -> Any:
        def spying(*args: Any, **kwargs: Any) -> Any:
            called.append(label)
            return original(*args, **kwargs)
        return spying

    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith(("adjudicator", "web", "engines")):
            continue
        for attribute, value in list(vars(module).items()):
            if id(value) in originals and originals[id(value)][0] is value:
                monkeypatch.setattr(module, attribute, spy(value, originals[id(value)][1]))
    return called


def test_a_two_megabyte_single_token_record_is_refused_before_it_is_read(world: World, tmp_path: Path,
                                                                         readers: list[str]) -> None:
    """The issue's worst finding: ``1. `` and one 1.9 M character token took 83-89 s of CPU (the reader's
    search for what the token meant) and the answer echoed the token back. Now the record is refused
    before it is read: 422 naming the field with the pre-check's own message (the run's length and where
    it starts) quoting 20 characters, on the API, the committee API, the form and the command line, and
    no record reader is called; a body over the request limit is 413. (Its speed: bench/hostile.py.)"""
    from web.cli import main

    record = "1. " + "N" * 1_900_000
    pre_check = "record holds 1,900,000 characters without a space at character 4 ('NNNNNNNNNNNNNNNNNNNN'...)"
    case = {**QUICK_CASE, "record": record}
    from adjudicator.chess.replay import _first_game

    _first_game.cache_clear()  # the control below reads its record afresh
    assert send(world, "/api/v1/rulings", QUICK_CASE, "tina").status_code == 201
    assert readers, "the spies see the readers of a record that is read"
    readers.clear()
    for route, body, who in (("/api/v1/rulings", case, "tina"),
                             ("/api/v1/committee-cases", {**checkers_case(["m1", "m2", "m3"]), "record": record},
                              "tina")):
        response = send(world, route, body, who)
        assert response.status_code == 422 and response.get_json()["error"]["field"] == "record"
        assert pre_check in response.get_json()["error"]["message"]
        assert len(response.data) < 1000  # the token is not echoed
    page = world.client().post("/claims", data={k: v for k, v in QUICK_CASE.items() if isinstance(v, str)} |
                               {"record": record})
    assert page.status_code in (413, 422)
    if page.status_code == 422:
        assert "1,900,000 characters without a space" in page.get_data(as_text=True)
    over = send(world, "/api/v1/rulings", {**QUICK_CASE, "record": "1. " + "N" * 2_100_000}, "tina")
    assert over.status_code == 413
    path = tmp_path / "case.json"
    path.write_text(json.dumps({k: v for k, v in case.items() if k not in ("event", "meta")}))
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["rule", str(path)])
    assert code == 2
    error = json.loads(out.getvalue())["error"]
    assert error["field"] == "record" and pre_check in error["message"]
    assert readers == [], f"a refused record was read: {readers[:5]}"
