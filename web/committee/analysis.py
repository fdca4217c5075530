"""The committee analysis job kind: the engine/database recommendation a committee case (or an appeal's
re-run) carries, computed with deterministic settings, in the serving process or on a queue worker
(:data:`ANALYSIS`, run through :mod:`web.runner`). Committee rules: see ``docs/jobs.md`` and the contract's
committee section."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import engines
from adjudicator.contract import Case, ContractError, parse_case
from adjudicator.evidence import Evidence
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from web.runner import JobKind, Work


def recommend_here(case: Case, book: RulesetBook, config: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str,
                                                                                       dict[str, Any]]:
    """The engine/database recommendation (deterministic settings), computed in this process, or why there is none.

    Never fails the case: a case the claim cannot use, or an analysis that breaks,
    gives "no recommendation available" with the reason.
    """
    services = engines.build_services(config, deterministic=True)  # looked up at each call: a test replaces it
    settings: dict[str, Any] = {
        "deterministic": services.deterministic,
        "engines": dict(config.get("engines", {})),
        "checkers": dict(config.get("checkers", {})),
        "tablebases": dict(config.get("tablebases", {})),
        "available": {name: type(getattr(services, name)).__name__
                      for name in ("mate", "engine", "tablebase", "checkers")
                      if getattr(services, name) is not None},
    }
    try:
        ruling = rule(case, book, services).to_json()
    except ContractError as exc:
        return None, f"No recommendation available: {exc.message} ({exc.field}).", settings
    except ModuleNotFoundError as exc:  # the analysis for this game is not installed (yet)
        return None, f"No recommendation available: the analysis module {exc.name} is not installed.", settings
    except Exception as exc:  # the analysis failed; the committee still decides
        return None, f"No recommendation available: the analysis failed ({type(exc).__name__}: {exc}).", settings
    finally:
        close = getattr(services, "close", None)
        if callable(close):
            close()
    identity = Evidence.read(ruling.get("evidence")).engine_identity
    if identity:
        settings.setdefault("identity", {}).update(identity)
    return ruling, "", settings


def analysed(ruling: dict[str, Any] | None, note: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The analysis's result as a job stores it (the settings made plain JSON)."""
    return {"ruling": ruling, "note": note, "settings": json.loads(json.dumps(settings, default=str))}


def work(job: Work) -> None:
    """A committee recommendation or an appeal's re-run on a worker; the result in the job's row."""
    payload = job.payload or {}
    try:
        case = parse_case(payload.get("case"))
    except ContractError as exc:
        job.end("failed", error=exc.to_json()["error"])
        return
    job.end("done", result=analysed(*recommend_here(case, job.host.book, job.host.config)))


ANALYSIS = JobKind("recommend", work, pool="engine", taken_up=False)
"""A committee analysis (the job row's kind stays ``recommend``: rows written before keep running). Its result
is for the request that waits for it (:meth:`web.runner.Runner.run`): one a stopped server left is not taken up
(its waiter is gone; the committee case is stored only with its analysis, so nothing is lost)."""
