"""The committee's pages: open a case, see the position and the recommendation, vote, watch the tally."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from adjudicator.contract import ContractError
from adjudicator.exports import annotate_record, ruling_comment, trf_codes
from adjudicator.rulesets import RulesetBook, RulesetError
from web.auth import login_required, page_user
from web.boards import board_for, edit_checkers
from web.claims.editors import checkers_editor
from web.committee.gate import hides_engine, is_verified, record_verified
from web.committee.position import diagram, recommended_line
from web.committee.referral import position_differs, referral_values
from web.committee.service import CaseRefused, cast_vote, ended_by_law, open_case
from web.db import get_session as db
from web.events.access import Actor, event_named, event_staff, may_read_committee_case, refused_status, roles_in
from web.inputs import whole_number
from web.tables.appeals import Appeal
from web.tables.committee import CommitteeCase
from web.tables.events import Event
from web.tables.rulings import CaseRow, RulingRow

bp = Blueprint("committee", __name__, url_prefix="/committee")


def is_htmx() -> bool:
    """An htmx request for a fragment (a boosted link or form wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def _book() -> RulesetBook:
    found: RulesetBook = current_app.extensions["rulesets"]  # built once per app
    return found


def _case_or_404(case_id: int) -> CommitteeCase:
    """The case, for its seated members, the event's TDs and appeals committee, admins (else 403; 404 for a
    stranger to its event)."""
    case = db().get(CommitteeCase, case_id)
    if case is None:
        abort(404)
    actor = Actor(page_user())
    if not may_read_committee_case(db(), actor, case.event, (m.user_id for m in case.members)):
        abort(refused_status(db(), actor, case.event))
    return case


@bp.get("/")
@login_required()
def cases() -> str:
    """The cases this user may read (seated on, or of events they are TD or appeals member of)."""
    user = page_user()
    actor = Actor(user)
    query = select(CommitteeCase).order_by(CommitteeCase.id.desc())
    readable = [c for c in db().scalars(query)
                if may_read_committee_case(db(), actor, c.event, (m.user_id for m in c.members))]
    return render_template("committee/cases.html", cases=readable, user=user)


def _form_case() -> dict[str, Any]:
    """The new-case form as a committee case (the same JSON the API takes)."""
    form = request.form
    data: dict[str, Any] = {
        "game": "checkers" if form.get("game") == "checkers" else "chess",
        "ruleset": form.get("ruleset") or "",
        "claim": "unfinished-game",
        "record": form.get("record") or None,
        "fen": (form.get("fen") or "").strip() or None,
        "time_control": (form.get("time_control") or "").strip() or None,
        "round": form.get("round") or None,
        "board": form.get("board") or None,
        "members": [name for name in form.getlist("members") if name],
        "event": form.get("event") or None,
    }
    for key in ("start_fen", "ruling"):  # carried from a referred ruling (hidden fields)
        if (form.get(key) or "").strip():
            data[key] = form[key].strip()
    first, second = _sides(data["game"])
    clock = {side: form.get(f"clock_{side}") for side in (first, second) if form.get(f"clock_{side}")}
    if clock:
        data["clock"] = clock
    data["players"] = {side: {part: form.get(f"{side}_{part}") or None for part in ("name", "club", "team")}
                       for side in (first, second)}
    return data


def _sides(game: str) -> tuple[str, str]:
    return ("red", "white") if game == "checkers" else ("white", "black")


def _events_ruled() -> list[Event]:
    """The events whose TD this user is (the events a case may be opened in); 403 when none."""
    actor = Actor(page_user())
    events = [e for e in db().scalars(select(Event).order_by(Event.id)) if "td" in roles_in(db(), actor, e)]
    if not events:
        abort(403)
    return events


def _form_page(event: Event, events: list[Event], data: dict[str, Any], status: int = 200,
               error: str | None = None, field: str | None = None) -> tuple[str, int]:
    """The new-case form: the event's committee to choose from, the game's rulesets, its two sides and its
    board editor (the claim form's, :mod:`web.claims.editors`)."""
    game = "checkers" if data.get("game") == "checkers" else "chess"
    rulesets = [r for r in _book() if r.game == game]
    if data.get("ruleset") not in {r.id for r in rulesets}:
        data["ruleset"] = event.ruleset if event.ruleset in {r.id for r in rulesets} else rulesets[0].id
    form = request.form
    editor = checkers_editor(str(data.get("fen") or ""), record=str(data.get("record") or ""),
                             flipped=bool(form.get("checkers_flipped")), piece=form.get("checkers_piece", "r"),
                             url=url_for("committee.redraw"), target="#committee-form",
                             select="#committee-form") if game == "checkers" else None
    pool = event_staff(db(), event, "committee")
    wanted = next((r.committee.members for r in rulesets if r.id == data["ruleset"]), None)
    if request.method == "GET" and not data.get("members") and len(pool) == wanted:
        data["members"] = [m.name for m in pool]  # the pool is exactly the committee: ticked (issue 35)
    return render_template("committee/new.html", members=pool, rulesets=rulesets,
                           data=data, sides=_sides(game), editor=editor, events=events, event=event, error=error,
                           error_field=field, error_input=form_input(field)), status


def _event_or_404() -> Event:
    try:
        return event_named(db(), request.values.get("event") or None)
    except ContractError:
        abort(404)


@bp.route("/cases/new", methods=["GET", "POST"])
@login_required()
def new_case() -> BaseResponse | tuple[str, int] | str:
    """A TD of some event (or an admin) opens a case in one of their events. ``?ruling=<id>``: the form filled
    from that unfinished-game ruling ("Refer to the committee", :mod:`web.committee.referral`), for a TD of
    its event; a ruling referred already goes to its case."""
    events = _events_ruled()
    if request.method == "GET" and request.args.get("ruling"):
        return _referral(request.args["ruling"], events)
    event = _event_or_404()
    if request.method == "POST":
        data = _form_case()
        try:
            differs = position_differs(data)
            if differs is not None:
                raise CaseRefused(422, "invalid_field", differs, "fen")
            case = open_case(db(), data, page_user(), _book(), current_app.config["ADJUDICATOR"])
        except (ContractError, RulesetError) as exc:
            db().rollback()
            message = exc.message if isinstance(exc, ContractError) else str(exc)
            field = exc.field if isinstance(exc, ContractError) else exc.key
            status = exc.status if isinstance(exc, CaseRefused) else 422
            return _form_page(event, events, data, status, message, field)
        return redirect(url_for("committee.case", case_id=case.id), 303)
    return _form_page(event, events, {"game": request.args.get("game") or "chess"})


@bp.post("/cases/new/form")
@login_required()
def redraw() -> tuple[str, int]:
    """The new-case form drawn again, keeping what was typed: for another game (its sides, rulesets and
    board), or after a tap on the checkers editor without JavaScript (``place``: a square, ``start`` or
    ``clear``; ``checkers_flip``; ``checkers_turn``). Who may: as :func:`new_case`."""
    events = _events_ruled()
    event = _event_or_404()
    data = _form_case()
    if data["game"] == "checkers":
        action = request.form.get("place", "")
        turn = request.form.get("checkers_turn")
        red_to_move = None if turn not in ("red", "white") else turn == "red"
        fen = str(data.get("fen") or "")
        if action or (turn and fen):
            data["fen"] = edit_checkers(fen, action, request.form.get("checkers_piece", "r"), red_to_move) or None
    return _form_page(event, events, data)


def _referral(ruling_text: str, events: list[Event]) -> BaseResponse | tuple[str, int]:
    ruling_id = whole_number(ruling_text[:20])
    ruling = None if ruling_id is None else db().get(RulingRow, ruling_id)
    origin = None if ruling is None else db().get(CaseRow, ruling.case_id)
    if ruling is None or origin is None:
        abort(404)
    event = db().get(Event, origin.event_id)
    if event is None or event not in events:
        abort(404 if event is None else refused_status(db(), Actor(page_user()), event))
    if origin.claim != "unfinished-game":
        abort(422, "Only an unfinished game goes to the committee.")
    ended = ended_by_law(ruling.data)
    if ended is not None:
        abort(422, ended[0].upper() + ended[1:] + ".")
    referred = db().scalar(select(CommitteeCase.id).where(CommitteeCase.referred_ruling_id == ruling.id))
    if referred is not None:
        return redirect(url_for("committee.case", case_id=referred), 303)
    return _form_page(event, events, referral_values(db(), ruling, origin, event))


def form_input(field: str | None) -> str | None:
    """The new-case form's input that shows an error on the case's ``field`` (it takes the focus; issue 22):
    ``clock.white`` is ``clock_white``, ``players.white`` (or ``players.white.club``) the side's name or club;
    None when no input shows it (the summary at the top then takes the focus)."""
    if not field:
        return None
    if field.startswith("clock."):
        return f"clock_{field.split('.', 1)[1]}"
    if field.startswith("players."):
        parts = field.split(".")
        part = parts[2] if len(parts) > 2 and parts[2] in ("name", "club", "team") else "name"
        return f"{parts[1]}_{part}" if len(parts) > 1 else None
    if field in ("members", "record", "fen", "time_control", "round", "board", "ruleset", "event", "game"):
        return field
    return None


def _appeals(case: CommitteeCase) -> list[Appeal]:
    return list(db().scalars(select(Appeal).where(Appeal.subject == case.subject).order_by(Appeal.id)))


def _exports(case: CommitteeCase) -> dict[str, Any] | None:
    """The record with the ruling as a comment, and the TRF codes, for the result that stands now."""
    decision = case.decision
    if decision is None or case.result is None:
        return None
    result = case.result
    comment = ruling_comment(result,  # type: ignore[arg-type]
                             decision["reasons"], decision["rule_refs"],
                             who=f"Adjudicated by the committee ({', '.join(case.member_names())})")
    reason = "by adjudication"
    for appeal in _appeals(case):
        if appeal.status == "decided" and appeal.outcome == "overturned" and appeal.new_result:
            result = appeal.new_result
            who = appeal.decided_by.name if appeal.decided_by else "the appeals committee"
            comment += f" Overturned on appeal #{appeal.id} ({who}): {result}. {appeal.reasons}"
            reason = "by adjudication, on appeal"
    record = case.case.get("record")
    return {
        "result": result,
        "record": annotate_record(record, result, comment, game=case.game,  # type: ignore[arg-type]
                                  fen=case.position.get("fen")),
        "trf": trf_codes(result, game=case.game, reason=reason),  # type: ignore[arg-type]
        "extension": "pgn" if case.game == "chess" else "pdn",
    }


def _poll_seconds() -> float:
    return float(current_app.config.get("COMMITTEE_POLL_SECONDS", 2))


@bp.get("/cases/<int:case_id>")
@login_required()
def case(case_id: int) -> str:
    """The case. A member still to vote sees the engine's analysis (the recommendation and its line) only
    once they tick "I have verified the position": a computer may be consulted only then (issue 22)."""
    row = _case_or_404(case_id)
    user = page_user()
    can_vote = row.is_member(user) and not row.has_voted(user) and not row.is_decided
    return render_template(
        "committee/case.html", case=row, user=user, poll=_poll_seconds(),
        diagram=diagram(row.game, row.position.get("fen")), exports=_exports(row), appeals=_appeals(row),
        can_vote=can_vote, verified=is_verified(db(), row.id, user.id), hide_engine=_hides_engine(row),
        error=request.args.get("error"), **_line_context(row, request.args.get("ply", type=int)),
    )


def _hides_engine(row: CommitteeCase) -> bool:
    """A seated member still to vote who has not ticked "I have verified the position" (stored,
    :mod:`web.committee.gate`)."""
    return hides_engine(db(), row, page_user())


@bp.post("/cases/<int:case_id>/verified")
@login_required()
def verified(case_id: int) -> BaseResponse:
    """The member has verified the position on a board: the engine's analysis is shown from now on."""
    row = _case_or_404(case_id)
    if request.form.get("verified") == "yes" and row.is_member(page_user()):
        record_verified(db(), row, page_user())
        db().commit()
    return redirect(url_for("committee.case", case_id=case_id, _anchor="recommendation"), 303)


def _line_context(row: CommitteeCase, ply: int | None) -> dict[str, Any]:
    """The recommended line to step through on the case page (none when the recommendation has no line)."""
    found = recommended_line(row.game, row.position.get("fen"), row.recommendation)
    if found is None:
        return {"line": None}
    line, presentation = found

    def step_url(key: str, target: int) -> str:
        return url_for("committee.line", case_id=row.id, ply=target)

    return {"line": line, "presentation": presentation, "ply": line.clamp(ply or 0), "board_for": board_for,
            "step_url": step_url, "start_caption": "The position as entered"}


@bp.get("/cases/<int:case_id>/line")
@login_required()
def line(case_id: int) -> str | BaseResponse:
    """One position of the recommended line (a fragment for htmx; else the case page at that position)."""
    ply = request.args.get("ply", type=int)
    if not is_htmx():
        return redirect(url_for("committee.case", case_id=case_id, ply=ply, _anchor="position"), 303)
    row = _case_or_404(case_id)
    if _hides_engine(row):
        abort(403, "Verify the position on a board first: the engine's line is shown after that.")
    context = _line_context(row, ply)
    if context["line"] is None:
        abort(404)
    return render_template("rulings/_line.html", **context)


@bp.get("/cases/<int:case_id>/tally")
@login_required()
def tally(case_id: int) -> str | BaseResponse:
    """The live count (a fragment; polled every few seconds until the case is decided)."""
    if not is_htmx():
        return redirect(url_for("committee.case", case_id=case_id), 303)
    return render_template("committee/_tally.html", case=_case_or_404(case_id), poll=_poll_seconds(),
                           user=page_user())


@bp.post("/cases/<int:case_id>/votes")
@login_required()
def vote(case_id: int) -> BaseResponse | tuple[str, int]:
    row = _case_or_404(case_id)  # 403 for anyone who may not even read it
    if request.form.get("position_verified") != "yes":
        message = "Verify the position on a board and tick the box before voting."
        return redirect(url_for("committee.case", case_id=case_id, error=message), 303)
    if row.is_member(page_user()):
        record_verified(db(), row, page_user())
    try:
        cast_vote(db(), case_id, page_user(), request.form.get("result"), request.form.get("comment", ""))
    except CaseRefused as exc:
        db().rollback()
        if exc.status == 403:
            abort(403)
        return redirect(url_for("committee.case", case_id=case_id, error=exc.message), 303)
    return redirect(url_for("committee.case", case_id=case_id), 303)


@bp.get("/cases/<int:case_id>/record")
@login_required()
def record(case_id: int) -> Response:
    """The record with the committee's ruling as a comment (PGN or PDN), to paste into the event's file."""
    exports = _exports(_case_or_404(case_id))
    if exports is None:
        abort(404)
    response = make_response(exports["record"])
    response.mimetype = "text/plain"
    response.headers["Content-Disposition"] = f'attachment; filename="case-{case_id}.{exports["extension"]}"'
    return response
