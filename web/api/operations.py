"""What an API route is, said once beside its route decorator: :func:`described` records the operation (its
summary, id, the model it takes, the model it gives, its error answers and links) on the view, and
:func:`web.api.openapi.openapi` reads the app's URL map to write the document's paths from them.

    @bp.post("/<int:case_id>/votes")
    @described("Vote (an assigned member)", "voteOnCommitteeCase", takes=Vote,
               gives=(201, CommitteeCase, "the case with the vote counted"), errors={404: "no such case"})
    @token_required()
    def vote(case_id: int) -> ...

The path and its parameters come from the route (an ``int`` converter named ``..._id`` is the document's
``{id}``, a stored id); a body taken adds the answers :mod:`web.inputs` gives before the view (400, 413,
415); a view behind :func:`web.auth.tokens.token_required` gets the token's security and its 401 and 403.
Nothing is validated here: the views keep their own checks and errors, and schemathesis
(``tests/web/test_web_openapi.py``) checks they keep to this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

F = TypeVar("F", bound=Callable[..., Any])

Body = type[BaseModel] | dict[str, Any]
"""A model (its schema becomes a component of the document), or a JSON schema written out."""

ATTRIBUTE = "api_operation"
"""The view function's attribute that carries its :class:`Operation`."""

WRITE_ERRORS: Mapping[int, str] = {
    400: "the body is not JSON, not an object, nests too deeply, or holds a NUL or a huge number (the field is "
         "named)",
    413: "the body is too large",
    415: "the body is not sent as Content-Type: application/json",
}
"""What :mod:`web.inputs` answers before any view that takes a body."""
AUTH_ERRORS: Mapping[int, str] = {401: "no bearer token, or not a valid one", 403: "the token's user may not do this"}
"""What :func:`web.auth.tokens.token_required` answers."""
QUEUE_ERROR = ("no recommendation now: the task queue cannot be reached (queue_unavailable) or no worker answered "
               "in time (queue_timeout); nothing is stored, try again")


@dataclass(frozen=True)
class Operation:
    """One route's entry in the API document (OpenAPI 3.1, an Operation Object)."""

    summary: str
    operation_id: str
    gives: tuple[int, Body, str]
    """The success: its status, what it gives, in words."""
    errors: Mapping[int, str] = field(default_factory=dict)
    """Every other status the view answers, with ``{"error": ...}``, in words."""
    takes: type[BaseModel] | None = None
    """The JSON body's model (required when given)."""
    bearer: bool = False
    """The route needs a bearer token: set from the route (:func:`web.auth.tokens.token_required`), not by hand."""
    links: Mapping[str, str] = field(default_factory=dict)
    """OpenAPI links from the resource the success made, by its ``id``: link name -> operation id."""

    def answers(self) -> dict[int, str]:
        """Every error status with its words: the body's and the token's, then the view's own."""
        return {**(WRITE_ERRORS if self.takes else {}), **(AUTH_ERRORS if self.bearer else {}), **self.errors}


def described(summary: str, operation_id: str, *, gives: tuple[int, Body, str], errors: Mapping[int, str] | None = None,
              takes: type[BaseModel] | None = None, links: Mapping[str, str] | None = None) -> Callable[[F], F]:
    """Record the view's :class:`Operation` on it (put it under the route decorator)."""
    operation = Operation(summary, operation_id, gives, dict(errors or {}), takes, links=dict(links or {}))

    def record(view: F) -> F:
        setattr(view, ATTRIBUTE, operation)
        return view

    return record


def operation_of(view: Callable[..., Any]) -> Operation | None:
    """The view's :class:`Operation`, or None for a route the API document does not describe."""
    found = getattr(view, ATTRIBUTE, None)
    return found if isinstance(found, Operation) else None
