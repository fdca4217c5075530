"""The OpenAPI 3.1 document for the JSON API (served at ``/api/v1/openapi.json``), written from the app: every
route whose view is :func:`~web.api.operations.described` is a path, its parameters read from the route, its
bodies' schemas generated from the models it names (:mod:`web.api.schemas`, the case and the ruling from
:mod:`adjudicator.documents`). ``tests/web/test_web_openapi.py`` checks that every ``/api/`` route is described."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from flask import Flask
from pydantic import BaseModel

from adjudicator.documents import JSON_VALUE, CaseDocument, ErrorDocument, schemas
from web.api.operations import Body, Operation, operation_of
from web.api.schemas import StoredRuling
from web.auth.tokens import NEEDS_TOKEN

BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
ID: dict[str, Any] = {"name": "id", "in": "path", "required": True,
      "schema": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
      "description": "a stored id; any other number is 404"}
NAMES: dict[type[BaseModel], str] = {CaseDocument: "Case", StoredRuling: "Ruling", ErrorDocument: "Error"}
"""A model's name in the document, where it is not the class's."""
VARIABLE = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
"""A variable of a Flask route: ``<int:case_id>``, ``<code>``."""


class SchemaNameTaken(ValueError):
    """Two models the routes name would share one name in the document."""


def name_of(model: type[BaseModel]) -> str:
    return NAMES.get(model, model.__name__)


def _add(found: dict[str, type[BaseModel]], model: type[BaseModel], named: dict[str, type[BaseModel]]) -> None:
    """``model`` into ``found`` under its name, which no other model of the document (``named``) has."""
    name = name_of(model)
    other = named.setdefault(name, model)
    if other is not model:
        raise SchemaNameTaken(f"{model.__module__}.{model.__qualname__} and {other.__module__}.{other.__qualname__} "
                              f"are both {name} in the document (give one a name in NAMES)")
    found[name] = model


def _schema(body: Body) -> dict[str, Any]:
    return body if isinstance(body, dict) else {"$ref": f"#/components/schemas/{name_of(body)}"}


def _json(body: Body, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _schema(body)}}}


def path_of(rule: str) -> tuple[str, list[dict[str, Any]]]:
    """The document's path for a Flask route, with its parameters: an ``int`` named ``..._id`` is ``{id}``, a
    stored id (:data:`ID`); any other variable is text under its own name."""
    parameters: list[dict[str, Any]] = []

    def parameter(match: re.Match[str]) -> str:
        converter, name = match.group(1) or "string", match.group(2)
        if converter == "int" and (name == "id" or name.endswith("_id")):
            parameters.append(ID)
            return "{id}"
        parameters.append({"name": name, "in": "path", "required": True, "schema": {"type": "string"}})
        return "{" + name + "}"

    return VARIABLE.sub(parameter, rule), parameters


def operation_json(operation: Operation, parameters: list[dict[str, Any]]) -> dict[str, Any]:
    """The Operation Object."""
    status, body, words = operation.gives
    success = _json(body, words)
    if operation.links:
        success["links"] = {name: {"operationId": target, "parameters": {"id": "$response.body#/id"}}
                            for name, target in operation.links.items()}
    found: dict[str, Any] = {"summary": operation.summary, "operationId": operation.operation_id}
    if operation.bearer:
        found["security"] = BEARER
    if parameters:
        found["parameters"] = parameters
    if operation.takes is not None:
        found["requestBody"] = {"required": True, "content": {"application/json": {"schema": _schema(operation.takes)}}}
    found["responses"] = {str(status): success, **{str(code): _json(ErrorDocument, text)
                                                   for code, text in operation.answers().items()}}
    return found


def operations(app: Flask) -> dict[tuple[str, str], tuple[str, Operation]]:
    """Every described route of ``app``: (path in the document, method) -> (its Flask rule, its operation, with
    the bearer token it needs when it is behind :func:`~web.auth.tokens.token_required`)."""
    found: dict[tuple[str, str], tuple[str, Operation]] = {}
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        operation = operation_of(view)
        if operation is None:
            continue
        operation = replace(operation, bearer=getattr(view, NEEDS_TOKEN, False) is True)
        path, _parameters = path_of(rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found[(path, method.lower())] = (rule.rule, operation)
    return found


def openapi(app: Flask) -> dict[str, Any]:
    """The document: the app's described routes, and the schemas of the models they take and give (requests
    as they are validated, responses as they are given)."""
    paths: dict[str, dict[str, Any]] = {}
    takes: dict[str, type[BaseModel]] = {}
    gives: dict[str, type[BaseModel]] = {"Error": ErrorDocument}
    named = dict(gives)
    for (path, method), (rule, operation) in sorted(operations(app).items()):
        paths.setdefault(path, {})[method] = operation_json(operation, path_of(rule)[1])
        if operation.takes is not None:
            _add(takes, operation.takes, named)
        if not isinstance(operation.gives[1], dict):
            _add(gives, operation.gives[1], named)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "The arbiter's assistant",
            "version": "1",
            "description": "Case in, ruling out: the contract of shared/contract.md over HTTP. Every error is "
                           '{"error": {"code", "message", "field"}}.',
        },
        "paths": paths,
        "components": {
            "schemas": {"JsonValue": JSON_VALUE, **schemas(takes, "validation"), **schemas(gives, "serialization")},
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer",
                               "description": "a user's API token, from `adjudicator users add`"},
            },
        },
    }
