"""Building and checking the endgame database with the compiled kernel (:mod:`engines.checkers.kernel`).

* Up to 5 pieces the kernel solves each pair in memory exactly as the NumPy builder
  (:mod:`engines.checkers.build`) does, and gives the same bytes (the tests compare
  them); it is only faster.
* **Six pieces** (2.56 billion indices) are built slice by slice. Every capture leads into
  5 pieces or fewer (held in memory, about 190 MB, shared by the worker processes); a
  crowning leads into a 6-piece slice with one man less, solved before. So a pair needs,
  besides the smaller databases, only the two slices its crownings lead into: they are
  read back from a scratch folder, where each solved slice waits (compressed) until every
  pair crowning into it is solved. Memory is bounded by the largest pair (232 million
  indices: 2 bytes each while it is solved) with its two crowning slices. A pair is
  started as soon as the pairs it crowns into are done, largest first, in ``workers``
  processes. Each slice goes to its part of ``wld-6.egdb`` (:mod:`engines.checkers.store`)
  as soon as it is solved.
* The check (:func:`check_six`) takes the file as written: it first follows the
  distances not kept (:mod:`engines.checkers.store`), then checks every position of every
  slice against its successors, values and distances.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import multiprocessing
import queue
import shutil
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import zstandard

from engines.checkers.build import Solution, Solved, job_groups, keep
from engines.checkers.index import Slice, pairs, slice_size, slices
from engines.checkers.store import BlockFile, assemble, key, write_part


def _load_kernel() -> ModuleType | None:
    """The compiled kernel, when it was built from the sources now beside it (setup.py records their sha256 in
    kernel_build.txt); None when it is not built, or older than its sources (with a warning)."""
    try:
        built: ModuleType = importlib.import_module("engines.checkers.kernel")
    except ImportError:  # built by setup.py when a C compiler is there
        return None
    here = Path(__file__).parent
    digest = hashlib.sha256((here / "kernel.pyx").read_bytes() + (here / "egdb.h").read_bytes()).hexdigest()
    try:
        recorded = (here / "kernel_build.txt").read_text(encoding="utf-8").strip()
    except OSError:
        recorded = ""
    if recorded != digest:
        warnings.warn("the compiled checkers kernel is older than its sources: not used (run .ci/install to "
                      "rebuild it)", RuntimeWarning, stacklevel=2)
        return None
    return built


kernel: ModuleType | None = _load_kernel()

COMPILED = kernel is not None
"""The compiled kernel is there: the faster builder, and six pieces."""

Log = Callable[[str], None]
U8 = npt.NDArray[np.uint8]
STORED_PIECES = 6
"""From this many pieces on, the database is kept in blocks (``wld-N.egdb``), not whole arrays."""


class KernelMissing(RuntimeError):
    """Six pieces need the compiled kernel, which is not built here."""


def _kernel() -> ModuleType:
    if kernel is None:
        raise KernelMissing("the compiled checkers kernel is not built here (run .ci/install, or "
                            "pip install -e . with a C compiler): six pieces need it")
    return kernel


def crown_target(s: Slice) -> Slice | None:
    """The slice a crowning from ``s`` leads into (Red to move again), or None without Red men."""
    a, c, b, d = s
    return (b, d, a - 1, c + 1) if a else None


def _tables(solved: Solved) -> Any:
    tables = _kernel().Tables()
    for s, values in solved.values.items():
        tables.add(s, values, solved.distances[s])
    return tables


def _in_huge_pages(solved: Solved) -> None:
    """The large slices moved into memory that asks for huge pages: jumps look them up at random."""
    for arrays in (solved.values, solved.distances):
        for s, array in arrays.items():
            if array.nbytes >= (4 << 20):
                moved = huge_array(array.nbytes)
                moved[:] = array
                arrays[s] = moved


# ---------------------------------------------------------------- up to 5 pieces, in memory

_TABLES: Any = None
"""What the worker processes (forked) read: the slices solved before their level."""


def _solve_in(job: tuple[Slice, Slice]) -> tuple[Slice, Slice, Solution, float]:
    started = time.process_time()
    out = _kernel().solve(_TABLES, job[0], job[1])
    sides = [job[0]] if job[0] == job[1] else [job[0], job[1]]
    solution: Solution = {x: (values, dists.copy()) for x, (values, dists, _, _) in zip(sides, out, strict=True)}
    return job[0], job[1], solution, time.process_time() - started


def build_count(solved: Solved, pieces: int, log: Log | None = None, workers: int = 1) -> None:
    """:func:`engines.checkers.build.build_count` with the kernel: the same values and distances."""
    global _TABLES
    for jobs in job_groups(pieces):
        _TABLES = _tables(solved)
        try:
            results = list(_report(_run(_solve_in, jobs, workers), log))
        finally:
            _TABLES = None
        keep(solved, results)


def _run(function: Callable[[Any], Any], jobs: list[Any], workers: int) -> Iterable[Any]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(function, jobs)
        return
    pool = multiprocessing.get_context("fork").Pool(min(workers, len(jobs)))
    try:
        yield from pool.imap_unordered(function, jobs)
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()  # workers exit and are waited for: their processor time is counted
        pool.join()


def _report(results: Iterable[tuple[Slice, Slice, Solution, float]], log: Log | None
            ) -> Iterable[tuple[Slice, Slice, Solution, float]]:
    for result in results:
        if log is not None:
            s, t, _, cpu = result
            log(f"  {s} / {t}: {slice_size(s) + (slice_size(t) if t != s else 0):,} indices, {cpu:.1f} s CPU")
        yield result


# ---------------------------------------------------------------- six pieces, slice by slice


@dataclass
class SixBuild:
    """What the 6-piece build wrote: per slice its counts and its part's lengths."""

    slices: dict[str, dict[str, Any]] = field(default_factory=dict)
    cpu: float = 0.0


