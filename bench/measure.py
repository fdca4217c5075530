"""Measuring helpers for the benches: processor seconds and peak memory of a process and its children."""

from __future__ import annotations

import os
import resource
import threading
from pathlib import Path


def cpu_seconds() -> float:
    """Processor seconds of this process and of its finished children (a build's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class MemorySampler:
    """Peak memory of this process and its children together, sampled every 0.2 s from /proc (Linux).

    PSS shares pages the processes share (the forked workers' tables) among them; the sum of
    their RSS counts such pages once per process (an upper bound).
    """

    def __init__(self) -> None:
        self.peak_pss_mb = 0.0
        self.peak_rss_mb = 0.0
        self._loads: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def mean_load(self) -> float:
        return sum(self._loads) / len(self._loads) if self._loads else os.getloadavg()[0]

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def _run(self) -> None:
        ticks = 0
        while not self._stop.wait(0.2):
            self._sample()
            ticks += 1
            if ticks % 25 == 0:
                self._loads.append(os.getloadavg()[0])

    def _sample(self) -> None:
        pss = rss = 0.0
        for pid in _family(os.getpid()):
            pss += _status_kb(f"/proc/{pid}/smaps_rollup", "Pss:")
            rss += _status_kb(f"/proc/{pid}/status", "VmRSS:")
        self.peak_pss_mb = max(self.peak_pss_mb, pss / 1024)
        self.peak_rss_mb = max(self.peak_rss_mb, rss / 1024)


def _family(pid: int) -> list[int]:
    out = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            out.extend(_family(int(child)))
    return out


def _status_kb(path: str, field: str) -> float:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(field):
                return float(line.split()[1])
    except OSError:
        pass
    return 0.0
