"""The game-check pages: ``/events/<slug>/checks`` (upload, the event's stored collections to check
again, earlier checks), ``/events/<slug>/collections/<id>`` (a stored collection's file),
``/checks/<id>`` (the job's progress, then its report), its downloads, and
``/checks/<id>/games/<n>`` (one game's findings with the record replayed to the finding's ply).

Who: only the event's TDs (and admins) upload, start a check of a stored collection and cancel.
The report and the stored files are seen by the event's staff (TDs, committee, appeals; admins),
also in a public event: a finding is not a ruling but the TD's working material about named
players' results, so publishing it is the TD's decision. Anyone with no part in the event gets 404
(its checks and files are not even said to exist); its other staff get 403.

The event's stored claims and committee cases are not offered as a collection to check: each
record stops at the claim, without the game's result (so every one would come back
``no-result``), what the laws say about it is the ruling already given on it, a case set up from
a position has no record at all, and one game may stand in several cases.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    stream_with_context,
    url_for,
)
from sqlalchemy import select
from werkzeug.wrappers import Response

from adjudicator.contract import ContractError
from web import submit
from web.articles import summary
from web.boards import board_for
from web.checks.collections import Kept, keep, max_bytes, of_event, readable_size
from web.checks.runner import Checks, check_file, csv_text, progress_of
from web.db import get_session
from web.events.access import event_named, roles_in
from web.events.actors import current_actor
from web.evidence import Line, Presentation, facts, present
from web.htmx import is_htmx
from web.inputs import whole_number
from web.queue.rows import check_job_id
from web.tables.checks import CheckedGame, GameCheck, counts
from web.tables.collections import GameCollection
from web.tables.events import Event
from web.tables.users import User

bp = Blueprint("checks", __name__)
SHOWN_CLEAN = 200
"""Clean games listed on the report page (the downloads hold them all)."""


def _event(slug: str) -> Event:
    try:
        return event_named(get_session(), slug)
    except ContractError:
        abort(404, f"There is no event {slug!r}.")


def _roles(event: Event) -> frozenset[str]:
    return roles_in(get_session(), current_actor(), event)


def _is_td(event: Event) -> bool:
    return bool(_roles(event) & {"td", "admin"})


def _refuse(event: Event, message: str) -> None:
    """404 for a stranger to the event (its checks and files are not even said to exist), 403 for its staff."""
    abort(403 if _roles(event) else 404, message)


def _check(check_id: int) -> tuple[GameCheck, Event]:
    """The check and its event; 404 when none, 403/404 (see the module) for anyone not the event's staff."""
    session = get_session()
    check = session.get(GameCheck, check_id)
    event = session.get(Event, check.event_id) if check is not None else None
    if check is None or event is None:
        abort(404, f"There is no game check {check_id}.")
    if not _roles(event):
        _refuse(event, "Only the event's staff see its game checks.")
    return check, event


def _rulesets(event: Event) -> list[Any]:
    book = current_app.extensions["rulesets"]
    return [r for r in book if event.ruleset is None or r.id == event.ruleset]


def _start(event: Event, collection: GameCollection, ruleset: Any) -> Response:
    """A check of ``collection`` under ``ruleset``, queued and committed: 303 to its page."""
    session = get_session()
    actor = current_actor().user
    now = time.time()
    check = GameCheck(event_id=event.id, submitted_by_id=actor.id if actor is not None else None,
                      filename=collection.filename, collection_id=collection.id, game=ruleset.game,
                      ruleset=ruleset.id, status="queued", games=0, with_findings=0, message="waiting to start",
                      created_at=now, updated_at=now)
    session.add(check)
    session.commit()
    checks: Checks = current_app.extensions["game_checks"]
    checks.start(check.id)
    return redirect(url_for("checks.show", check_id=check.id), 303)


REFUSED = "refused"
"""The key of ``errors`` that holds the status of a refused upload (413 past a size limit, else 422)."""


def _uploaded(event: Event, ruleset: Any, errors: dict[str, str]) -> GameCollection | None:
    """The uploaded file kept as a collection of the event (or the same bytes stored before); None: refused
    (a file past the ``[collections]`` limits on its inflated bytes or lines, in the request, before it is
    kept: 413 or 422)."""
    upload = request.files.get("collection")
    if upload is None or not upload.filename:
        errors["collection"] = "choose the event's PGN (chess) or PDN (checkers) file"
        return None
    if ruleset is None:
        return None
    name = Path(upload.filename).name[:200] or "games.pgn"
    data = upload.stream.read()
    checks: Checks = current_app.extensions["game_checks"]
    try:
        check_file(data, name, ruleset.game, checks.limits)
    except ContractError as exc:
        errors["collection"] = exc.message
        errors[REFUSED] = str(getattr(exc, "status", 422))
        return None
    kept: Kept = keep(get_session(), event, name, data, ruleset.game, current_actor().user)
    return kept.collection


