"""A collection's parts checked on the broker's workers (``adjudicator check-games`` with a broker, and
the web's checks): each part (:class:`engines.collection.Part`) is a ``check-chunk`` job.

A part's row holds the game, the ruleset and the part's payload: its records' texts, or, for
a plain file, the file and the byte range its records lie in, which the worker reads itself
(the configuration is the worker's own, the same ``config.toml`` every process reads, so no
database URL travels in a row). At most ``in_flight`` parts are out at once and their
results are read back oldest first, so the lines come in file order and memory stays flat;
the rows read are deleted a few at a time. A worker that ends a part signals it on a Redis
broker (:func:`web.queue.remote.signal_done`): the waiting process reads the row then, not
every so often. A worker that cannot read the file (one on another machine, without the
same disk) fails that part with ``part_unreadable``; the part, and every later one, then
goes out as text.

A part's result is written once and read once: the worker writes its lines as the command prints them, one per
line of the row's ``result_json`` (:func:`written_result`, still one JSON document), and the reading process
takes them back by splitting that text (:func:`read_result`), never decoding a line from a JSON string. The
worker's side, the ``check-chunk`` job kind, is :mod:`web.queue.part_job`: this module is the client, which
``check-games`` loads with a broker (no job runner, no web settings).
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping
from typing import Any

from engines.collection import Part
from web.queue.remote import DONE_KEY, JobFailed, Remote

IN_FLIGHT = 8


def check_parts_on_queue(found: Iterable[Part], *, game: str, ruleset: str, remote: Remote,
                         in_flight: int = IN_FLIGHT, stop: Callable[[], bool] | None = None,
                         ) -> Generator[Any, None, None]:
    """Each part's result (:func:`engines.collection.check_part`, its lines written:
    :func:`engines.collection.check_part_texts`), in order, from the workers (:func:`engines.collection.numbered` or
    ``numbered_texts`` number the lines). ``stop`` is asked about once a second while a part is awaited
    whether to give up (a cancel).

    A part whose worker cannot read the file (``part_unreadable``) is sent again as its text, and so is every
    later part.

    :raises web.queue.remote.JobFailed: a part failed on its worker.
    :raises web.queue.remote.QueueTimeout: no worker finished a part within ``[queue] wait_seconds``.
    :raises web.queue.remote.QueueUnavailable: the broker cannot be reached.
    :raises web.queue.remote.Stopped: ``stop`` said so (the parts' rows are gone all the same).
    """
    run = uuid.uuid4().hex
    pending: deque[tuple[str, Part]] = deque()
    taken: list[str] = []
    as_text = False
    number = 0

    def send(part: Part, texts: bool) -> None:
        nonlocal number
        job_id = f"check:{run}:{number}"
        number += 1
        payload = {"game": game, "ruleset": ruleset, **(part.as_texts() if texts else part.payload)}
        remote.submit(job_id, "check-chunk", payload)
        pending.append((job_id, part))

    def take() -> Any:
        nonlocal as_text
        job_id, part = pending.popleft()
        if len(taken) >= in_flight:  # the rows read are deleted a few at a time (a write costs a commit)
            _forget(remote, taken)
            taken.clear()
        taken.append(job_id)
        try:
            return read_result(remote.result(job_id, stop=stop, longest_poll=LONGEST_POLL, signalled=True, raw=True))
        except JobFailed as exc:
            if exc.error.get("code") != "part_unreadable" or "records" in part.payload:
                raise
        as_text = True  # this worker does not see the file (another machine): the text goes out from now on
        send(part, True)
        pending.rotate(1)  # its result is the next one wanted
        return take()

    try:
        for part in found:
            send(part, as_text)
            while len(pending) >= in_flight:
                yield take()
        while pending:
            yield take()
    finally:
        remote.jobs.forget_named(f"check:{run}:")  # a check stopped half-way leaves no rows behind
        _forget(remote, [*taken, *(job_id for job_id, _part in pending)], rows_too=False)


LONGEST_POLL = 0.5
"""The longest wait between two reads of a part's row where the broker cannot signal a part's end (not Redis:
the reads cost the reading process; the parts queued behind keep the workers busy meanwhile)."""


def _forget(remote: Remote, job_ids: list[str], rows_too: bool = True) -> None:
    """Delete the rows of parts whose results were read, and their end signals
    (:func:`web.queue.remote.signal_done`)."""
    if rows_too:
        remote.jobs.forget(job_ids)
    client = remote.signals()
    if client is not None and job_ids:
        import redis  # deferred on purpose: only a Redis broker carries the signals

        with contextlib.suppress(redis.RedisError):
            client.delete(*(DONE_KEY + job_id for job_id in job_ids))


_HEAD = '{"games": '
_LINES = ', "lines": [\n'
_END = "\n]}"
_BETWEEN = ",\n"


def written_result(result: Mapping[str, Any]) -> str:
    """A worker's result (:func:`engines.collection.check_part_texts`: ``texts``, the lines as the command prints
    them, and ``games``) as the row keeps it: one JSON document, ``{"games": [...], "lines": [...]}``, each line
    on a line of its own as it was written (never escaped into a JSON string); :func:`read_result` reads it."""
    texts = result["texts"]
    return f"{_HEAD}{json.dumps(result['games'])}{_LINES}{_BETWEEN.join(texts)}{_END}"


def read_result(text: str | None) -> Any:
    """A part's result from its row's text: ``texts`` (the lines as written) and ``games``, taken from
    :func:`written_result`'s text by splitting it at its line ends (a line is JSON without a newline: JSON
    writes one inside a string as ``\\n``), no line decoded; a text in any other shape (a worker of an earlier
    version) is decoded whole."""
    if text is None:
        return None
    head, found, rest = text.partition(_LINES)
    if found and head.startswith(_HEAD) and rest.endswith(_END):
        games = json.loads(head[len(_HEAD):])
        body = rest[:-len(_END)]
        texts = body.split(_BETWEEN) if body else []
        if isinstance(games, list) and len(texts) == sum(games):
            return {"texts": texts, "games": games}
    return json.loads(text)
