"""The appeals pages: file an appeal, see the full record and the re-run, record the decision."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from adjudicator.committee import RESULTS
from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.appeals.decisive import decisive, facts_of, settings_differing, tolerance
from web.appeals.readable import compare, raw, record_diagram, words
from web.appeals.service import appealed_case_id, check_may_decide, decide_appeal, file_appeal, rerun
from web.auth import login_required, page_user
from web.committee.service import CaseRefused
from web.db import get_session as db
from web.events.access import Actor, may_read_appeal, refused_status, roles_in
from web.htmx import shown_at
from web.tables.appeals import Appeal
from web.tables.committee import CommitteeCase

bp = Blueprint("appeals", __name__, url_prefix="/appeals")

DECISION_FIELDS = ("outcome", "new_result", "reasons")
"""The decision form's fields (a refused decision is drawn again with them as typed)."""


def _book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]  # built once per app
    return found


def may_read(appeal: Appeal, actor: Actor) -> bool:
    """Whoever filed it, the event's TDs and appeals committee, admins, the members of the appealed case."""
    case_id = appealed_case_id(appeal.subject)
    case = None if case_id is None else db().get(CommitteeCase, case_id)
    members = [] if case is None else [m.user_id for m in case.members]
    return may_read_appeal(db(), actor, appeal.event, appeal.filed_by_id, members)


def _appeal_or_404(appeal_id: int) -> Appeal:
    """The appeal, for whoever may read it (404 for a stranger to its event, 403 for its other staff)."""
    appeal = db().get(Appeal, appeal_id)
    if appeal is None:
        abort(404)
    actor = Actor(page_user())
    if not may_read(appeal, actor):
        abort(refused_status(db(), actor, appeal.event))
    return appeal


@bp.get("/")
@login_required()
def index() -> str:
    actor = Actor(page_user())
    appeals = [a for a in db().scalars(select(Appeal).order_by(Appeal.id.desc())) if may_read(a, actor)]
    return render_template("appeals/index.html", appeals=appeals)


@bp.post("/")
@login_required()
def file() -> Response | tuple[str, int]:
    """File an appeal: a TD or appeals member of the event of what is appealed."""
    try:
        appeal = file_appeal(db(), request.form.get("subject", ""), request.form.get("grounds", ""), page_user(),
                             _book(), current_app.config["ADJUDICATOR"])
    except ContractError as exc:
        db().rollback()
        status = exc.status if isinstance(exc, CaseRefused) else 422
        if status == 403:
            abort(403)
        shown_at(None)  # no resource of its own: the address bar keeps the page the appeal was filed from
        return render_template("appeals/error.html", error=exc.message), status
    return redirect(url_for("appeals.show", appeal_id=appeal.id), 303)


@bp.get("/<int:appeal_id>")
@login_required()
def show(appeal_id: int) -> str:
    appeal = _appeal_or_404(appeal_id)
    return _page(appeal, request.args.get("error"))


def _page(appeal: Appeal, error: str | None, decision: dict[str, str] | None = None,
          error_field: str | None = None) -> str:
    """The appeal as a readable page: the case, the votes, the diagram, the re-run compared in words.

    ``decision``: the decision as typed, drawn again when it was refused, with ``error`` under
    ``error_field`` (outcome, new_result or reasons), which takes the focus."""
    record = appeal.record
    original = record.get("recommendation") if record.get("kind") == "committee-case" else record.get("ruling")
    rerun = appeal.rerun or {}
    rerun_ruling = rerun.get("ruling")
    allowed = tolerance(current_app.config["ADJUDICATOR"])
    completes = record.get("completes") if isinstance(record.get("completes"), dict) else None
    deferred = rerun.get("deferred") if isinstance(rerun.get("deferred"), dict) else None
    earlier = completes.get("ruling") if completes else None
    return render_template("appeals/show.html", appeal=appeal, user=page_user(), results=RESULTS, error=error,
                           why_not_decide=_why_not_decide(appeal),
                           decisive=decisive(original, rerun_ruling, allowed) if appeal.rerun else [],
                           settings_differing=settings_differing(original, rerun_ruling,
                                                                 record.get("engine_settings"),
                                                                 rerun.get("engine_settings")),
                           finding_facts=facts_of(earlier.get("evidence")) if earlier else {},
                           deferred_decisive=decisive(earlier, deferred.get("ruling"), allowed) if deferred else [],
                           diagram=record_diagram(record), lines=compare(original, rerun_ruling),
                           original=original, raw=raw, words=words, decision=decision or {},
                           error_field=error_field if error_field in DECISION_FIELDS else None)


def _why_not_decide(appeal: Appeal) -> str | None:
    """Why the user on the page may not decide ``appeal`` (None: they may), by the rule the decision applies
    (:func:`web.appeals.service.check_may_decide`): the form is drawn only for whoever can use it."""
    try:
        check_may_decide(db(), appeal, page_user())
    except CaseRefused as exc:
        return exc.message
    return None


@bp.post("/<int:appeal_id>/rerun")
@login_required()
def rerun_analysis(appeal_id: int) -> Response:
    appeal = _appeal_or_404(appeal_id)
    if "appeals" not in roles_in(db(), Actor(page_user()), appeal.event):
        abort(403)
    try:
        rerun(db(), appeal, _book(), current_app.config["ADJUDICATOR"], page_user())
    except ContractError as exc:
        db().rollback()
        return redirect(url_for("appeals.show", appeal_id=appeal_id, error=exc.message), 303)
    return redirect(url_for("appeals.show", appeal_id=appeal_id), 303)


@bp.post("/<int:appeal_id>/decision")
@login_required()
def decision(appeal_id: int) -> Response | tuple[str, int]:
    """The decision: 403 for anyone not on the event's appeals committee or who voted on the case,
    409 (the page with the message) when the appeal is already decided."""
    appeal = _appeal_or_404(appeal_id)
    typed = {name: request.form.get(name, "")[:4000] for name in DECISION_FIELDS}
    try:
        decide_appeal(db(), appeal, page_user(), request.form.get("outcome"), request.form.get("new_result") or None,
                      request.form.get("reasons", ""))
    except ContractError as exc:
        db().rollback()
        status = exc.status if isinstance(exc, CaseRefused) else 422
        if status == 403:
            abort(403, exc.message)
        shown_at(url_for("appeals.show", appeal_id=appeal_id))  # the appeal's page, drawn again
        if status == 409:
            return _page(_appeal_or_404(appeal_id), exc.message), 409
        return _page(_appeal_or_404(appeal_id), exc.message, typed, exc.field), 422  # what was typed, kept
    return redirect(url_for("appeals.show", appeal_id=appeal_id), 303)