def _scratch(work: Path, s: Slice) -> Path:
    return work / f"{key(s)}.full.zst"


def _save_full(path: Path, values: U8, distances: U8) -> None:
    """A solved slice kept for the pairs that crown into it: values and every distance, compressed fast."""
    partial = path.with_suffix(".tmp")
    with partial.open("wb") as handle, zstandard.ZstdCompressor(level=1).stream_writer(handle) as out:
        for array in (values, distances):
            for lo in range(0, len(array), 1 << 22):
                out.write(array[lo:lo + (1 << 22)].tobytes())
    partial.replace(path)


def huge_array(size: int) -> U8:
    """A byte array for random access, in memory that asks for huge pages (Linux), else a plain one."""
    import mmap

    if size < (4 << 20) or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.empty(size, dtype=np.uint8)
    buffer = mmap.mmap(-1, size)
    buffer.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(buffer, dtype=np.uint8)


def _load_full(path: Path, s: Slice) -> tuple[U8, U8]:
    size = slice_size(s)
    packed = (size + 3) // 4
    raw = huge_array(packed + size)
    with path.open("rb") as handle, zstandard.ZstdDecompressor().stream_reader(handle) as source:
        view = memoryview(raw.data)
        at = 0
        while at < len(raw):
            got = source.readinto(view[at:at + (1 << 22)])
            if not got:
                raise OSError(f"{path} is truncated")
            at += got
    return raw[:packed], raw[packed:]


_WORK: Path | None = None


def _solve_six(job: tuple[Slice, Slice]) -> dict[str, Any]:
    """Solve one 6-piece pair in this (forked) process; write its parts and its scratch; return its figures."""
    assert _WORK is not None
    started = time.process_time()
    s, t = job
    tables = _TABLES.copy()
    for target in {crown_target(s), crown_target(t)} - {None}:
        assert target is not None
        tables.add(target, *_load_full(_scratch(_WORK, target), target))
    out = _kernel().solve(tables, s, t)
    del tables
    sides = [s] if s == t else [s, t]
    figures: dict[str, Any] = {}
    for x, (values, full, kept, counts) in zip(sides, out, strict=True):
        lengths = write_part(_WORK / f"{key(x)}.part", values, kept)
        _save_full(_scratch(_WORK, x), values, full)
        wins, losses, draws, positions = counts
        figures[key(x)] = {"size": slice_size(x), "wins": wins, "losses": losses, "draws": draws,
                           "positions": positions, **lengths}
    del out
    for k, entry in figures.items():
        (_WORK / f"{k}.json").write_text(json.dumps(entry))
    return {"job": [list(s), list(t)], "slices": figures, "cpu": time.process_time() - started}


