"""Claim form views: ``GET /claims/new``, ``POST /claims/form`` (redraw), ``POST /claims`` (rule)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, jsonify, redirect, request, session, url_for
from werkzeug.wrappers import Response

from adjudicator.claim_registry import ASKED_FACTS
from adjudicator.contract import ContractError
from adjudicator.requirements import CaseRefused
from web import submit
from web.boards import edit_checkers
from web.claims.editors import position_status
from web.claims.event_choice import USED_ON, opening_event
from web.claims.form_page import EVENT_FIELD, default_ruleset, render_form, ruleset_offer, settle_offer
from web.claims.forms import (
    CLAIM_LABELS,
    ClaimForm,
    read_form,
    to_case,
)
from web.db import get_session
from web.events.access import AccessRefused, check_not_hidden, event_named, may_see_rulings, rulable_events
from web.events.actors import current_actor, remember_case, resolve_event
from web.htmx import shown_at
from web.inputs import whole_number
from web.players import completed_meta, record_tags
from web.tables.events import DEFAULT_SLUG, Event
from web.tables.rulings import CaseRow
from web.watch.claim import values_from_alert

bp = Blueprint("claims", __name__)

REMEMBERED = ("game", "ruleset", "round")
"""What the form remembers for the session: the event's game and ruleset, and where we are."""
RULESET_EVENT = "ruleset_event"
"""Hidden: the event whose ruleset the form last applied. Another event chosen applies its own ruleset
(and game); the same one keeps the TD's choice, which the event refuses if it is not its ruleset."""
REMEMBERED_ROUND = "remembered_round"
"""Hidden: the round shown because the session remembered it. The record's ``[Round]`` beats it."""


def _form_event(claim_form: ClaimForm) -> Event | None:
    """The chosen event; None for a slug no event has, and for a private event the asker has no part in,
    whose ruleset and pairings are not shown to them either (issue 39, item 1)."""
    try:
        event = event_named(get_session(), claim_form.value(EVENT_FIELD) or None, EVENT_FIELD)
        check_not_hidden(get_session(), current_actor(), event, EVENT_FIELD)
    except ContractError:
        return None
    return event


def apply_event_ruleset(claim_form: ClaimForm) -> None:
    """The chosen event's ruleset (and its game), preselected when the event is chosen (see :data:`RULESET_EVENT`)."""
    slug = claim_form.value(EVENT_FIELD) or DEFAULT_SLUG
    if claim_form.value(RULESET_EVENT) == slug:
        return
    claim_form.values[RULESET_EVENT] = slug
    event = _form_event(claim_form)
    ruleset = next((r for r in submit.book() if event is not None and r.id == event.ruleset), None)
    if ruleset is not None:
        before = ruleset_offer(claim_form.game, claim_form.value("ruleset")).time_control
        claim_form.values["game"] = ruleset.game
        claim_form.values["ruleset"] = ruleset.id
        if claim_form.value("time_control").strip() in ("", before or ""):
            claim_form.values.pop("time_control", None)  # the new rules' own default (settle_offer)


def read_event_fields(claim_form: ClaimForm) -> None:
    """The event, the ruleset it last applied and the remembered round, from the posted form."""
    for key in (EVENT_FIELD, RULESET_EVENT, REMEMBERED_ROUND):
        claim_form.values[key] = request.form.get(key, "")
    apply_event_ruleset(claim_form)


def fill_players(claim_form: ClaimForm) -> None:
    """The players (and the round) nobody typed (:func:`web.players.completed_meta`, as the API fills them),
    shown on the form. Typed names win; the record's ``[Round]`` beats a round only remembered."""
    event = _form_event(claim_form)
    remembered = claim_form.value(REMEMBERED_ROUND)
    if remembered and claim_form.value("round").strip() == remembered:
        found = record_tags(claim_form.value("record")).get("Round") if claim_form.needs("position") else None
        if found and found.strip() != remembered:
            claim_form.values["round"] = found.strip()[:20]
            claim_form.values[REMEMBERED_ROUND] = ""
    elif remembered:
        claim_form.values[REMEMBERED_ROUND] = ""  # the TD typed another round
    keys = ("round", "board", "first_player", "second_player")
    ruled = claim_form.value("record")
    if claim_form.value("opponent_record").strip() and claim_form.value("ruled_on") == "opponent":
        ruled = claim_form.value("opponent_record")  # the tags of the scoresheet the claim is ruled on
    meta = completed_meta(get_session(), event, {"game": claim_form.game, "record": ruled},
                          {k: claim_form.value(k) for k in keys})
    for key in keys:
        claim_form.values[key] = meta.get(key) or ""


