"""One way in for the forms and the JSON API: validate, store, start the ruling."""

from __future__ import annotations

from collections.abc import Mapping
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


def book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]
    return found


def validate(data: object) -> Case:
    """The case, checked as far as can be without keeping a ruling (:func:`adjudicator.requirements.examine`:
    the contract, the ruleset and claim by :func:`adjudicator.rule.check`, the required facts, the position).

    :raises CaseRefused: every problem, the first one's field named.
    """
    return checked_case(data, book())


def start(data: Mapping[str, Any], meta: Mapping[str, Any], source: str, event: EventFacts | None = None,
          actor: Actor | None = None) -> Job:
    """Validate the case and start ruling on it in ``event`` (default: the default event) for ``actor``.

    It is stored with its ruling, or first when it is engine work.

    :raises AccessRefused: the actor may not rule in the event.
    """

    case = validate(data)
    event = event or resolve_event(None)
    actor = actor or ANONYMOUS
    session = get_session()
    check_may_rule(session, actor, event, case.ruleset)
    submitter = actor.user.id if actor.user is not None else None
    meta = completed_meta(session, event, data, meta)  # the players nobody typed
    return adjudicator().submit(case, data, meta, source, event_id=event.id, submitted_by_id=submitter)
