"""The claim job kind: one claim ruled on, the same code in the serving process (:mod:`web.jobs`) and on a
queue worker (:data:`CLAIM`, run by :mod:`web.queue.worker` through :mod:`web.runner`).

:func:`rule_job` rules, watches for a cancel, and turns whatever the ruling raised into the
contract's error (:func:`web.failures.error_of`), so a missing engine is ``engine_unavailable``
whichever way the job ran. :class:`Job` is what the progress widget shows of a claim being
ruled on, whichever runs it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from adjudicator.chess.analysis import EngineUnavailable
from adjudicator.contract import Case, parse_case
from adjudicator.played import played_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services, ServicesClosed
from web.failures import INVALID, error_of
from web.queue import rows
from web.runner import JobCancelled, JobKind, Progress, Work, report
from web.tables import rulings as store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """How a job ended: a ruling, a cancel, or the contract's error with the note the case keeps."""

    status: Literal["done", "cancelled", "failed"]
    ruling: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    note: Literal["invalid", "failed"] | None = None
    """The note a stored case gets: ``invalid`` (the contract refuses the case) or ``failed`` (the analysis)."""
    duration_ms: int = 0
    played: dict[str, Any] | None = None
    """The game as the ruling read it (:meth:`adjudicator.played.PlayedGame.to_json`), kept with the ruling."""
    is_interrupted: bool = False
    """Failed only because the process is stopping (its engines refused or closed under the analysis:
    :class:`~adjudicator.services.ServicesClosed`): a job of the queue goes back on it (:meth:`Work.put_back`)."""


def rule_job(case: Case | Mapping[str, Any], book: RulesetBook, services: Callable[[], Services],
             progress: Callable[[float, str], None], is_cancelled: Callable[[], bool], name: object = None,
             data: Mapping[str, Any] | None = None) -> Outcome:
    """Rule on ``case`` (a stored case's document is read first) with the engines ``services()`` gives,
    reporting to ``progress``; engines that cannot be had (none installed, or refused because the process is
    stopping: :class:`~adjudicator.services.ServicesClosed`, then :attr:`Outcome.is_interrupted`) end it failed,
    saying why.

    ``is_cancelled`` is asked before and after the analysis (``progress`` raises
    :class:`JobCancelled` during it); ``name`` names the case in the log. The game as the ruling read it is
    read once, from the case's document (``data``, else ``case`` when it is one), and kept with the ruling
    (:func:`game_as_read`): its page draws it without replaying the record.
    """
    started = time.monotonic()
    try:
        if is_cancelled():
            raise JobCancelled("cancelled by the TD")
        parsed = case if isinstance(case, Case) else parse_case(case)
        ruled = rule(parsed, book, replace(services(), progress=progress))
        ruling = ruled.to_json()
        if is_cancelled():
            raise JobCancelled("cancelled by the TD")
    except JobCancelled:
        return Outcome("cancelled")
    except Exception as exc:
        if isinstance(exc, EngineUnavailable):  # the analysis cannot be done: no ruling is stored
            log.warning("no engine for case %s: %s", name, exc)
        elif not isinstance(exc, INVALID):
            log.exception("ruling on case %s failed", name)
        return Outcome("failed", error=error_of(exc), note="invalid" if isinstance(exc, INVALID) else "failed",
                       is_interrupted=isinstance(exc, ServicesClosed))
    document = data if data is not None else None if isinstance(case, Case) else case
    return Outcome("done", ruling=ruling, duration_ms=int((time.monotonic() - started) * 1000),
                   played=game_as_read(document, ruled.shown.language, name))


def game_as_read(document: Mapping[str, Any] | None, language: str | None,
                 name: object = None) -> dict[str, Any] | None:
    """The case's record read as the ruling read it (:func:`adjudicator.played.played_case`), JSON-ready; None:
    no document or no record, or a record the page cannot read (its page then says so, as before)."""
    if document is None:
        return None
    try:
        played = played_case(document, language)
    except Exception:  # the ruling stands; its page shows why the record cannot be drawn
        log.info("case %s: the record is kept without its positions", name, exc_info=True)
        return None
    return None if played is None else played.to_json()


