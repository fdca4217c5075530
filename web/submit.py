"""One way in for the forms and the JSON API: validate, store, start the ruling."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from adjudicator.contract import Case
from adjudicator.requirements import checked_case
from adjudicator.rulesets import RulesetBook
from web.db import get_session
from web.events.access import ANONYMOUS, Actor, check_may_rule
from web.events.actors import resolve_event
from web.jobs import Adjudicator, Job
from web.players import completed_meta
from web.tables.events import EventFacts


def adjudicator() -> Adjudicator:
    found: Adjudicator = current_app.extensions["adjudicator"]
    return found


def cancel(job_id: str) -> str | None:
    """Cancel job ``job_id``, whatever its kind (a claim's ``case:<id>``, a collection check's ``check:<id>``,
    any kind started on the runner) and whichever process runs it: the app's one cancel
    (:meth:`web.runner.Runner.cancel`), called by every page and API that stops a job. Its state after."""
    return adjudicator().runner.cancel(job_id)


def book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]
    return found


def validate(data: object) -> Case:
    """The case, checked as far as can be without keeping a ruling (:func:`adjudicator.requirements.examine`:
    the contract, the ruleset and claim by :func:`adjudicator.rule.check`, the required facts, the position).

    :raises CaseRefused: every problem, the first one's field named.
    """
    return checked_case(data, book())


@dataclass(frozen=True)
class Submission:
    """A claim as it enters, in one shape for every way in: the case checked once (:func:`validate`), the
    contract JSON it was read from (stored as given), and the game's details with the players nobody typed
    filled in once (:func:`web.players.completed_meta`)."""

    case: Case
    data: Mapping[str, Any]
    meta: Mapping[str, Any] = field(default_factory=dict)


def submission(data: object, meta: Mapping[str, Any], event: EventFacts | None) -> Submission:
    """The JSON API's and the ruling page's way in: the case validated, the players nobody gave filled in.

    :raises CaseRefused: every problem, the first one's field named.
    """
    case = validate(data)
    assert isinstance(data, Mapping)  # a case was read from it
    return Submission(case, data, completed_meta(get_session(), event, data, meta))


def start(data: Mapping[str, Any], meta: Mapping[str, Any], source: str, event: EventFacts | None = None,
          actor: Actor | None = None) -> Job:
    """Validate the case and start ruling on it in ``event`` (default: the default event) for ``actor``.

    It is stored with its ruling, or first when it is engine work.

    :raises AccessRefused: the actor may not rule in the event.
    """
    event = event or resolve_event(None)
    return start_submission(submission(data, meta, event), source, event, actor)


def start_submission(entered: Submission, source: str, event: EventFacts, actor: Actor | None = None) -> Job:
    """Start ruling on a case already checked and completed (:class:`Submission`), in ``event`` for ``actor``.

    :raises AccessRefused: the actor may not rule in the event.
    """
    actor = actor or ANONYMOUS
    check_may_rule(get_session(), actor, event, entered.case.ruleset)
    submitter = actor.user.id if actor.user is not None else None
    return adjudicator().submit(entered.case, entered.data, entered.meta, source, event_id=event.id,
                                submitted_by_id=submitter)
