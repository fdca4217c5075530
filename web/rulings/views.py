"""``/rulings/<id>`` (page, board fragment, PDF sheet) and ``/cases/<id>`` (a job's progress)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from flask import session as flask_session
from sqlalchemy import select
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError, parse_seconds
from adjudicator.evidence import Evidence
from web import submit
from web.articles import summary
from web.boards import board_for
from web.charts import clock_chart, hms
from web.claim_jobs import progress_of
from web.claims.forms import CLAIM_LABELS
from web.committee.gate import hiding_case, redacted
from web.committee.service import ended_by_law
from web.db import get_session
from web.events.access import (
    AccessRefused,
    may_cancel,
    may_rule,
    may_see_rulings,
    roles_in,
    share_code,
    shared_ruling_id,
)
from web.events.actors import SHARED, current_actor, remember_case, resolve_event
from web.evidence import kept_game, present
from web.htmx import is_htmx, shown_at
from web.jobs import Job
from web.outcomes import outcome_of
from web.players import names_mismatch
from web.qr import qr_svg
from web.queue.rows import claim_job_id
from web.rulings import finding
from web.rulings.exports import ruling_exports
from web.rulings.sheet import SHORT_FACT, line_words, sheet_diagram, sheet_pdf
from web.rulings.words import evidence_words
from web.tables import rulings as store
from web.tables.appeals import Appeal
from web.tables.committee import CommitteeCase
from web.tables.events import Event
from web.tables.rulings import CaseRow, RulingRow

bp = Blueprint("rulings", __name__)



def load(ruling_id: int) -> tuple[RulingRow, CaseRow]:
    """The ruling and its case; 404 when there is none or its event is private and the asker not its staff
    (a player of a private event opens it through its share link)."""
    session = get_session()
    ruling = session.get(RulingRow, ruling_id)
    if ruling is None:
        abort(404, f"There is no ruling {ruling_id}.")
    case = session.get(CaseRow, ruling.case_id)
    if case is None:
        abort(404, f"The case of ruling {ruling_id} is missing.")
    if ruling_id not in flask_session.get(SHARED, []):
        _visible_event_or_404(case, f"There is no ruling {ruling_id}.")
    return ruling, case


def _visible_event_or_404(case: CaseRow, message: str) -> Event:
    session = get_session()
    event = session.get(Event, case.event_id)
    if event is None or not may_see_rulings(session, current_actor(), event):
        abort(404, message)
    return event


def hidden_for(ruling: RulingRow) -> CommitteeCase | None:
    """The committee case that hides this ruling's engine analysis from the asker (the verify gate,
    :mod:`web.committee.gate`), or None."""
    return hiding_case(get_session(), ruling.id, current_actor().user)


def context_for(ruling: RulingRow, case: CaseRow, hidden: CommitteeCase | None = None) -> dict[str, Any]:
    """What the page and the sheet show; ``hidden``: the committee case whose verify gate hides the engine's
    line and score (the ruling is shown :func:`redacted`)."""
    data = redacted(ruling.data, hidden.id) if hidden is not None else ruling.data
    outcome = outcome_of(get_session(), ruling, case)
    case_data = case.data
    presentation = present(case_data, data, kept_game(ruling.played_json))
    evidence = Evidence.read(data.get("evidence"))
    game = case.game
    sides = ("red", "white") if game == "checkers" else ("white", "black")
    clock = case_data.get("clock") or {}
    now = {side: _seconds(clock.get(side)) for side in sides}
    flagged = list(clock.get("flagged") or [])
    chart = ""
    if presentation.clocks and not presentation.clocks.is_empty:  # the record's [%clk] readings
        chart = clock_chart(presentation.clocks, now, sides, flagged)
    players = {sides[0]: case.first_player, sides[1]: case.second_player}
    return {
        "ruling": data,
        "ruling_evidence": evidence,
        "row": ruling,
        "case": case,
        "case_data": case_data,
        "presentation": presentation,
        "claim_label": CLAIM_LABELS.get(case.claim, case.claim),
        "outcome": outcome,
        "result_words": outcome.headline,
        "engine_hidden": hidden,
        "articles": [(ref, summary(ref)) for ref in data.get("rule_refs", [])],
        "clock_chart": chart,
        "clocks_now": [(side, hms(now[side]), side in flagged) for side in sides if now[side] is not None],
        "players": players,
        "sides": sides,
        "hms": hms,
        "board_for": board_for,
        "diagram": sheet_diagram(case.claim, data, presentation, board_for),
        "layout": "whole",
        "evidence_full": evidence_words(evidence, presentation),
        "evidence_short": evidence_words(evidence, presentation, SHORT_FACT),
        "line_words": line_words,
        "ruled_at": ruling.created_at.strftime("%Y-%m-%d %H:%M UTC"),
        "exports": ruling_exports(case_data, game, outcome, data.get("reasons") or [], data.get("rule_refs") or []),
    }


def may_appeal(session: Any, actor: Any, event: Event) -> bool:
    """An appeal against a ruling is filed by a TD or an appeals member of its event (as the API allows,
    :func:`web.appeals.service.file_appeal`), from a log-in (the appeals pages need one)."""
    return actor.user is not None and bool(roles_in(session, actor, event) & {"td", "appeals"})


def _seconds(value: object) -> float | None:
    if value is None:
        return None
    try:
        return parse_seconds(value, "clock")
    except ContractError:
        return None


@bp.get("/rulings/<int:ruling_id>")
def show(ruling_id: int) -> str:
    """The ruling: verdict and result, adjustments, instructions, articles, evidence."""
    return _page(*load(ruling_id))


def _page(ruling: RulingRow, case: CaseRow, finding_error: str | None = None) -> str:
    context = context_for(ruling, case, hidden_for(ruling))
    context["selected"] = (request.args.get("line", "game"), request.args.get("ply", type=int))
    session = get_session()
    event = session.get(Event, case.event_id)
    actor = current_actor()
    context["event"] = event
    if event is not None and may_see_rulings(session, actor, event) and event.is_private:
        code = share_code(current_app.config["SECRET_KEY"], ruling.id)
        context["share_url"] = url_for("rulings.shared", code=code, _external=True)
        context["share_qr"] = qr_svg(context["share_url"])
    completion = finding.completed_by(session, ruling.id)
    context.update(
        may_claim=event is not None and may_rule(session, actor, event),  # not a player on a share link
        completion=completion,
        completes=finding.completes(session, case),
        finding_error=finding_error,
        finding_choices=finding.CHOICES,
        recommendation=finding.recommendation(ruling.data),
        awaits_finding=(completion is None and event is not None and may_rule(session, actor, event)
                        and finding.awaits_finding(case.claim, case.data, ruling.data)),
        may_appeal=event is not None and may_appeal(session, actor, event),
        appeals=(list(session.scalars(select(Appeal).where(Appeal.subject == f"ruling:{ruling.id}")
                                      .order_by(Appeal.id))) if event is not None and may_appeal(session, actor, event)
                 else []),
        referral=_referral(session, actor, event, case, ruling),
        name_mismatch=names_mismatch(case.game, str(case.data.get("record") or ""), case.first_player,
                                     case.second_player),
    )
    return render_template("rulings/show.html", **context)


def _referral(session: Any, actor: Any, event: Event | None, case: CaseRow, ruling: RulingRow) -> dict[str, Any] | None:
    """"Refer to the committee" on an unfinished-game ruling, for a TD of its event (who opens committee cases):
    ``{"case_id": None}`` to refer it, or the committee case it went to (issue 22, item 7)."""
    if case.claim != "unfinished-game" or event is None or actor.user is None or "td" not in roles_in(
            session, actor, event):
        return None
    referred = session.scalar(select(CommitteeCase.id).where(CommitteeCase.referred_ruling_id == ruling.id))
    if referred is None and ended_by_law(ruling.data) is not None:
        return None  # the Laws ended the game (mate, a dead position, 75 moves): nothing for the committee
    return {"case_id": referred}


@bp.post("/rulings/<int:ruling_id>/finding")
def give_finding(ruling_id: int) -> Response | tuple[str, int]:
    """The arbiter's finding on a deferred insufficient-losing-chances ruling (:mod:`web.rulings.finding`):
    a new case with the finding, ruled at once; the page of its ruling (or of its job). 403 for whoever may
    not rule in the event; the ruling page with the message (409) when there is nothing to find any more."""
    ruling, case = load(ruling_id)
    session = get_session()
    event = session.get(Event, case.event_id)
    actor = current_actor()
    if event is None or not may_rule(session, actor, event):
        abort(403, "Only the event's TDs (or anyone, in an open event) give the arbiter's finding.")
    shown_at(url_for("rulings.show", ruling_id=ruling_id))  # refused: the ruling's page, drawn again
    done = finding.completed_by(session, ruling_id)
    if done is not None:
        target = (url_for("rulings.show", ruling_id=done.ruling.id) if done.ruling is not None
                  else url_for("rulings.job", case_id=done.case_id))
        return redirect(target, 303)
    if not finding.awaits_finding(case.claim, case.data, ruling.data):
        return _page(ruling, case, "This ruling does not wait for the arbiter's finding."), 409
    choice = request.form.get("finding", "")
    if choice == "accept":
        recommended = finding.recommendation(ruling.data)
        choice = recommended.finding if recommended is not None else ""
    if choice not in finding.CHOICES:
        return _page(ruling, case, "Choose a finding: clear, unclear or incorrect."), 422
    data = finding.completing_case(case.data, choice, ruling_id)
    meta = {"event": case.event, "round": case.round, "board": case.board, "first_player": case.first_player,
            "second_player": case.second_player}
    try:
        job = submit.start(data, meta, "web", resolve_event(event.slug), actor)
    except AccessRefused as exc:
        abort(exc.status if exc.status != 401 else 403, exc.message)
    except ContractError as exc:
        return _page(ruling, case, exc.message), 422
    adjudicator = submit.adjudicator()
    if job.is_background or job.case_id is not None:
        remember_case(adjudicator.persist(job))
    if not job.is_background and job.wait(adjudicator.inline_seconds) and job.error is not None:
        return _page(ruling, case, str(job.error.get("message"))), 422
    case_id = adjudicator.persist(job) if job.case_id is None else job.case_id
    remember_case(case_id)
    who = actor.user.name if actor.user is not None else "anonymous"
    finding.record_completion(session, ruling_id, case_id, choice, who)
    session.commit()
    if job.ruling_id is not None:
        return redirect(url_for("rulings.show", ruling_id=job.ruling_id), 303)
    return redirect(url_for("rulings.job", case_id=case_id), 303)


@bp.get("/s/<code>")
def shared(code: str) -> Response:
    """A ruling's share link: opens that ruling (its page, board steps and sheet) in this browser."""
    ruling_id = shared_ruling_id(current_app.config["SECRET_KEY"], code[:80])
    if ruling_id is None or get_session().get(RulingRow, ruling_id) is None:
        abort(404, "This share link opens no ruling.")
    kept = [i for i in flask_session.get(SHARED, []) if isinstance(i, int) and i != ruling_id][-49:]
    flask_session[SHARED] = [*kept, ruling_id]
    return redirect(url_for("rulings.show", ruling_id=ruling_id), 303)