def _picked(event: Event, ruleset: Any, errors: dict[str, str]) -> GameCollection | None:
    """The stored collection the TD picked (of this event, for the ruleset's game); None: refused."""
    ident = whole_number(request.form.get("collection_id", ""))
    found = get_session().get(GameCollection, ident) if ident else None
    if found is None or found.event_id != event.id:
        errors["collection_id"] = "choose one of the event's stored collections"
        return None
    if ruleset is not None and ruleset.game != found.game:
        errors["ruleset"] = f"{ruleset.id} is a {ruleset.game} ruleset; {found.filename} is a {found.game} collection"
        return None
    return found


@bp.route("/events/<slug>/checks", methods=["GET", "POST"])
def new(slug: str) -> Response | tuple[str, int] | str:
    """The upload form, the event's stored collections (each to check again) and its earlier checks;
    POST starts a check of an uploaded file (``collection``) or of a stored one (``collection_id``):
    303 to its page. The htmx fragment is the earlier checks (it polls while one runs)."""
    event = _event(slug)
    if not _is_td(event):
        _refuse(event, "Only the event's TDs check its games.")
    rulesets = _rulesets(event)
    chosen = event.ruleset or request.form.get("ruleset") or "fide-standard"
    errors: dict[str, str] = {}
    form = "pick" if "collection_id" in request.form else "upload"
    if request.method == "POST":
        ruleset = next((r for r in rulesets if r.id == chosen), None)
        if ruleset is None:
            errors["ruleset"] = f"choose one of the rulesets: {', '.join(r.id for r in rulesets)}"
        if form == "pick" and request.files.get("collection"):
            errors["collection"] = "upload a file or pick a stored collection, not both"
            collection = None
        elif form == "pick":
            collection = _picked(event, ruleset, errors)
        else:
            collection = _uploaded(event, ruleset, errors)
        if not errors and collection is not None and ruleset is not None:
            return _start(event, collection, ruleset)
    context = _listing(event)
    if is_htmx() and request.method == "GET":
        return render_template("checks/_earlier.html", **context)
    status = int(errors.pop(REFUSED, 422))
    page = render_template("checks/new.html", rulesets=rulesets, chosen=chosen, errors=errors, form=form,
                           picked=request.form.get("collection_id", ""),
                           max_bytes=max_bytes(current_app.config["ADJUDICATOR"]), **context)
    return page, status if errors else 200


def _listing(event: Event) -> dict[str, Any]:
    """The event's stored collections (with their game counts, uploaders and last rulesets) and earlier checks."""
    session = get_session()
    stored = of_event(session, event)
    earlier = session.scalars(select(GameCheck).where(GameCheck.event_id == event.id)
                              .order_by(GameCheck.id.desc()).limit(20)).all()
    users = {u.id: u.name for u in session.scalars(select(User).where(
        User.id.in_({c.uploaded_by_id for c in stored if c.uploaded_by_id is not None})))}
    last: dict[int, str] = {}
    for check in reversed(earlier):
        if check.collection_id is not None:
            last[check.collection_id] = check.ruleset
    return {"event": event, "stored": stored, "games": counts(session, [c.id for c in stored]), "uploaders": users,
            "last_ruleset": last, "earlier": earlier, "readable_size": readable_size,
            "is_running": any(not c.is_finished and not c.is_stalled for c in earlier)}


@bp.get("/events/<slug>/collections/<int:collection_id>")
def collection(slug: str, collection_id: int) -> Response:
    """A stored collection's file, byte for byte as it was uploaded (the event's staff)."""
    event = _event(slug)
    if not _roles(event):
        _refuse(event, "Only the event's staff see its stored games.")
    found = get_session().get(GameCollection, collection_id)
    if found is None or found.event_id != event.id:
        abort(404, f"Event {slug!r} has no stored collection {collection_id}.")
    lowered = found.filename.lower()
    kind = next((k for suffix, k in ((".gz", "application/gzip"), (".bz2", "application/x-bzip2"),
                                     (".zst", "application/zstd")) if lowered.endswith(suffix)),
                "application/vnd.chess-pgn" if found.game == "chess" else "application/octet-stream")
    response = send_file(io.BytesIO(found.content), mimetype=kind, as_attachment=True, download_name=found.filename,
                         etag=found.sha256, max_age=0)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/checks/<int:check_id>")
def show(check_id: int) -> str:
    """The check: its progress (the fragment htmx polls) until done, then its report, findings first."""
    check, event = _check(check_id)
    stored = None if check.collection_id is None else get_session().get(GameCollection, check.collection_id)
    context: dict[str, Any] = {"check": check, "event": event, "can_cancel": _is_td(event), "stored": stored,
                               "readable_size": readable_size, "check_progress": progress_of(check)}
    if is_htmx() and not check.is_finished:
        return render_template("checks/_progress.html", **context)
    session = get_session()
    base = select(CheckedGame).where(CheckedGame.check_id == check.id)
    context["found"] = session.scalars(base.where(CheckedGame.has_findings.is_(True))
                                       .order_by(CheckedGame.index)).all()
    context["clean"] = session.scalars(base.where(CheckedGame.has_findings.is_(False))
                                       .order_by(CheckedGame.index).limit(SHOWN_CLEAN)).all()
    if is_htmx():
        return render_template("checks/_report.html", **context)
    return render_template("checks/show.html", **context)