@bp.get("/")
def index() -> Response:
    return redirect(url_for("claims.new"))


@bp.get("/claims/new")
def new() -> tuple[str, int]:
    """The empty form (remembering the event's game, ruleset and round), or one filled from a stored case."""
    values: dict[str, Any] = {k: session[k] for k in REMEMBERED if k in session}
    values[REMEMBERED_ROUND] = values.get("round", "")
    for key in ("game", "claim"):
        if request.args.get(key):
            values[key] = request.args[key]
    source = whole_number(request.args.get("from", ""))
    if source is not None:
        row = get_session().get(CaseRow, source)
        event = None if row is None else get_session().get(Event, row.event_id)
        if row is not None and event is not None and may_see_rulings(get_session(), current_actor(), event):
            values.update(_values_from_case(row))
            values[EVENT_FIELD] = event.slug
            values[RULESET_EVENT] = event.slug  # the case's own ruleset, as it was ruled
            values[REMEMBERED_ROUND] = ""
    alert = whole_number(request.args.get("alert", ""))
    if alert is not None:  # from an alert of the Round view: filled from the live game (web/watch/claim.py)
        filled = values_from_alert(get_session(), current_actor(), alert)
        if filled is not None:
            values.update(filled)
            values[REMEMBERED_ROUND] = ""
    claim_form = ClaimForm(values=values)
    if source is None or values.get(RULESET_EVENT) is None:  # a stored case keeps its own event
        claim_form.values[EVENT_FIELD] = opening_event(
            get_session(), current_actor(), rulable_events(get_session(), current_actor()),
            session.get(EVENT_FIELD), session.get(USED_ON), date.today())
    apply_event_ruleset(claim_form)
    return render_form(claim_form)


@bp.post("/claims/form")
def redraw() -> tuple[str, int]:
    """Draw the form again for another game or claim, keeping what was typed.

    The checkers position editor posts here too: ``place`` is the square tapped (or
    ``start``/``clear``), ``checkers_piece`` what to put there, ``checkers_turn`` who moves.
    """
    claim_form = read_form(request.form, request.files)  # an uploaded scoresheet shows in its field
    read_event_fields(claim_form)
    fill_players(claim_form)
    if claim_form.game == "checkers":
        if request.form.get("checkers_flip"):
            claim_form.values["checkers_flipped"] = "" if claim_form.value("checkers_flipped") else "1"
        action = request.form.get("place", "")
        turn = request.form.get("checkers_turn")
        red_to_move = None if turn not in ("red", "white") else turn == "red"
        fen = claim_form.value("fen").strip()
        if action or (turn and fen):
            claim_form.values["fen"] = edit_checkers(fen, action, claim_form.value("checkers_piece", "r"), red_to_move)
    return render_form(claim_form)


@bp.get("/claims/position")
def check_position() -> Response:
    """The board editors' live check of the position they set up: the very check a submitted
    position-only claim gets (:func:`adjudicator.requirements.position_errors`), as JSON
    ``{"fen", "is_legal", "message"}`` (``is_legal`` null for no position). ``game``: ``chess``
    (the default) or ``checkers``."""
    fen = request.args.get("fen", "")[:200].strip()
    game = "checkers" if request.args.get("game") == "checkers" else "chess"
    if not fen:
        return jsonify({"fen": "", "is_legal": None, "message": None})
    status = position_status(game, fen)
    return jsonify({"fen": fen, "is_legal": status is None, "message": status})