@bp.get("/rulings/<int:ruling_id>/board")
def board(ruling_id: int) -> str | Response:
    """One position of a line (the game, a helpmate, an engine line): fragment for htmx, else the page."""
    key = request.args.get("line", "game")
    ply = request.args.get("ply", type=int)
    if not is_htmx():
        return redirect(url_for("rulings.show", ruling_id=ruling_id, line=key, ply=ply, _anchor=f"line-{key}"))
    ruling, case = load(ruling_id)
    hidden = hidden_for(ruling)
    presentation = present(case.data, redacted(ruling.data, hidden.id) if hidden is not None else ruling.data,
                           kept_game(ruling.played_json))
    line = presentation.lines.get(key)
    if line is None:
        abort(404, f"Ruling {ruling_id} has no line {key!r}.")
    return render_template(
        "rulings/_line.html",
        row=ruling,
        line=line,
        ply=line.clamp(ply if ply is not None else line.focus),
        presentation=presentation,
        board_for=board_for,
    )


@bp.get("/rulings/<int:ruling_id>/sheet.pdf")
def sheet(ruling_id: int) -> Response:
    """The printable ruling sheet (PDF): diagram, claim, ruling, articles, evidence, signatures; on one A4
    page where it fits, else the evidence continued on page 2 (:func:`web.rulings.sheet.sheet_pdf`)."""
    ruling, case = load(ruling_id)
    context = context_for(ruling, case, hidden_for(ruling))
    context["appeal_line"] = appeal_line(list(get_session().scalars(
        select(Appeal).where(Appeal.subject == f"ruling:{ruling.id}").order_by(Appeal.id))))
    pdf, _layout = sheet_pdf(lambda name: render_template("rulings/sheet.html", **{**context, "layout": name}),
                             request.url_root)
    response = make_response(pdf)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = f'inline; filename="ruling-{ruling_id}.pdf"'
    return response


