"""The app's job kinds, put together: every job the runner (:mod:`web.runner`) runs, in this process or on a
queue worker, is one of these. A new kind is one module (its work) and one line here; see ``docs/jobs.md``."""

from __future__ import annotations

from web.claim_jobs import CLAIM
from web.committee.analysis import ANALYSIS
from web.queue.part_job import CHECK_PART
from web.runner import Kinds


def job_kinds() -> Kinds:
    """Claims, committee analyses and the parts of collection checks (a collection check itself runs in the
    web process, on the runner's ``check`` pool, and sends its parts to the workers as ``check-chunk`` jobs)."""
    return Kinds((CLAIM, ANALYSIS, CHECK_PART))