@bp.post("/claims")
def create() -> Response | tuple[str, int]:
    """Rule on the claim: the ruling page when it is quick, the job's progress page otherwise."""
    claim_form = read_form(request.form, request.files)
    read_event_fields(claim_form)
    fill_players(claim_form)
    shown_at(url_for("claims.new"))  # a refused claim is the form drawn again, on the form's own URL
    for key in (*REMEMBERED, EVENT_FIELD):
        if claim_form.value(key):
            session[key] = claim_form.value(key)
    session[USED_ON] = date.today().isoformat()
    settle_offer(claim_form)
    if claim_form.values.get("claim") not in claim_form.claims:
        claim_form.errors["claim"] = _not_offered(claim_form)
    if claim_form.errors:
        return render_form(claim_form, 422)
    visible = claim_form.visible_fields() | {EVENT_FIELD}
    try:
        event = resolve_event(claim_form.value(EVENT_FIELD) or None, EVENT_FIELD)
        entered = to_case(claim_form, event.ruleset or default_ruleset(claim_form.game), submit.book(),
                          event.name if event.slug != DEFAULT_SLUG else None)  # the event chosen, by its name
        job = submit.start_submission(entered, "web", event, current_actor())
    except AccessRefused as exc:
        claim_form.general_errors.append(exc.message)
        return render_form(claim_form, exc.status if exc.status != 401 else 403)
    except CaseRefused as exc:  # a slip on the form: refused before any ruling is made or stored, all at once
        for problem in exc.problems:
            claim_form.add_error(problem, visible)
        return render_form(claim_form, 422)
    except ContractError as exc:
        claim_form.add_error(exc, visible)
        return render_form(claim_form, 422)
    adjudicator = submit.adjudicator()
    if job.is_background or job.case_id is not None:
        remember_case(adjudicator.persist(job))  # whoever entered a claim may cancel its job
    if not job.is_background and job.wait(adjudicator.inline_seconds):
        if job.ruling_id is not None:
            return redirect(url_for("rulings.show", ruling_id=job.ruling_id), 303)
        if job.error is not None:
            claim_form.add_error(ContractError(job.error["code"], job.error["message"], job.error["field"]), visible)
            return render_form(claim_form, 503 if job.error["code"] == "ruling_failed" else 422)
    case_id = adjudicator.persist(job)
    remember_case(case_id)
    return redirect(url_for("rulings.job", case_id=case_id), 303)


def _not_offered(claim_form: ClaimForm) -> str:
    claim = str(claim_form.values.get("claim") or "")
    ruleset = claim_form.offer.ruleset if claim_form.offer is not None else claim_form.value("ruleset")
    if claim not in CLAIM_LABELS:
        return f"choose a claim: {claim!r} is none" if claim else "choose a claim"
    return f"the rules {ruleset} have no such claim ({CLAIM_LABELS[claim].lower()}): choose one they have"


def _values_from_case(row: CaseRow) -> dict[str, Any]:
    data = row.data
    values: dict[str, Any] = {k: data.get(k) for k in ("game", "ruleset", "claim", "claimant", "record", "fen")}
    values.update({fact.name: data.get(fact.name) for fact in ASKED_FACTS})
    values.update(
        time_control=data.get("time_control"),
        missing_moves=data.get("missing_moves"),
        previous_illegal_moves=data.get("previous_illegal_moves"),
        td_finding=data.get("td_finding"),
        request=data.get("request"),
        opponent_bonus=data.get("opponent_bonus") is True or None,
        postponed=data.get("postponed") is True or None,
        event=row.event,
        round=row.round,
        board=row.board,
        first_player=row.first_player,
        second_player=row.second_player,
    )
    sheets = data.get("scoresheets")
    if isinstance(sheets, dict) and all(isinstance(sheets.get(k), str) for k in ("claimant", "opponent")):
        values.update(record=sheets["claimant"], opponent_record=sheets["opponent"],
                      ruled_on=sheets.get("ruled_on") if sheets.get("ruled_on") in ("claimant", "opponent") else None)
    clock = data.get("clock") or {}
    for side, reading in clock.items():
        if side != "flagged":
            values[f"clock_{side}"] = reading
    values["flagged"] = clock.get("flagged") or []
    return {k: v for k, v in values.items() if v is not None}