def appeal_line(appeals: list[Appeal]) -> str | None:
    """The sheet's line on the appeal to the appeals committee (issue 35): the last one filed, decided or not;
    None: none filed (the sheet leaves "lodged: yes / no, at ____" for the pen)."""
    if not appeals:
        return None
    last = appeals[-1]
    if last.decided_at:
        when = last.decided_at[:16].replace("T", " ")
        return f"Appeal #{last.id} to the appeals committee: {last.outcome or 'decided'}, {when} UTC"
    when = last.filed_at[:16].replace("T", " ")
    return f"Appeal #{last.id} to the appeals committee lodged {when} UTC: not decided yet"


@bp.get("/rulings/<int:ruling_id>/record")
def record(ruling_id: int) -> Response:
    """The record with the ruling as a comment and the result that stands (PGN or PDN), for the event's file;
    404 while no result stands (the game plays on, or waits for the committee or the arbiter's finding)."""
    ruling, case = load(ruling_id)
    context = context_for(ruling, case, hidden_for(ruling))
    exports = context["exports"]
    if exports is None:
        abort(404, f"No result stands for ruling {ruling_id} yet: {context['outcome'].words}.")
    response = make_response(exports["record"])
    response.mimetype = "text/plain"
    response.headers["Content-Disposition"] = f'attachment; filename="ruling-{ruling_id}.{exports["extension"]}"'
    return response


