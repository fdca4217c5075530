"""The contract's errors, mapped once from what a ruling (or a command) can raise.

Every way a case is ruled on (the command line, the in-process jobs, the queue's workers)
answers a failure with ``{"code", "message", "field"}`` from :func:`error_of`, so one
cause has one code whichever way the case came: a case the contract refuses keeps its
own code, a ruleset problem is ``invalid_ruleset`` (built by
:meth:`adjudicator.rulesets.RulesetError.as_contract_error`), an engine that cannot start
is ``engine_unavailable``, a broker out of reach ``queue_unavailable``, a configuration
that cannot be read ``invalid_config``, anything else ``ruling_failed`` (a job) or
``internal_error`` (a command).
"""

from __future__ import annotations

from typing import Any

from adjudicator.chess.analysis import EngineUnavailable
from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetError
from web.config import ConfigError
from web.queue import QueueUnavailable

INVALID = (ContractError, RulesetError)
"""The exceptions that mean the case (or its ruleset) is wrong, not that the analysis failed."""


def error_of(exc: BaseException, failing: str | None = "the analysis failed") -> dict[str, Any]:
    """The contract's error object for ``exc`` (see :func:`error_body`)."""
    found: dict[str, Any] = error_body(exc, failing)["error"]
    return found


def error_body(exc: BaseException, failing: str | None = "the analysis failed") -> dict[str, Any]:
    """The contract's error document for ``exc``: ``{"error": {...}}`` (a refused case adds every problem,
    ``errors``, as :meth:`adjudicator.contract.ContractError.to_json` gives them).

    An unexpected exception is ``ruling_failed`` saying ``failing`` and the exception's type
    (its text may hold internals a TD has no use for); with ``failing=None`` (the command line,
    whose user runs the program) it is ``internal_error`` with the exception's text.
    """
    if isinstance(exc, ContractError):
        return exc.to_json()
    if isinstance(exc, RulesetError):
        return exc.as_contract_error().to_json()
    if isinstance(exc, EngineUnavailable):
        error = {"code": "engine_unavailable", "message": f"the analysis cannot be done now: {exc}", "field": None}
    elif isinstance(exc, ConfigError):
        error = {"code": "invalid_config", "message": str(exc), "field": exc.key or "config"}
    elif isinstance(exc, QueueUnavailable):
        error = {"code": "queue_unavailable", "message": str(exc), "field": None}
    elif failing is None:
        error = {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}", "field": None}
    else:
        error = {"code": "ruling_failed", "message": f"{failing}: {type(exc).__name__}", "field": None}
    return {"error": error}
