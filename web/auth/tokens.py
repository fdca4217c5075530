"""The JSON API's callers: ``Authorization: Bearer <token>`` (from ``adjudicator users add``, or an
event-scoped token), checked by :func:`token_required`; 401 when the token is missing or wrong,
403 when the user's role does not allow it.

Apart from :mod:`web.auth`'s package so that the events' models, which refer to users, import
the package without the tokens (an event-scoped token is resolved by :mod:`web.events.access`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import g, request

from web.db import get_session as db
from web.errors import api_error
from web.events.access import resolve_token
from web.tables.users import User

F = TypeVar("F", bound=Callable[..., Any])

NEEDS_TOKEN = "needs_token"
"""The attribute :func:`token_required` sets on the view: the API document gives it the bearer security
(:mod:`web.api.openapi`)."""


def token_required(*roles: str) -> Callable[[F], F]:
    """The API view needs a valid bearer token, and one of ``roles`` when given (admin always passes)."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                return api_error(401, "unauthorized", "an Authorization: Bearer <token> header is required",
                                 "Authorization")
            found = resolve_token(db(), token.strip())
            if found is None:
                return api_error(401, "unauthorized", "the token is not valid", "Authorization")
            user, scope = found
            if roles and not user.has_role(*roles):
                return api_error(403, "forbidden", f"this needs the role {' or '.join(roles)}", None)
            g.api_user, g.api_scope = user, scope  # scope: the one event an event-scoped token acts in
            return view(*args, **kwargs)

        setattr(wrapped, NEEDS_TOKEN, True)
        return cast(F, wrapped)

    return decorate


def api_user() -> User:
    """The API caller (only inside a :func:`token_required` view)."""
    user: User = g.api_user
    return user
