"""The generated API document is compatible with the one written by hand before it (issue 24, item 4).

``tests/data/openapi-before.json`` is the document the app served at ``GET /api/v1/openapi.json`` on
main at commit bd3aa4d (the last with ``web/api/schemas.py`` written by hand), saved with
``json.dumps(..., indent=1, sort_keys=True)``. A client written against it keeps working: every path
and method, parameter, response code, property, required field, type and enum value is still there;
no request schema takes less than it took (a length, range or item count narrowed, a pattern added or
changed, a field newly required, extra keys refused); no response schema gives what it did not promise
(a type, enum value or extra keys it did not allow).

The comparison is structural: ``$ref`` resolved, ``anyOf`` and a list of types read alike (each schema
is a set of branches, one per JSON type), ``const`` as an enum of one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.documents import NOT_BLANK
from tests.web.conftest import make_app

BEFORE = Path(__file__).resolve().parents[1] / "data" / "openapi-before.json"
METHODS = ("get", "post", "put", "patch", "delete")
WIDER = {"maxLength": 1, "maximum": 1, "maxItems": 1, "minLength": -1, "minimum": -1, "minItems": -1}
"""For a request: which way each bound may move (up or down) without refusing what was taken."""


KEYWORDS = {
    **dict.fromkeys(("properties", "required", "additionalProperties", "propertyNames"), "object"),
    **dict.fromkeys(("items", "maxItems", "minItems", "uniqueItems"), "array"),
    **dict.fromkeys(("maxLength", "minLength", "pattern", "format"), "string"),
    **dict.fromkeys(("minimum", "maximum"), "number"), "enum": "any",
}
"""The JSON type each keyword constrains (a list of types shares one schema's keywords among them)."""


NEW_FIELDS = frozenset({"readings", "missing_moves"})
"""Case fields the contract gained after the document was saved (issue 34: the TD's choice of reading, the moves
a record leaves out). Before, a key of that name was an extra key the server ignored; a client never sent one
with a meaning, so their own types (checked from now on) are an extension, not a narrowing. Any other extra
key that gains a schema is still compared."""


def resolve(schema: Any, document: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = {**document["components"]["schemas"][name], **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string" if isinstance(value, str) else "object"


def branches(schema: Any, document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The schema as one branch per JSON type it allows (``{}``: any value, as the type ``any``)."""
    schema = resolve(schema, document)
    if schema is True or schema == {} or (isinstance(schema, dict) and set(schema) <= {"description", "default"}):
        return {"any": {}}
    own = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf", "type", "description", "default",
                                                         "examples", "title")}
    if "const" in own:
        own["enum"] = [own.pop("const")]
    found: dict[str, dict[str, Any]] = {}
    for alternative in schema.get("anyOf", schema.get("oneOf", [])):
        for kind, branch in branches({**own, **resolve(alternative, document)}, document).items():
            found[kind] = branch
    if "anyOf" in schema or "oneOf" in schema:
        return found
    types = schema.get("type")
    if types is None and "enum" in own:
        types = sorted({json_type(v) for v in own["enum"]})
    kinds = [types] if isinstance(types, str) else list(types or ["any"])
    for kind in kinds:
        branch = {k: v for k, v in own.items() if KEYWORDS.get(k, kind) in (kind, "any")
                  or (kind == "integer" and KEYWORDS.get(k) == "number")}
        if "enum" in branch:
            branch["enum"] = [v for v in branch["enum"] if json_type(v) == kind
                              or (kind == "number" and json_type(v) == "integer")]
        found[kind] = branch
    return found


def compare(old: Any, new: Any, document: tuple[dict[str, Any], dict[str, Any]], where: str,
            request: bool, problems: list[str], depth: int = 0) -> None:
    """Every difference between the old and new schema that could break a client, into ``problems``."""
    if depth > 12:  # JsonValue and other recursive schemas: their top levels are compared
        return
    before, after = branches(old, document[0]), branches(new, document[1])
    if "any" in after and (request or "any" in before):
        return
    if "any" in after:
        problems.append(f"{where}: gives any value, not promised before")
        return
    for kind, was in before.items():
        now = after.get(kind, after.get("number") if kind == "integer" else None)
        if now is None:
            problems.append(f"{where}: type {kind} is gone")
            continue
        compare_branch(was, now, document, f"{where}<{kind}>", request, problems, depth)
    if not request:
        for kind in set(after) - set(before) - {"any"}:
            if not (kind == "integer" and "number" in before):
                problems.append(f"{where}: gives type {kind}, not promised before")


def compare_branch(was: dict[str, Any], now: dict[str, Any], document: tuple[dict[str, Any], dict[str, Any]],
                   where: str, request: bool, problems: list[str], depth: int) -> None:
    if "enum" in was:
        if "enum" in now and set(map(json.dumps, was["enum"])) - set(map(json.dumps, now["enum"])):
            problems.append(f"{where}: enum values {was['enum']} became {now['enum']}")
    elif "enum" in now and request:
        problems.append(f"{where}: an enum was added ({now['enum']})")
    if not request and "enum" in now:
        more = [v for v in now["enum"] if json.dumps(v) not in set(map(json.dumps, was.get("enum", now["enum"])))]
        if more:
            problems.append(f"{where}: gives enum values {more}, not promised before")
    if request:
        for bound, way in WIDER.items():
            if bound in now and (bound not in was or (now[bound] - was[bound]) * way < 0):
                problems.append(f"{where}: {bound} {was.get(bound)} became {now[bound]}")
        if now.get("pattern") not in (None, was.get("pattern")):
            problems.append(f"{where}: pattern {was.get('pattern')!r} became {now['pattern']!r}")
        if now.get("uniqueItems") and not was.get("uniqueItems"):
            problems.append(f"{where}: items must now be unique")
        if set(now.get("required", [])) - set(was.get("required", [])):
            problems.append(f"{where}: newly required {sorted(set(now['required']) - set(was.get('required', [])))}")
    missing = set(was.get("required", [])) - set(now.get("required", []))
    if missing and not request:
        problems.append(f"{where}: no longer sure to give {sorted(missing)}")
    old_properties, new_properties = was.get("properties", {}), now.get("properties", {})
    for name, schema in old_properties.items():
        if name not in new_properties:
            problems.append(f"{where}.{name}: property gone")
        else:
            compare(schema, new_properties[name], document, f"{where}.{name}", request, problems, depth + 1)
    extra_before, extra_after = was.get("additionalProperties", True), now.get("additionalProperties", True)
    if request and extra_before is not False:
        if extra_after is False:
            problems.append(f"{where}: extra keys are refused")
        elif extra_after is not True:
            compare(extra_before, extra_after, document, f"{where}[*]", request, problems, depth + 1)
        for name in set(new_properties) - set(old_properties) - NEW_FIELDS:  # an extra key that now has a schema
            compare(extra_before, new_properties[name], document, f"{where}.{name}", request, problems, depth + 1)
    if not request and extra_before is False and extra_after is not False:
        problems.append(f"{where}: gives extra keys, not promised before")
    if "items" in was:
        compare(was["items"], now.get("items", {}), document, f"{where}[]", request, problems, depth + 1)


def problems_between(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    documents = (before, after)
    for path, operations in before["paths"].items():
        if path not in after["paths"]:
            problems.append(f"{path}: gone")
            continue
        for method, old in operations.items():
            new = after["paths"][path].get(method)
            if method not in METHODS:
                continue
            if new is None:
                problems.append(f"{method.upper()} {path}: gone")
                continue
            where = f"{method.upper()} {path}"
            if old.get("security") != new.get("security") or old.get("operationId") != new.get("operationId"):
                problems.append(f"{where}: security or operationId changed")
            parameters = {(p["name"], p["in"]): p for p in new.get("parameters", [])}
            for parameter in old.get("parameters", []):
                key = (parameter["name"], parameter["in"])
                if key not in parameters:
                    problems.append(f"{where}: parameter {key} gone")
                    continue
                if parameters[key].get("required", False) and not parameter.get("required", False):
                    problems.append(f"{where}: parameter {key} newly required")
                compare(parameter["schema"], parameters[key]["schema"], documents, f"{where} {key}", True, problems)
            for media, body in old.get("requestBody", {}).get("content", {}).items():
                schema = new.get("requestBody", {}).get("content", {}).get(media, {}).get("schema")
                if schema is None:
                    problems.append(f"{where}: request body {media} gone")
                else:
                    compare(body["schema"], schema, documents, f"{where} body", True, problems)
            for code, response in old["responses"].items():
                if code not in new["responses"]:
                    problems.append(f"{where}: response {code} gone")
                    continue
                for media, body in response.get("content", {}).items():
                    schema = new["responses"][code].get("content", {}).get(media, {}).get("schema")
                    if schema is None:
                        problems.append(f"{where} {code}: {media} gone")
                    else:
                        compare(body["schema"], schema, documents, f"{where} {code}", False, problems)
                if set(response.get("links", {})) - set(new["responses"][code].get("links", {})):
                    problems.append(f"{where} {code}: a link is gone")
    if before["components"]["securitySchemes"] != after["components"]["securitySchemes"]:
        problems.append("securitySchemes changed")
    return problems


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The document as the app serves it (``GET /api/v1/openapi.json``), as text."""
    app = make_app(tmp_path_factory.mktemp("openapi"))
    text = app.test_client().get("/api/v1/openapi.json").get_data(as_text=True)
    app.extensions["adjudicator"].shutdown()
    return text


def test_the_generated_document_is_compatible_with_the_one_written_by_hand(served: str) -> None:
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    assert problems_between(before, json.loads(served)) == []


def test_the_comparer_sees_a_request_made_stricter_and_a_response_made_looser(served: str) -> None:
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    after = json.loads(served)
    schemas = after["components"]["schemas"]
    schemas["Case"]["properties"]["ruleset"]["maxLength"] = 40
    schemas["Case"]["required"].append("record")
    schemas["ClockDocument"]["properties"]["flagged"]["anyOf"][0]["items"]["enum"].remove("red")
    schemas["Vote"]["additionalProperties"] = False
    schemas["AppealIn"]["properties"]["grounds"]["pattern"] = "^[a-z]*$"
    schemas["Ruling"]["properties"]["verdict"]["enum"].append("maybe")
    schemas["Ruling"]["properties"]["id"]["type"] = ["integer", "string"]
    del schemas["Appeal"]["properties"]["grounds"]
    del after["paths"]["/api/v1/appeals/{id}"]["get"]["responses"]["404"]
    after["paths"]["/api/v1/rulings/{id}"]["get"]["parameters"][0]["schema"]["minimum"] = 2
    problems = problems_between(before, after)
    expected = [
        "POST /api/v1/rulings body<object>.ruleset<string>: maxLength 80 became 40",
        "POST /api/v1/rulings body<object>: newly required ['record']",
        "POST /api/v1/rulings body<object>.clock<object>.flagged<array>[]<string>: enum values "
        "['white', 'black', 'red'] became ['white', 'black']",
        "POST /api/v1/committee-cases/{id}/votes body<object>: extra keys are refused",
        f"POST /api/v1/appeals body<object>.grounds<string>: pattern {NOT_BLANK!r} became '^[a-z]*$'",
        "GET /api/v1/rulings/{id} 200<object>.verdict<string>: gives enum values ['maybe'], not promised before",
        "GET /api/v1/rulings/{id} 200<object>.id: gives type string, not promised before",
        "GET /api/v1/appeals/{id} 200<object>.grounds: property gone",
        "GET /api/v1/appeals/{id}: response 404 gone",
        "GET /api/v1/rulings/{id} ('id', 'path')<integer>: minimum 1 became 2",
    ]
    assert [line for line in expected if line not in problems] == []
    assert len(problems) == len(expected) + 7  # the same schemas again in the other operations that use them