def build_six(folder: Path, lower: Solved, log: Log | None = None, workers: int = 1,
              pieces: int = STORED_PIECES) -> dict[str, Any]:
    """Build every ``pieces``-piece slice into ``folder/wld-N.egdb``; ``lower`` holds every slice below.

    Returns the file's figures (bytes, counts by slice). Pairs already solved in the scratch
    folder (an interrupted build) are not solved again.
    """
    global _TABLES, _WORK
    _kernel()
    work = folder / f"wld-{pieces}.build"
    work.mkdir(parents=True, exist_ok=True)
    jobs = list(pairs(pieces))
    needs = {job: {x for x in (crown_target(job[0]), crown_target(job[1])) if x is not None} for job in jobs}
    users: dict[Slice, int] = {}
    for targets in needs.values():
        for x in targets:
            users[x] = users.get(x, 0) + 1
    solved: set[Slice] = set()
    _in_huge_pages(lower)
    result = SixBuild()
    todo: list[tuple[Slice, Slice]] = []
    for job in jobs:
        sides = {job[0], job[1]}
        if all((work / f"{key(x)}.json").exists() and (work / f"{key(x)}.part").exists() for x in sides):
            for x in sides:
                result.slices[key(x)] = json.loads((work / f"{key(x)}.json").read_text())
            solved |= sides
        else:
            todo.append(job)
    _TABLES = _tables(lower)
    _WORK = work
    try:
        for done in _schedule(todo, needs, solved, workers):
            for k, entry in done["slices"].items():
                result.slices[k] = entry
            result.cpu += done["cpu"]
            s, t = _slice(done["job"][0]), _slice(done["job"][1])
            if log is not None:
                log(f"  {s} / {t}: {sum(e['size'] for e in done['slices'].values()):,} indices, "
                    f"{done['cpu']:.1f} s CPU")
            for x in needs[(s, t)]:
                users[x] -= 1
                if users[x] == 0:
                    _scratch(work, x).unlink(missing_ok=True)
    finally:
        _TABLES = None
        _WORK = None
    target = folder / f"wld-{pieces}.egdb"
    parts = {k: (work / f"{k}.part", entry) for k, entry in result.slices.items()}
    size = assemble(target, parts, pieces)
    shutil.rmtree(work)
    return {"bytes": size, "cpu": result.cpu, "slices": result.slices}


def _schedule(jobs: list[tuple[Slice, Slice]], needs: dict[tuple[Slice, Slice], set[Slice]], solved: set[Slice],
              workers: int) -> Iterable[dict[str, Any]]:
    """Run each pair once the slices it crowns into are solved, largest ready pair first."""
    def size(job: tuple[Slice, Slice]) -> int:
        return slice_size(job[0]) * (1 if job[0] == job[1] else 2)

    waiting = sorted(jobs, key=size, reverse=True)
    if workers <= 1:
        while waiting:
            job = next(j for j in waiting if needs[j] <= solved)
            waiting.remove(job)
            done = _solve_six(job)
            solved |= {job[0], job[1]}
            yield done
        return
    results: queue.Queue[tuple[bool, Any]] = queue.Queue()
    pool = multiprocessing.get_context("fork").Pool(workers, maxtasksperchild=1)
    running = 0
    try:
        while waiting or running:
            ready = [j for j in waiting if needs[j] <= solved]
            while ready and running < workers:
                job = ready.pop(0)
                waiting.remove(job)
                pool.apply_async(_solve_six, (job,), callback=lambda r: results.put((True, r)),
                                 error_callback=lambda e: results.put((False, e)))
                running += 1
            if not running:
                raise RuntimeError("no 6-piece pair can start: a crowning slice is missing")
            ok, done = results.get()
            running -= 1
            if not ok:
                raise done
            solved |= {_slice(done["job"][0]), _slice(done["job"][1])}
            yield done
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
        pool.join()


# ---------------------------------------------------------------- checks