@bp.get("/cases/<int:case_id>")
def job(case_id: int) -> Response | str | tuple[str, int]:
    """A case being ruled on: its progress (polled by htmx), or its ruling once there is one."""
    session = get_session()
    case = session.get(CaseRow, case_id)
    if case is None:
        abort(404, f"There is no case {case_id}.")
    event = _visible_event_or_404(case, f"There is no case {case_id}.")
    running = _snapshot(submit.adjudicator().job(case_id))  # read before the ruling: it may finish meanwhile
    ruling = store.ruling_for_case(session, case_id)
    if ruling is None and running is not None and running.state == "done":
        session.rollback()  # a read transaction begun before the ruling's commit does not see it (SQLite WAL)
        ruling = store.ruling_for_case(session, case_id)
    if ruling is not None:
        target = url_for("rulings.show", ruling_id=ruling.id)
        if is_htmx():
            response = make_response("")
            response.headers["HX-Redirect"] = target
            return response
        return redirect(target, 303)
    notes = store.notes_for_case(session, case_id)
    context = {
        "case": case,
        "job": running,
        "notes": notes,
        "claim_label": CLAIM_LABELS.get(case.claim, case.claim),
        "progress_shown": None if running is None else progress_of(running),
        "can_cancel": may_cancel(session, current_actor(), case.id, event, case.submitted_by_id),
    }
    if is_htmx():
        return render_template("rulings/_job.html", **context)
    return render_template("rulings/job.html", **context)


@bp.post("/cases/<int:case_id>/cancel")
def cancel(case_id: int) -> Response | str:
    """Cancel a running job: its submitter, the event's TDs or an admin (the widget shows it cancelled;
    without JavaScript, back to the page); anyone else 403."""
    session = get_session()
    case = session.get(CaseRow, case_id)
    if case is None:
        abort(404, f"There is no case {case_id}.")
    event = _visible_event_or_404(case, f"There is no case {case_id}.")
    if not may_cancel(session, current_actor(), case.id, event, case.submitted_by_id):
        abort(403, "Only whoever entered the claim, the event's TDs or an admin may cancel it.")
    submit.cancel(claim_job_id(case_id))
    if is_htmx():
        return job(case_id)  # type: ignore[return-value]
    return redirect(url_for("rulings.job", case_id=case_id), 303)


def _snapshot(job: Job | None) -> Any:
    """The job as it is now (state, message, share done, error): the widget shows one moment of it, so a job
    finishing while the page is drawn is seen at the next poll instead of as 'done' with no ruling to open."""
    if job is None:
        return None

    return SimpleNamespace(state=job.state, is_finished=job.is_finished, message=job.message,
                           fraction=job.fraction, elapsed=job.elapsed, error=job.error)