@dataclass
class Job:
    """One claim being ruled on; its state is what the progress widget shows.

    A quick claim's case is stored with its ruling in one transaction; a background
    job's case is stored first, so that nothing is lost while the engines work.
    """

    case: Case
    data: Mapping[str, Any]
    meta: Mapping[str, Any]
    source: str
    is_background: bool
    case_id: int | None = None
    event_id: int = 1
    """The event the case belongs to (issue 11; 1 is the default event)."""
    submitted_by_id: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    started: float = field(default_factory=time.monotonic)
    state: str = "queued"
    """queued, running, done, failed or cancelled."""
    fraction: float | None = None
    """The share done as the analysis reports it (None: it reports nothing)."""
    message: str = ""
    ruling_id: int | None = None
    ruling_row: store.RulingRow | None = None
    """The stored ruling as written (detached; its columns are loaded), so the API answers without reading it back."""
    error: dict[str, Any] | None = None
    """The contract's error object when the case could not be ruled on."""
    finished: float | None = None
    cancel_requested: threading.Event = field(default_factory=threading.Event)
    future: Future[None] | None = None

    @property
    def is_finished(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    @property
    def elapsed(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    def progress(self, fraction: float, message: str) -> None:
        """The analysis reports progress; raises :class:`JobCancelled` once the TD cancels."""
        report(self, fraction, message, self.cancel_requested)

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the job to finish; whether it has."""
        if self.future is not None:
            try:
                self.future.result(timeout=seconds)
            except TimeoutError:
                return False
            except Exception:  # the job records its own failure
                pass
        return self.is_finished


def work(job: Work) -> None:
    """A queue worker's claim: rule on the stored case and store the ruling (once: a case already ruled on is
    left as it is; the ruling and the job's end are written together, or neither)."""
    assert job.case_id is not None
    host = job.host
    with host.sessions() as session:
        case_row = session.get(store.CaseRow, job.case_id)
        done = store.ruling_for_case(session, job.case_id)
        data = None if case_row is None else case_row.data
    if done is not None:
        job.end("done", ruling_id=done.id)
        return
    if data is None:
        job.end("failed", error={"code": "ruling_failed", "field": None, "message": "the case is missing"})
        return
    outcome = rule_job(data, host.book, host.services, job.tracker.progress, job.tracker.is_cancelled,
                       job.case_id, data)
    if outcome.status == "cancelled":
        job.end("cancelled", note=("cancelled", "cancelled by the TD before a ruling"))
        return
    if outcome.is_interrupted:  # no ruling from an analysis the stop cut short: the next server rules
        job.put_back("the server stopped while this claim was being ruled; it is ruled when a server starts again")
        return
    if outcome.error is not None:
        job.end("failed", error=outcome.error, note=(outcome.note or "failed", str(outcome.error["message"])))
        return
    assert outcome.ruling is not None
    with host.sessions() as session:
        stored = store.add_ruling(session, job.case_id, outcome.ruling, outcome.duration_ms, outcome.played)
        if rows.finish(session, job.job_id, host.name, "done", ruling_id=stored.id):
            session.commit()
        else:
            session.rollback()  # another worker holds the job now: its ruling counts
            log.warning("job %s: taken over meanwhile; this ruling is dropped", job.job_id)


CLAIM = JobKind("claim", work, pool="engine")
"""An engine claim ruled on, on the broker's workers or the in-process worker (a quick claim runs on the
``quick`` pool in the serving process's memory, see :meth:`web.jobs.Adjudicator.submit`)."""


def progress_of(job: Job) -> Progress:
    """What the progress fragment shows of a claim under way: the analysis's own share done; none (an
    indeterminate bar) before it has measured any.

    No estimate from the time limit: a search on a node budget, or a mate search, says how far it is
    or nothing, and a bar that creeps along a clock and then jumps to the ruling misleads.
    """
    stage, _, line = (job.message or "").partition("; best line ")
    percent = max(1, int(job.fraction * 100)) if job.fraction else None  # under 1 %: started, not nothing
    heading = "Waiting for the engine…" if job.state == "queued" else "Analysing…"
    return Progress(job.state, heading, percent, f"{job.elapsed:.0f} s",
                    stage or ("Starting the analysis…" if job.state == "running" else ""), line)