@dataclass
class CheckReport:
    positions: int = 0
    bad_values: int = 0
    bad_distances: int = 0
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per slice key: wins, losses, draws (for the side to move) and positions."""
    examples: list[str] = field(default_factory=list)

    @property
    def is_consistent(self) -> bool:
        return self.bad_values == 0 and self.bad_distances == 0

    def merge(self, other: CheckReport) -> None:
        self.positions += other.positions
        self.bad_values += other.bad_values
        self.bad_distances += other.bad_distances
        self.counts.update(other.counts)
        self.examples.extend(other.examples[: max(0, 5 - len(self.examples))])

    def add(self, s: Slice, result: tuple[int, int, int, tuple[int, int, int], list[int]]) -> None:
        positions, bad_values, bad_distances, (wins, losses, draws), first = result
        self.positions += positions
        self.bad_values += bad_values
        self.bad_distances += bad_distances
        self.counts[key(s)] = {"wins": wins, "losses": losses, "draws": draws, "positions": positions}
        self.examples.extend(f"slice {s} index {i}" for i in first[: max(0, 5 - len(self.examples))])


def check_solved(solved: Solved, max_pieces: int, log: Log | None = None) -> CheckReport:
    """Every position up to ``max_pieces`` (held in memory) against its successors, with the kernel."""
    tables = _tables(solved)
    report = CheckReport()
    for pieces in range(2, max_pieces + 1):
        for s in slices(pieces):
            report.add(s, _kernel().check(tables, s, 0, slice_size(s)))
        if log is not None:
            log(f"  {pieces} pieces checked: {report.positions:,} positions so far")
    return report


def _check_slice_full(job: Slice) -> tuple[Slice, float]:
    """Follow the distances not kept in ``job`` (phase 1 of the check) into the scratch folder."""
    assert _WORK is not None and _STORE is not None
    started = time.process_time()
    tables = _TABLES.copy()
    for x in {job, _partner(job), crown_target(job)} - {None}:
        assert x is not None
        tables.add(x, *_STORE.arrays(key(x)), True)
    full = np.empty(slice_size(job), dtype=np.uint8)
    _kernel().full_distances(tables, job, 0, slice_size(job), full)
    del tables
    data = zstandard.ZstdCompressor(level=1).compress(full.tobytes())
    (_WORK / f"{key(job)}.dist.zst").write_bytes(data)
    return job, time.process_time() - started


def _check_pair(job: tuple[Slice, Slice]) -> tuple[tuple[Slice, Slice], list[Any], float]:
    """Check a pair against its successors (phase 2): every distance now followed, read back."""
    assert _WORK is not None and _STORE is not None
    started = time.process_time()
    tables = _TABLES.copy()
    for x in {job[0], job[1], crown_target(job[0]), crown_target(job[1])} - {None}:
        assert x is not None
        values, _ = _STORE.arrays(key(x))
        full = np.frombuffer(zstandard.ZstdDecompressor().decompress((_WORK / f"{key(x)}.dist.zst").read_bytes()),
                             dtype=np.uint8)
        tables.add(x, values, full)
    sides = [job[0]] if job[0] == job[1] else list(job)
    results = [_kernel().check(tables, x, 0, slice_size(x)) for x in sides]
    return job, results, time.process_time() - started


def _slice(x: list[int]) -> Slice:
    return (x[0], x[1], x[2], x[3])


def _partner(s: Slice) -> Slice:
    return (s[2], s[3], s[0], s[1])


_STORE: BlockFile | None = None


def check_six(folder: Path, lower: Solved, log: Log | None = None, workers: int = 1,
              pieces: int = STORED_PIECES, scratch: Path | None = None) -> CheckReport:
    """Every position of ``folder/wld-N.egdb`` against its successors (``lower``: every slice below).

    The distances followed in phase 1 wait in a scratch folder (``scratch``, else beside the file), removed at
    the end: a read-only data folder can be checked with a scratch folder elsewhere."""
    global _TABLES, _WORK, _STORE
    work = (scratch or folder) / f"wld-{pieces}.check"
    work.mkdir(parents=True, exist_ok=True)
    _STORE = BlockFile(folder / f"wld-{pieces}.egdb")
    _TABLES = _tables(lower)
    _WORK = work
    report = CheckReport()
    try:
        by_size = sorted(slices(pieces), key=slice_size, reverse=True)
        for s, cpu in _run(_check_slice_full, by_size, workers):
            if log is not None:
                log(f"  distances of {s} followed, {cpu:.1f} s CPU")
        jobs = sorted(pairs(pieces), key=lambda j: -slice_size(j[0]) * (1 if j[0] == j[1] else 2))
        for job, results, cpu in _run(_check_pair, jobs, workers):
            sides = [job[0]] if job[0] == job[1] else list(job)
            for x, r in zip(sides, results, strict=True):
                report.add(x, r)
            if log is not None:
                log(f"  {job[0]} / {job[1]} checked, {cpu:.1f} s CPU")
    finally:
        _TABLES = None
        _WORK = None
        if _STORE is not None:
            _STORE.close()
        _STORE = None
        shutil.rmtree(work, ignore_errors=True)
    return report
