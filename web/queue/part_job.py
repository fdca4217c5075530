"""A collection's part checked on a broker's worker: the ``check-chunk`` job kind (the client that sends the
parts and reads their results back is :mod:`web.queue.collection`).

The work is :func:`engines.collection.check_part` on the row's payload, with the worker's own configuration;
its only effect is its result, the same in any process and however often it runs (a pure function of the
task, docs/collections.md). So a worker does not win the part's row before it starts (a write and a commit
of its own): the row is won as the result is written, in one write and one commit per part
(:attr:`web.runner.JobKind.wins_row_first`, :func:`web.queue.rows.finish`); a part that outlasts a heartbeat
is won by the heartbeat's write, so that another worker takes it again if this one falls silent
(:func:`web.queue.rows.reap`). A message delivered twice may run the part twice; the second result finds the
row ended and changes nothing (Celery's advice: idempotent tasks, state in the database).
"""

from __future__ import annotations

from engines.collection import check_part_texts
from web.queue.collection import written_result
from web.runner import JobKind, Work


def work(job: Work) -> None:
    """A part of a collection on a worker (:func:`engines.collection.check_part`): its records' texts, or the
    file and byte range they lie in (read here); the lines, one per game in order, written as the command
    prints them (:func:`engines.collection.check_part_texts`), kept in the row as written
    (:func:`web.queue.collection.written_result`), and each record's games."""
    payload = dict(job.payload or {})
    job.end("done", result_text=written_result(check_part_texts({**payload, "config": job.host.config})))


CHECK_PART = JobKind("check-chunk", work, pool="check", signals_end=True, wins_row_first=False, taken_up=False)
"""A part of a collection check (``adjudicator check-games`` with a broker, and the web's checks)."""