@bp.post("/checks/<int:check_id>/cancel")
def cancel(check_id: int) -> Response | str:
    """Stop a check (the event's TDs): it ends at its next write, keeping the games checked so far."""
    _found, event = _check(check_id)
    if not _is_td(event):
        abort(403, "Only the event's TDs cancel its game checks.")
    get_session().rollback()  # this request's reading ends: the page reads the row as the cancel leaves it
    submit.cancel(check_job_id(check_id))
    if is_htmx():
        return show(check_id)
    return redirect(url_for("checks.show", check_id=check_id), 303)


def _lines(check: GameCheck) -> Iterator[dict[str, Any]]:
    session = get_session()
    query = (select(CheckedGame.line_json).where(CheckedGame.check_id == check.id).order_by(CheckedGame.index)
             .execution_options(yield_per=500))
    for text in session.scalars(query):
        yield json.loads(text)


def _download(check: GameCheck, body: Iterator[str], kind: str, suffix: str) -> Response:
    stem = Path(check.filename).name.split(".")[0] or "games"
    response = Response(stream_with_context(body), mimetype=kind)
    response.headers["Content-Disposition"] = f'attachment; filename="{stem}-check-{check.id}.{suffix}"'
    return response


@bp.get("/checks/<int:check_id>/games.jsonl")
def download_json(check_id: int) -> Response:
    """The contract's check-games lines, in file order, and the summary line: what the command prints."""
    check, _event = _check(check_id)
    if check.status != "done":
        abort(409, "The check has not finished; its report is not complete.")

    def body() -> Iterator[str]:
        for line in _lines(check):
            yield json.dumps(line, ensure_ascii=False) + "\n"
        yield json.dumps(check.summary(), ensure_ascii=False) + "\n"

    return _download(check, body(), "application/x-ndjson", "jsonl")


@bp.get("/checks/<int:check_id>/games.csv")
def download_csv(check_id: int) -> Response:
    """The report as CSV: one row per finding, a clean game one row without a finding; file order."""
    check, _event = _check(check_id)
    if check.status != "done":
        abort(409, "The check has not finished; its report is not complete.")
    return _download(check, csv_text(_lines(check)), "text/csv", "csv")


def _game(check_id: int, index: int) -> tuple[GameCheck, CheckedGame, Presentation]:
    check, _event = _check(check_id)
    found = get_session().scalar(select(CheckedGame).where(CheckedGame.check_id == check.id,
                                                           CheckedGame.index == index))
    if found is None:
        abort(404, f"Game check {check_id} has no game {index}.")
    findings = found.findings
    evidence: dict[str, Any] = {}
    for finding in findings:
        evidence.update(finding.get("evidence") or {})
    evidence["plies"] = [f["ply"] for f in findings if isinstance(f.get("ply"), int)]
    is_illegal = any(f["code"] == "illegal-move" for f in findings)
    if is_illegal:
        evidence["illegal_plies"] = [f["ply"] for f in findings if f["code"] == "illegal-move"]
    claim = "illegal-move" if is_illegal else "check-games"
    presentation = present({"game": check.game, "record": found.record, "claim": claim}, {"evidence": evidence})
    return check, found, presentation


def _focus(found: CheckedGame, line: Line | None) -> int:
    asked = request.args.get("ply", type=int)
    if line is None:
        return 0
    if asked is not None:
        return line.clamp(asked)
    plies = [f["ply"] for f in found.findings if isinstance(f.get("ply"), int)]
    return line.clamp(plies[0] if plies else len(line.steps))


def _step_url(check_id: int, index: int) -> Any:
    def url(key: str, ply: int) -> str:
        return url_for("checks.board", check_id=check_id, index=index, line=key, ply=ply)

    return url


@bp.get("/checks/<int:check_id>/games/<int:index>")
def game(check_id: int, index: int) -> str:
    """One game: its players and results, each finding with its article and message, and the record
    replayed to the finding's ply (step through it move by move)."""
    check, found, presentation = _game(check_id, index)
    line = presentation.lines.get("game")
    findings = [{**f, "summary": summary(f["article"]) if f.get("article") else "",
                 "facts": facts(f.get("evidence") or {})} for f in found.findings]
    return render_template("checks/game.html", check=check, found=found, findings=findings,
                           presentation=presentation, line=line, ply=_focus(found, line), board_for=board_for,
                           step_url=_step_url(check.id, index))


@bp.get("/checks/<int:check_id>/games/<int:index>/board")
def board(check_id: int, index: int) -> str | Response:
    """One position of the game's record: the fragment for htmx, else the game's page at that ply."""
    key = request.args.get("line", "game")
    ply = request.args.get("ply", type=int)
    if not is_htmx():
        return redirect(url_for("checks.game", check_id=check_id, index=index, ply=ply, _anchor=f"line-{key}"))
    check, found, presentation = _game(check_id, index)
    line = presentation.lines.get(key)
    if line is None:
        abort(404, f"Game {index} has no line {key!r}.")
    return render_template("rulings/_line.html", line=line, ply=line.clamp(ply if ply is not None else line.focus),
                           presentation=presentation, board_for=board_for, step_url=_step_url(check.id, index))
