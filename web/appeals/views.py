"""The appeals pages: file an appeal, see the full record and the re-run, record the decision."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from adjudicator.committee import RESULTS
from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.appeals.models import Appeal
from web.appeals.service import decide_appeal, file_appeal, rerun
from web.auth import login_required, page_user
from web.committee.service import CaseRefused
from web.db import get_session as db

bp = Blueprint("appeals", __name__, url_prefix="/appeals")


def _book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]  # built once per app
    return found


def _appeal_or_404(appeal_id: int) -> Appeal:
    appeal = db().get(Appeal, appeal_id)
    if appeal is None:
        abort(404)
    return appeal


@bp.get("/")
@login_required()
def index() -> str:
    appeals = list(db().scalars(select(Appeal).order_by(Appeal.id.desc())))
    return render_template("appeals/index.html", appeals=appeals)


@bp.post("/")
@login_required("td", "appeals")
def file() -> Response | tuple[str, int]:
    try:
        appeal = file_appeal(db(), request.form.get("subject", ""), request.form.get("grounds", ""), page_user(),
                             _book(), current_app.config["ADJUDICATOR"])
    except ContractError as exc:
        db().rollback()
        status = exc.status if isinstance(exc, CaseRefused) else 422
        return render_template("appeals/error.html", error=exc.message), status
    return redirect(url_for("appeals.show", appeal_id=appeal.id), 303)


@bp.get("/<int:appeal_id>")
@login_required()
def show(appeal_id: int) -> str:
    appeal = _appeal_or_404(appeal_id)
    return render_template("appeals/show.html", appeal=appeal, user=page_user(), results=RESULTS,
                           error=request.args.get("error"))


@bp.post("/<int:appeal_id>/rerun")
@login_required("appeals")
def rerun_analysis(appeal_id: int) -> Response:
    appeal = _appeal_or_404(appeal_id)
    try:
        rerun(db(), appeal, _book(), current_app.config["ADJUDICATOR"], page_user())
    except ContractError as exc:
        db().rollback()
        return redirect(url_for("appeals.show", appeal_id=appeal_id, error=exc.message), 303)
    return redirect(url_for("appeals.show", appeal_id=appeal_id), 303)


@bp.post("/<int:appeal_id>/decision")
@login_required("appeals")
def decision(appeal_id: int) -> Response:
    appeal = _appeal_or_404(appeal_id)
    try:
        decide_appeal(db(), appeal, page_user(), request.form.get("outcome"), request.form.get("new_result") or None,
                      request.form.get("reasons", ""))
    except ContractError as exc:
        db().rollback()
        return redirect(url_for("appeals.show", appeal_id=appeal_id, error=exc.message), 303)
    return redirect(url_for("appeals.show", appeal_id=appeal_id), 303)
